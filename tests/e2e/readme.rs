//! The README's "Write your own bot" commands run as they stand: from a fresh directory that
//! holds the checkout's `sample-bots/` and a `target/release/` (here, the test's own build of the
//! same binaries), they write a bot, pass its check and play its gauntlet with no fault.

use crate::doc_commands::{Served, checkout, sh_blocks};
use crate::util::*;

/// The shell commands of the first fenced block under `heading` in the README, each with its
/// continuation lines joined.
fn readme_commands(heading: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no {heading:?}"))
        .1;
    let block = section
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .map(|(block, _)| block)
        .unwrap_or_else(|| panic!("{heading:?} has no sh block"));
    block
        .replace("\\\n", " ")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_takes_a_new_bot_to_a_tournament_in_three_commands() {
    let commands = readme_commands("## Write your own bot");
    assert_eq!(commands.len(), 3, "{commands:#?}");
    let dir = temp_dir("readme-own-bot");
    std::os::unix::fs::symlink(root().join("sample-bots"), dir.join("sample-bots")).unwrap();
    std::fs::create_dir(dir.join("target")).unwrap();
    let binaries = bin("referee").parent().unwrap().to_path_buf();
    std::os::unix::fs::symlink(&binaries, dir.join("target/release")).unwrap();
    writable_by_bots(&dir);

    let mut outputs = Vec::new();
    for line in &commands {
        assert!(line.starts_with("./target/release/referee "), "{line}");
        let mut cmd = shell(line, &dir);
        let out = cmd.output().unwrap();
        assert_no_marked_survivors(&cmd);
        assert!(
            out.status.success(),
            "{line}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        outputs.push(stdout(&out));
    }
    assert!(outputs[0].contains("wrote my-bot/"), "{}", outputs[0]);
    assert!(
        outputs[1].contains("PASS: all 11 required items passed"),
        "{}",
        outputs[1]
    );
    let results = dir.join("my-bot-results");
    assert_eq!(json_lines(&results.join("matches.jsonl")).len(), 200);
    let leaderboard = run(&["leaderboard", results.to_str().unwrap(), "--format", "json"]);
    let board = board(&leaderboard);
    let rows = board["standings"].as_array().expect("the standings");
    assert_eq!(rows.len(), 4, "{rows:#?}");
    for row in rows {
        assert_eq!(row["matches"], 200, "{row}");
        assert_eq!(row["faults"], serde_json::json!({}), "no fault: {row}");
    }
}

#[test]
fn the_readmes_ladder_starts_with_one_command_and_takes_a_bot_with_a_second() {
    let blocks = sh_blocks("README.md", "## Run a ladder");
    assert_eq!(blocks.len(), 2, "{blocks:#?}");
    let serve = blocks[0].trim();
    assert_eq!(
        serve,
        "./target/release/referee ladder serve examples/ladder.toml"
    );
    let dir = checkout("readme-ladder", &["ladder.toml"]);

    // The first command as it stands, on a free port rather than 8640.
    let server = Served::start(serve, &dir);
    let url = server.url.clone();
    let text_now = || server.printed();
    assert!(dir.join("examples/ladder.ladder/admin.token").is_file());
    // The sample bots were submitted and are built and checked by the server's workers.
    let submitted = text_now().matches("submitted ").count();
    assert_eq!(submitted, 6, "{}", text_now());

    // The second, as one script, against that port.
    let script = blocks[1].replace("http://127.0.0.1:8640", &url);
    let mut second = shell(&script, &dir);
    let done = second.output().unwrap();
    let text = stdout(&done);
    assert!(done.status.success(), "{text}{}", stderr(&done));
    assert!(text.contains("ada-bot.v1: ready"), "{text}");
    assert!(
        text.contains("rank") && text.contains("ada-bot.v1"),
        "{text}"
    );

    server.stop();
}
