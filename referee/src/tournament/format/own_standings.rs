//! What a format adds to the leaderboard's numbers: its own standings, one variant per format
//! that has some, written in the leaderboard's JSON under the format's key.

use super::candidate::CandidateStanding;
use crate::tournament::nava::standings::NavaStandings;
use serde::Serialize;

/// A format's own standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatStandings {
    /// A Nava tournament's Victory Points (`nava`).
    Nava(Box<NavaStandings>),
    /// How a gauntlet's candidate is ranked among the others (`gauntlet`).
    Gauntlet(Box<CandidateStanding>),
}
