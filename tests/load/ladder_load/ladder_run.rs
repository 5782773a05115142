//! One ladder's run: `referee ladder init` and `serve` of the field on a database until the
//! plan's matches are recorded, then stopped, measured and exported.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::cpu::{CpuGroup, Meter};
use super::database::{PgDatabase, bytes_under, db_bytes, sqlite_files, table_bytes};
use super::field::Sources;
use super::played::played;
use super::probe::{Running, Stores, probe};
use super::process::{Guard, referee};
use super::{Bot, Cpu, Database, Env, LIMITS, Latency, PLAYERS, Plan, Played, SEED};

/// One ladder's run.
#[derive(Clone, Debug)]
pub struct LadderRun {
    /// `sqlite` or `postgresql`.
    pub db: &'static str,
    /// From `serve`'s start until every version was built and checked, in seconds.
    pub builds_s: f64,
    /// Matches recorded when the window opened and when it closed.
    pub window_matches: (u64, u64),
    /// The window's length in seconds.
    pub window_s: f64,
    /// CPU seconds of the server (its own: API, matchmaker, workers, the referee's side of
    /// each match) and of everything it started and reaped (the bots, their sandbox) in the
    /// window.
    pub server_cpu: Cpu,
    /// CPU seconds of the PostgreSQL backends serving the ladder's database in the window
    /// (0 with SQLite, which works in the server's own threads).
    pub db_cpu_s: f64,
    /// CPU seconds of the whole machine in the window (every process, ours or not).
    pub machine_cpu_s: f64,
    /// The load average (1 minute) when the window opened and when it closed.
    pub load: (f64, f64),
    /// The info endpoint's latencies in the window.
    pub info: Latency,
    /// The public standings' latencies in the window.
    pub standings: Latency,
    /// The database's bytes after `init`, when the window opened, when it closed, and after
    /// the server stopped.
    pub db_bytes: [u64; 4],
    /// The artifact store's bytes at the same four points.
    pub artifact_bytes: [u64; 4],
    /// SQLite's files on disk (the database and its `-wal`) after the run; 0 for PostgreSQL.
    pub sqlite_files: u64,
    /// Each table's bytes after the run, with its indexes.
    pub tables: BTreeMap<String, u64>,
    /// The matches recorded by the end (the export of the whole ladder).
    pub played: Played,
    /// Lines of the server's stderr: its internal errors (`ladder: internal error`, `ladder:
    /// the matchmaker failed`), and results its workers could not report (`the server did
    /// not take the result`: the match is played again once its lease expires).
    pub server_errors: u64,
    /// Results the server refused (see `server_errors`).
    pub results_refused: u64,
    /// The server's stderr, every distinct line (job numbers masked) with its count.
    pub stderr_lines: BTreeMap<String, u64>,
}

impl LadderRun {
    /// Matches recorded per second in the window.
    pub fn rate(&self) -> f64 {
        (self.window_matches.1 - self.window_matches.0) as f64 / self.window_s
    }

    /// The database's growth in the window, per 10,000 matches, in bytes (the versions,
    /// builds and checks are all in before it opens).
    pub fn db_per_10k(&self) -> f64 {
        self.per_10k(&self.db_bytes)
    }

    /// The artifact store's growth in the window (matches' logs and stderr: the builds are
    /// all in before it opens), per 10,000 matches, in bytes.
    pub fn artifacts_per_10k(&self) -> f64 {
        self.per_10k(&self.artifact_bytes)
    }

    /// The growth of `bytes` (read at the four points) in the window, per 10,000 matches.
    fn per_10k(&self, bytes: &[u64; 4]) -> f64 {
        let matches = self.window_matches.1 - self.window_matches.0;
        bytes[2].saturating_sub(bytes[1]) as f64 / matches.max(1) as f64 * 10_000.0
    }

    /// CPU milliseconds per match in the window: the server's, its bots' and PostgreSQL's.
    pub fn cpu_ms_per_match(&self) -> f64 {
        1000.0 * (self.server_cpu.total() + self.db_cpu_s)
            / (self.window_matches.1 - self.window_matches.0) as f64
    }

    /// The server's own CPU milliseconds per match in the window (without its bots').
    pub fn own_cpu_ms_per_match(&self) -> f64 {
        1000.0 * self.server_cpu.own / (self.window_matches.1 - self.window_matches.0) as f64
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    pub(super) fn to_json(&self) -> Value {
        json!({
            "db": self.db,
            "builds_s": self.builds_s,
            "window": {
                "from_matches": self.window_matches.0,
                "to_matches": self.window_matches.1,
                "seconds": self.window_s,
                "matches_per_s": self.rate(),
                "server_cpu_s": self.server_cpu.total(),
                "server_own_cpu_s": self.server_cpu.own,
                "server_own_cpu_ms_per_match": self.own_cpu_ms_per_match(),
                "postgres_cpu_s": self.db_cpu_s,
                "server_cpu_ms_per_match": self.cpu_ms_per_match(),
                "machine_cpu_s": self.machine_cpu_s,
                "load_1min": [self.load.0, self.load.1],
            },
            "api": { "info": self.info.to_json(), "standings": self.standings.to_json() },
            "db_bytes": {
                "after_init": self.db_bytes[0],
                "window_open": self.db_bytes[1],
                "window_close": self.db_bytes[2],
                "after_run": self.db_bytes[3],
                "per_10k_matches": self.db_per_10k(),
                "sqlite_files_after_run": self.sqlite_files,
                "tables_after_run": self.tables,
            },
            "artifact_bytes": {
                "after_init": self.artifact_bytes[0],
                "window_open": self.artifact_bytes[1],
                "window_close": self.artifact_bytes[2],
                "after_run": self.artifact_bytes[3],
                "per_10k_matches": self.artifacts_per_10k(),
            },
            "played": self.played.to_json(),
            "server_errors": self.server_errors,
            "results_refused": self.results_refused,
            "server_stderr": self.stderr_lines,
        })
    }
}

/// Every distinct line of a server's stderr, job numbers masked (`job N`), with its count.
fn stderr_lines(path: &Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines = BTreeMap::new();
    for line in text.lines() {
        let masked = match line.split_once("job ") {
            Some((head, rest)) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                format!("{head}job N{tail}")
            }
            _ => line.to_owned(),
        };
        *lines.entry(masked).or_insert(0) += 1;
    }
    lines
}

