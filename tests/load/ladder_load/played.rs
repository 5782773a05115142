//! The matches a results directory's `matches.jsonl` holds (a tournament's, or a ladder's
//! export), read back.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

use super::field::kind_of;
use super::{Bot, Kind};

/// Matches read back from a results directory's `matches.jsonl` (a tournament's, or a
/// ladder's export).
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// Matches.
    pub matches: u64,
    /// Matches by table size.
    pub sizes: BTreeMap<usize, u64>,
    /// Seats held by process bots (in the ladder, one process start each).
    pub process_seats: u64,
    /// Seats by the kind of bot that held them.
    pub seats_by_kind: BTreeMap<Kind, u64>,
    /// Distinct bots that held a seat (versions of one bot count once).
    pub bots: usize,
    /// Faults of every bot.
    pub faults: u64,
    /// Decisions of every bot.
    pub decisions: u64,
    /// The mean of the matches' own wall time (`duration_ms`: from the first request to the
    /// end, without starting the bots).
    pub mean_match_ms: f64,
}

impl Played {
    /// The figures as JSON (for `target/ladder-load.json`).
    pub(super) fn to_json(&self) -> Value {
        json!({
            "matches": self.matches,
            "table_sizes": self.sizes.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "process_seats": self.process_seats,
            "seats_by_kind": by_kind_json(&self.seats_by_kind),
            "bots": self.bots,
            "faults": self.faults,
            "decisions": self.decisions,
            "mean_match_ms": self.mean_match_ms,
        })
    }
}

/// Counts by kind of bot as a JSON object.
pub(super) fn by_kind_json(counts: &BTreeMap<Kind, u64>) -> Value {
    counts
        .iter()
        .map(|(k, n)| (k.prefix().to_owned(), json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// What a results directory's `matches.jsonl` (a tournament's, or a ladder's export) of
/// `bots` holds.
pub(super) fn played(dir: &Path, bots: &[Bot]) -> Played {
    let text = std::fs::read_to_string(dir.join("matches.jsonl"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("matches.jsonl").display()));
    let mut played = Played::default();
    let mut total_ms = 0.0;
    let mut seen = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).unwrap();
        let players = record["players"].as_array().expect("players");
        played.matches += 1;
        *played.sizes.entry(players.len()).or_insert(0) += 1;
        for player in players {
            let name = player.as_str().unwrap_or_default();
            let kind = kind_of(bots, name).expect("a bot of the field");
            seen.insert(
                name.split_once(".v")
                    .map_or(name, |(bot, _)| bot)
                    .to_owned(),
            );
            *played.seats_by_kind.entry(kind).or_insert(0) += 1;
            played.process_seats += u64::from(kind.is_process());
        }
        played.faults += record["faults"].as_array().map_or(0, Vec::len) as u64;
        played.decisions += record["stats"].as_array().map_or(0, |s| {
            s.iter().map(|s| s["decisions"].as_u64().unwrap_or(0)).sum()
        });
        total_ms += record["duration_ms"].as_f64().unwrap_or(0.0);
    }
    if played.matches > 0 {
        played.mean_match_ms = total_ms / played.matches as f64;
    }
    played.bots = seen.len();
    played
}
