//! Owners on a ladder of built and checked process bots: a submission built in the sandbox
//! and checked; a broken one refused with its checklist, which only its owner reads; a match
//! reproduced by its owner from another directory with stand-ins for the other seats; a
//! window exported and ranked by `referee leaderboard`.

use super::harness::{Server, block_on, config, databases, wait_for};
use crate::util::{file, referee, stdout, temp_dir};
use std::path::Path;
use std::time::Duration;

const HOUSE: &[(&str, &str, &str)] = &[
    ("rand-a", "builtin", "random"),
    ("heur-a", "builtin", "heuristic"),
    ("heur-b", "builtin", "heuristic"),
];

/// `referee ladder ARGS` run in `dir` with `token`; its output.
fn ladder(dir: &Path, token: &str, args: &[&str]) -> std::process::Output {
    referee()
        .current_dir(dir)
        .arg("ladder")
        .args(args)
        .env("REFEREE_LADDER_TOKEN", token)
        .output()
        .unwrap()
}

#[test]
fn owners_submit_read_their_builds_reproduce_their_matches_and_the_window_is_ranked() {
    for (i, db) in databases("ladder owners").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-owners-{i}"));
        let file_path = config(&dir, "[matchmaking]\nqueue = 6\n", HOUSE);
        let home = dir.join("home");
        let server = Server::start(&file_path, &home, db.url.as_deref(), 2);
        let url = server.url.clone();
        let admin = server.admin_token();
        let account = |name: &str| {
            let out = ladder(
                &dir,
                &admin,
                &["admin", "--server", &url, "add-account", name],
            );
            assert!(out.status.success(), "{out:?}");
            let text = stdout(&out);
            text.trim().rsplit(' ').next().unwrap().to_owned()
        };
        let alice = account("alice");
        let bob = account("bob");

        // Alice's bot is built, checked and enters the ladder.
        let bot = file("sample-bots/python/vabanque_heuristic.py");
        let out = ladder(
            &dir,
            &alice,
            &[
                "submit", "--server", &url, "--name", "alice-py", "--lang", "python", &bot,
                "--wait",
            ],
        );
        assert!(
            out.status.success(),
            "{}\n{}",
            stdout(&out),
            crate::util::stderr(&out)
        );
        assert!(
            stdout(&out).contains("alice-py.v1: ready"),
            "{}",
            stdout(&out)
        );

        // Bob's bot answers nothing: it builds (a script) and fails the check; his checklist
        // is his, not Alice's.
        let broken = dir.join("silent.py");
        std::fs::write(&broken, "import sys\nfor line in sys.stdin:\n    pass\n").unwrap();
        let out = ladder(
            &dir,
            &bob,
            &[
                "submit", "--server", &url, "--name", "bob-py", "--lang", "python",
            ],
        );
        assert!(!out.status.success());
        let out = referee()
            .current_dir(&dir)
            .args([
                "ladder", "submit", "--server", &url, "--name", "bob-py", "--lang", "python",
            ])
            .arg(&broken)
            .arg("--wait")
            .env("REFEREE_LADDER_TOKEN", &bob)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{}", stdout(&out));
        assert!(
            stdout(&out).contains("bob-py.v1: check-failed"),
            "{}",
            stdout(&out)
        );
        assert!(stdout(&out).contains("checklist"), "{}", stdout(&out));
        let seen_by_alice = block_on(server.client(Some(&alice)).version("bob-py", 1)).unwrap();
        assert_eq!(seen_by_alice.state, "check-failed");
        assert!(seen_by_alice.check.is_none() && seen_by_alice.build_log.is_none());

        // Alice's version plays ranked matches.
        let public = server.client(None);
        let mine = wait_for(
            "4 ranked matches of alice-py.v1",
            Duration::from_secs(600),
            || {
                let views = block_on(public.matches_of("alice-py", 50)).ok()?;
                let ranked: Vec<_> = views.into_iter().filter(|v| v.ranked).collect();
                (ranked.len() >= 4).then_some(ranked)
            },
        );
        let id = mine.last().unwrap().id;

        // Reproduced from another directory: the same scores, her seat by its code, the others
        // built-ins (their code is the referee's) — once the match's whole group is over.
        let elsewhere = temp_dir(&format!("ladder-owners-elsewhere-{i}"));
        let target = format!("{url}/{id}");
        let out = wait_for(
            "the match's deal to be over",
            Duration::from_secs(300),
            || {
                let out = ladder(&elsewhere, &alice, &["reproduce", &target]);
                let text = crate::util::stderr(&out);
                if text.contains("still being played") {
                    None
                } else {
                    Some(out)
                }
            },
        );
        let text = stdout(&out);
        assert!(
            out.status.success(),
            "{text}\n{}",
            crate::util::stderr(&out)
        );
        assert!(text.contains("the recorded result"), "{text}");
        assert!(text.contains("alice-py.v1 (its code)"), "{text}");
        assert!(
            elsewhere
                .join(format!("ladder-match-{id}/spec.json"))
                .is_file()
        );
        // Bob sat in none of her matches: he may not reproduce it.
        let out = ladder(
            &elsewhere,
            &bob,
            &["reproduce", &target, "--dir", "bob-try"],
        );
        assert!(!out.status.success());
        assert!(
            crate::util::stderr(&out).contains("no bot in this match"),
            "{out:?}"
        );

        // The admin exports over HTTP too; an owner may not.
        let over_http = dir.join("window-http");
        let out = ladder(&dir, &admin, &["export", "--server", &url])
            .status
            .success();
        assert!(!out, "export needs OUT");
        let out = referee()
            .args(["ladder", "export", "--server", &url])
            .arg(&over_http)
            .env("REFEREE_LADDER_TOKEN", &admin)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::util::stderr(&out));
        let board = referee()
            .arg("leaderboard")
            .arg(&over_http)
            .output()
            .unwrap();
        assert!(stdout(&board).contains("alice-py.v1"), "{}", stdout(&board));
        let out = referee()
            .args(["ladder", "export", "--server", &url])
            .arg(dir.join("window-alice"))
            .env("REFEREE_LADDER_TOKEN", &alice)
            .output()
            .unwrap();
        assert!(
            crate::util::stderr(&out).contains("403"),
            "{}",
            crate::util::stderr(&out)
        );

        server.stop();
        // The whole ladder so far, as a tournament's results directory.
        let out_dir = dir.join("window");
        let out = referee()
            .args(["ladder", "export", "--ladder"])
            .arg(&home)
            .arg(&out_dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::util::stderr(&out));
        let board = referee().arg("leaderboard").arg(&out_dir).output().unwrap();
        assert!(board.status.success(), "{}", crate::util::stderr(&board));
        assert!(stdout(&board).contains("alice-py.v1"), "{}", stdout(&board));
    }
}
