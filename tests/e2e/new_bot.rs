//! `referee new-bot` writes the sample bots as they are, and every starter, in each of its six
//! languages, builds, passes `referee check` and plays a match with the commands of its
//! README, run as they stand from the bot's directory. The toolchains must be installed
//! (`.ci/run` installs what is missing): python3, node, cargo, javac, g++ with
//! nlohmann-json3-dev, go.

use crate::util::*;
use engine::{Game, GameKind, with_game};
use referee::starters::{Language, Starter, starters};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The commands of a README: the lines of its one `sh` block.
fn readme_commands(readme: &str) -> Vec<&str> {
    assert_eq!(
        readme.matches("```").count(),
        2,
        "one fenced block: {readme}"
    );
    readme
        .lines()
        .skip_while(|line| *line != "```sh")
        .skip(1)
        .take_while(|line| *line != "```")
        .collect()
}

/// Runs every command of a new bot's README from its directory, in order, with a shell: its
/// build (if it has one), `referee check` on it, and a match against the built-in bots.
fn follow_readme(dir: &Path, envs: &[(&str, &Path)]) {
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let commands = readme_commands(&readme);
    let [builds @ .., checked, played] = commands.as_slice() else {
        panic!("no check and match commands: {readme}");
    };
    // The referee by its absolute path: the lines work without it on PATH.
    let referee = bin("referee").canonicalize().unwrap();
    let referee = referee.display();
    assert!(
        checked.starts_with(&format!("{referee} check ")),
        "{readme}"
    );
    assert!(played.starts_with(&format!("{referee} match ")), "{readme}");
    let run = |line: &str| {
        let mut cmd: Command = shell(line, dir);
        for (key, value) in envs {
            cmd.env(key, value);
        }
        let out = cmd.output().unwrap();
        assert_no_marked_survivors(&cmd);
        assert!(
            out.status.success(),
            "{}: {line}: {}{}",
            dir.display(),
            stdout(&out),
            stderr(&out)
        );
        stdout(&out)
    };
    for build in builds {
        run(build);
    }
    let report = run(checked);
    assert!(
        report.contains("PASS: all 11 required items passed"),
        "{report}"
    );
    let table = run(played);
    assert!(table.contains("│ me "), "{table}");
}

/// `referee new-bot` of `starter` into a fresh directory; checks that each file is its sample's
/// copy, that its README has one block of commands, and that nothing is overwritten.
fn new_bot(starter: &Starter) -> PathBuf {
    let (game, lang) = (starter.game.name(), starter.language.name());
    let dir = temp_dir(&format!("new-bot-{game}-{lang}")).join("my-bot");
    let args = [
        "new-bot",
        "--game",
        game,
        "--lang",
        lang,
        dir.to_str().unwrap(),
    ];
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    for file in &starter.files {
        assert_eq!(
            std::fs::read(dir.join(file.path)).unwrap(),
            std::fs::read(root().join(file.sample)).unwrap(),
            "{} is {}",
            file.path,
            file.sample
        );
        assert!(stdout(&out).contains(&format!("wrote {}", dir.join(file.path).display())));
    }
    readme_commands(&std::fs::read_to_string(dir.join("README.md")).unwrap());
    let again = run(&args);
    assert_eq!(again.status.code(), Some(2), "nothing is overwritten");
    let readme = dir.join("README.md");
    let into_file = run(&[
        "new-bot",
        "--game",
        game,
        "--lang",
        lang,
        readme.to_str().unwrap(),
    ]);
    assert_eq!(into_file.status.code(), Some(2));
    assert!(
        stderr(&into_file).contains("is a file, not a directory"),
        "{}",
        stderr(&into_file)
    );
    dir
}

/// Every starter in `language`, written by `new-bot`, prepared by `prepare` (given its
/// directory), builds, passes the check and plays, its README's commands run with `envs`.
fn every_starter_in(language: Language, envs: &[(&str, &Path)], prepare: impl Fn(&Path)) {
    for starter in starters().iter().filter(|s| s.language == language) {
        let dir = new_bot(starter);
        prepare(&dir);
        follow_readme(&dir, envs);
    }
}

#[test]
fn a_new_python_bot_passes_the_check_and_plays() {
    every_starter_in(Language::Python, &[], |_| ());
}

#[test]
fn a_new_javascript_bot_passes_the_check_and_plays() {
    every_starter_in(Language::JavaScript, &[], |_| ());
}

/// The Rust starter builds on its own (serde_json from the local cargo cache, offline), into a
/// target directory kept between runs so that only the first run compiles its dependencies.
#[test]
fn a_new_rust_bot_builds_alone_passes_the_check_and_plays() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust-starter-target");
    std::fs::create_dir_all(&target).unwrap();
    every_starter_in(
        Language::Rust,
        &[
            ("CARGO_NET_OFFLINE", Path::new("true")),
            ("RUSTFLAGS", Path::new("-D warnings")),
        ],
        |dir| std::os::unix::fs::symlink(&target, dir.join("target")).unwrap(),
    );
}

#[test]
fn a_new_java_bot_builds_passes_the_check_and_plays() {
    every_starter_in(Language::Java, &[], |_| ());
}

#[test]
fn a_new_cpp_bot_builds_passes_the_check_and_plays() {
    every_starter_in(Language::Cpp, &[], |_| ());
}

/// Go's build cache and module directory are kept between runs, here rather than in a `HOME`
/// that may not be writable; the README's commands need neither set.
#[test]
fn a_new_go_bot_builds_passes_the_check_and_plays() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    every_starter_in(
        Language::Go,
        &[
            ("GOCACHE", &tmp.join("go-cache")),
            ("GOPATH", &tmp.join("go-path")),
        ],
        |_| (),
    );
}

/// Whether every game must have a starter in `language`: the Rust starter plays among the
/// legal actions, so it is for the games that list them; the others are a sample bot each.
fn required(game: GameKind, language: Language) -> bool {
    match language {
        Language::Rust => with_game!(game, G => G::LISTS_ACTIONS),
        // Python, JavaScript, Java, C++, Go, and any language added later.
        _ => true,
    }
}

#[test]
fn every_game_has_a_starter_in_every_language() {
    let starters = starters();
    for &game in GameKind::ALL {
        for language in Language::ALL {
            let has = starters
                .iter()
                .any(|s| s.game == game && s.language == language);
            assert!(
                has || !required(game, language),
                "{game} has no {} starter: add sample-bots/{}/{game}_random.*",
                language.name(),
                language.name()
            );
        }
    }
}
