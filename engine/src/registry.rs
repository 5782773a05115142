//! The registry: the one list of the games there are. Everything that knows more than one game
//! (the command line's lists, the JSON Schemas, the starter bots, `referee check`, `referee
//! bench`, the conformance suite and the end-to-end tests) reads it, so registering a game is
//! one entry here. [`GameKind`] names a game at run time; [`with_game!`](crate::with_game) runs
//! generic code with the game's type.

use crate::Game;

/// Declares [`GameKind`], its list and [`with_game!`](crate::with_game) from one list of
/// `Kind => path::to::Type` entries. (`$d` is a `$`, so that the inner macro can have
/// metavariables of its own.)
macro_rules! registry {
    ($d:tt $( $(#[$doc:meta])* $kind:ident => $($path:ident)::+ ),+ $(,)?) => {
        /// A registered game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $( $(#[$doc])* $kind ),+
        }

        impl GameKind {
            /// Every registered game, in the order listed to users.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind),+];

            /// The game's name on the command line and on the wire ([`Game::NAME`]).
            pub fn name(self) -> &'static str {
                match self {
                    $( GameKind::$kind => <$crate::$($path)::+ as Game>::NAME ),+
                }
            }
        }

        /// Runs `$body` with `$g` bound to the type of the game of the
        /// [`GameKind`](crate::GameKind) `$kind`:
        /// `with_game!(kind, G => G::player_counts())`.
        #[macro_export]
        macro_rules! with_game {
            ($d kind:expr, $d g:ident => $d body:expr) => {
                match $d kind {
                    $( $d crate::GameKind::$kind => {
                        type $d g = $d crate::$($path)::+;
                        $d body
                    } )+
                }
            };
        }
    };
}

registry! {$
    /// Vabanque, 3–6 players.
    Vabanque => vabanque::Vabanque,
    /// La Bouillabaisse, 2–12 players.
    Bouillabaisse => bouillabaisse::Bouillabaisse,
    /// Machiavelli, 2–6 players.
    Machiavelli => machiavelli::Machiavelli,
}

impl GameKind {
    /// The game called `name`.
    ///
    /// # Errors
    /// [`UnknownGame`] listing the games there are.
    pub fn from_name(name: &str) -> Result<Self, UnknownGame> {
        Self::ALL
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }

    /// The names of every registered game, comma-separated, for messages.
    pub fn names() -> String {
        Self::ALL
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name the referee does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (known games: {known})", known = GameKind::names())]
pub struct UnknownGame(pub String);
