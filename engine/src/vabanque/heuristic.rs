//! A heuristic Vabanque bot: it puts chips where only its own token can go, raises the table it
//! means to end on, traps the table opponents are most likely to reach, and moves to the table
//! with the best expected payout given what it can see.
//!
//! It reads nothing but its [`View`]. An opponent holds one Raise, one Bluff and one Trap each
//! round, so `k` of its cards at a table hold its Trap with probability `k/3`.

use crate::Strategy;
use crate::vabanque::{MAX_STEPS, Vabanque};
use protocol::vabanque::{Action, Card, Phase, View};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The heuristic bot.
pub struct Heuristic {
    rng: ChaCha8Rng,
}

impl Default for Heuristic {
    fn default() -> Self {
        Heuristic {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

/// Whether a token on `from` can reach `to` this round.
fn reaches(view: &View, from: usize, to: usize) -> bool {
    (to + view.tables - from) % view.tables <= MAX_STEPS
}

/// Opponents (not yet moved) whose tokens can reach `table`.
fn rivals_reaching(view: &View, table: usize) -> usize {
    (0..view.players)
        .filter(|&s| s != view.you)
        .filter(|&s| {
            if view.moved[s] {
                view.tokens[s] == table
            } else {
                reaches(view, view.tokens[s], table)
            }
        })
        .count()
}

/// Expected money for the own token ending on `table`, and for own Traps there.
fn expected_payout(view: &View, table: usize) -> f64 {
    let chips = f64::from(view.table_chips[table]);
    let mut raises = 0.0;
    let mut safe = 1.0;
    let mut own_traps = 0.0;
    for seat in 0..view.players {
        let here = view
            .cards
            .iter()
            .filter(|c| c.owner == seat && c.table == table);
        if seat == view.you {
            for c in here {
                match c.card {
                    Some(Card::Raise) => raises += 1.0,
                    Some(Card::Trap) => own_traps += 1.0,
                    _ => {}
                }
            }
        } else {
            let k = here.count() as f64;
            raises += k / 3.0;
            safe *= 1.0 - k / 3.0;
        }
    }
    let value = chips * (1.0 + raises);
    let victims = rivals_reaching(view, table) as f64 * 0.5;
    value * safe + value * own_traps * victims
}

impl Heuristic {
    fn best<T: Copy>(&mut self, options: impl Iterator<Item = T>, score: impl Fn(T) -> f64) -> T {
        let mut best: Option<(f64, T)> = None;
        for option in options {
            let s = score(option) + self.rng.random::<f64>() * 1e-6;
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, option));
            }
        }
        best.expect("there is always an option").1
    }

    fn target(&mut self, view: &View) -> usize {
        let own = view.tokens[view.you];
        self.best((0..view.tables).filter(|&t| reaches(view, own, t)), |t| {
            let chips = f64::from(view.table_chips[t]) + 1.0;
            chips / (1.0 + rivals_reaching(view, t) as f64)
        })
    }
}

impl Strategy<Vabanque> for Heuristic {
    fn match_start(&mut self, _seat: usize, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    fn decide(&mut self, view: &View, _legal: Option<&[Action]>) -> Action {
        let own = view.tokens[view.you];
        match view.phase {
            Phase::Chip => {
                let table = self.best(0..view.tables, |t| {
                    let mine = if reaches(view, own, t) { 3.0 } else { 0.0 };
                    mine - rivals_reaching(view, t) as f64
                });
                Action::Chip { table }
            }
            Phase::Card => {
                let target = self.target(view);
                let card = [Card::Raise, Card::Trap, Card::Bluff]
                    .into_iter()
                    .find(|c| view.hand.contains(c))
                    .expect("asked for a card with an empty hand");
                let table = match card {
                    Card::Trap => self.best(0..view.tables, |t| {
                        f64::from(view.table_chips[t]) * rivals_reaching(view, t) as f64
                    }),
                    _ => target,
                };
                Action::Card { card, table }
            }
            Phase::Move => {
                let steps = self.best(0..=MAX_STEPS, |s| {
                    expected_payout(view, (own + s) % view.tables)
                });
                Action::Move { steps }
            }
        }
    }
}
