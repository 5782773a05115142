//! Tally, a game for the runner's own tests: the seats in turn say a number from 0 to 9, each
//! scores what it said, and the match ends after a set number of decisions. Its options can make
//! it fail on purpose (refuse to play an action it accepted), which no real game does. Beside
//! the game, the helpers that make its players (built-in or scripted) and play a match of it.

use super::{FaultPolicy, MatchLog, MatchRecord, MatchSettings, Player, play_match};
use crate::seat::{ScriptEnd, ScriptedBot, Seat, Talk, TimeControl};
use engine::strategy::BuiltinBot;
use engine::{Addressed, Audience, Game, Illegal, Outcome, SetupError, Strategy, Turn};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::future::Future;
use std::ops::RangeInclusive;

/// Tally's options.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Options {
    /// Decisions in a match.
    pub decisions: u64,
    /// The decision whose action the game refuses to play after accepting it (a game bug).
    pub refuse_at: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            decisions: 6,
            refuse_at: None,
        }
    }
}

/// What every seat sees: the decision to come and every seat's score.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The decision to come.
    pub n: u64,
    /// Scores by seat.
    pub totals: Vec<i64>,
}

/// A decision: the number said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// From 0 to 9.
    pub say: i64,
    /// A remark, which the rules ignore (so that an action can be as long as a bot likes).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A match of Tally.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    decisions: u64,
    refuse_at: Option<u64>,
    n: u64,
    totals: Vec<i64>,
}

/// The built-in bot: says the decision number, modulo 10.
struct Counter;

impl Strategy<Tally> for Counter {
    fn match_start(&mut self, _seat: usize, _seed: u64) {}

    fn decide(&mut self, view: &View, _legal: Option<&[Action]>) -> Action {
        Action {
            say: (view.n % 10) as i64,
            note: String::new(),
        }
    }
}

/// A built-in bot that breaks the rules: it always says 42.
struct Loud;

impl Strategy<Tally> for Loud {
    fn match_start(&mut self, _seat: usize, _seed: u64) {}

    fn decide(&mut self, _view: &View, _legal: Option<&[Action]>) -> Action {
        Action {
            say: 42,
            note: String::new(),
        }
    }
}

static BUILTINS: [BuiltinBot<Tally>; 2] = [
    BuiltinBot {
        name: "counter",
        summary: "says the decision number, modulo 10",
        make: || Box::new(Counter),
    },
    BuiltinBot {
        name: "loud",
        summary: "says 42, which is illegal",
        make: || Box::new(Loud),
    },
];

impl Game for Tally {
    const NAME: &'static str = "tally";
    const SCORE_NAME: &'static str = "points";
    const HIGHER_IS_BETTER: bool = true;
    const LISTS_ACTIONS: bool = false;
    type Options = Options;
    type View = View;
    type Action = Action;
    type Event = Value;

    fn player_counts() -> RangeInclusive<usize> {
        1..=4
    }

    fn phases() -> &'static [&'static str] {
        &["say"]
    }

    fn new(options: &Options, players: usize, _seed: u64) -> Result<Self, SetupError> {
        Ok(Tally {
            decisions: options.decisions,
            refuse_at: options.refuse_at,
            n: 0,
            totals: vec![0; players],
        })
    }

    fn opening_events(&self) -> Vec<Addressed<Value>> {
        vec![Addressed {
            to: Audience::All,
            event: json!({"kind": "open"}),
        }]
    }

    fn to_move(&self) -> Option<Turn> {
        (self.n < self.decisions).then(|| Turn {
            seat: (self.n % self.totals.len() as u64) as usize,
            phase: "say",
        })
    }

    fn view(&self, _seat: usize) -> View {
        View {
            n: self.n,
            totals: self.totals.clone(),
        }
    }

    fn legal_actions(&self) -> Option<Vec<Action>> {
        None
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        match (self.to_move(), action.say) {
            (None, _) => Err(Illegal("the match is over".into())),
            (Some(_), 0..=9) => Ok(()),
            (Some(_), _) => Err(Illegal("say a number from 0 to 9".into())),
        }
    }

    fn play(&mut self, action: &Action, events: &mut Vec<Addressed<Value>>) -> Result<(), Illegal> {
        self.check(action)?;
        if self.refuse_at == Some(self.n) {
            return Err(Illegal(format!("tally refuses decision {}", self.n)));
        }
        let seat = self.to_move().expect("checked").seat;
        self.totals[seat] += action.say;
        self.n += 1;
        events.push(Addressed {
            to: Audience::All,
            event: json!({"seat": seat, "say": action.say}),
        });
        Ok(())
    }

    fn action_shape(&self) -> &'static str {
        r#"{"say": N}"#
    }

    fn parse_action(&self, value: &Value) -> Result<Action, String> {
        Action::deserialize(value).map_err(|_| format!("expected {}", self.action_shape()))
    }

    fn baseline_action(_view: &View) -> Action {
        Action {
            say: 0,
            note: String::new(),
        }
    }

    fn default_action(&self) -> Action {
        Self::baseline_action(&self.view(0))
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.n >= self.decisions)
            .then(|| Outcome::from_scores(self.totals.clone(), Self::HIGHER_IS_BETTER))
    }

    fn scores(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn truth(&self) -> Value {
        json!({"n": self.n, "totals": self.totals})
    }

    fn resample_hidden(&self, _seat: usize, _seed: u64) -> Self {
        self.clone()
    }

    fn builtins() -> &'static [BuiltinBot<Self>] {
        &BUILTINS
    }
}

/// A player of Tally: its built-in bot `name`.
pub fn builtin<B>(name: &str) -> Player<Tally, B> {
    let strategy = engine::strategy::builtin::<Tally>(name).expect("a built-in of Tally");
    Player::new(name, format!("builtin:{name}"), Seat::Builtin(strategy))
}

/// A player of Tally played by `script` in-process, under the time control `time` (lines capped
/// at 1 MiB).
pub fn scripted<S, F>(name: &str, time: TimeControl, script: S) -> Player<Tally, ScriptedBot>
where
    S: FnOnce(ScriptEnd) -> F,
    F: Future<Output = ()> + Send + 'static,
{
    let bot = ScriptedBot::spawn(1 << 20, script);
    let mut player = Player::new(name, format!("script:{name}"), Seat::Process(Box::new(bot)));
    player.time = time;
    player
}

/// Plays one match of Tally between `players` under `policy` with `max_faults`, and returns its
/// record and its log as lines.
pub async fn play<B: Talk>(
    options: &Options,
    players: &mut [Player<Tally, B>],
    policy: FaultPolicy,
    max_faults: u32,
) -> (MatchRecord, Vec<String>) {
    let settings = MatchSettings {
        match_id: "t".into(),
        seed: 7,
        max_faults,
        policy,
    };
    let mut log = MatchLog::memory();
    let record = play_match(&settings, options, players, &mut log)
        .await
        .expect("Tally sets up");
    let lines = log
        .records()
        .iter()
        .map(|r| serde_json::to_string(r).expect("records serialize"))
        .collect();
    (record, lines)
}

/// Plays one match of Tally between the built-in bots named, under the default fault policy
/// with `max_faults`, and returns its record and its log as lines.
pub async fn logged_match(
    options: &Options,
    bots: &[&str],
    max_faults: u32,
) -> (MatchRecord, Vec<String>) {
    let mut players: Vec<Player<Tally>> = bots.iter().map(|name| builtin(name)).collect();
    play(options, &mut players, FaultPolicy::default(), max_faults).await
}
