//! Machiavelli's built-in bots. Both read nothing but their [`View`], never skip, and draw when
//! they find nothing to lay. A bot does not see the `jokers_per_meld` option: it assumes the
//! most jokers any meld on the table holds (at least one), which the rules certainly allow.
//!
//! - [`Baseline`]: lays the sets and runs its own hand makes, largest first, jokers only to
//!   complete a meld of two cards.
//! - [`Heuristic`]: also attaches hand cards to the table's melds, and searches rearrangements
//!   of the whole table with cards of its hand (bounded); plays what sheds the most points.

use super::cards::{Card, Counts, counts};
use super::search::{Found, Rearrange, attach, finish, hand_melds};
use super::state::Machiavelli;
use super::table::canonical;
use crate::Strategy;
use protocol::machiavelli::{Action, True, View};

/// The candidate melds the heuristic's rearrangement tries, in all, per decision.
pub const SEARCH_BUDGET: usize = 600;
/// The candidate melds it tries for one table card.
pub const SEARCH_WIDTH: usize = 6;

/// The jokers a meld may hold as far as the view shows: the most on one meld of the table, at
/// least one.
fn joker_limit(view: &View) -> usize {
    view.table
        .iter()
        .map(|m| m.iter().filter(|c| c.is_joker()).count())
        .max()
        .unwrap_or(0)
        .max(1)
}

/// Plays `table` if it holds (checked meld by meld, as the referee will), else draws.
fn play_or_draw(table: Option<Vec<Vec<Card>>>, limit: usize) -> Action {
    match table.and_then(|t| canonical(&t, limit)) {
        Some(table) => Action::play(&table),
        None => Action::Draw(True),
    }
}

/// The baseline bot: its own melds, else a draw.
#[derive(Default)]
pub struct Baseline;

impl Baseline {
    /// The baseline's choice for `view`.
    pub fn choose(view: &View) -> Action {
        let limit = joker_limit(view);
        let mut hand = counts(&view.hand);
        let laid = hand_melds(&mut hand, limit);
        if laid.is_empty() {
            return Action::Draw(True);
        }
        let mut table = view.table.clone();
        table.extend(laid);
        play_or_draw(Some(table), limit)
    }
}

impl Strategy<Machiavelli> for Baseline {
    fn match_start(&mut self, _seat: usize, _seed: u64) {}

    fn decide(&mut self, view: &View, _legal: Option<&[Action]>) -> Action {
        Self::choose(view)
    }
}

/// The heuristic bot: the best of laying and attaching, and of a bounded rearrangement.
#[derive(Default)]
pub struct Heuristic;

impl Heuristic {
    /// The new table that sheds the most points from the hand, if any sheds some.
    pub fn best_table(view: &View) -> Option<Found> {
        let limit = joker_limit(view);
        let held: Counts = counts(&view.hand);
        let mut table = view.table.clone();
        let mut hand = held;
        let mut shed = finish(&mut table, &mut hand, limit);
        shed += attach(&mut table, &mut hand, limit);
        let simple = (shed > 0).then_some(Found { table, shed });
        let floor = simple.as_ref().map_or(0, |f| f.shed);
        let on_table = counts(view.table.iter().flatten());
        Rearrange::new(limit, SEARCH_BUDGET, SEARCH_WIDTH)
            .run(&on_table, &held, floor)
            .or(simple)
    }

    /// The heuristic's choice for `view`.
    pub fn choose(view: &View) -> Action {
        let limit = joker_limit(view);
        play_or_draw(Self::best_table(view).map(|f| f.table), limit)
    }
}

impl Strategy<Machiavelli> for Heuristic {
    fn match_start(&mut self, _seat: usize, _seed: u64) {}

    fn decide(&mut self, view: &View, _legal: Option<&[Action]>) -> Action {
        Self::choose(view)
    }
}
