//! The library's entry points as a server or a worker calls them, with real bot processes (the
//! Python sample bots) and the default process policy: one match ([`run_match`]), and a
//! tournament ([`tournament::run`]) whose match is then played again from its results
//! directory alone ([`rerun::plan`]). Each asserts that the bots ran in the sandbox the default
//! policy (`auto`) gives where bubblewrap works, or said so where it does not.

use referee::policy::{BotProcesses, ProcessPolicy};
use referee::runner::{MatchConfig, MatchLog, MatchRecord, MatchReporter, run_match};
use referee::seat::{BotSpec, Launch, Sandbox, SandboxMode};
use referee::tournament::{self, Outcome, Reporter, ScheduleKind, TournamentConfig, rerun};
use std::path::{Path, PathBuf};

/// The directory of the Python sample bots.
fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-bots/python")
}

/// The three Python sample bots of Vabanque, each script named by `script` (its file name in
/// [`samples`] to the word of the command).
fn sample_bots_named(script: impl Fn(&str) -> String) -> Vec<BotSpec> {
    [
        "vabanque_heuristic.py",
        "vabanque_random.py",
        "vabanque_random.py",
    ]
    .iter()
    .enumerate()
    .map(|(i, file)| {
        let words = vec!["python3".into(), script(file)];
        BotSpec::new(Some(format!("bot-{i}")), Launch::Command(words)).unwrap()
    })
    .collect()
}

/// The three Python sample bots of Vabanque, by absolute path.
fn sample_bots() -> Vec<BotSpec> {
    sample_bots_named(|file| samples().join(file).display().to_string())
}

/// A match of Vabanque between `bots`, under the default policies.
fn vabanque_match(bots: Vec<BotSpec>, seed: u64, match_id: &str) -> MatchConfig {
    MatchConfig {
        game: engine::GameKind::Vabanque,
        options: serde_json::json!({}),
        bots,
        seed,
        match_id: match_id.into(),
        max_faults: 3,
        policy: Default::default(),
        process: ProcessPolicy::default(),
        outputs: Vec::new(),
    }
}

/// What the events said.
#[derive(Default)]
struct Seen {
    processes: Option<BotProcesses>,
    finished: Option<MatchRecord>,
}

impl MatchReporter for Seen {
    fn processes(&mut self, processes: &BotProcesses) {
        self.processes = Some(processes.clone());
    }

    fn finished(&mut self, record: &MatchRecord) {
        self.finished = Some(record.clone());
    }
}

impl Reporter for Seen {
    fn processes(&mut self, processes: &BotProcesses) {
        self.processes = Some(processes.clone());
    }
}

/// Asserts that `processes` is what the default policy gives here: bubblewrap where it works
/// (said so by [`BotProcesses::sandbox`]), else no sandbox and the warning that says why.
fn assert_default_sandbox(processes: &BotProcesses) {
    let (expected, _) = Sandbox::resolve(SandboxMode::Auto).expect("auto always resolves");
    assert_eq!(processes.options.sandbox, expected);
    if expected.is_bwrap() {
        assert!(
            processes
                .sandbox()
                .starts_with("bots run in the sandbox (bubblewrap"),
            "{}",
            processes.sandbox()
        );
    } else {
        assert!(
            processes
                .notices
                .iter()
                .any(|n| n.short().contains("bots run without a sandbox")),
            "{:?}",
            processes.notices
        );
    }
}

/// A fresh directory of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("library-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn a_match_of_sample_bot_processes_runs_under_the_default_policy() {
    let config = vabanque_match(sample_bots(), 7, "library-1");
    config.check().unwrap();
    let mut seen = Seen::default();
    let record = run_match(&config, None, &mut MatchLog::none(), &mut seen)
        .await
        .unwrap();
    assert_default_sandbox(seen.processes.as_ref().expect("the processes event"));
    assert_eq!(seen.finished.as_ref(), Some(&record));
    assert_eq!(record.players, ["bot-0", "bot-1", "bot-2"]);
    assert_eq!(record.scores.len(), 3);
    assert!(record.faults.is_empty(), "{:?}", record.faults);
}

