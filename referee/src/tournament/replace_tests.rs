use super::*;
use crate::report::test_tournaments::{FIELD, played};
use crate::tournament::ScheduleKind;
use engine::GameKind;

/// A match's id, players, seed, scores, ranks and fault count.
type Essence = (u64, Vec<String>, u64, Vec<i64>, Vec<u32>, usize);

/// Each match's players, seed, scores, ranks and faults, by id (no timings).
fn essence(dir: &Path) -> Vec<Essence> {
    read_back(dir)
        .unwrap()
        .results
        .values()
        .map(|r| {
            let m = &r.record;
            (
                r.id,
                m.players.clone(),
                m.seed,
                m.scores.clone(),
                m.ranks.clone(),
                m.faults.len(),
            )
        })
        .collect()
}

#[test]
fn a_replaced_bot_plays_its_matches_again_and_the_rest_is_kept_as_a_fresh_run_has_it() {
    let old = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, true);
    let mut fixed = FIELD;
    fixed[1] = ("r1", "heuristic");
    let fresh = played(GameKind::Vabanque, &fixed, ScheduleKind::RoundRobin, false);
    let before = std::fs::read(old.path().join("matches.jsonl")).unwrap();
    let new = old.path().with_file_name(format!(
        "{}-replaced-r1",
        old.path().file_name().unwrap().to_string_lossy()
    ));
    assert_eq!(default_out(old.path(), &["r1"]), new);
    let replacement = [("r1".to_string(), "builtin:heuristic".to_string())];
    let mut plan = plan(old.path(), &replacement, &new).unwrap();
    let all = read_back(old.path()).unwrap().results;
    let r1 = all
        .values()
        .filter(|r| r.record.players.iter().any(|p| p == "r1"))
        .count();
    assert_eq!(plan.replay.len(), r1);
    assert_eq!(plan.kept.len(), all.len() - r1);
    assert!(plan.logs, "the tournament kept its logs");
    assert_eq!(plan.meta.bots[1].command, "builtin:heuristic");
    let processes = plan.resolve(&ProcessPolicy::default(), &[]).unwrap();
    let how = ReplaceRun {
        jobs: 1,
        pin: false,
        logs: false,
        resume: false,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let replaced = runtime
        .block_on(plan.play(&processes.options, &how, &mut (), std::future::pending()))
        .unwrap();
    assert!(matches!(replaced.outcome, Outcome::Finished(_)));
    assert!(replaced.skipped.is_empty(), "{:?}", replaced.skipped);
    assert_eq!(essence(&new), essence(fresh.path()));
    assert_eq!(
        read_back(&new).unwrap().meta,
        read_back(fresh.path()).unwrap().meta
    );
    assert_eq!(
        std::fs::read(old.path().join("matches.jsonl")).unwrap(),
        before
    );
    for id in all.keys() {
        assert!(new.join("logs").join(format!("{id}.jsonl")).is_file());
    }
    std::fs::remove_dir_all(&new).unwrap();
}

#[test]
fn a_name_the_tournament_does_not_have_twice_its_own_directory_or_one_inside_it_are_refused() {
    let old = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, false);
    let out = old.path().with_file_name("elsewhere");
    let one = |name: &str| [(name.to_string(), "builtin:random".to_string())];
    let err = plan(old.path(), &one("nobody"), &out).unwrap_err();
    assert!(
        err.to_string()
            .contains("has no bot 'nobody'; its bots: h, r1, r2, r3"),
        "{err}"
    );
    let twice = [one("r1")[0].clone(), one("r1")[0].clone()];
    assert!(matches!(
        plan(old.path(), &twice, &out),
        Err(ReplaceError::Twice(_))
    ));
    assert!(matches!(
        plan(old.path(), &one("r1"), old.path()),
        Err(ReplaceError::SameDir(_))
    ));
    // Nor a directory inside it: the tournament's directory is only read.
    for inside in [
        old.path().join("new"),
        old.path().join("a/b"),
        old.path()
            .join("../")
            .join(old.path().file_name().unwrap())
            .join("new"),
    ] {
        let err = plan(old.path(), &one("r1"), &inside).unwrap_err();
        assert!(matches!(err, ReplaceError::Inside(..)), "{inside:?}: {err}");
        assert!(
            err.to_string()
                .contains("inside the tournament's directory")
        );
    }
}
