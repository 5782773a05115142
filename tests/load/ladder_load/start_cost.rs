//! What one sandboxed bot process start costs, from `referee match` of each process bot kind
//! against the same of built-ins.

use std::process::Stdio;
use std::time::Duration;

use super::field::Sources;
use super::process::{referee, run_timed};
use super::{Env, Kind, Plan};

/// What one sandboxed bot process start costs: `referee match` of three bots of a kind
/// against three built-ins, the difference divided by three.
#[derive(Clone, Debug)]
pub struct StartCost {
    /// The bots' kind.
    pub kind: Kind,
    /// Median CPU milliseconds of a whole `referee match` of three of them.
    pub match_cpu_ms: f64,
    /// Median wall milliseconds of it.
    pub match_wall_ms: f64,
    /// CPU milliseconds per start: the match's minus that of three built-ins, over three.
    pub cpu_ms_per_start: f64,
}

/// What a sandboxed start of each process bot kind costs, from `referee match` of three of
/// them against the same of three built-ins, `plan.start_runs` times each (medians).
pub(super) fn start_costs(env: &Env, plan: &Plan, sources: &Sources) -> Vec<StartCost> {
    let mut kinds: Vec<Kind> = vec![Kind::BuiltinRandom];
    kinds.extend(
        [Kind::PythonRandom, Kind::JavaScriptRandom, Kind::GoRandom]
            .into_iter()
            .filter(|k| sources.by_kind.contains_key(k)),
    );
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut costs: Vec<StartCost> = Vec::new();
    for kind in kinds {
        let command = match kind {
            Kind::BuiltinRandom => "builtin:random",
            _ => &sources.by_kind[&kind],
        };
        let mut cpu = Vec::new();
        let mut wall = Vec::new();
        for run in 0..plan.start_runs.max(1) {
            let mut match_cmd = referee(env);
            match_cmd.args([
                "match",
                "--game",
                "vabanque",
                "--seed",
                &(run as u64 + 1).to_string(),
            ]);
            for seat in ["a", "b", "c"] {
                match_cmd.arg("--bot").arg(format!("{seat}={command}"));
            }
            match_cmd.stdout(Stdio::null()).stderr(Stdio::null());
            let (status, wall_s, used, exact) =
                run_timed(match_cmd, Duration::from_secs(120), "match");
            assert!(
                exact || !plan.exact_cpu,
                "no cpuacct group for referee match"
            );
            assert!(status.success(), "referee match of {kind:?}: {status}");
            cpu.push(used.total() * 1000.0);
            wall.push(wall_s * 1000.0);
        }
        let match_cpu_ms = median(cpu);
        let base = costs.first().map_or(match_cpu_ms, |b| b.match_cpu_ms);
        costs.push(StartCost {
            kind,
            match_cpu_ms,
            match_wall_ms: median(wall),
            cpu_ms_per_start: (match_cpu_ms - base) / 3.0,
        });
    }
    costs
}