/// The ladder's file of `bots`.
fn ladder_toml(dir: &Path, bots: &[Bot], sources: &Sources) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = [{}, {}]\nseed = {SEED}\n{LIMITS}\n[matchmaking]\nqueue = 8\n\n",
        PLAYERS.0, PLAYERS.1
    );
    for bot in bots {
        text += &format!(
            "[[bot]]\nname = {:?}\nlang = {:?}\npath = {:?}\n\n",
            bot.name,
            bot.kind.lang(),
            sources.paths[&bot.name]
        );
    }
    let path = dir.join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// A ladder of `bots` on `db`: `init`, then `serve -j J` until `plan.matches` are recorded,
/// the API probed all the while; stopped, measured and exported.
pub(super) fn run_ladder(
    env: &Env,
    plan: &Plan,
    bots: &[Bot],
    sources: &Sources,
    db: &Database,
) -> LadderRun {
    let dir = env.dir.join(format!("ladder-{}", db.label()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = ladder_toml(&dir, bots, sources);
    let home = dir.join("home");
    let pg = match db {
        Database::Sqlite => None,
        Database::Postgres(admin) => Some(PgDatabase::create(
            admin,
            &format!("ladder_load_{}_{}", db.label(), std::process::id()),
        )),
    };
    let mut init = referee(env);
    init.args(["ladder", "init"])
        .arg(&file)
        .arg("--home")
        .arg(&home);
    if let Some(pg) = &pg {
        init.args(["--db", &pg.url]);
    }
    let made = init.output().unwrap();
    assert!(
        made.status.success(),
        "referee ladder init: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let sizes = || Stores {
        db_bytes: db_bytes(&home, pg.as_ref()),
        artifact_bytes: bytes_under(&home.join("artifacts")),
        backends: pg.as_ref().map(PgDatabase::backends).unwrap_or_default(),
    };
    let after_init = sizes();

    let stderr = dir.join("serve.stderr");
    let mut serve = referee(env);
    serve
        .args(["ladder", "serve"])
        .arg(&home)
        .args(["--listen", "127.0.0.1:0", "-j", &plan.jobs.to_string()])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr).unwrap());
    let group = CpuGroup::create(db.label());
    assert!(
        group.is_some() || !plan.exact_cpu,
        "no cpuacct group for the server"
    );
    if let Some(group) = &group {
        group.enter(&mut serve);
    }
    let started = Instant::now();
    let mut child = serve.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut server = Guard::new(child, Duration::from_secs(60));
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("ladder: serving on ") {
                let _ = tell.send(
                    rest.split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
        }
    });
    let url = told
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| {
            panic!(
                "the server says where it listens (see {})",
                stderr.display()
            )
        });

    let meter = Meter {
        pid: server.pid(),
        group: group.as_ref(),
    };
    let window = probe(
        &url,
        plan,
        bots.len(),
        Running {
            server: &mut server,
            meter: &meter,
            stderr: &stderr,
            started,
        },
        &sizes,
    );

    let (status, _) = server.stop();
    assert!(
        status.success(),
        "the server ended with {status} (see {})",
        stderr.display()
    );
    let after_run = sizes();
    let tables = table_bytes(&home, pg.as_ref());
    let sqlite_files = if pg.is_none() { sqlite_files(&home) } else { 0 };
    let export = dir.join("export");
    let exported = referee(env)
        .args(["ladder", "export", "--ladder"])
        .arg(&home)
        .arg(&export)
        .output()
        .unwrap();
    assert!(
        exported.status.success(),
        "referee ladder export: {}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let played = played(&export, bots);
    let lines = stderr_lines(&stderr);
    let count = |what: &[&str]| {
        lines
            .iter()
            .filter(|(line, _)| what.iter().any(|w| line.contains(w)))
            .map(|(_, n)| n)
            .sum::<u64>()
    };
    let server_errors = count(&["ladder: internal error", "ladder: the matchmaker failed"]);
    let results_refused = count(&["did not take the result"]);
    drop(pg);
    LadderRun {
        db: db.label(),
        builds_s: window.builds_s,
        window_matches: window.matches,
        window_s: window.seconds,
        server_cpu: window.server_cpu,
        machine_cpu_s: window.machine_cpu_s,
        load: window.load,
        info: window.info,
        standings: window.standings,
        db_bytes: [
            after_init.db_bytes,
            window.sizes.0.db_bytes,
            window.sizes.1.db_bytes,
            after_run.db_bytes,
        ],
        db_cpu_s: window.sizes.1.backend_cpu_since(&window.sizes.0),
        artifact_bytes: [
            after_init.artifact_bytes,
            window.sizes.0.artifact_bytes,
            window.sizes.1.artifact_bytes,
            after_run.artifact_bytes,
        ],
        sqlite_files,
        tables,
        played,
        server_errors,
        results_refused,
        stderr_lines: lines,
    }
}
