//! The [`Game`] trait: what the referee core needs from any game.

use crate::strategy::BuiltinBot;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::ops::RangeInclusive;

/// Who must decide what now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The seat to decide.
    pub seat: usize,
    /// The phase's name on the wire (e.g. `"chip"`).
    pub phase: &'static str,
}

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every seat.
    All,
    /// Only this seat (e.g. the card it drew).
    Seat(usize),
}

impl Audience {
    /// Whether `seat` may see it.
    pub fn includes(self, seat: usize) -> bool {
        match self {
            Audience::All => true,
            Audience::Seat(s) => s == seat,
        }
    }
}

/// An event with the seats allowed to see it. A game decides the audience of every event it
/// emits, in one place, so that nothing private reaches another seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Addressed<E> {
    /// Who may see it.
    pub to: Audience,
    /// The event.
    pub event: E,
}

/// An action the rules do not allow, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

/// The player counts a game is played by, said the one way every message says it
/// (`vabanque is played by 3 to 6 players`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerCounts {
    /// The game's name.
    pub game: &'static str,
    /// The smallest count allowed.
    pub min: usize,
    /// The largest count allowed.
    pub max: usize,
}

impl PlayerCounts {
    /// The counts of `G` ([`Game::player_counts`]).
    pub fn of<G: Game>() -> Self {
        let counts = G::player_counts();
        PlayerCounts {
            game: G::NAME,
            min: *counts.start(),
            max: *counts.end(),
        }
    }

    /// Whether `players` is one of them.
    pub fn contains(&self, players: usize) -> bool {
        (self.min..=self.max).contains(&players)
    }
}

impl std::fmt::Display for PlayerCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is played by {} to {} players",
            self.game, self.min, self.max
        )
    }
}

/// A match could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The game does not allow this many players.
    #[error("{counts}, not {players}")]
    PlayerCount {
        /// The counts the game allows.
        counts: PlayerCounts,
        /// The count asked for.
        players: usize,
    },
    /// The options are not valid for this game.
    #[error("invalid options for {game}: {message}")]
    Options {
        /// The game's name.
        game: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// The end of a match: a score and a rank per seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Final scores, by seat.
    pub scores: Vec<i64>,
    /// Final ranks, by seat: 1 is best, tied seats share the best rank they cover
    /// (scores 9, 9, 5 rank 1, 1, 3).
    pub ranks: Vec<u32>,
}

impl Outcome {
    /// Ranks seats by score; `higher_is_better` says which way. Equal scores share a rank.
    pub fn from_scores(scores: Vec<i64>, higher_is_better: bool) -> Self {
        let ranks = scores
            .iter()
            .map(|&mine| {
                let better = scores
                    .iter()
                    .filter(|&&other| {
                        if higher_is_better {
                            other > mine
                        } else {
                            other < mine
                        }
                    })
                    .count();
                better as u32 + 1
            })
            .collect();
        Outcome { scores, ranks }
    }
}

