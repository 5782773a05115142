//! The ladder's load benchmark (issue 29): `cargo bench -p tests --bench ladder_load`.
//!
//! A ladder of 100 bots (built-ins, and Python, JavaScript and Go process bots, each a copy of
//! a sample under its own name), `referee ladder serve -j 4` on SQLite and then on PostgreSQL
//! until 600 ranked matches are recorded, its matches/s from match 50 on, the API's latencies
//! meanwhile, the database's and the artifact store's size per 10,000 matches; and `referee
//! tournament` of the same bots, table sizes and `-j` on the same machine. It prints a table
//! and writes the figures to `target/ladder-load.json`. The code is `tests/load/ladder_load/`
//! (the e2e test `ladder::load_smoke` runs it small).
//!
//! Settings, from the environment: `LADDER_LOAD_BOTS` (100), `LADDER_LOAD_MATCHES` (600),
//! `LADDER_LOAD_WINDOW_FROM` (50), `LADDER_LOAD_JOBS` (4), `LADDER_LOAD_START_RUNS` (10), and
//! `REFEREE_TEST_POSTGRES` (a PostgreSQL role that may create databases, e.g.
//! `postgres://referee:referee@127.0.0.1:5432/postgres`; `.ci/postgres` starts one), without
//! which PostgreSQL is left out.

#[path = "../load/ladder_load/mod.rs"]
mod load;

#[path = "../load/bench_setup.rs"]
mod bench_setup;
#[path = "../load/databases.rs"]
mod databases;

use bench_setup::{build_referee, setting};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let target_tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let referee = build_referee(&root);
    let plan = load::Plan {
        bots: setting("LADDER_LOAD_BOTS", 100),
        matches: setting("LADDER_LOAD_MATCHES", 600),
        window_from: setting("LADDER_LOAD_WINDOW_FROM", 50),
        jobs: setting("LADDER_LOAD_JOBS", 4),
        probe_every: Duration::from_millis(250),
        // The figures need every bot's CPU: a cgroup v1 `cpuacct` group (as root).
        exact_cpu: true,
        timeout: Duration::from_secs(3600),
        start_runs: setting("LADDER_LOAD_START_RUNS", 10),
        longer: vec![1, 4, 10],
    };
    let mut dbs = vec![load::Database::Sqlite];
    match std::env::var("REFEREE_TEST_POSTGRES") {
        Ok(admin) => dbs.push(load::Database::Postgres(admin)),
        Err(_) => eprintln!("ladder load: REFEREE_TEST_POSTGRES is not set: SQLite only"),
    }
    let dir = target_tmp.join("ladder-load");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let env = load::Env {
        root: root.clone(),
        dir,
        referee: Box::new(move || {
            let mut command = Command::new(&referee);
            command.current_dir(&root);
            command
        }),
    };
    let report = load::run(&env, &plan, &dbs);
    print!("{}", report.table());
    let json = target_tmp
        .parent()
        .unwrap_or(target_tmp)
        .join("ladder-load.json");
    std::fs::write(
        &json,
        serde_json::to_string_pretty(&report.to_json()).unwrap() + "\n",
    )
    .unwrap();
    println!("written: {}", json.display());
}
