//! The board's benchmark at scale (`cargo bench -p tests --bench ladder_board`) run small so
//! that its code does not rot: the same code (`tests/load/ladder_board/`), 8 bots and 40
//! matches, on SQLite and on PostgreSQL, the board loaded once cold and once warm in
//! Chromium; its figures are checked for what they must be, not for how fast.

#[path = "../../load/ladder_board/mod.rs"]
mod board;

use crate::util::{referee, skipped, temp_dir};

#[test]
fn eight_bots_forty_matches_on_each_database() {
    let mut dbs = vec![board::Database::Sqlite];
    match std::env::var("REFEREE_TEST_POSTGRES") {
        Ok(admin) => dbs.push(board::Database::Postgres(admin)),
        Err(_) => skipped(
            "ladder board scale smoke on PostgreSQL",
            "REFEREE_TEST_POSTGRES is not set",
        ),
    }
    let env = board::Env {
        dir: temp_dir("ladder-board-scale"),
        referee: Box::new(referee),
    };
    let plan = board::Plan {
        bots: 8,
        matches: 40,
        requests: 3,
        cold_loads: 1,
        warm_loads: 1,
    };
    let report = board::run(&env, &plan, &dbs);
    println!("{}", report.table());

    assert!(report.tournament_s > 0.0);
    assert_eq!(report.runs.len(), dbs.len());
    for run in &report.runs {
        // Every match of the tournament is recorded, and the database holds them.
        assert_eq!(run.filled.matches, 40, "{run:?}");
        assert!(run.filled.db_bytes > 0, "{run:?}");
        // Each endpoint answered every request, with something.
        for timing in [&run.page, &run.standings] {
            assert_eq!(timing.samples_ms.len(), 3, "{run:?}");
            assert!(timing.first_ms > 0.0 && timing.bytes > 0, "{run:?}");
        }
        assert!(run.assets_bytes > 0, "{run:?}");
        // The browser painted the board (its 8 rows are checked by the run itself), and
        // loaded its style and script.
        if let Some(loads) = &run.loads {
            assert_eq!((loads.cold.len(), loads.warm.len()), (1, 1), "{run:?}");
            for load in loads.cold.iter().chain(&loads.warm) {
                assert!(load.fcp_ms > 0.0, "{load:?}");
                assert!(load.load_ms >= load.response_end_ms, "{load:?}");
                // The same page but for its ages ("12 s ago"), which may have moved on.
                assert!(
                    load.html_bytes.abs_diff(run.page.bytes as u64) < 200,
                    "{load:?}"
                );
                assert_eq!(load.assets, 2, "{load:?}");
                assert_eq!(load.assets_bytes, run.assets_bytes as u64, "{load:?}");
            }
        }
    }
    let json = report.to_json();
    assert_eq!(json["runs"].as_array().unwrap().len(), dbs.len());
}
