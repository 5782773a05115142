//! The ladder's load benchmark (`cargo bench -p tests --bench ladder_load`, issue 29) run
//! small so that its code does not rot: the same code (`tests/load/ladder_load/`), 12 bots
//! of every kind, 20 matches, on SQLite and on PostgreSQL, then the tournaments and the
//! start costs; its figures are checked for what they must be, not for how fast.

#[path = "../../load/ladder_load/mod.rs"]
mod load;

use crate::util::{
    MARK_VAR, assert_no_marked_survivors, mark_of, referee, root, skipped, temp_dir,
};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[test]
fn twelve_bots_twenty_matches_on_each_database() {
    let mut dbs = vec![load::Database::Sqlite];
    match std::env::var("REFEREE_TEST_POSTGRES") {
        Ok(admin) => dbs.push(load::Database::Postgres(admin)),
        Err(_) => skipped(
            "ladder load smoke on PostgreSQL",
            "REFEREE_TEST_POSTGRES is not set",
        ),
    }
    let marks = Arc::new(Mutex::new(Vec::new()));
    let made = marks.clone();
    let env = load::Env {
        root: root(),
        dir: temp_dir("ladder-load"),
        referee: Box::new(move || {
            let command = referee();
            made.lock().unwrap().push(mark_of(&command));
            command
        }),
    };
    let plan = load::Plan {
        bots: 12,
        matches: 20,
        window_from: 5,
        jobs: 4,
        probe_every: Duration::from_millis(100),
        // Counted by a cgroup where one can be made (as root), else by wait4.
        exact_cpu: false,
        timeout: Duration::from_secs(180),
        start_runs: 1,
        longer: vec![1, 2],
    };
    let report = load::run(&env, &plan, &dbs);
    println!("{}", report.table());

    // Every kind is in the field, and every copy is a bot of its own (copies of one source,
    // and built-ins of one name, are distinct bots): the window opens only once the standings
    // list all 12 (`builds_s` is when they did), and all 12 played.
    assert_eq!(
        report.field.len(),
        load::Kind::ALL.len(),
        "{:?}",
        report.field
    );
    assert_eq!(report.field.values().sum::<usize>(), 12);
    assert_eq!(report.ladders.len(), dbs.len());
    for ladder in &report.ladders {
        assert!(ladder.builds_s > 0.0, "{ladder:?}");
        assert_eq!(ladder.played.bots, 12, "{ladder:?}");
        assert!(ladder.window_matches.0 >= 5, "{ladder:?}");
        assert!(ladder.window_matches.1 >= 20, "{ladder:?}");
        assert!(ladder.window_s > 0.0 && ladder.rate() > 0.0, "{ladder:?}");
        assert!(
            ladder.server_cpu.own > 0.0 && ladder.server_cpu.children > 0.0,
            "{ladder:?}"
        );
        assert!(!ladder.info.samples.is_empty(), "{ladder:?}");
        assert!(!ladder.standings.samples.is_empty(), "{ladder:?}");
        assert_eq!(
            ladder.info.errors + ladder.standings.errors,
            0,
            "{ladder:?}"
        );
        assert!(ladder.info.quantile(0.99) >= ladder.info.quantile(0.5));
        assert!(ladder.info.quantile(0.5) > 0.0);
        // Each reading is of a database and a store holding something, and both grow.
        assert!(ladder.db_bytes.iter().all(|&b| b > 0), "{ladder:?}");
        assert!(ladder.artifact_bytes.iter().all(|&b| b > 0), "{ladder:?}");
        assert!(ladder.db_bytes[3] > ladder.db_bytes[0], "{ladder:?}");
        assert!(
            ladder.artifact_bytes[2] > ladder.artifact_bytes[1],
            "{ladder:?}"
        );
        // A few matches may fit in PostgreSQL's pages already allocated: the database's
        // growth in so short a window may be 0, never its logs'.
        assert!(ladder.artifacts_per_10k() > 0.0, "{ladder:?}");
        // The export holds every match recorded, each at a table of 3 to 5.
        assert!(ladder.played.matches >= 20, "{ladder:?}");
        assert!(
            ladder.played.sizes.keys().all(|&p| (3..=5).contains(&p)),
            "{ladder:?}"
        );
        assert!(ladder.played.process_seats > 0, "{ladder:?}");
        assert!(ladder.played.decisions > 0, "{ladder:?}");
    }
    let tournament = &report.tournament;
    assert!(tournament.matches() > 0);
    assert!(tournament.rate() > 0.0);
    assert!(tournament.process_starts() > 0);
    assert!(
        tournament
            .parts
            .iter()
            .all(|p| p.cpu.own > 0.0 && p.cpu.children > 0.0),
        "{tournament:?}"
    );
    for part in &tournament.parts {
        assert!(
            report.ladders[0].played.sizes.contains_key(&part.players),
            "{part:?}"
        );
        assert_eq!(part.played.matches % part.players as u64, 0, "{part:?}");
    }
    // The longer tournaments play what they were asked, and start processes.
    assert_eq!(report.longer.len(), 2);
    assert_eq!(report.longer[0].played.matches, 4);
    assert_eq!(report.longer[1].played.matches, 8);
    assert!(
        report
            .longer
            .iter()
            .all(|p| p.process_starts > 0 && p.rate() > 0.0)
    );
    // A built-in's match first, then one per process language.
    assert_eq!(report.starts[0].kind, load::Kind::BuiltinRandom);
    assert_eq!(report.starts.len(), 4, "{:?}", report.starts);
    for start in &report.starts {
        assert!(
            start.match_cpu_ms > 0.0 && start.match_wall_ms > 0.0,
            "{start:?}"
        );
    }
    let json = report.to_json();
    assert_eq!(json["ladders"].as_array().unwrap().len(), dbs.len());
    assert!(json["ratios"]["sqlite"].as_f64().unwrap() > 0.0);

    // Nothing the run started is left: no server, worker, tournament or bot.
    for mark in marks.lock().unwrap().iter() {
        let mut marked = Command::new("true");
        marked.env(MARK_VAR, mark);
        assert_no_marked_survivors(&marked);
    }
}
