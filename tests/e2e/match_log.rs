//! The match log of real matches (version 3, docs/match-log.md): every game's start, events with
//! their audience and running scores in their places; every draw each game made; what bot
//! processes wrote to stderr, by decision and capped; and a version 2 log still read.

use crate::util::*;
use engine::{GameKind, with_game};
use serde_json::{Value, json};
use std::path::Path;

/// Plays a match of `game` with `args` (bots, options) and the log `log`, checks that it
/// replays and left no process behind, and returns its records.
fn logged(game: &str, log: &Path, args: &[String]) -> Vec<Value> {
    let mut cmd = referee();
    cmd.args([
        "match",
        "--game",
        game,
        "--seed",
        "5",
        "--time-limit-ms",
        LIMIT_MS,
    ])
    .args(["--log", log.to_str().unwrap()])
    .args(args);
    played_log(&mut cmd, log)
}

/// `--bot` arguments of the game's built-in bots, in turn, `count` of them.
fn builtins(kind: GameKind, count: usize) -> Vec<String> {
    let names = with_game!(kind, G => engine::strategy::builtin_names::<G>());
    (0..count)
        .flat_map(|i| {
            let name = names[i % names.len()];
            ["--bot".to_string(), format!("{name}{i}=builtin:{name}")]
        })
        .collect()
}

/// The records of `kind` (by `type`).
fn of_type<'r>(records: &'r [Value], kind: &str) -> Vec<&'r Value> {
    records.iter().filter(|r| r["type"] == kind).collect()
}

/// The events whose `kind` is `kind`.
fn events<'r>(records: &'r [Value], kind: &str) -> Vec<&'r Value> {
    records
        .iter()
        .filter(|r| r["type"] == "event" && r["event"]["kind"] == kind)
        .collect()
}

/// The place of every record, as a viewer reads it: the header, the start, the opening's events
/// and scores (`n` null); then each decision's stderr before its action, and its events and
/// scores after it, with its `n`; the result last, whose scores the last running scores are.
fn assert_in_place(records: &[Value], players: usize) {
    let header = &records[0];
    assert_eq!(header["log_version"], 3);
    assert!(!header["score_name"].as_str().unwrap().is_empty());
    assert_eq!(records[1]["type"], "start");
    assert_eq!(records[1]["views"].as_array().unwrap().len(), players);
    let mut decided: Option<u64> = None;
    for (i, r) in records.iter().enumerate().skip(2) {
        let n = r["n"].as_u64();
        match r["type"].as_str().unwrap() {
            "event" | "scores" => assert_eq!(n, decided, "line {}: {r}", i + 1),
            "stderr" | "action" => {
                assert_eq!(n, Some(decided.map_or(0, |d| d + 1)), "line {}", i + 1);
                if r["type"] == "action" {
                    decided = n;
                } else {
                    let next = records[i + 1..].iter().find(|a| a["type"] == "action");
                    assert_eq!(r["seat"], next.unwrap()["seat"], "line {}", i + 1);
                }
            }
            _ => {}
        }
        if r["type"] == "event" {
            let to = &r["to"];
            assert!(
                *to == "all" || to.as_u64().is_some_and(|s| (s as usize) < players),
                "{r}"
            );
        }
    }
    let last = records.last().unwrap();
    assert_eq!(last["type"], "result");
    let running = of_type(records, "scores");
    assert_eq!(running.last().unwrap()["scores"], last["scores"]);
}

#[test]
fn every_game_logs_its_start_events_scores_and_a_bots_stderr_in_place() {
    for &kind in GameKind::ALL {
        let game = kind.name();
        let dir = temp_dir(&format!("match-log-notes-{game}"));
        let log = dir.join("log.jsonl");
        // Seat 1 writes a note to stderr at the match's start and at each request.
        let mut args = builtins(kind, 3);
        args.splice(
            2..2,
            [
                "--bot".to_string(),
                format!("notes={}", file("tests/bots/stderr_notes.py")),
            ],
        );
        let records = logged(game, &log, &args);
        assert_in_place(&records, 4);
        assert!(
            records[2..]
                .iter()
                .take_while(|r| r["type"] != "action")
                .any(|r| r["type"] == "event" && r["n"].is_null()),
            "{game}: the opening's events"
        );
        // One stderr record per decision of seat 1, each with what it wrote for that request
        // (and the first with its note of the match's start).
        let decisions: Vec<&Value> = of_type(&records, "action")
            .into_iter()
            .filter(|a| a["seat"] == 1)
            .collect();
        let stderr = of_type(&records, "stderr");
        assert_eq!(stderr.len(), decisions.len(), "{game}");
        for (k, (record, action)) in stderr.iter().zip(&decisions).enumerate() {
            let start = if k == 0 {
                "notes: match match-1 starts, seat 1\n"
            } else {
                ""
            };
            let note = format!(
                "{start}notes: request {k} in the {} phase\n",
                action["phase"].as_str().unwrap()
            );
            assert_eq!(record["text"], note.as_str(), "{game}");
            assert_eq!((&record["n"], &record["seat"]), (&action["n"], &json!(1)));
            assert!(record.get("cut").is_none(), "nothing cut: {record}");
        }
    }
}

