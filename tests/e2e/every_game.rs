//! Every registered game, as the engine's registry lists them: a new game is in these tests by
//! registering. Each plays a match of its built-in bots and a sample bot process, replays its
//! log, runs a short tournament, and has its messages in `referee schema`.

use crate::util::*;
use engine::{Game, GameKind, with_game};
use serde_json::Value;

/// A decision limit no sample bot reaches however loaded the machine.
const NO_TIMEOUT_MS: &str = "10000";

/// The game's fewest players and its built-in bots' names.
fn seats_and_builtins(kind: GameKind) -> (usize, Vec<&'static str>) {
    with_game!(kind, G => (
        *G::player_counts().start(),
        engine::strategy::builtin_names::<G>(),
    ))
}

/// `--bot` arguments: a process (the game's Python starter, when it has one) in seat 0, then the
/// built-ins in turn, `players` in all.
fn bots(kind: GameKind, players: usize) -> Vec<String> {
    let (_, builtins) = seats_and_builtins(kind);
    let sample = format!("sample-bots/python/{}_random.py", kind.name());
    let mut bots = Vec::new();
    if root().join(&sample).exists() {
        bots.push(format!("py={}", file(&sample)));
    }
    let mut i = 0;
    while bots.len() < players {
        let builtin = builtins[i % builtins.len()];
        bots.push(format!("{builtin}{i}=builtin:{builtin}"));
        i += 1;
    }
    bots
}

#[test]
fn every_game_plays_replays_and_ranks_its_built_in_bots_and_a_sample_bot() {
    for &kind in GameKind::ALL {
        let game = kind.name();
        let (players, builtins) = seats_and_builtins(kind);
        assert!(!builtins.is_empty(), "{game} has a baseline bot");
        let players = players.max(3);
        let dir = temp_dir(&format!("every-game-{game}"));
        let log = dir.join("match.jsonl");
        let mut args = vec![
            "match".to_string(),
            "--game".into(),
            game.into(),
            "--seed".into(),
            "4".into(),
            "--time-limit-ms".into(),
            NO_TIMEOUT_MS.into(),
            "--format".into(),
            "json".into(),
            "--log".into(),
            log.display().to_string(),
        ];
        for bot in bots(kind, players) {
            args.extend(["--bot".to_string(), bot]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let record: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(record["game"], game);
        assert_eq!(record["ranks"].as_array().unwrap().len(), players);
        assert_eq!(record["faults"], serde_json::json!([]), "{game}: {record}");

        let replayed = run(&["replay", log.to_str().unwrap()]);
        assert!(replayed.status.success(), "{game}: {}", stderr(&replayed));

        let out_dir = dir.join("tournament");
        let mut args = vec![
            "tournament".to_string(),
            "--game".into(),
            game.into(),
            "--seed".into(),
            "4".into(),
            "--time-limit-ms".into(),
            NO_TIMEOUT_MS.into(),
            "--matches".into(),
            (2 * players).to_string(),
            "--players".into(),
            players.to_string(),
            "--out".into(),
            out_dir.display().to_string(),
            "--format".into(),
            "json".into(),
            "--quiet".into(),
        ];
        for bot in bots(kind, players + 1) {
            args.extend(["--bot".to_string(), bot]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let board: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(board["game"], game);
        assert_eq!(board["matches"], 2 * players as u64);
        assert_eq!(
            json_lines(&out_dir.join("matches.jsonl")).len(),
            2 * players
        );
    }
}

#[test]
fn every_game_has_its_messages_in_the_schema() {
    let dir = temp_dir("every-game-schema");
    let out = run(&["schema", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for &kind in GameKind::ALL {
        assert!(
            files.iter().any(|f| f.starts_with(kind.name())),
            "no schema file for {}: {files:?}",
            kind.name()
        );
    }
}
