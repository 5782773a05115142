//! The one place a seat's view is built. Card types are copied only for the seat's own cards;
//! everything else in the view is public.

use super::state::Vabanque;
use super::{CHIP_VALUES, ROUNDS};
use protocol::vabanque::{PlacedCard, View};

impl Vabanque {
    pub(super) fn view_for(&self, seat: usize) -> View {
        View {
            you: seat,
            players: self.players,
            tables: self.tables,
            round: self.round_number(),
            phase: self.phase,
            chip_value: CHIP_VALUES[self.round.min(ROUNDS - 1)],
            order: self.order.clone(),
            chips_left: self.chips_left(),
            table_chips: self.table_chips.clone(),
            tokens: self.tokens.clone(),
            moved: self.moved(),
            money: self.money.clone(),
            hand: self.hands[seat].clone(),
            cards: self
                .cards
                .iter()
                .map(|p| PlacedCard {
                    owner: p.owner,
                    table: p.table,
                    card: (p.owner == seat).then_some(p.card),
                })
                .collect(),
            revealed: self.revealed.clone(),
        }
    }
}