#[test]
fn a_stderr_flood_is_logged_capped_with_the_bytes_cut_counted() {
    let dir = temp_dir("match-log-flood");
    let log = dir.join("log.jsonl");
    // 256 KiB per request: within its budget (1 MiB a decision, 16 MiB a match).
    let mut args = vec![
        "--bot".to_string(),
        format!("flood={} 256", file("tests/bots/stderr_flood.py")),
    ];
    args.extend(builtins(GameKind::from_name("vabanque").unwrap(), 2));
    let records = logged("vabanque", &log, &args);
    let asked = of_type(&records, "action")
        .iter()
        .filter(|a| a["seat"] == 0)
        .count();
    let stderr = of_type(&records, "stderr");
    assert!(!stderr.is_empty());
    let mut logged_bytes = 0;
    for record in &stderr {
        let text = record["text"].as_str().unwrap();
        assert!(text.len() <= 2048, "{} bytes", text.len());
        assert!(text.ends_with('\n') && text.starts_with("stderr_flood: request "));
        let cut = record["cut"].as_u64().unwrap();
        assert!(cut > 0);
        logged_bytes += text.len() as u64 + cut;
    }
    // 256 KiB per request, every byte either shown or counted as cut.
    assert_eq!(logged_bytes, asked as u64 * 256 * 1024);
    assert!(of_type(&records, "fault").is_empty());
}

/// The event `kind`s of `records` in the `manche`/hand that each `start` event opens: for every
/// start event, the events after it up to the next one.
fn sections<'r>(records: &'r [Value], start: &str) -> Vec<Vec<&'r Value>> {
    let mut out: Vec<Vec<&Value>> = Vec::new();
    for r in records.iter().filter(|r| r["type"] == "event") {
        if r["event"]["kind"] == start {
            out.push(Vec::new());
        }
        if let Some(section) = out.last_mut() {
            section.push(r);
        }
    }
    out
}

#[test]
fn la_bouillabaisse_logs_each_manches_draw_and_deal() {
    let dir = temp_dir("match-log-bouillabaisse");
    let log = dir.join("log.jsonl");
    let kind = GameKind::from_name("bouillabaisse").unwrap();
    let mut args = builtins(kind, 4);
    args.extend(["--option".to_string(), "redraw=true".to_string()]);
    let records = logged("bouillabaisse", &log, &args);
    let start = &records[1]["truth"];
    let end = &records.last().unwrap()["truth"];
    let manches = sections(&records, "manche_start");
    assert_eq!(manches.len(), 6);
    let chosen: Vec<&Value> = manches.iter().map(|m| &m[0]["event"]["chosen"]).collect();
    assert_eq!(*chosen[0], start["chosen"]);
    assert_eq!(*chosen[5], end["chosen"]);
    assert!(
        chosen.iter().any(|c| *c != chosen[0]),
        "redrawn per manche: {chosen:?}"
    );
    for (m, manche) in manches.iter().enumerate() {
        let dealt: Vec<&&Value> = manche
            .iter()
            .filter(|e| e["event"]["kind"] == "dealt")
            .collect();
        assert_eq!(dealt.len(), 4, "manche {}", m + 1);
        for (seat, d) in dealt.iter().enumerate() {
            assert_eq!(d["to"], seat, "a hand is told to its seat only");
            assert_eq!(d["event"]["hand"], end["deals"][m][seat]);
        }
    }
}

