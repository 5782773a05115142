//! The one place a seat's view is built. Only the seat's own hand is private; everything else
//! in the view is public.

use super::MANCHES;
use super::scoring::scoring;
use super::state::Bouillabaisse;
use protocol::bouillabaisse::View;

impl Bouillabaisse {
    pub(super) fn view_for(&self, seat: usize) -> View {
        View {
            you: seat,
            players: self.players,
            decks: self.decks,
            manche: self.manche.min(MANCHES),
            dealer: self.dealer(),
            leader: self.leader,
            trick_number: (self.played.len() / self.players) as u32 + 1,
            trick: self.trick.clone(),
            hand: self.hands.get(seat).cloned().unwrap_or_default(),
            chosen: self.chosen,
            scoring: scoring(self.manche.min(MANCHES)),
            removed: self.removed.clone(),
            played: self.played.clone(),
            tricks_taken: self.tricks_taken.clone(),
            points: self.points.clone(),
            totals: self.totals.clone(),
        }
    }
}
