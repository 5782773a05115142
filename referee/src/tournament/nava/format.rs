//! The Nava format as a [`Format`]: its player count and checks, its schedule
//! ([`schedule`]), its scoring in Victory Points ([`nava_standings`]) and its table
//! ([`table`]).

use super::schedule;
use super::seating::{MIN_BOTS, table_counts};
use super::spec::{HANDS, NavaSpec, ROUNDS};
use super::standings::{NavaStandings, nava_standings};
use super::table;
use crate::tournament::board_cells::{RoundTotals, StandingsTable};
use crate::tournament::format::own_standings::FormatStandings;
use crate::tournament::format::spec::FormatSettings;
use crate::tournament::format::{Format, ScheduleSpec, ScheduledMatch, Setup};
use crate::tournament::match_result::MatchResult;
use crate::tournament::meta::TournamentMeta;
use crate::tournament::out_of_bounds::{OutOfBounds, out};
use crate::tournament::standings::{Field, Leaderboard, compute};
use std::collections::BTreeMap;

/// The Nava format, of its rounds and hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nava(pub NavaSpec);

impl Format for Nava {
    fn settings(&self) -> Option<FormatSettings> {
        Some(FormatSettings::Nava(self.0))
    }

    /// 4: tables of 4, and of 3 with a BYE; refused for a game not played by both 3 and 4,
    /// fewer than 9 bots, a player count or a match count set, or rounds and hands out of
    /// their bounds.
    fn players(&self, setup: &Setup) -> Result<Option<usize>, String> {
        let counts = &setup.counts;
        if !(counts.contains(&3) && counts.contains(&4)) {
            return Err(format!(
                "the Nava schedule seats tables of 4 and 3; {} is played by {} to {}",
                setup.game,
                counts.start(),
                counts.end()
            ));
        }
        if setup.bots < MIN_BOTS {
            return Err(format!(
                "the Nava schedule needs at least {MIN_BOTS} bots; {} were given",
                setup.bots
            ));
        }
        if setup.players.is_some_and(|p| p != 4) {
            return Err(
                "the Nava schedule sets the players (tables of 4, and of 3 with a BYE): leave out the player count (--players, or `players` in the config file)"
                    .into(),
            );
        }
        if setup.matches.is_some() {
            return Err(
                "a Nava tournament plays rounds × tables × hands matches: leave out --matches and set --rounds and --hands"
                    .into(),
            );
        }
        let nava = self.0;
        if !ROUNDS.contains(&nava.rounds) || !HANDS.contains(&nava.hands) {
            return Err(format!(
                "a Nava tournament has {} to {} rounds of {} to {} hands, not {} of {}",
                ROUNDS.start(),
                ROUNDS.end(),
                HANDS.start(),
                HANDS.end(),
                nava.rounds,
                nava.hands
            ));
        }
        Ok(Some(4))
    }

    fn event_options(&self) -> bool {
        true
    }

    /// Rounds and hands within their bounds, at least 9 bots at tables of 4, and the match
    /// count they give.
    fn check(&self, meta: &TournamentMeta) -> Result<(), OutOfBounds> {
        let nava = self.0;
        let bots = meta.bots.len();
        if !ROUNDS.contains(&nava.rounds) || !HANDS.contains(&nava.hands) {
            return Err(out(
                "nava",
                format!(
                    "{} rounds of {} hands; a Nava tournament has {} to {} rounds of {} to {} hands",
                    nava.rounds,
                    nava.hands,
                    ROUNDS.start(),
                    ROUNDS.end(),
                    HANDS.start(),
                    HANDS.end()
                ),
            ));
        }
        if bots < MIN_BOTS || meta.players != 4 {
            return Err(out(
                "bots",
                format!(
                    "{bots} bots at tables of {}; the Nava schedule seats at least {MIN_BOTS} bots at tables of 4",
                    meta.players
                ),
            ));
        }
        if meta.matches != nava.matches(bots) {
            return Err(out(
                "matches",
                format!(
                    "{} matches; {} rounds of {} hands of {bots} bots are {}",
                    meta.matches,
                    nava.rounds,
                    nava.hands,
                    nava.matches(bots)
                ),
            ));
        }
        Ok(())
    }

