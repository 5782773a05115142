//! The ladder as a format: the matches of a ladder (`referee-ladder`) chosen by its matchmaker
//! as results arrive, read back from a window the ladder exported. It schedules nothing itself
//! (its matches were chosen and played by the ladder's server), seats tables of any size from
//! the game's smallest to `players` (the ladder's largest), is scored by the ratings (the
//! default) and has no table of its own.
//!
//! The matchmaker is not a method of this format: it chooses from what a ladder's store knows
//! and a tournament's leaderboard does not (each version's owner, when it last played, the
//! tables played within the repeat window, versions entering and leaving), so it is a module
//! of the ladder's crate that its server calls (`referee_ladder::matchmaker`).

use super::{Format, ScheduleSpec, ScheduledMatch, Setup};
use std::ops::RangeInclusive;

/// The ladder's format (see the module documentation).
pub struct Ladder;

impl Format for Ladder {
    /// Refused: a ladder is played by its server, not by `referee tournament`.
    fn players(&self, _setup: &Setup) -> Result<Option<usize>, String> {
        Err(
            "the ladder schedule is what `referee ladder` exports; a tournament cannot play it (choose round-robin, sampled, gauntlet or nava)"
                .into(),
        )
    }

    fn cycle_length(&self, _spec: &ScheduleSpec) -> u64 {
        0
    }

    fn schedule(&self, _spec: &ScheduleSpec) -> Vec<ScheduledMatch> {
        Vec::new()
    }

    fn seat_range(&self, smallest: usize, players: usize) -> Option<RangeInclusive<usize>> {
        Some(smallest..=players)
    }

    fn seating(&self, _bots: usize, players: usize) -> String {
        format!("up to {players} per match, as the ladder's matchmaker chose")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{MatchRecord, SeatStats};
    use crate::tournament::bounds::{ResultCheck, check_meta};
    use crate::tournament::format::{FormatSpec, ScheduleKind};
    use crate::tournament::match_result::MatchResult;
    use crate::tournament::meta::{MetaBot, TournamentMeta};

    fn meta() -> TournamentMeta {
        let bot = |name: &str| MetaBot {
            name: name.into(),
            command: "builtin:random".into(),
            limits: serde_json::from_str(r#"{"startup_ms": 10000, "decision_ms": 1000}"#).unwrap(),
            overruns: 0,
            overrun_ms: 100,
            resources: Default::default(),
            time_basis: Default::default(),
            turn_isolation: false,
        };
        TournamentMeta {
            game: "vabanque".into(),
            options: serde_json::json!({}),
            bots: ["a.v1", "b.v2", "c.v3", "d.v4", "e.v5"].map(bot).to_vec(),
            players: 4,
            format: FormatSpec::from(ScheduleKind::Ladder),
            candidate: None,
            matches: 10,
            seed: 0,
            duplicate: true,
            max_faults: 3,
            policy: Default::default(),
        }
    }

    fn seated(n: usize) -> MatchResult {
        let players: Vec<String> = meta().bots[..n].iter().map(|b| b.name.clone()).collect();
        MatchResult {
            id: 1,
            group: 1,
            record: MatchRecord {
                match_id: "1".into(),
                game: "vabanque".into(),
                seed: 0,
                players,
                scores: vec![0; n],
                ranks: vec![1; n],
                faults: Vec::new(),
                stats: vec![SeatStats::default(); n],
                duration_ms: 1.0,
                internal_error: None,
            },
            stderr: Vec::new(),
        }
    }

    #[test]
    fn a_ladder_reads_back_tables_from_the_games_smallest_to_its_largest() {
        let meta = meta();
        check_meta(&meta).unwrap();
        let check = ResultCheck::new(&meta);
        // Vabanque is played by 3 to 6; the ladder's largest table is 4.
        for n in [3, 4] {
            assert!(check.check(&seated(n)).is_ok(), "{n} seats");
        }
        for n in [2, 5] {
            assert!(check.check(&seated(n)).is_err(), "{n} seats");
        }
    }

    #[test]
    fn a_tournament_cannot_play_the_ladder_schedule() {
        let setup = Setup {
            game: "vabanque",
            counts: 3..=6,
            bots: 5,
            players: None,
            matches: None,
        };
        let refused = Ladder.players(&setup).unwrap_err();
        assert!(refused.contains("referee ladder"), "{refused}");
        let spec = ScheduleSpec {
            bots: 5,
            players: 4,
            matches: 10,
            seed: 0,
            duplicate: true,
            candidate: 0,
        };
        assert!(Ladder.schedule(&spec).is_empty());
    }
}