#[test]
fn machiavelli_logs_its_deal_and_every_card_drawn_to_the_drawer() {
    let dir = temp_dir("match-log-machiavelli");
    let log = dir.join("log.jsonl");
    let kind = GameKind::from_name("machiavelli").unwrap();
    let records = logged("machiavelli", &log, &builtins(kind, 3));
    let start = &records[1]["truth"];
    let dealt = events(&records, "dealt");
    assert_eq!(dealt.len(), 3);
    for (seat, d) in dealt.iter().enumerate() {
        assert_eq!(d["to"], seat);
        assert_eq!(d["event"]["cards"], start["deals"][0][seat]);
    }
    // Each draw is told to all as a count and to the drawer as its cards: the stock's top cards
    // in order, the stock of the start's truth.
    let mut stock: Vec<Value> = start["stock"].as_array().unwrap().clone();
    let mut drawn = 0;
    for (i, r) in records.iter().enumerate() {
        if r["type"] != "event" || r["event"]["kind"] != "you_drew" {
            continue;
        }
        let told = &records[i - 1]["event"];
        assert_eq!(told["kind"], "drew");
        assert_eq!(r["to"], told["seat"], "told to the drawer only");
        let cards = r["event"]["cards"].as_array().unwrap();
        assert_eq!(told["count"], cards.len());
        for card in cards {
            assert_eq!(Some(card), stock.pop().as_ref());
            drawn += 1;
        }
    }
    assert!(drawn > 0);
    assert_eq!(records.last().unwrap()["truth"]["stock"], json!(stock));
}

#[test]
fn vabanque_logs_its_first_player() {
    let dir = temp_dir("match-log-vabanque");
    let log = dir.join("log.jsonl");
    let kind = GameKind::from_name("vabanque").unwrap();
    let records = logged("vabanque", &log, &builtins(kind, 4));
    let first = &records[1]["truth"]["first_player"];
    let rounds = events(&records, "round_start");
    assert_eq!(rounds.len(), 4);
    assert_eq!(rounds[0]["event"]["order"][0], *first);
    assert!(rounds[0]["n"].is_null(), "the first round opens the match");
    assert_eq!(events(&records, "payout").len(), 4);
}

/// The records `read_match` gives for the log at `path`, as JSON, and the version it read.
fn read(path: &Path) -> (Vec<Value>, u32) {
    let checked = referee::replay::read_match(path).unwrap();
    let records = checked
        .records
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    (records, checked.log_version)
}

#[test]
fn a_version_2_log_still_replays_and_reads_as_the_version_3_log_of_its_match() {
    // The example's match, logged by the referee before version 3: header, faults, actions and
    // the result only.
    let old = root().join("tests/fixtures/logs/machiavelli-v2.jsonl");
    assert!(json_lines(&old).iter().all(|r| r["type"] != "event"));
    let out = run(&["replay", old.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("ok: 85 decisions"),
        "{}",
        stdout(&out)
    );
    let (made, version) = read(&old);
    assert_eq!(version, 2);
    let (recorded, version) = read(&root().join("tests/fixtures/logs/machiavelli.jsonl"));
    assert_eq!(version, 3);
    assert_eq!(
        without_timings(made),
        without_timings(recorded),
        "the start, events and scores made again, each in its place (it has no stderr)"
    );
}

#[test]
fn the_example_log_of_the_docs_replays_and_its_mismatches_are_the_docs() {
    let example = root().join("tests/fixtures/logs/machiavelli.jsonl");
    let out = run(&["replay", example.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (records, version) = read(&example);
    assert_eq!((records.len(), version), (json_lines(&example).len(), 3));
    let lines: Vec<String> = std::fs::read_to_string(&example)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let doc = std::fs::read_to_string(root().join("docs/match-log.md"))
        .unwrap()
        .replace('\n', " ");
    let dir = temp_dir("match-log-example");
    let mut dropped = lines.clone();
    dropped.remove(10);
    let mut public = lines.clone();
    public[10] = public[10].replace(r#""to":1"#, r#""to":"all""#);
    for (name, edited) in [("dropped", dropped), ("public", public)] {
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        let out = run(&["replay", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(3));
        let said = stderr(&out);
        let mismatch = &said.trim()[said.find("line ").unwrap()..];
        assert!(doc.contains(&format!("`{mismatch}`")), "{name}: {mismatch}");
    }
}
