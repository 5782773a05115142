//! A heuristic La Bouillabaisse bot: in manches 1 to 5 it ducks (plays the highest card that
//! still loses the trick), dumps its most dangerous card when it cannot follow, and leads low;
//! in manche 6, where points count for the taker, it does the reverse.
//!
//! It reads nothing but its [`View`] and the legal cards.

use crate::Strategy;
use crate::bouillabaisse::Bouillabaisse;
use crate::bouillabaisse::scoring::card_points;
use crate::bouillabaisse::trick::winning;
use protocol::bouillabaisse::{Action, Card, View};

/// The heuristic bot (deterministic: it draws nothing at random).
#[derive(Default)]
pub struct Heuristic;

/// The points a card carries in this manche (negative in manche 6).
fn danger(view: &View, card: Card) -> i64 {
    card_points(card, &view.chosen, &view.scoring)
}

/// Whether taking points is good in this manche (manche 6 subtracts them).
fn points_are_good(view: &View) -> bool {
    view.scoring.trick < 0
}

/// The legal card with the greatest `key`.
fn best_by<K: Ord>(legal: &[Card], key: impl Fn(&Card) -> K) -> Card {
    *legal.iter().max_by_key(|c| key(c)).expect("a legal card")
}

impl Heuristic {
    fn choose(view: &View, legal: &[Card]) -> Card {
        let highest = |c: &Card| c.rank;
        let lowest = |c: &Card| u8::MAX - c.rank;
        let Some(best) = winning(&view.trick).map(|p| p.card) else {
            // Leading: low and harmless when points hurt; high when they help.
            return if points_are_good(view) {
                best_by(legal, highest)
            } else {
                best_by(legal, |c| (-danger(view, *c).abs(), lowest(c)))
            };
        };
        let follows = legal.iter().any(|c| c.suit == best.suit);
        let last = view.trick.len() + 1 == view.players;
        if points_are_good(view) {
            if follows {
                // Win with the highest card when that beats the winner; else the lowest.
                let top = best_by(legal, highest);
                return if top.rank > best.rank {
                    top
                } else {
                    best_by(legal, lowest)
                };
            }
            // Void: keep the point cards for tricks it may take; give away the least.
            return best_by(legal, |c| (danger(view, *c), lowest(c)));
        }
        if follows {
            let ducks = legal.iter().copied().filter(|c| c.rank <= best.rank);
            if let Some(duck) = ducks.max_by_key(|c| (c.rank, -danger(view, *c))) {
                return duck;
            }
            // Every card wins: as last player win with the highest harmless card; otherwise hope
            // with the lowest.
            return if last {
                best_by(legal, |c| (-danger(view, *c), c.rank))
            } else {
                best_by(legal, lowest)
            };
        }
        // Void in the led suit: dump the most dangerous card, then the highest.
        best_by(legal, |c| (danger(view, *c), c.rank))
    }
}

impl Strategy<Bouillabaisse> for Heuristic {
    fn match_start(&mut self, _seat: usize, _seed: u64) {}

    fn decide(&mut self, view: &View, legal: Option<&[Action]>) -> Action {
        let legal: Vec<Card> = legal
            .expect("La Bouillabaisse lists its legal cards")
            .iter()
            .map(|a| a.card)
            .collect();
        Action {
            card: Self::choose(view, &legal),
        }
    }
}
