//! The narrative's tests: matches played by the real runner — scripted seats speaking the
//! protocol in-process under tokio's paused clock, or built-in bots — logged in memory, and
//! their narratives checked line by line against the rules' worked examples, with a check per
//! game that no seat's narrative tells what that seat could not know.

mod bouillabaisse;
mod conduct;
mod machiavelli;
mod vabanque;

use super::{Line, LineKind, Narrative, Perspective, tell};
use crate::runner::{
    FaultPolicy, LogRecord, MatchLog, MatchSettings, Player, play_match_from, shutdown_players,
};
use crate::seat::{ScriptEnd, ScriptedBot, Seat, Talk, TimeControl};
use engine::Game;
use protocol::Limits;
use serde_json::Value;
use std::collections::VecDeque;
use std::time::Duration;

/// One reply of a script: after `ms` of virtual time, `line` (the request's id put in for
/// `ID`), or the action `{"action": ...}` when `line` is `None`; or, if `quit`, no reply: the
/// script ends (its bot's output closes).
#[derive(Clone, Debug, Default)]
pub(super) struct Reply {
    pub ms: u64,
    pub action: Value,
    pub line: Option<String>,
    pub quit: bool,
}

impl Reply {
    /// Plays `action` at once.
    pub fn play(action: Value) -> Self {
        Reply {
            action,
            ..Reply::default()
        }
    }
}

/// Answers each request with the next of `replies`; once out of them, with the first legal
/// action the request lists, else `{"draw": true}`.
async fn script(mut end: ScriptEnd, replies: Vec<Reply>) {
    let mut replies: VecDeque<Reply> = replies.into();
    loop {
        let Some(request) = end.request(&mut Vec::new()).await else {
            return;
        };
        let id = &request["id"];
        let line = match replies.pop_front() {
            Some(Reply { quit: true, .. }) => return,
            Some(Reply {
                ms, line, action, ..
            }) => {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                line.map(|l| l.replace("ID", &id.to_string()))
                    .unwrap_or_else(|| {
                        format!(r#"{{"type":"action","id":{id},"action":{action}}}"#)
                    })
            }
            None => {
                let fallback = serde_json::json!({"draw": true});
                let action = request["legal"].get(0).unwrap_or(&fallback);
                format!(r#"{{"type":"action","id":{id},"action":{action}}}"#)
            }
        };
        if end.send_line(&line).await.is_err() {
            return;
        }
    }
}

/// A seat named `name` played by a script of `replies`, with 100 ms a decision.
pub(super) fn scripted<G: Game>(name: &str, replies: Vec<Reply>) -> Player<G, ScriptedBot> {
    let bot = ScriptedBot::spawn(1 << 20, move |end| script(end, replies));
    let mut player = Player::new(name, format!("script:{name}"), Seat::Process(Box::new(bot)));
    player.time = TimeControl {
        limits: Limits::new(10_000, 100),
        ..TimeControl::default()
    };
    player
}

/// A seat named `name` played by `G`'s built-in bot `builtin`.
pub(super) fn builtin<G: Game>(name: &str, builtin: &str) -> Player<G> {
    let strategy = engine::strategy::builtin::<G>(builtin).expect("a built-in bot");
    Player::new(name, format!("builtin:{builtin}"), Seat::Builtin(strategy))
}

/// Plays `game` (set up by the caller) with `options` between `players` and returns its log.
pub(super) async fn logged<G: Game, B: Talk>(
    game: G,
    options: &G::Options,
    seed: u64,
    mut players: Vec<Player<G, B>>,
) -> Vec<LogRecord> {
    let settings = MatchSettings {
        match_id: "told".into(),
        seed,
        max_faults: 3,
        policy: FaultPolicy::default(),
    };
    let mut log = MatchLog::memory();
    play_match_from(&settings, options, game, &mut players, &mut log)
        .await
        .expect("the match runs");
    shutdown_players(&mut players, Duration::from_secs(1)).await;
    log.records().to_vec()
}

/// The narrative of `records` from `perspective`.
pub(super) fn told(records: &[LogRecord], perspective: Perspective) -> Narrative {
    tell(records, perspective).expect("the log is told")
}

/// The lines of the section whose heading starts with `heading`.
pub(super) fn section<'n>(narrative: &'n Narrative, heading: &str) -> Vec<&'n str> {
    narrative
        .section(heading)
        .unwrap_or_else(|| panic!("no section {heading} in {narrative:#?}"))
        .texts()
}

/// Every line of the narrative, headings included.
pub(super) fn all_text(narrative: &Narrative) -> String {
    let mut text = String::new();
    for section in &narrative.sections {
        text.push_str(&section.heading);
        text.push('\n');
        for line in &section.lines {
            text.push_str(&line.text);
            text.push('\n');
        }
    }
    text
}
