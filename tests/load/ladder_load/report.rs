//! Everything a run measured ([`Report`]), as a table for people and as JSON.

use serde_json::{Value, json};
use std::collections::BTreeMap;

use super::{Kind, LadderRun, PLAYERS, Plan, SEED, StartCost, TournamentPart, TournamentRun};

/// Everything a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plan it followed.
    pub plan: Plan,
    /// The field's bots by kind.
    pub field: BTreeMap<Kind, usize>,
    /// One per database.
    pub ladders: Vec<LadderRun>,
    /// The tournaments.
    pub tournament: TournamentRun,
    /// The start costs (the built-ins' first, their `cpu_ms_per_start` 0).
    pub starts: Vec<StartCost>,
    /// The longer tournaments.
    pub longer: Vec<TournamentPart>,
    /// The machine's cores.
    pub cores: usize,
    /// The load average when the run began.
    pub load_before: f64,
    /// Whether CPU was counted by `cpuacct` groups (else by `wait4`, a lower bound).
    pub cpu_by_cgroup: bool,
}

impl Report {
    /// The figures as a table for people.
    pub fn table(&self) -> String {
        let mib = |b: f64| b / (1024.0 * 1024.0);
        let t = &self.tournament;
        let mut out = String::new();
        let field: Vec<String> = self
            .field
            .iter()
            .map(|(k, n)| format!("{n} {}", k.prefix()))
            .collect();
        out += &format!(
            "ladder load: {} bots ({}), tables of {}-{}, -j {}, {} matches (window from {}), {} cores, load {:.2} at the start\n",
            self.plan.bots,
            field.join(", "),
            PLAYERS.0,
            PLAYERS.1,
            self.plan.jobs,
            self.plan.matches,
            self.plan.window_from,
            self.cores,
            self.load_before
        );
        if !self.cpu_by_cgroup {
            out += "CPU counted by wait4 (no cpuacct group could be made): bots' CPU is missing\n";
        }
        out += &format!(
            "{:<42}{}\n",
            "",
            self.ladders
                .iter()
                .map(|l| format!("{:>14}", l.db))
                .collect::<String>()
        );
        let row = |name: &str, f: &dyn Fn(&LadderRun) -> String| {
            format!(
                "{name:<42}{}\n",
                self.ladders
                    .iter()
                    .map(|l| format!("{:>14}", f(l)))
                    .collect::<String>()
            )
        };
        out += &row("builds done after (s)", &|l| format!("{:.1}", l.builds_s));
        out += &row("window (matches)", &|l| {
            format!("{}-{}", l.window_matches.0, l.window_matches.1)
        });
        out += &row("ladder matches/s", &|l| format!("{:.2}", l.rate()));
        out += &row("tournament matches/s", &|_| format!("{:.2}", t.rate()));
        out += &row("ladder / tournament", &|l| {
            format!("{:.0}%", 100.0 * l.rate() / t.rate())
        });
        out += &row("CPU ms/match, ladder: all (referee's)", &|l| {
            format!(
                "{:.0} ({:.0})",
                l.cpu_ms_per_match(),
                l.own_cpu_ms_per_match()
            )
        });
        out += &row("CPU ms/match, ladder: PostgreSQL's", &|l| match l.db {
            "sqlite" => "-".to_owned(),
            _ => format!(
                "{:.0}",
                1000.0 * l.db_cpu_s / (l.window_matches.1 - l.window_matches.0).max(1) as f64
            ),
        });
        out += &row("CPU ms/match, tournament: all (referee's)", &|_| {
            format!(
                "{:.0} ({:.0})",
                t.cpu_ms_per_match(),
                t.own_cpu_ms_per_match()
            )
        });
        out += &row("machine busy in the window", &|l| {
            format!(
                "{:.0}%",
                100.0 * l.machine_cpu_s / l.window_s / self.cores as f64
            )
        });
        out += &row("load (1 min) in the window", &|l| {
            format!("{:.1}-{:.1}", l.load.0, l.load.1)
        });
        out += &row("API info p50 / p99 (ms)", &|l| {
            format!("{:.1} / {:.1}", l.info.quantile(0.5), l.info.quantile(0.99))
        });
        out += &row("API standings p50 / p99 (ms)", &|l| {
            format!(
                "{:.1} / {:.1}",
                l.standings.quantile(0.5),
                l.standings.quantile(0.99)
            )
        });
        out += &row("API requests (errors)", &|l| {
            format!(
                "{} ({})",
                l.info.samples.len() + l.standings.samples.len(),
                l.info.errors + l.standings.errors
            )
        });
        out += &row("matches recorded", &|l| l.played.matches.to_string());
        out += &row("DB per 10k matches (MiB)", &|l| {
            format!("{:.1}", mib(l.db_per_10k()))
        });
        out += &row("artifacts per 10k matches (MiB)", &|l| {
            format!("{:.1}", mib(l.artifacts_per_10k()))
        });
        out += &row("DB after init / after run (MiB)", &|l| {
            format!(
                "{:.1} / {:.1}",
                mib(l.db_bytes[0] as f64),
                mib(l.db_bytes[3] as f64)
            )
        });
        out += &row("artifacts after init / run (MiB)", &|l| {
            format!(
                "{:.1} / {:.1}",
                mib(l.artifact_bytes[0] as f64),
                mib(l.artifact_bytes[3] as f64)
            )
        });
        out += &row("process seats per match", &|l| {
            format!(
                "{:.2}",
                l.played.process_seats as f64 / l.played.matches.max(1) as f64
            )
        });
        out += &row("faults", &|l| l.played.faults.to_string());
        out += &row("server errors (results refused)", &|l| {
            format!("{} ({})", l.server_errors, l.results_refused)
        });
        out += &row("mean match (ms, without starts)", &|l| {
            format!("{:.0}", l.played.mean_match_ms)
        });
        for l in &self.ladders {
            let mut tables: Vec<(&String, &u64)> = l.tables.iter().collect();
            tables.sort_by_key(|(_, bytes)| std::cmp::Reverse(**bytes));
            let shown: Vec<String> = tables
                .iter()
                .take(4)
                .map(|(name, bytes)| {
                    format!(
                        "{name} {:.0}",
                        **bytes as f64 / l.played.matches.max(1) as f64
                    )
                })
                .collect();
            out += &format!(
                "{} after the run, bytes per match recorded: {}\n",
                l.db,
                shown.join(", ")
            );
        }
        let sizes: Vec<String> = t
            .parts
            .iter()
            .map(|p| format!("{}x{}p", p.played.matches, p.players))
            .collect();
        out += &format!(
            "tournament: {} matches ({}) in {:.1} s, {} process starts ({:.2} per match), {} faults, mean match {:.0} ms, load {:.1}-{:.1}\n",
            t.matches(),
            sizes.join(" + "),
            t.wall_s(),
            t.process_starts(),
            t.process_starts() as f64 / t.matches().max(1) as f64,
            t.faults(),
            t.parts
                .iter()
                .map(|p| p.played.mean_match_ms * p.played.matches as f64)
                .sum::<f64>()
                / t.matches().max(1) as f64,
            t.load.0,
            t.load.1
        );
        let per_match = |counts: &BTreeMap<Kind, u64>, matches: u64| {
            counts
                .iter()
                .map(|(k, n)| format!("{} {:.2}", k.prefix(), *n as f64 / matches.max(1) as f64))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for l in &self.ladders {
            out += &format!(
                "{} seats per match: {}\n",
                l.db,
                per_match(&l.played.seats_by_kind, l.played.matches)
            );
        }
        for l in &self.ladders {
            for (line, n) in &l.stderr_lines {
                out += &format!("{} server stderr, {n} x: {line}\n", l.db);
            }
        }
        let mut seats = BTreeMap::new();
        let mut starts = BTreeMap::new();
        for p in &t.parts {
            for (k, n) in &p.played.seats_by_kind {
                *seats.entry(*k).or_insert(0) += n;
            }
            for (k, n) in &p.starts_by_kind {
                *starts.entry(*k).or_insert(0) += n;
            }
        }
        out += &format!(
            "tournament seats per match: {}\ntournament process starts per match: {}\n",
            per_match(&seats, t.matches()),
            per_match(&starts, t.matches())
        );
        for p in &self.longer {
            out += &format!(
                "tournament of {} matches at {} players: {:.2} matches/s, {} process starts ({:.2} per match), CPU {:.0} ms per match\n",
                p.played.matches,
                p.players,
                p.rate(),
                p.process_starts,
                p.process_starts as f64 / p.played.matches.max(1) as f64,
                1000.0 * p.cpu.total() / p.played.matches.max(1) as f64
            );
        }
        for s in &self.starts {
            out += &format!(
                "referee match of 3 {:<18} CPU {:6.1} ms, wall {:6.1} ms; CPU per start {:5.1} ms\n",
                s.kind.prefix(),
                s.match_cpu_ms,
                s.match_wall_ms,
                s.cpu_ms_per_start
            );
        }
        out
    }

    /// The figures as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "plan": {
                "bots": self.plan.bots,
                "matches": self.plan.matches,
                "window_from": self.plan.window_from,
                "jobs": self.plan.jobs,
                "probe_every_ms": self.plan.probe_every.as_millis() as u64,
                "players": [PLAYERS.0, PLAYERS.1],
                "seed": SEED,
            },
            "field": self.field.iter().map(|(k, n)| (k.prefix().to_owned(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "cores": self.cores,
            "load_before": self.load_before,
            "cpu_by_cgroup": self.cpu_by_cgroup,
            "ladders": self.ladders.iter().map(LadderRun::to_json).collect::<Vec<_>>(),
            "tournament": self.tournament.to_json(),
            "ratios": self.ladders.iter().map(|l| (l.db.to_owned(), json!(l.rate() / self.tournament.rate()))).collect::<serde_json::Map<_, _>>(),
            "process_start": self.starts.iter().map(|s| json!({
                "kind": s.kind.prefix(),
                "match_cpu_ms": s.match_cpu_ms,
                "match_wall_ms": s.match_wall_ms,
                "cpu_ms_per_start": s.cpu_ms_per_start,
            })).collect::<Vec<_>>(),
            "longer_tournaments": self.longer.iter().map(TournamentPart::to_json).collect::<Vec<_>>(),
        })
    }
}