/// A game: a pure, deterministic state machine.
///
/// A state is built from options, a player count and a seed ([`Game::new`]); it then says who
/// must decide ([`Game::to_move`]), what that seat may see ([`Game::view`]), whether an action
/// is legal ([`Game::check`]), applies it ([`Game::play`]) and, at the end, gives the
/// [`Outcome`]. It does no I/O and reads no clock; all chance comes from the seed. Two states are
/// equal (`PartialEq`) when every field is, hidden parts and chance to come included.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The game's name on the command line and on the wire.
    const NAME: &'static str;
    /// What the score is called in standings (e.g. `"money"`).
    const SCORE_NAME: &'static str;
    /// Whether a higher score is better (Vabanque's money) or a lower one (the points of a card
    /// game's cards left in hand). The game ranks its own matches by it; formats that sum
    /// scores over matches (the Nava schedule's match points) compare the sums by it.
    const HIGHER_IS_BETTER: bool;
    /// Whether [`Game::legal_actions`] lists the legal actions (at every decision; it is
    /// `None` at every decision otherwise). Tools that need the list (the Rust starter bot,
    /// which plays among them) apply only to games that give it.
    const LISTS_ACTIONS: bool;
    /// Game options (a table in the config; echoed to bots in `hello` and `match_start`).
    type Options: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync;
    /// What one seat may see.
    type View: Serialize + Debug;
    /// A decision.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// Something that happened, told to its audience.
    type Event: Serialize + Clone + Debug + Send + Sync;

    /// The player counts the game allows.
    fn player_counts() -> RangeInclusive<usize>;

    /// Every phase the game can request a decision in, by its name on the wire (the
    /// [`Turn::phase`] of [`Game::to_move`]), in the order a match first reaches them. A check of a
    /// bot (`referee check`) plays until the bot has been asked in each of them.
    fn phases() -> &'static [&'static str];

    /// A new match.
    ///
    /// # Errors
    /// [`SetupError`] for a player count outside [`Game::player_counts`] or invalid options.
    fn new(options: &Self::Options, players: usize, seed: u64) -> Result<Self, SetupError>;

    /// Events that happen before the first decision (e.g. the first round's playing order).
    fn opening_events(&self) -> Vec<Addressed<Self::Event>>;

    /// The seat to decide and the phase, or `None` when the match is over.
    fn to_move(&self) -> Option<Turn>;

    /// Everything `seat` may know now. This is the only place a seat's view is made.
    fn view(&self, seat: usize) -> Self::View;

    /// Every legal action of the seat to move, for a game that can list them cheaply; `None`
    /// for a game whose actions are too many to list (a rummy, whose action is a whole new
    /// table). A game lists at every decision or at none, as [`Game::LISTS_ACTIONS`] says;
    /// tools that know no game work from [`Game::baseline_action`] when it does not.
    fn legal_actions(&self) -> Option<Vec<Self::Action>>;

    /// Whether the seat to move may play `action`.
    ///
    /// # Errors
    /// [`Illegal`] with the reason when it may not, or when the match is over.
    fn check(&self, action: &Self::Action) -> Result<(), Illegal>;

    /// Applies `action` for the seat to move and appends what happened to `events`.
    ///
    /// # Errors
    /// [`Illegal`] (the same as [`Game::check`]), leaving the state untouched.
    fn play(
        &mut self,
        action: &Self::Action,
        events: &mut Vec<Addressed<Self::Event>>,
    ) -> Result<(), Illegal>;

    /// Options a multi-table event (the Nava schedule) plays with unless its options set them:
    /// the practice of the game's own tournaments (Machiavelli deals 10 cards there). Empty by
    /// default.
    fn event_option_defaults() -> Vec<(&'static str, serde_json::Value)> {
        Vec::new()
    }

    /// The message of `event` when it tells a seat that the rules refused the action it just
    /// sent and charged the game's own penalty instead (a play that does not hold, in a rummy):
    /// a move of the game, not a fault. `None` for any other event, and for every event of a
    /// game whose legal actions are always played (the default). Tools that know no game
    /// (`referee check`) count these refusals with it.
    fn refusal(_event: &Self::Event) -> Option<&str> {
        None
    }

    /// The JSON shape of an action in the current phase, for messages to bot authors
    /// (e.g. `{"table": T}`).
    fn action_shape(&self) -> &'static str;

    /// Reads an action as a bot sent it: the syntactic check, before legality. An action of
    /// another phase's shape is refused here (a wrong shape), not by [`Game::check`].
    ///
    /// # Errors
    /// A message saying what shape was expected.
    fn parse_action(&self, value: &serde_json::Value) -> Result<Self::Action, String>;

    /// An action that is always legal for the seat to move, made from that seat's view alone
    /// (e.g. `draw` in a rummy, the first card that follows suit in a trick-taking game). It is
    /// what game-agnostic tools play when the game does not list its actions (the built-in
    /// random bot, the seeded default action), and a bot may fall back on it too: it needs
    /// nothing the bot does not see.
    fn baseline_action(view: &Self::View) -> Self::Action;

    /// The documented action the referee plays for a seat that faulted.
    fn default_action(&self) -> Self::Action;

    /// The result, once the match is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The running score of every seat, by seat: what the score stands at now, as every seat
    /// may know it (Vabanque's money; the points of the manches or hands scored so far in La
    /// Bouillabaisse and Machiavelli). It is public — the same in every state a seat cannot
    /// tell apart — and at the end of the match it is the [`Outcome`]'s scores. The match log
    /// records it after each action that changes it.
    fn scores(&self) -> Vec<i64>;

    /// The whole state, hidden parts included, for the match log.
    fn truth(&self) -> serde_json::Value;

    /// A state that `seat` cannot tell from this one: every secret it does not know (other
    /// hands, the order of a stock, the types of others' face-down cards) redrawn at random from
    /// `seed`, consistently, so that the match can go on from it. Public information, `seat`'s
    /// own secrets and the seat to move stay as they are. The conformance suite's twin-state
    /// test plays on from both states and checks that `seat` is told exactly the same; a bot
    /// that samples what it cannot see (determinization) does the same thing.
    fn resample_hidden(&self, seat: usize, seed: u64) -> Self;

    /// The built-in bots, the game's baseline bot first (see [`crate::strategy`]).
    fn builtins() -> &'static [BuiltinBot<Self>];

    /// Option sets that between them switch on every rule variant of the game, the defaults
    /// first: the conformance suite runs each.
    fn option_variants() -> Vec<Self::Options> {
        vec![Self::Options::default()]
    }
}
