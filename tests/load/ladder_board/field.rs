//! The field: its bots (built-ins, each its own owner's) and their matches, played once by
//! `referee tournament` of the same bots; the fill reads its records back one at a time.

use referee::runner::MatchRecord;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use super::{Env, PLAYERS, Plan, SEED};

/// The limits of every seat, in the tournament's file and the ladder's (those of
/// `examples/ladder.toml`).
pub(super) const LIMITS: &str =
    "time_limit_ms = 1000\nstartup_limit_ms = 10000\nfirst_decision_ms = 3000\nmax_faults = 3\n";

/// One bot of the field.
#[derive(Clone, Debug)]
pub struct Bot {
    /// Its name, in the tournament and on the ladder.
    pub name: String,
    /// Its owner's account.
    pub owner: String,
    /// The built-in it is (`random` or `heuristic`).
    pub builtin: &'static str,
}

/// The field and its matches.
#[derive(Clone, Debug)]
pub struct Field {
    /// The bots.
    pub bots: Vec<Bot>,
    /// The tournament's `matches.jsonl`: one record per match, with its duplicate group.
    pub matches: PathBuf,
    /// How many matches it holds.
    pub count: u64,
    /// Wall seconds `referee tournament` took to play them.
    pub played_s: f64,
}

/// `n` bots: every third the built-in `heuristic`, the others `random`; each its own owner.
pub(super) fn bots(n: usize) -> Vec<Bot> {
    (0..n)
        .map(|i| {
            let builtin = if i % 3 == 0 { "heuristic" } else { "random" };
            Bot {
                name: format!("b{i:03}-{builtin}"),
                owner: format!("owner-{i:03}"),
                builtin,
            }
        })
        .collect()
}

/// Plays the field's matches: `referee tournament` of the bots, `plan.matches` of them at
/// tables of [`PLAYERS`], sampled schedule, duplicate deals, seed [`SEED`], as many at once
/// as there are cores.
pub fn play_field(env: &Env, plan: &Plan) -> Field {
    assert!(
        plan.matches % PLAYERS as u64 == 0,
        "whole duplicate groups: a multiple of {PLAYERS} matches"
    );
    let bots = bots(plan.bots);
    let dir = env.dir.join("tournament");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = format!(
        "game = \"vabanque\"\nplayers = {PLAYERS}\nmatches = {}\nseed = {SEED}\n\
         schedule = \"sampled\"\nduplicate = true\n{LIMITS}\n",
        plan.matches
    );
    for bot in &bots {
        text += &format!(
            "[[bot]]\nname = {:?}\ncommand = \"builtin:{}\"\n\n",
            bot.name, bot.builtin
        );
    }
    let file = dir.join("tournament.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let started = Instant::now();
    let played = (env.referee)()
        .arg("tournament")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["-j", &cores.to_string(), "--quiet"])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let played_s = started.elapsed().as_secs_f64();
    assert!(
        played.status.success(),
        "referee tournament: {}",
        String::from_utf8_lossy(&played.stderr)
    );
    let matches = out.join("matches.jsonl");
    let field = Field {
        bots,
        count: 0,
        matches,
        played_s,
    };
    let count = field.records().count() as u64;
    assert_eq!(count, plan.matches, "the tournament's matches");
    Field { count, ..field }
}

impl Field {
    /// The tournament's records in the order it wrote them, each with its duplicate group.
    pub fn records(&self) -> impl Iterator<Item = (u64, MatchRecord)> + use<> {
        records(&self.matches)
    }
}

/// The records of a tournament's `matches.jsonl` and their groups, read one line at a time.
fn records(path: &Path) -> impl Iterator<Item = (u64, MatchRecord)> + use<> {
    let file = std::fs::File::open(path).unwrap();
    BufReader::new(file).lines().map(|line| {
        let line = line.unwrap();
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let group = value["group"].as_u64().expect("a match's group");
        // The line is a record with the tournament's `id`, `group` and `stderr` besides.
        let record: MatchRecord = serde_json::from_value(value).unwrap();
        (group, record)
    })
}
