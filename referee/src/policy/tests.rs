//! Where a policy's paths are found: what the referee writes from the current directory, what
//! it is told to hide from the bots' directory.

use super::*;

#[test]
fn a_relative_output_is_found_from_here_and_a_relative_path_to_hide_from_the_bots_directory() {
    let from = std::env::temp_dir().canonicalize().unwrap();
    let policy = ProcessPolicy {
        sandbox: SandboxMode::None,
        hide: vec![PathBuf::from("a-secret-of-the-run")],
        from: Some(from.clone()),
        ..ProcessPolicy::default()
    };
    let resolved = policy
        .resolve(&mut [], &[PathBuf::from("an-output-of-the-referee")])
        .unwrap();
    let here = std::env::current_dir().unwrap().canonicalize().unwrap();
    let hidden: Vec<&std::path::Path> = resolved.options.hidden.iter().map(|h| h.path()).collect();
    assert_eq!(
        hidden,
        [
            here.join("an-output-of-the-referee").as_path(),
            from.join("a-secret-of-the-run").as_path()
        ]
    );
    assert_eq!(resolved.options.dir, Some(from));
}

#[test]
fn a_directory_to_run_from_that_is_missing_or_a_file_is_refused() {
    let file = std::env::current_exe().unwrap();
    for from in [PathBuf::from("/no/such/directory/here"), file] {
        let policy = ProcessPolicy {
            from: Some(from.clone()),
            ..ProcessPolicy::default()
        };
        let error = policy.resolve(&mut [], &[]).unwrap_err();
        assert!(matches!(error, PolicyError::From { .. }), "{error}");
        assert!(
            error.to_string().starts_with("bots cannot run from "),
            "{error}"
        );
    }
}

#[test]
fn a_prepared_policy_probes_the_machine_once_and_each_run_as_a_policy_would() {
    let from = std::env::temp_dir().canonicalize().unwrap();
    let policy = ProcessPolicy {
        from: Some(from),
        ..ProcessPolicy::default()
    };
    let prepared = policy.clone().prepared();
    let probed = || prepared.probed.lock().unwrap().is_some();
    // No process: nothing to probe.
    prepared.resolve(&mut [], &[]).unwrap();
    assert!(!probed());
    assert_eq!(prepared.own_uids(), None);
    let bots = || vec![BotSpec::parse("a=true").unwrap()];
    let alone = policy.resolve(&mut bots(), &[]).unwrap();
    let mut runs = Vec::new();
    for _ in 0..3 {
        runs.push(prepared.resolve(&mut bots(), &[]).unwrap());
        assert!(probed());
    }
    let kept = prepared.probed.lock().unwrap().clone().unwrap();
    assert_eq!(prepared.own_uids(), Some(kept.own_uids()));
    for run in &runs {
        // What a policy resolved alone decides: the same sandbox, said the same way.
        assert_eq!(run.options.sandbox, alone.options.sandbox);
        assert_eq!(&run.options.sandbox, kept.sandbox());
        assert_eq!(run.notices, alone.notices);
    }
    // Each run's bot has a group of its own, leased for that run, where bots get uids.
    let groups: Vec<Option<u32>> = runs
        .iter()
        .map(|run| match run.options.users.run_as("a") {
            crate::seat::RunAs::Own(group) => Some(group.gid()),
            _ => None,
        })
        .collect();
    assert_eq!(groups[0].is_some(), kept.own_uids());
    if groups[0].is_some() {
        let distinct: BTreeSet<_> = groups.iter().collect();
        assert_eq!(distinct.len(), runs.len(), "{groups:?}");
    }
}
