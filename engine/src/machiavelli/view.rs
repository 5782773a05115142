//! The one place a seat's view is built. Only the seat's own hand is private; everything else
//! in the view is public (the hands shown at the end of a hand included).

use super::state::Machiavelli;
use protocol::machiavelli::View;

impl Machiavelli {
    pub(super) fn view_for(&self, seat: usize) -> View {
        View {
            hand_number: self.hand_number.min(self.options.hands),
            hands: self.options.hands,
            dealer: self.dealer(),
            you: seat,
            players: self.hands.len(),
            hand: self.hands.get(seat).cloned().unwrap_or_default(),
            table: self.table.clone(),
            stock: self.stock.len(),
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            skip_available: !self.skipped.get(seat).copied().unwrap_or(true),
            totals: self.totals.clone(),
            revealed: self.revealed.clone(),
        }
    }
}
