//! What a running tournament tells whoever runs it: typed events, rendered by the caller (the
//! CLI draws a progress bar and prints the leaderboard; a service could stream them).

use super::match_result::MatchResult;
use super::progress::Snapshot;
use super::standings::Leaderboard;
use std::path::PathBuf;

/// The tournament is about to play its first match.
#[derive(Clone, Debug, PartialEq)]
pub struct Started {
    /// The game.
    pub game: &'static str,
    /// Bots in the field.
    pub bots: usize,
    /// Players per match.
    pub players: usize,
    /// Matches in the whole schedule.
    pub matches: u64,
    /// Matches of this run's share of it (its shard, or the whole schedule).
    pub share: u64,
    /// Of the share, matches already played (found in the results directory on resume).
    pub done: u64,
    /// `(k, n)`: the shard played (0-based `k`), if any.
    pub shard: Option<(u64, u64)>,
    /// Matches played at once.
    pub jobs: usize,
    /// The tournament seed.
    pub seed: u64,
    /// The results directory.
    pub out: PathBuf,
    /// How the field is seated, in words (`3 per match`; a Nava tournament's tables, rounds
    /// and hands).
    pub seating: String,
    /// When the match count is not a multiple of the format's balanced unit (seats then not
    /// exactly balanced): that unit.
    pub unbalanced: Option<u64>,
    /// The results directory, when other users could read it until the run made it private
    /// (made by an older referee, or by `mkdir`).
    pub made_private: Option<crate::safe_fs::MadePrivate>,
}

/// How a run ended (also returned by [`run`](super::run)).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every match of the share was played; the leaderboard of the whole results directory.
    Finished(Leaderboard),
    /// Stopped by the caller's interrupt: every result written is kept, every bot stopped.
    Interrupted {
        /// Matches played and written by this run.
        written: u64,
    },
}

/// Receives a tournament's events, in order: `processes`, `started`, then `match_finished` once per match
/// as each is written, then `finished` or `interrupted` (none after a failure of the referee
/// itself, which `run` returns as an error). Every method does nothing by default.
pub trait Reporter {
    /// The bot processes' policy is resolved: how they run, and what to say about it (a
    /// sandbox missing, who they run as; no notice for a field without processes).
    fn processes(&mut self, _processes: &crate::policy::BotProcesses) {}

    /// The schedule is made and the results directory ready.
    fn started(&mut self, _started: &Started) {}

    /// A match finished and its result was written; `standings` counts every result so far
    /// (those found on resume included).
    fn match_finished(&mut self, _result: &MatchResult, _standings: &Snapshot) {}

    /// The run finished.
    fn finished(&mut self, _board: &Leaderboard) {}

    /// The run was interrupted after `written` new matches.
    fn interrupted(&mut self, _written: u64) {}
}

/// A reporter that ignores every event.
impl Reporter for () {}