#[test]
fn a_match_of_too_few_bots_is_refused_with_the_games_player_counts() {
    let config = vabanque_match(sample_bots()[..2].to_vec(), 7, "library-2");
    let error = config.check().unwrap_err();
    assert_eq!(
        error.to_string(),
        "vabanque is played by 3 to 6 players; 2 bots were given"
    );
    assert!(error.is_usage());
}

#[tokio::test]
async fn a_tournament_match_is_played_again_from_its_directory_with_the_recorded_result() {
    let out = scratch("rerun");
    let config = TournamentConfig {
        game: engine::GameKind::Vabanque,
        options: serde_json::json!({}),
        bots: sample_bots(),
        players: Some(3),
        matches: Some(1),
        seed: 11,
        format: ScheduleKind::RoundRobin.into(),
        candidate: 0,
        duplicate: true,
        shard: None,
        resume: false,
        out: out.clone(),
        logs: false,
        jobs: 1,
        pin: false,
        max_faults: 3,
        policy: Default::default(),
        process: ProcessPolicy::default(),
    };
    let mut seen = Seen::default();
    let outcome = tournament::run(&config, &mut seen, std::future::pending())
        .await
        .unwrap();
    assert!(matches!(outcome, Outcome::Finished(_)));
    assert_default_sandbox(seen.processes.as_ref().expect("the processes event"));

    let mut plan = rerun::plan(&out, 0).unwrap();
    plan.check().unwrap();
    let processes = plan
        .resolve(&ProcessPolicy::default(), std::slice::from_ref(&out))
        .unwrap();
    assert_default_sandbox(&processes);
    let rerun = plan
        .play(&processes.options, None, &mut MatchLog::none())
        .await
        .unwrap();
    assert!(rerun.comparison.same(), "{:?}", rerun.comparison);
    assert_eq!(rerun.record.scores, plan.recorded.record.scores);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_workdir_inside_an_output_is_refused_before_anything_changes() {
    let out = scratch("inside");
    let workdir = out.join("bot-0");
    std::fs::create_dir_all(&workdir).unwrap();
    let mut bots = sample_bots();
    bots[0].settings.workdir = Some(workdir.clone());
    let error = ProcessPolicy::default()
        .resolve(&mut bots, std::slice::from_ref(&out))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "bot 'bot-0': its workdir {} is (inside) {}, which bots must not see; move one of them",
            workdir.display(),
            out.display()
        )
    );
    assert_eq!(
        std::fs::read_dir(&workdir).unwrap().count(),
        0,
        "the workdir was not marked"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[tokio::test]
async fn bots_run_from_the_policys_directory_and_the_referee_stays_where_it_is() {
    let samples = samples();
    // Relative commands, found only from the sample bots' directory.
    let bots = sample_bots_named(str::to_string);
    let here = std::env::current_dir().unwrap();
    let mut config = vabanque_match(bots, 9, "library-from");
    config.process.from = Some(samples.clone());
    config.check().unwrap();
    let mut seen = Seen::default();
    let record = run_match(&config, None, &mut MatchLog::none(), &mut seen)
        .await
        .unwrap();
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    assert_eq!(std::env::current_dir().unwrap(), here);
    let processes = seen.processes.expect("the processes event");
    assert_eq!(
        processes.options.dir,
        Some(samples.canonicalize().unwrap()),
        "the bots' directory, made absolute"
    );
    // A directory that is not one here is refused before any bot starts.
    config.process.from = Some(samples.join("vabanque_random.py"));
    let error = run_match(&config, None, &mut MatchLog::none(), &mut Seen::default())
        .await
        .unwrap_err();
    assert!(
        error.to_string().starts_with("bots cannot run from "),
        "{error}"
    );
}