    /// The whole tournament: rounds × tables × hands.
    fn cycle_length(&self, spec: &ScheduleSpec) -> u64 {
        self.0.matches(spec.bots)
    }

    fn schedule(&self, spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        schedule::schedule(self.0, spec)
    }

    /// 4 or 3 by table (the schedule is a few thousand matches at most).
    fn seats(&self, spec: &ScheduleSpec) -> Option<BTreeMap<u64, usize>> {
        Some(
            self.schedule(spec)
                .into_iter()
                .map(|m| (m.id, m.seats.len()))
                .collect(),
        )
    }

    fn seating(&self, bots: usize, _players: usize) -> String {
        let (tables, of_three) = table_counts(bots);
        format!(
            "Nava at {}, {} rounds of {} hands",
            tables_said(tables, of_three),
            self.0.rounds,
            self.0.hands
        )
    }

    /// Victory Points by table and round, summed; ties broken by difference VP, then by match
    /// points ([`nava_standings`]). The usual columns (matches, faults, decision times,
    /// ratings) stay, in the VP order.
    fn leaderboard(&self, field: &Field<'_>, results: &[&MatchResult]) -> Leaderboard {
        let board = compute(field, results);
        let vp = nava_standings(
            field.bots,
            field.seed,
            self.0,
            field.higher_is_better,
            results,
        );
        let order: Vec<usize> = vp
            .rows
            .iter()
            .map(|row| {
                board
                    .standings
                    .iter()
                    .position(|s| s.bot == row.bot)
                    .expect("every bot has a standing")
            })
            .collect();
        let ranks: Vec<usize> = vp.rows.iter().map(|row| row.rank).collect();
        let mut board = board.reordered(&order, &ranks);
        board.format_standings = Some(FormatStandings::Nava(Box::new(vp)));
        board
    }

    fn table(&self, board: &Leaderboard) -> Option<StandingsTable> {
        standings_of(board).map(|nava| table::standings_table(board, nava))
    }

    fn csv(&self, board: &Leaderboard) -> Option<Vec<Vec<String>>> {
        standings_of(board).map(|nava| table::csv(board, nava))
    }

    fn round_totals(&self, board: &Leaderboard) -> Option<Vec<RoundTotals>> {
        standings_of(board).map(table::round_totals)
    }
}

/// The Victory Points of a leaderboard scored by [`Nava`].
fn standings_of(board: &Leaderboard) -> Option<&NavaStandings> {
    match &board.format_standings {
        Some(FormatStandings::Nava(nava)) => Some(nava.as_ref()),
        _ => None,
    }
}

/// The tables of a Nava field, said whole: "3 tables of 4", "3 tables: 1 of 4, 2 of 3 (a BYE
/// seat each)".
fn tables_said(tables: usize, of_three: usize) -> String {
    let word = |n: usize| if n == 1 { "table" } else { "tables" };
    if of_three == 0 {
        return format!("{tables} {} of 4", word(tables));
    }
    format!(
        "{tables} {}: {} of 4, {of_three} of 3 (a BYE seat each)",
        word(tables),
        tables - of_three
    )
}

#[cfg(test)]
mod tests {
    use super::tables_said;
    use crate::tournament::nava::seating::table_counts;

    #[test]
    fn the_start_line_says_how_many_tables_of_each_size() {
        let said = |bots| {
            let (tables, of_three) = table_counts(bots);
            tables_said(tables, of_three)
        };
        assert_eq!(said(12), "3 tables of 4");
        assert_eq!(said(10), "3 tables: 1 of 4, 2 of 3 (a BYE seat each)");
        assert_eq!(said(9), "3 tables: 0 of 4, 3 of 3 (a BYE seat each)");
        assert_eq!(said(13), "4 tables: 1 of 4, 3 of 3 (a BYE seat each)");
    }
}
