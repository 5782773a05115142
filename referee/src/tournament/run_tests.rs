//! The tournament as a library: built-in bots (no processes), a reporter that keeps every
//! event, and an interrupt fired from the reporter.

use super::*;
use crate::seat::{BotSpec, Launch};
use engine::GameKind;

fn config(out: &std::path::Path, schedule: ScheduleKind, matches: u64) -> TournamentConfig {
    let bot = |name: &str, builtin: &str| {
        BotSpec::new(Some(name.into()), Launch::Builtin(builtin.into())).expect("a valid bot")
    };
    TournamentConfig {
        game: GameKind::Vabanque,
        options: serde_json::json!({}),
        bots: vec![
            bot("h", "heuristic"),
            bot("r1", "random"),
            bot("r2", "random"),
            bot("r3", "random"),
        ],
        players: Some(3),
        matches: Some(matches),
        seed: 11,
        format: schedule.into(),
        candidate: 0,
        duplicate: true,
        shard: None,
        resume: false,
        out: out.to_path_buf(),
        logs: false,
        jobs: 2,
        pin: false,
        max_faults: 3,
        policy: crate::runner::FaultPolicy::default(),
        process: Default::default(),
    }
}

/// Every event, in order, as a word; and the snapshots' match counts.
#[derive(Default)]
struct Kept {
    events: Vec<&'static str>,
    snapshots: Vec<u64>,
    started: Option<Started>,
    stop_after: Option<(u64, Option<tokio::sync::oneshot::Sender<()>>)>,
}

impl Reporter for Kept {
    fn started(&mut self, started: &Started) {
        self.events.push("started");
        self.started = Some(started.clone());
    }

    fn match_finished(&mut self, _result: &MatchResult, standings: &Snapshot) {
        self.events.push("match");
        self.snapshots.push(standings.matches);
        if let Some((after, stop)) = &mut self.stop_after
            && standings.matches >= *after
            && let Some(stop) = stop.take()
        {
            let _ = stop.send(());
        }
    }

    fn finished(&mut self, _board: &Leaderboard) {
        self.events.push("finished");
    }

    fn interrupted(&mut self, _written: u64) {
        self.events.push("interrupted");
    }
}

/// The leaderboard of `outcome` without its decision times (which vary from run to run).
fn untimed(outcome: Outcome) -> Leaderboard {
    let Outcome::Finished(mut board) = outcome else {
        panic!("finished, got {outcome:?}")
    };
    for standing in &mut board.standings {
        (standing.mean_ms, standing.p99_ms) = (None, None);
    }
    board
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn matches_file(out: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(out.join(results::MATCHES_FILE))
        .expect("matches.jsonl")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_run_reports_every_match_then_the_leaderboard_it_returns() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = config(dir.path(), ScheduleKind::RoundRobin, 18);
    let mut kept = Kept::default();
    let outcome = runtime()
        .block_on(run(&config, &mut kept, std::future::pending()))
        .expect("the tournament runs");
    let Outcome::Finished(board) = outcome else {
        panic!("not interrupted")
    };
    let mut expected = vec!["started"];
    expected.extend(std::iter::repeat_n("match", 18));
    expected.push("finished");
    assert_eq!(kept.events, expected);
    assert_eq!(kept.snapshots, (1..=18).collect::<Vec<u64>>());
    let started = kept.started.expect("started");
    assert_eq!((started.share, started.done, started.players), (18, 0, 3));
    assert_eq!(
        started.unbalanced,
        Some(12),
        "18 matches are not whole cycles of 12"
    );
    assert_eq!(board.matches, 18);
    assert_eq!(matches_file(dir.path()).len(), 18);
    // The leaderboard is the one `referee leaderboard` computes from the directory.
    let back = results::read_back(dir.path()).expect("a results directory");
    assert_eq!(
        leaderboard(&back.meta, &back.results).expect("a known game"),
        board
    );
}

#[test]
fn an_interrupted_run_keeps_what_it_wrote_and_a_resume_finishes_the_same_tournament() {
    let whole = tempfile::tempdir().expect("a temporary directory");
    let full = runtime()
        .block_on(run(
            &config(whole.path(), ScheduleKind::Gauntlet, 30),
            &mut (),
            std::future::pending(),
        ))
        .expect("the tournament runs");

    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut first = config(dir.path(), ScheduleKind::Gauntlet, 30);
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let mut kept = Kept {
        stop_after: Some((3, Some(stop))),
        ..Kept::default()
    };
    let interrupt = async {
        let _ = stopped.await;
    };
    let outcome = runtime()
        .block_on(run(&first, &mut kept, interrupt))
        .expect("the tournament runs");
    let Outcome::Interrupted { written } = outcome else {
        panic!("interrupted after 3 matches, got {outcome:?}")
    };
    assert!(
        written >= 3,
        "{written} matches written before the interrupt"
    );
    assert_eq!(kept.events.last(), Some(&"interrupted"));
    assert_eq!(matches_file(dir.path()).len() as u64, written);

    // Without resume the directory is refused; with it, the rest is played.
    let refused = runtime().block_on(run(&first, &mut (), std::future::pending()));
    assert!(matches!(refused, Err(e) if e.is_usage()));
    first.resume = true;
    let mut resumed = Kept::default();
    let outcome = runtime()
        .block_on(run(&first, &mut resumed, std::future::pending()))
        .expect("the resumed tournament runs");
    assert_eq!(
        resumed.started.expect("started").done,
        written,
        "the resumed run counts what was written"
    );
    // Ratings depend on the order of results, which is by id whatever the interruption.
    assert_eq!(
        untimed(outcome),
        untimed(full),
        "the same leaderboard as an uninterrupted run"
    );
}

#[test]
fn settings_that_cannot_be_played_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let target = dir.path().join("out");
    let mut bad = config(&target, ScheduleKind::RoundRobin, 3);
    bad.players = Some(9);
    let error = runtime()
        .block_on(run(&bad, &mut (), std::future::pending()))
        .expect_err("9 players");
    assert!(error.is_usage());
    assert!(error.to_string().contains("not 9"), "{error}");
    bad.players = Some(3);
    bad.bots[1] = BotSpec::new(Some("x".into()), Launch::Builtin("nope".into())).unwrap();
    let error = runtime()
        .block_on(run(&bad, &mut (), std::future::pending()))
        .expect_err("an unknown built-in");
    assert!(
        error.to_string().contains("no built-in bot 'nope'"),
        "{error}"
    );
    assert!(!target.exists(), "nothing was written");
}
