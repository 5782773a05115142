//! One database's run: the ladder made and filled, served, and its board measured (the HTTP
//! timings first, while the server is fresh, then the browser's loads).

use serde_json::{Value, json};

use super::fill::fill;
use super::http::{Timing, get, time};
use super::paint::{Load, Loads, loads};
use super::serve::Server;
use super::{Database, Env, Field, Filled, Plan};
use crate::databases::PgDatabase;

/// The board's style and script, as `layout::page` links them.
const ASSETS: [&str; 2] = ["/assets/board.css", "/assets/board.js"];

/// What one database's run measured.
#[derive(Clone, Debug)]
pub struct BoardRun {
    /// `sqlite` or `postgresql`.
    pub db: &'static str,
    /// The fill.
    pub filled: Filled,
    /// `GET /`, the board.
    pub page: Timing,
    /// `GET /api/v1/standings`.
    pub standings: Timing,
    /// The bytes of the board's style and script.
    pub assets_bytes: usize,
    /// The browser's loads (`None` without Chromium).
    pub loads: Option<Loads>,
}

/// Makes, fills, serves and measures the ladder of `field` on `db`.
pub(super) fn measure(env: &Env, plan: &Plan, field: &Field, db: &Database) -> BoardRun {
    let dir = env.dir.join(format!("ladder-{}", db.label()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pg = match db {
        Database::Sqlite => None,
        Database::Postgres(admin) => Some(PgDatabase::create(
            admin,
            &format!("ladder_board_{}", std::process::id()),
        )),
    };
    let filled = fill(
        env,
        field,
        &dir,
        pg.as_ref().map(|pg| pg.url.as_str()),
        db.label(),
    );
    let server = Server::start(env, &filled.home, &dir.join("serve.stderr"));
    let (page, _) = time(&server.url, "/", plan.requests);
    let (standings, json) = time(&server.url, "/api/v1/standings", plan.requests);
    let rows: Vec<Value> = serde_json::from_slice(&json).unwrap();
    assert_eq!(rows.len(), field.bots.len(), "every bot on the standings");
    let assets_bytes = ASSETS
        .iter()
        .map(|path| {
            let answer = get(&server.url, path);
            assert_eq!(answer.status, 200, "GET {path}");
            answer.body.len()
        })
        .sum();
    let loads = loads(&server.url, plan.cold_loads, plan.warm_loads);
    for load in loads.iter().flat_map(|l| l.cold.iter().chain(&l.warm)) {
        assert_eq!(load.rows, field.bots.len() as u64, "the board's rows");
    }
    let stderr = server.stderr.clone();
    let status = server.stop();
    assert!(
        status.success(),
        "the server ended with {status} (see {})",
        stderr.display()
    );
    drop(pg);
    BoardRun {
        db: db.label(),
        filled,
        page,
        standings,
        assets_bytes,
        loads,
    }
}

impl BoardRun {
    /// The figures as JSON (for `target/ladder-board.json`).
    pub fn to_json(&self) -> Value {
        let timing = |t: &Timing| {
            json!({
                "bytes": t.bytes,
                "first_ms": t.first_ms,
                "requests": t.samples_ms.len(),
                "p50_ms": t.quantile(0.5),
                "p90_ms": t.quantile(0.9),
                "max_ms": t.quantile(1.0),
            })
        };
        let loads = |loads: &[Load]| {
            let q = |what: fn(&Load) -> f64, q: f64| Loads::quantile(loads, what, q);
            json!({
                "loads": loads.len(),
                "fcp_ms": { "min": q(|l| l.fcp_ms, 0.0), "p50": q(|l| l.fcp_ms, 0.5), "max": q(|l| l.fcp_ms, 1.0) },
                "response_start_ms_p50": q(|l| l.response_start_ms, 0.5),
                "response_end_ms_p50": q(|l| l.response_end_ms, 0.5),
                "dom_content_loaded_ms_p50": q(|l| l.dom_content_loaded_ms, 0.5),
                "load_ms_p50": q(|l| l.load_ms, 0.5),
                "html_transfer_bytes": loads.first().map(|l| l.html_transfer),
                "html_bytes": loads.first().map(|l| l.html_bytes),
                "assets": loads.first().map(|l| l.assets),
                "assets_transfer_bytes": loads.first().map(|l| l.assets_transfer),
                "assets_bytes": loads.first().map(|l| l.assets_bytes),
                "fcp_ms_each": loads.iter().map(|l| l.fcp_ms).collect::<Vec<_>>(),
            })
        };
        json!({
            "db": self.db,
            "fill": {
                "matches": self.filled.matches,
                "seconds": self.filled.seconds,
                "db_bytes": self.filled.db_bytes,
            },
            "page": timing(&self.page),
            "assets_bytes": self.assets_bytes,
            "standings": timing(&self.standings),
            "chromium": self.loads.as_ref().map(|l| json!({
                "cold": loads(&l.cold),
                "warm": loads(&l.warm),
            })),
        })
    }
}
