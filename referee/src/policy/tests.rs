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
