//! The tournaments of the field: `referee tournament` of the same bots, one per table size
//! the ladder played, and longer ones, timed.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::cpu::load_average;
use super::field::{Sources, kind_of};
use super::played::{by_kind_json, played};
use super::process::{referee, run_timed};
use super::{Bot, Cpu, Env, Kind, LIMITS, Plan, Played, SEED};

/// One tournament of one table size.
#[derive(Clone, Debug)]
pub struct TournamentPart {
    /// Players per match.
    pub players: usize,
    /// Wall seconds of the whole `referee tournament`.
    pub wall_s: f64,
    /// CPU seconds of it and of everything it started.
    pub cpu: Cpu,
    /// Bot processes it started (its `stderr/` files).
    pub process_starts: u64,
    /// Those by kind of bot.
    pub starts_by_kind: BTreeMap<Kind, u64>,
    /// What it played.
    pub played: Played,
}

impl TournamentPart {
    /// Matches per second.
    pub fn rate(&self) -> f64 {
        self.played.matches as f64 / self.wall_s
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    pub(super) fn to_json(&self) -> Value {
        json!({
            "players": self.players,
            "wall_s": self.wall_s,
            "matches_per_s": self.rate(),
            "cpu_s": self.cpu.total(),
            "own_cpu_s": self.cpu.own,
            "process_starts": self.process_starts,
            "starts_by_kind": by_kind_json(&self.starts_by_kind),
            "played": self.played.to_json(),
        })
    }
}

/// The tournaments of the field, one per table size, as many matches of each size as the
/// ladder played.
#[derive(Clone, Debug)]
pub struct TournamentRun {
    /// One per table size.
    pub parts: Vec<TournamentPart>,
    /// The load average (1 minute) before and after.
    pub load: (f64, f64),
}

impl TournamentRun {
    /// Matches played.
    pub fn matches(&self) -> u64 {
        self.parts.iter().map(|p| p.played.matches).sum()
    }

    /// Wall seconds, all sizes together.
    pub fn wall_s(&self) -> f64 {
        self.parts.iter().map(|p| p.wall_s).sum()
    }

    /// Matches per second, all sizes together.
    pub fn rate(&self) -> f64 {
        self.matches() as f64 / self.wall_s()
    }

    /// CPU milliseconds per match.
    pub fn cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.parts.iter().map(|p| p.cpu.total()).sum::<f64>() / self.matches() as f64
    }

    /// The tournament process's own CPU milliseconds per match (without its bots').
    pub fn own_cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.parts.iter().map(|p| p.cpu.own).sum::<f64>() / self.matches() as f64
    }

    /// Bot processes started.
    pub fn process_starts(&self) -> u64 {
        self.parts.iter().map(|p| p.process_starts).sum()
    }

    /// Faults.
    pub fn faults(&self) -> u64 {
        self.parts.iter().map(|p| p.played.faults).sum()
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    pub(super) fn to_json(&self) -> Value {
        json!({
            "matches": self.matches(),
            "wall_s": self.wall_s(),
            "matches_per_s": self.rate(),
            "cpu_ms_per_match": self.cpu_ms_per_match(),
            "own_cpu_ms_per_match": self.own_cpu_ms_per_match(),
            "process_starts": self.process_starts(),
            "faults": self.faults(),
            "load_1min": [self.load.0, self.load.1],
            "parts": self.parts.iter().map(TournamentPart::to_json).collect::<Vec<_>>(),
        })
    }
}

/// A tournament's file of `bots` at `players` per match, `matches` matches, into `out`.
fn tournament_toml(
    dir: &Path,
    bots: &[Bot],
    sources: &Sources,
    players: usize,
    matches: u64,
    jobs: usize,
    out: &Path,
) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = {players}\nmatches = {matches}\nseed = {SEED}\njobs = {jobs}\nout = {:?}\nschedule = \"sampled\"\n{LIMITS}\n",
        out.display().to_string()
    );
    for bot in bots {
        text += &format!(
            "[[bot]]\nname = {:?}\ncommand = {:?}\n\n",
            bot.name, sources.commands[&bot.name]
        );
    }
    let path = dir.join(format!("tournament-{players}x{matches}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The tournaments of `bots`: one per table size the ladder played, of as many matches (a
/// whole number of groups) as it played at that size.
pub(super) fn run_tournaments(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
    sizes: &BTreeMap<usize, u64>,
) -> TournamentRun {
    let dir = env.dir.join("tournament");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let played_total: u64 = sizes.values().sum();
    let load_before = load_average();
    let mut parts = Vec::new();
    for (&players, &count) in sizes {
        // As many matches of this size as the ladder's share of it, of `plan.matches`.
        let share = plan.matches as f64 * count as f64 / played_total as f64;
        let matches = ((share / players as f64).round() as u64).max(1) * players as u64;
        parts.push(tournament(env, plan, bots, sources, &dir, players, matches));
    }
    TournamentRun {
        parts,
        load: (load_before, load_average()),
    }
}

/// Longer tournaments of the field at 4 players per match: `plan.longer` times as many
/// matches as a third of `plan.matches` each, to show how a tournament's rate grows as its
/// bot processes are reused.
pub(super) fn run_longer(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
) -> Vec<TournamentPart> {
    let dir = env.dir.join("tournament-longer");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = (plan.matches / 3 / 4).max(1) * 4;
    plan.longer
        .iter()
        .map(|&factor| tournament(env, plan, bots, sources, &dir, 4, base * factor))
        .collect()
}

/// `referee tournament` of `bots` at `players` per match, `matches` matches, sampled, in
/// `dir`, timed, with the processes it started.
fn tournament(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
    dir: &Path,
    players: usize,
    matches: u64,
) -> TournamentPart {
    let tag = format!("{players}x{matches}");
    let out = dir.join(format!("out-{tag}"));
    let file = tournament_toml(dir, bots, sources, players, matches, plan.jobs, &out);
    let mut command = referee(env);
    command
        .arg("tournament")
        .arg(&file)
        .args(["--quiet", "--format", "json"])
        .stdout(std::fs::File::create(dir.join(format!("tournament-{tag}.out"))).unwrap())
        .stderr(std::fs::File::create(dir.join(format!("tournament-{tag}.err"))).unwrap());
    let (status, wall_s, cpu, exact) = run_timed(command, plan.timeout, &tag);
    assert!(
        exact || !plan.exact_cpu,
        "no cpuacct group for the tournament"
    );
    assert!(
        status.success(),
        "referee tournament {}: {status}",
        file.display()
    );
    let played = played(&out, bots);
    assert_eq!(played.matches, matches, "{}", out.display());
    // One stderr file per process started (`NAME.wW.K.stderr`).
    let mut starts_by_kind = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("stderr")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = kind_of(bots, &name).unwrap_or_else(|| panic!("stderr/{name}"));
        *starts_by_kind.entry(kind).or_insert(0) += 1;
    }
    TournamentPart {
        players,
        wall_s,
        cpu,
        process_starts: starts_by_kind.values().sum(),
        starts_by_kind,
        played,
    }
}
