//! A bot process seen from outside (idle, waiting, its output ended) and spoken to, in and out
//! of the sandbox.

use super::{FIRST_LOOK, ProcessBot};
use crate::seat::limits::ResourceLimits;
use crate::seat::procfs;
use crate::seat::wire::ReplyWait;
use crate::seat::{ProcessOptions, Sandbox, SandboxMode, Talk};
use protocol::FaultKind;
use std::os::fd::AsRawFd;
use std::time::Duration;
use tokio::time::Instant;

/// No sandbox, and bubblewrap where it works here.
fn sandboxes() -> Vec<Sandbox> {
    let mut all = vec![Sandbox::None];
    if let Ok((bwrap @ Sandbox::Bwrap(_), _)) = Sandbox::resolve(SandboxMode::Auto) {
        all.push(bwrap);
    }
    all
}

fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}

async fn shell(script: &str, sandbox: &Sandbox) -> ProcessBot {
    shell_with(script, sandbox, ResourceLimits::default()).await
}

async fn shell_with(script: &str, sandbox: &Sandbox, limits: ResourceLimits) -> ProcessBot {
    let options = ProcessOptions {
        sandbox: sandbox.clone(),
        limits,
        ..ProcessOptions::default()
    };
    let command = ["sh", "-c", script].map(String::from);
    ProcessBot::spawn(&command, &options).await.unwrap()
}

/// A stderr budget of `kb` KiB a decision.
fn stderr_budget(kb: u64) -> ResourceLimits {
    ResourceLimits {
        stderr_kb: Some(kb),
        ..ResourceLimits::default()
    }
}

/// A generous bound for what a loaded machine does in milliseconds.
const BOUND: Duration = Duration::from_secs(30);

#[test]
fn once_a_bot_is_waiting_everything_it_wrote_in_reaction_is_in_hand() {
    run(async {
        for sandbox in sandboxes() {
            // Two lines for each line read, one of them through a child process, and a
            // line on stderr.
            let script = "while read -r l; do echo \"$l\"; echo \"$l\" | cat; echo e >&2; done";
            let mut bot = shell(script, &sandbox).await;
            for round in 1..=3 {
                bot.write(b"hi\n", BOUND).await.unwrap();
                let bound = Instant::now() + BOUND;
                let mut lines = Vec::new();
                while !bot.is_waiting() {
                    assert!(Instant::now() < bound, "never waiting ({sandbox:?})");
                    let (read, ended) = bot.wire.read_unasked(Instant::now() + FIRST_LOOK).await;
                    assert!(!ended);
                    lines.extend(read);
                }
                lines.extend(bot.wire.take_read_lines().0);
                assert_eq!(lines.len(), 2, "round {round} ({sandbox:?}): {lines:?}");
            }
            bot.kill().await;
        }
    });
}

#[test]
fn a_line_waiting_in_the_pipe_when_a_request_is_written_is_stray_never_its_reply() {
    run(async {
        // It answers request 7 before it is asked, then once asked.
        let script = r#"echo '{"type":"action","id":7,"action":1}'; read -r l; echo '{"type":"action","id":7,"action":2}'; exec sleep 60"#;
        let mut bot = shell(script, &Sandbox::None).await;
        let bound = Instant::now() + BOUND;
        let fd = bot.wire.output().as_raw_fd();
        // In the pipe, not yet seen by the reader.
        while procfs::unread_bytes(fd).is_none_or(|n| n == 0) {
            assert!(Instant::now() < bound, "the bot never wrote");
            tokio::time::sleep(FIRST_LOOK).await;
        }
        let early = bot.read_before_request(7, 3);
        assert_eq!(early.len(), 1, "{early:?}");
        assert_eq!(early[0].fault, FaultKind::StaleId);
        assert!(
            early[0].message.contains("before request 7 was written"),
            "{}",
            early[0].message
        );
        bot.write(b"{\"type\":\"request\"}\n", BOUND).await.unwrap();
        let wait = ReplyWait {
            id: 7,
            deadline: Instant::now() + BOUND,
            limit: &"the bound",
            max_noise: 3,
        };
        let mut noise = Vec::new();
        let reply = bot.read_reply(&wait, &mut noise).await;
        assert_eq!(reply.unwrap(), serde_json::json!(2));
        assert!(noise.is_empty(), "{noise:?}");
        bot.kill().await;
    });
}

