//! `referee check` and the bot's stderr (issue 28, item 8): a failed item shows the bot's last
//! stderr lines up to its failure (a crash's traceback), escaped as the referee shows any bot
//! text; `--stderr-dir DIR` keeps the whole of it in `DIR/NAME.stderr`.

use crate::util::*;
use serde_json::Value;

/// `referee check --game vabanque ARGS BOT` run from the test bots' directory.
fn check(args: &[&str], bot: &str) -> std::process::Output {
    let mut cmd = referee();
    cmd.current_dir(root().join("tests/bots"))
        .args(["check", "--game", "vabanque", "--time-limit-ms", LIMIT_MS])
        .args(args)
        .arg(bot);
    let out = cmd.output().unwrap();
    assert_no_marked_survivors(&cmd);
    out
}

#[test]
fn a_crash_shows_the_tracebacks_last_lines_under_its_item_and_the_file_keeps_it_all() {
    let dir = temp_dir("check-stderr");
    let kept = dir.join("errs");
    let out = check(&["--stderr-dir", kept.to_str().unwrap()], "./crasher.py");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let text = stdout(&out);
    let failure = text
        .split("\nlifecycle: FAIL")
        .nth(1)
        .unwrap_or_else(|| panic!("lifecycle fails: {text}"));
    let failure = failure.split("\n\n").next().unwrap();
    assert!(
        failure.contains("  stderr:   its last lines up to match 1, its "),
        "{failure}"
    );
    assert!(
        failure.contains("            | RuntimeError: crasher: deliberate crash at request 5\n"),
        "{failure}"
    );
    // The bot is named after its program, without the extension.
    let file = kept.join("crasher.stderr");
    assert!(
        text.contains(&format!("the bot's stderr: {}\n", file.display())),
        "{text}"
    );
    let whole = std::fs::read_to_string(&file).unwrap();
    assert!(
        whole.starts_with("Traceback (most recent call last):"),
        "{whole}"
    );
    assert!(whole.contains("RuntimeError: crasher: deliberate crash at request 5"));

    // JSON has the same lines, under the item.
    let out = check(&["--format", "json"], "./crasher.py");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let item = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"] == "lifecycle")
        .unwrap();
    let lines = item["stderr"]["lines"].as_array().unwrap();
    assert!(lines.len() <= 6, "{item}");
    assert_eq!(
        lines.last().unwrap(),
        "RuntimeError: crasher: deliberate crash at request 5"
    );
    assert_eq!(item["stderr"]["earlier"], true);
    // A passed item has none.
    let handshake = &report["items"][0];
    assert_eq!(handshake["verdict"], "pass");
    assert!(handshake.get("stderr").is_none(), "{handshake}");
}

#[test]
fn a_bots_stderr_under_its_failures_cannot_reach_the_terminal() {
    let out = check(&[], "./terminal_text.py");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("  stderr:   "), "{text}");
    for bad in ['\u{1b}', '\u{9b}', '\u{202e}', '\u{2066}', '\r', '\u{7}'] {
        assert!(
            !text.contains(bad),
            "{bad:?} reached the terminal: {text:?}"
        );
    }
    // Every line under a `stderr:` is marked as the bot's, none forged as the referee's.
    let mut under = false;
    for line in text.lines() {
        if line.starts_with("  stderr:   ") {
            under = true;
            continue;
        }
        if under && !line.starts_with("            | ") {
            under = false;
        }
        assert!(!line.starts_with("! rival"), "{line}");
    }
    assert!(text.contains("\\u{1b}"), "shown escaped: {text}");
}

#[test]
fn what_a_bot_wrote_as_it_started_is_among_all_it_wrote_up_to_its_first_failure() {
    let out = check(&[], "./noted_illegal.py");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let text = stdout(&out);
    let failure = text
        .split("\nlegal_actions: FAIL")
        .nth(1)
        .unwrap_or_else(|| panic!("legal_actions fails: {text}"));
    let failure = failure.split("\n\n").next().unwrap();
    assert!(
        failure.contains(
            "  stderr:   all it wrote up to match 1, its 1st turn (phase chip; log decision 1; request id 0):\n\
             \x20           | noted-illegal: loading at start\n\
             \x20           | noted-illegal: request 0\n"
        ),
        "{failure}"
    );
}

#[test]
fn a_stderr_dir_whose_file_is_a_link_or_a_fifo_is_refused_before_the_check_runs() {
    let dir = temp_dir("check-stderr-dir");
    let kept = dir.join("errs");
    std::fs::create_dir(&kept).unwrap();
    std::fs::set_permissions(&kept, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let target = dir.join("elsewhere");
    std::os::unix::fs::symlink(&target, kept.join("crasher.stderr")).unwrap();
    let out = check(&["--stderr-dir", kept.to_str().unwrap()], "./crasher.py");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("crasher.stderr"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(!target.exists());
    std::fs::remove_file(kept.join("crasher.stderr")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(kept.join("crasher.stderr"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = check(&["--stderr-dir", kept.to_str().unwrap()], "./crasher.py");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
}
