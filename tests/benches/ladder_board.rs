//! The ladder's board at scale: `cargo bench -p tests --bench ladder_board`.
//!
//! The board of a ladder of 100 bots whose store holds 100,000 recorded ranked matches of 4
//! seats (played by `referee tournament` of the same built-in bots, then recorded through the
//! store's own methods), served by `referee ladder serve -j 0` (the matchmaker paused): the
//! board's bytes with and without its style and script, the server's time for `GET /` and
//! `GET /api/v1/standings`, and the first contentful paint in headless Chromium, cold (a new
//! browser each load) and warm; on SQLite, then on PostgreSQL. It prints a Markdown table and
//! writes the figures to `target/ladder-board.json`. The code is `tests/load/ladder_board/`
//! (the e2e test `ladder::board_scale_smoke` runs it small); the goals are under 1 s to the
//! first paint and under 500 KB.
//!
//! Settings, from the environment: `LADDER_BOARD_BOTS` (100), `LADDER_BOARD_MATCHES`
//! (100000), `LADDER_BOARD_REQUESTS` (20), `LADDER_BOARD_COLD` (5), `LADDER_BOARD_WARM` (10),
//! and `REFEREE_TEST_POSTGRES` (a PostgreSQL role that may create databases, e.g.
//! `postgres://referee:referee@127.0.0.1:5432/postgres`; `.ci/postgres` starts one), without
//! which PostgreSQL is left out.

// The e2e tests' browser (`crate::browser`) and the helpers it uses (`crate::util`), as the
// e2e binary has them; what the bench does not use of them is allowed (and the imports of
// the browser's own unit test, which a bench leaves out).
#[allow(dead_code)]
#[path = "../e2e/util.rs"]
mod util;

#[allow(dead_code, unused_imports)]
#[path = "../e2e/browser.rs"]
mod browser;

#[path = "../load/ladder_board/mod.rs"]
mod board;

#[path = "../load/bench_setup.rs"]
mod bench_setup;
#[path = "../load/databases.rs"]
mod databases;

use bench_setup::{build_referee, setting};
use std::path::Path;
use std::process::Command;

fn main() {
    let root = util::root();
    let target_tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let referee = build_referee(&root);
    let plan = board::Plan {
        bots: setting("LADDER_BOARD_BOTS", 100),
        matches: setting("LADDER_BOARD_MATCHES", 100_000),
        requests: setting("LADDER_BOARD_REQUESTS", 20),
        cold_loads: setting("LADDER_BOARD_COLD", 5),
        warm_loads: setting("LADDER_BOARD_WARM", 10),
    };
    let mut dbs = vec![board::Database::Sqlite];
    match std::env::var("REFEREE_TEST_POSTGRES") {
        Ok(admin) => dbs.push(board::Database::Postgres(admin)),
        Err(_) => eprintln!("ladder board: REFEREE_TEST_POSTGRES is not set: SQLite only"),
    }
    let dir = target_tmp.join("ladder-board");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let env = board::Env {
        dir: dir.clone(),
        referee: Box::new(move || {
            let mut command = Command::new(&referee);
            command.current_dir(&root);
            command
        }),
    };
    let report = board::run(&env, &plan, &dbs);
    print!("{}", report.table());
    let json = target_tmp
        .parent()
        .unwrap_or(target_tmp)
        .join("ladder-board.json");
    std::fs::write(
        &json,
        serde_json::to_string_pretty(&report.to_json()).unwrap() + "\n",
    )
    .unwrap();
    println!("written: {}", json.display());
    // The ladders' homes and the tournament's results: a gigabyte or more.
    let _ = std::fs::remove_dir_all(&dir);
}
