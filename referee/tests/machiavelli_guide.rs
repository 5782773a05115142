//! The guide's rearrangement examples (`docs/rules-machiavelli.md`, "The guide's examples"),
//! played through the referee's real protocol: each match starts from the example's position
//! ([`Machiavelli::arranged`]), two scripted bots speak JSON lines over in-memory pipes to the
//! match runner, and each asserts what it was told — its own view, the events everyone saw,
//! and the events only it saw. Tokio's clock is paused: no wall clock is raced.

use engine::machiavelli::{Machiavelli, Options, Position, parse_cards};
use referee::runner::{
    FaultPolicy, MatchLog, MatchRecord, MatchSettings, Player, play_match_from, shutdown_players,
};
use referee::seat::{ScriptEnd, ScriptedBot, Seat};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Every message a script read, in order.
type Heard = Arc<Mutex<Vec<Value>>>;

/// Answers each request with the next of `actions` (JSON texts), then with `{"draw":true}`.
async fn script(mut end: ScriptEnd, actions: Vec<&'static str>, heard: Heard) {
    let mut actions: VecDeque<_> = actions.into();
    loop {
        let mut seen = Vec::new();
        let request = end.request(&mut seen).await;
        heard.lock().unwrap().extend(seen);
        let Some(request) = request else { return };
        let action = actions.pop_front().unwrap_or(r#"{"draw":true}"#);
        let line = format!(
            r#"{{"type":"action","id":{},"action":{action}}}"#,
            request["id"]
        );
        if end.send_line(&line).await.is_err() {
            return;
        }
    }
}

/// The position written as `(hands by seat, table)`, melds separated by `|`; seat 0 plays first.
fn position(hands: &[&str], table: &str) -> Position {
    let cards = |text: &str| parse_cards(text).expect("cards");
    Position {
        hands: hands.iter().map(|h| cards(h)).collect(),
        table: table.split('|').map(cards).collect(),
        to_play: 0,
    }
}

/// Plays a match of two scripted seats from `start`, seat 0 sending `actions` first, seat 1
/// always drawing; returns the record and what each seat heard.
async fn play(start: Position, actions: Vec<&'static str>) -> (MatchRecord, [Vec<Value>; 2]) {
    let options = Options::default();
    let game = Machiavelli::arranged(&options, 2, 11, start).expect("the position is valid");
    let heard = [Heard::default(), Heard::default()];
    let scripts = [actions, Vec::new()];
    let mut players: Vec<Player<Machiavelli, ScriptedBot>> = scripts
        .into_iter()
        .zip(&heard)
        .enumerate()
        .map(|(seat, (actions, heard))| {
            let heard = heard.clone();
            let bot = ScriptedBot::spawn(1 << 20, move |end| script(end, actions, heard));
            let name = format!("s{seat}");
            Player::new(
                name.clone(),
                format!("script:{name}"),
                Seat::Process(Box::new(bot)),
            )
        })
        .collect();
    let settings = MatchSettings {
        match_id: "guide".into(),
        seed: 11,
        max_faults: 3,
        policy: FaultPolicy::default(),
    };
    let record = play_match_from(
        &settings,
        &options,
        game,
        &mut players,
        &mut MatchLog::none(),
    )
    .await
    .expect("the match runs");
    shutdown_players(&mut players, Duration::from_secs(1)).await;
    let heard = heard.map(|h| h.lock().unwrap().clone());
    (record, heard)
}

/// The events in `heard`, in order.
fn events(heard: &[Value]) -> Vec<&Value> {
    heard
        .iter()
        .filter(|m| m["type"] == "event")
        .map(|m| &m["event"])
        .collect()
}

/// The views of the requests in `heard`, in order.
fn views(heard: &[Value]) -> Vec<&Value> {
    heard
        .iter()
        .filter(|m| m["type"] == "request")
        .map(|m| &m["view"])
        .collect()
}

/// The index of the first event of `kind` in `events`.
fn first(events: &[&Value], kind: &str) -> usize {
    events
        .iter()
        .position(|e| e["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} event in {events:?}"))
}

#[tokio::test(start_paused = true)]
async fn kings_queens_and_jacks_become_three_runs_to_lay_the_ace_of_clubs() {
    let start = position(&["AC 5D 9H", "2S 7H 8C"], "JC JD JH | QC QD QH | KC KD KH");
    let (record, [zero, one]) = play(
        start,
        vec![
            // Only the new clubs run: the other six cards of the old table are missing.
            r#"{"play":[["JC","QC","KC","AC"]]}"#,
            // The guide's play, melds in any order.
            r#"{"play":[["JH","QH","KH"],["JD","QD","KD"],["JC","QC","KC","AC"]]}"#,
        ],
    )
    .await;
    let old_table = json!([["JC", "JD", "JH"], ["QC", "QD", "QH"], ["KC", "KD", "KH"]]);
    let new_table = json!([
        ["JC", "QC", "KC", "AC"],
        ["JD", "QD", "KD"],
        ["JH", "QH", "KH"]
    ]);
    let seen = views(&zero);
    assert_eq!(seen[0]["table"], old_table);
    assert_eq!(seen[0]["hand"], json!(["AC", "5D", "9H"]));

    let told = events(&zero);
    let refused = first(&told, "play_refused");
    assert_eq!(
        told[refused]["message"],
        "JD was on the table and is missing from your table"
    );
    assert_eq!(
        *told[refused + 1],
        json!({"kind": "drew", "seat": 0, "count": 3, "reason": "invalid_play"})
    );
    // Refused: its next view shows the old table and three more cards in hand.
    assert_eq!(seen[1]["table"], old_table);
    assert_eq!(seen[1]["hand"].as_array().unwrap().len(), 6);

    let played = json!({"kind": "played", "seat": 0, "table": new_table, "from_hand": ["AC"], "hand_size": 5});
    assert!(told.contains(&&played), "seat 0 was told {told:?}");
    // Everyone sees the play and the new table; nobody else hears why the first was refused.
    let others = events(&one);
    assert!(others.contains(&&played));
    assert!(!others.iter().any(|e| e["kind"] == "play_refused"));
    let after = views(&one)
        .into_iter()
        .find(|v| v["table"] == new_table)
        .expect("seat 1 sees the new table");
    assert_eq!(after["hand_sizes"][0], 5);
    assert!(record.faults.is_empty(), "{:?}", record.faults);
}

#[tokio::test(start_paused = true)]
async fn the_nine_of_spades_leaving_the_queen_of_clubs_alone_is_refused_then_completed() {
    let start = position(
        &["9S QD QS 2H", "2S 7H 8C"],
        "10H 10D 10S | JH JD JS | QH QD QC",
    );
    let (record, [zero, one]) = play(
        start,
        vec![
            r#"{"play":[["10H","JH","QH"],["10D","JD","QD"],["9S","10S","JS"],["QC"]]}"#,
            r#"{"play":[["10H","JH","QH"],["10D","JD","QD"],["9S","10S","JS"],["QC","QD","QS"]]}"#,
        ],
    )
    .await;
    let old_table = json!([
        ["QC", "QD", "QH"],
        ["10D", "10H", "10S"],
        ["JD", "JH", "JS"]
    ]);
    let seen = views(&zero);
    assert_eq!(seen[0]["table"], old_table);

    let told = events(&zero);
    let refused = first(&told, "play_refused");
    assert_eq!(
        *told[refused],
        json!({"kind": "play_refused", "message": "meld 4 (QC) has one card; a meld needs three"})
    );
    assert_eq!(
        *told[refused + 1],
        json!({"kind": "drew", "seat": 0, "count": 3, "reason": "invalid_play"})
    );
    let drawn = &told[refused + 2];
    assert_eq!(drawn["kind"], "you_drew");
    assert_eq!(drawn["cards"].as_array().unwrap().len(), 3);
    // The table stays as it was; the penalty cards are in the hand.
    assert_eq!(seen[1]["table"], old_table);
    let hand = seen[1]["hand"].as_array().unwrap();
    assert_eq!(hand.len(), 7);
    for card in drawn["cards"].as_array().unwrap() {
        assert!(hand.contains(card));
    }

    let completed = json!({
        "kind": "played",
        "seat": 0,
        "table": [["QC","QD","QS"],["10D","JD","QD"],["10H","JH","QH"],["9S","10S","JS"]],
        "from_hand": ["QD","9S","QS"],
        "hand_size": 4,
    });
    assert!(told.contains(&&completed), "seat 0 was told {told:?}");

    // Seat 1 saw the draw of three, not the refusal nor the cards.
    let others = events(&one);
    assert!(
        others.contains(&&json!({"kind": "drew", "seat": 0, "count": 3, "reason": "invalid_play"}))
    );
    assert!(!others.iter().any(|e| e["kind"] == "play_refused"));
    assert!(
        !others
            .iter()
            .any(|e| e["kind"] == "you_drew" && e["cards"] == drawn["cards"])
    );
    assert!(others.contains(&&completed));
    // A refused play is a penalty of the rules, not a fault.
    assert!(record.faults.is_empty(), "{:?}", record.faults);
}
