//! Matches of the sample bots in several languages.

use crate::util::*;

#[test]
fn python_rust_and_javascript_bots_play_a_match_that_replay_confirms() {
    let dir = temp_dir("languages");
    let log = dir.join("match.jsonl");
    let rust_random = bin("vabanque-random").display().to_string();
    let out = run(&[
        "match",
        "--game",
        "vabanque",
        "--bot",
        &format!("pyrandom={}", file("sample-bots/python/vabanque_random.py")),
        "--bot",
        &format!(
            "pyheur={}",
            file("sample-bots/python/vabanque_heuristic.py")
        ),
        "--bot",
        &format!("rust={rust_random}"),
        "--bot",
        &format!(
            "js=node {}",
            file("sample-bots/javascript/vabanque_random.js")
        ),
        "--seed",
        "12",
        "--time-limit-ms",
        LIMIT_MS,
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for name in ["pyrandom", "pyheur", "rust", "js", "money", "rank"] {
        assert!(text.contains(name), "standings lack {name}:\n{text}");
    }
    assert!(text.contains("seed: 12"));
    let records = json_lines(&log);
    assert_eq!(records[0]["type"], "header");
    assert_eq!(
        records[0]["players"][3]["hello_name"], "js-random",
        "the bot's own name is recorded"
    );
    let actions = records.iter().filter(|r| r["type"] == "action").count();
    assert_eq!(actions, 4 * 26, "26 decisions per player");
    assert!(
        records.iter().all(|r| r["type"] != "fault"),
        "no faults: {records:?}"
    );
    let result = records.last().unwrap();
    assert_eq!(result["type"], "result");
    assert!(
        result["truth"]["never_revealed"].is_array(),
        "the log keeps the hidden truth"
    );

    let replay = run(&["replay", log.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert!(
        stdout(&replay).starts_with("ok: 104 decisions of vabanque replayed"),
        "{}",
        stdout(&replay)
    );
}

#[test]
fn a_match_can_be_configured_from_a_toml_file_with_command_lists() {
    let dir = temp_dir("toml");
    let config = dir.join("match.toml");
    std::fs::write(
        &config,
        format!(
            r#"game = "vabanque"
seed = 5
time_limit_ms = {LIMIT_MS}

[[bot]]
name = "list"
command = ["python3", "{}"]

[[bot]]
name = "line"
command = "builtin:heuristic"

[[bot]]
command = "builtin:random"
"#,
            file("sample-bots/python/vabanque_random.py")
        ),
    )
    .unwrap();
    let out = run(&["match", config.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        record["players"],
        serde_json::json!(["list", "line", "random"])
    );
    assert_eq!(record["seed"], 5);
    assert_eq!(record["faults"], serde_json::json!([]));
}

/// Plays a Vabanque match of `bot` (seat 0, named `p`) against built-in random bots, seed
/// `seed`, its stderr saved under `dir`; the record (checked to have no fault) and `p`'s stderr.
fn probe_match(
    dir: &std::path::Path,
    seed: &str,
    bot: &str,
    randoms: &[&str],
) -> (serde_json::Value, String) {
    let stderr_dir = dir.to_str().unwrap();
    let bot = format!("p={bot}");
    let randoms: Vec<String> = randoms
        .iter()
        .map(|r| format!("{r}=builtin:random"))
        .collect();
    let mut args = vec![
        "match",
        "--game",
        "vabanque",
        "--seed",
        seed,
        "--format",
        "json",
        "--time-limit-ms",
        LIMIT_MS,
        "--stderr-dir",
        stderr_dir,
        "--bot",
        &bot,
    ];
    for r in &randoms {
        args.extend(["--bot", r.as_str()]);
    }
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["faults"], serde_json::json!([]));
    let text = std::fs::read_to_string(dir.join("p.stderr")).unwrap();
    (record, text)
}

/// The number a probe bot wrote on its stderr line starting with `name`.
fn figure(text: &str, name: &str) -> usize {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .parse()
        .unwrap()
}

#[test]
fn a_bot_that_says_events_false_gets_no_events_and_plays_the_same() {
    let dir = temp_dir("events-false");
    let mut received = Vec::new();
    let mut results = Vec::new();
    for wanted in ["false", "true"] {
        let bot = format!("{} {wanted}", file("tests/bots/events_counter.py"));
        let (record, text) = probe_match(&dir.join(wanted), "5", &bot, &["r1", "r2"]);
        results.push((record["scores"].clone(), record["ranks"].clone()));
        received.push(figure(&text, "events received: "));
    }
    assert_eq!(received[0], 0, "no event was sent");
    assert!(received[1] > 50, "{received:?}");
    assert_eq!(results[0], results[1], "the match itself is the same");
}

/// A bot that asks for its views as changes rebuilds, from the first whole view and the merge
/// patches after it, exactly the views a bot asking for whole views is sent: the same match
/// played both ways gives the same view at every request, and so the same actions and result,
/// in fewer bytes.
#[test]
fn a_bot_that_takes_views_as_changes_holds_the_same_views() {
    let dir = temp_dir("view-delta");
    let mut runs = Vec::new();
    for mode in ["full", "delta"] {
        let bot = format!("{} {mode}", file("tests/bots/view_probe.py"));
        let (record, text) = probe_match(&dir.join(mode), "7", &bot, &["r1", "r2", "r3"]);
        let views: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with("view "))
            .map(str::to_string)
            .collect();
        runs.push((
            record["scores"].clone(),
            views,
            figure(&text, "patches: "),
            figure(&text, "request bytes: "),
        ));
    }
    let (full, delta) = (&runs[0], &runs[1]);
    assert_eq!(full.1.len(), 26, "a seat of 4 decides 26 times");
    assert_eq!(full.1, delta.1, "the same view at every request");
    assert_eq!(full.0, delta.0, "the same match");
    assert_eq!(full.2, 0, "a bot that did not ask gets whole views");
    assert_eq!(
        delta.2, 25,
        "every request but the match's first is a patch"
    );
    assert!(delta.3 < full.3, "{} bytes ≥ {}", delta.3, full.3);
}