#[test]
fn a_spinning_bot_is_never_idle_and_a_sleeping_one_is() {
    run(async {
        for sandbox in sandboxes() {
            let spinner = shell("while :; do :; done", &sandbox).await;
            for _ in 0..50 {
                assert!(!spinner.is_idle(), "{sandbox:?}");
                assert!(!spinner.is_waiting(), "{sandbox:?}");
                tokio::time::sleep(FIRST_LOOK).await;
            }
            let mut sleeper = shell("sleep 60", &sandbox).await;
            let bound = Instant::now() + BOUND;
            while !sleeper.is_idle() {
                assert!(Instant::now() < bound, "never idle ({sandbox:?})");
                tokio::time::sleep(FIRST_LOOK).await;
            }
            sleeper.kill().await;
        }
    });
}

#[test]
fn a_bot_whose_output_ends_exits_or_lives_on() {
    run(async {
        for sandbox in sandboxes() {
            for (script, exits) in [("exec >&-; sleep 60", false), ("exit 3", true)] {
                if !exits && sandbox.is_bwrap() {
                    // bubblewrap holds the pipe open: the output does not end.
                    continue;
                }
                let mut bot = shell(script, &sandbox).await;
                let bound = Instant::now() + BOUND;
                while !bot.wire.read_unasked(bound).await.1 {
                    assert!(Instant::now() < bound, "{script} ({sandbox:?})");
                }
                assert_eq!(bot.exits().await, exits, "{script} ({sandbox:?})");
                bot.kill().await;
            }
        }
    });
}

#[test]
fn a_bot_blocked_on_its_stderr_past_its_budget_waits_and_is_killed_without_a_hang() {
    run(async {
        for sandbox in sandboxes() {
            // It writes stderr without end, then would read: past its budget it waits.
            let script = "yes flood >&2; read -r l";
            let mut bot = shell_with(script, &sandbox, stderr_budget(16)).await;
            let bound = Instant::now() + BOUND;
            while !bot.stderr_gate.is_stopped() || !bot.is_waiting() {
                assert!(Instant::now() < bound, "never waiting ({sandbox:?})");
                tokio::time::sleep(FIRST_LOOK).await;
            }
            // Its budget, and the byte that tells it has more.
            assert_eq!(bot.stderr_count.read(), (16 << 10) + 1, "{sandbox:?}");
            assert!(bot.limit_notes().contains("its stderr was over its budget"));
            let started = Instant::now();
            assert!(!bot.shutdown(None, Duration::from_millis(100)).await);
            assert!(started.elapsed() < BOUND, "{sandbox:?}");
            assert!(!bot.is_alive());
        }
    });
}

#[test]
fn a_crashed_bots_last_words_past_its_budget_are_the_end_of_its_stderr() {
    run(async {
        for sandbox in sandboxes() {
            // 40 KiB, past its budget of 16 but within what its pipe holds, then its last
            // words, then an exit with status 3.
            let script =
                "head -c 40960 /dev/zero | tr '\\0' . >&2; echo >&2; echo last words >&2; exit 3";
            let mut bot = shell_with(script, &sandbox, stderr_budget(16)).await;
            let bound = Instant::now() + BOUND;
            while !bot.has_exited() {
                assert!(Instant::now() < bound, "never exited ({sandbox:?})");
                tokio::time::sleep(FIRST_LOOK).await;
            }
            let fault = bot.exit_fault("it crashed").await.unwrap();
            assert!(
                fault.message.ends_with("lines: last words"),
                "{}",
                fault.message
            );
            assert!(bot.stderr.text().ends_with("\nlast words\n"));
            assert_eq!(bot.stderr_count.read(), 40960 + 1 + 11, "{sandbox:?}");
            bot.kill().await;
        }
    });
}
