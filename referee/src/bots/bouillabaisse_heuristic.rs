//! A heuristic La Bouillabaisse bot: in manches 1 to 5 it ducks (plays the highest card that
//! still loses the trick), dumps its most dangerous card when it cannot follow, and leads low;
//! in manche 6, where points count for the taker, it does the reverse.
//!
//! It reads nothing but its [`View`] and the legal cards.

use super::Strategy;
use crate::engine::bouillabaisse::Bouillabaisse;
use crate::engine::bouillabaisse::scoring::card_points;
use protocol::bouillabaisse::{Action, Card, View};

/// The heuristic bot (deterministic: it draws nothing at random).
#[derive(Default)]
pub struct Heuristic;

/// The card currently winning the trick: the highest of the led suit, the first of equals.
fn winning(view: &View) -> Option<Card> {
    let led = view.trick.first()?.card.suit;
    view.trick
        .iter()
        .map(|p| p.card)
        .filter(|c| c.suit == led)
        .reduce(|best, c| if c.rank > best.rank { c } else { best })
}

/// The points a card carries in this manche (negative in manche 6).
fn danger(view: &View, card: Card) -> i64 {
    card_points(card, &view.chosen, &view.scoring)
}

/// Whether taking points is good in this manche (manche 6 subtracts them).
fn points_are_good(view: &View) -> bool {
    view.scoring.trick < 0
}

impl Heuristic {
    fn choose(view: &View, legal: &[Card]) -> Card {
        let first = |cards: &mut dyn Iterator<Item = Card>, key: &dyn Fn(&Card) -> (i64, u8)| {
            cards.max_by_key(key).expect("a legal card")
        };
        let by_rank = |c: &Card| (0, c.rank);
        let lowest = |c: &Card| (0, u8::MAX - c.rank);
        let Some(best) = winning(view) else {
            // Leading: low and harmless when points hurt; high when they help.
            return if points_are_good(view) {
                first(&mut legal.iter().copied(), &by_rank)
            } else {
                first(&mut legal.iter().copied(), &|c| {
                    (-danger(view, *c).abs(), u8::MAX - c.rank)
                })
            };
        };
        let follows = legal.iter().any(|c| c.suit == best.suit);
        let last = view.trick.len() + 1 == view.players;
        if points_are_good(view) {
            if follows {
                // Win with the highest card when that beats the winner; else the lowest.
                let top = first(&mut legal.iter().copied(), &by_rank);
                return if top.rank > best.rank {
                    top
                } else {
                    first(&mut legal.iter().copied(), &lowest)
                };
            }
            // Void: keep the point cards for tricks it may take; give away the least.
            return first(&mut legal.iter().copied(), &|c| {
                (danger(view, *c), u8::MAX - c.rank)
            });
        }
        if follows {
            let ducks = legal.iter().copied().filter(|c| c.rank <= best.rank);
            if let Some(duck) = ducks.max_by_key(|c| (c.rank, -danger(view, *c))) {
                return duck;
            }
            // Every card wins: as last player win with the highest harmless card; otherwise hope
            // with the lowest.
            return if last {
                first(&mut legal.iter().copied(), &|c| (-danger(view, *c), c.rank))
            } else {
                first(&mut legal.iter().copied(), &lowest)
            };
        }
        // Void in the led suit: dump the most dangerous card, then the highest.
        first(&mut legal.iter().copied(), &|c| (danger(view, *c), c.rank))
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
