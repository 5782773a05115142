//! An option no command has is named as one by every subcommand of the real binary: `unknown
//! option '--x' for referee SUB` and where its options are listed, exit code 2 — never read as a
//! bot's program, a file, or a missing argument (issue 28, item 8).

use crate::util::*;

/// The subcommands `referee --help` lists (but `help`).
fn subcommands() -> Vec<String> {
    let out = run(&["--help"]);
    let help = stdout(&out);
    help.split("Commands:")
        .nth(1)
        .expect("a Commands: section")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// Lines of `sub` with the unknown option `opt` where a user would write it: first, last, and
/// where the command's own arguments are (a bot's command, a file, a directory).
fn lines(sub: &str, opt: &str) -> Vec<Vec<String>> {
    let bot = "--bot=a=builtin:random";
    let words: &[&[&str]] = match sub {
        "match" => &[
            &[opt, "--game", "vabanque"],
            &["--game", "vabanque", "--bot", "a=builtin:random", opt],
            &["--game", "vabanque", bot, opt, bot],
        ],
        "tournament" => &[
            &[opt, "t.toml"],
            &["t.toml", opt],
            &["--game", "vabanque", "--bot", "a=builtin:random", opt],
        ],
        "check" => &[
            &[opt],
            &[opt, "--game", "vabanque", "python3", "bot.py"],
            &["--game", "vabanque", opt, "python3", "bot.py"],
            &["--game", "vabanque", opt, "value", "python3", "bot.py"],
        ],
        "rerun" => &[&[opt, "dir", "3"], &["dir", "3", opt]],
        "report" => &[&[opt, "dir"], &["dir", "--html", "out", opt]],
        "leaderboard" => &[&[opt, "dir"], &["dir", opt]],
        "merge" => &[&[opt, "a", "b"], &["a", "b", opt]],
        "replay" => &[&[opt, "match.jsonl"], &["match.jsonl", opt]],
        "new-bot" => &[
            &[opt, "dir"],
            &["--game", "vabanque", "--lang", "python", "dir", opt],
        ],
        _ => &[&[opt]],
    };
    words
        .iter()
        .map(|w| {
            std::iter::once(sub)
                .chain(w.iter().copied())
                .map(String::from)
                .collect()
        })
        .collect()
}

#[test]
fn every_subcommand_names_an_unknown_option_as_one() {
    let subs = subcommands();
    for expected in [
        "match",
        "tournament",
        "check",
        "rerun",
        "report",
        "leaderboard",
        "merge",
        "replay",
        "new-bot",
        "bench",
    ] {
        assert!(subs.iter().any(|s| s == expected), "{expected} in {subs:?}");
    }
    let dir = temp_dir("unknown-options");
    for sub in &subs {
        for opt in ["--no-such-option", "--no-such-option=3", "-Z"] {
            for line in lines(sub, opt) {
                let words: Vec<&str> = line.iter().map(String::as_str).collect();
                let out = referee().current_dir(&dir).args(&words).output().unwrap();
                let err = stderr(&out);
                assert_eq!(out.status.code(), Some(2), "{words:?}: {err}");
                let name = opt.split('=').next().unwrap();
                let named = format!("referee: unknown option '{name}' for referee {sub}");
                assert!(err.starts_with(&named), "{words:?}: {err}");
                assert!(err.contains(&format!("`referee {sub} --help` lists its options")));
                for wrong in [
                    "not found",
                    "No such file",
                    "cannot read",
                    "does not exist",
                    "required",
                    "unexpected argument",
                ] {
                    assert!(!err.contains(wrong), "{words:?}: {err}");
                }
                assert_eq!(err.lines().count(), 1, "one line: {err}");
            }
        }
    }
    // The nearest option is named when one is near.
    let out = run(&["match", "--game", "vabanque", "--seeed", "3"]);
    assert!(
        stderr(&out).contains("unknown option '--seeed' for referee match: did you mean '--seed'?"),
        "{}",
        stderr(&out)
    );
    // With no subcommand.
    let out = run(&["--no-such-option"]);
    assert!(stderr(&out).starts_with("referee: unknown option '--no-such-option' for referee ("));
}
