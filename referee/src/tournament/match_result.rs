//! One line of `matches.jsonl`: a finished match, and where its bots' stderr of it is.

use crate::runner::MatchRecord;
use serde::{Deserialize, Serialize};

/// One finished match, as a line of `matches.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The match's position in the schedule.
    pub id: u64,
    /// Its duplicate group.
    pub group: u64,
    /// Everything the match left (players are bot names by seat).
    #[serde(flatten)]
    pub record: MatchRecord,
    /// Where each seat's stderr of this match is, by seat (`None` for a bot without a process,
    /// or none saved); empty in results written before the referee recorded it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Option<StderrRange>>,
}

/// What a bot process wrote to its stderr during one match: a byte range of its file in the
/// results directory's `stderr/`. The ranges of one file follow each other: each begins where
/// the process's previous match ended, the first where the process started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StderrRange {
    /// The file's name in `stderr/`.
    pub file: String,
    /// The first byte.
    pub from: u64,
    /// The byte after the last.
    pub to: u64,
}
