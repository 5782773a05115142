//! The games this referee knows, chosen by name at run time.
//!
//! The rest of the referee is generic over [`Game`](crate::engine::Game); this module is the one
//! place that lists concrete games. [`with_game!`](crate::with_game) runs a generic expression
//! with the game's type.

/// A game known to the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Vabanque, 3–6 players.
    Vabanque,
    /// La Bouillabaisse, 2–12 players.
    Bouillabaisse,
}

impl GameKind {
    /// Every game, in the order listed to users.
    pub const ALL: [GameKind; 2] = [GameKind::Vabanque, GameKind::Bouillabaisse];

    /// The game's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Vabanque => "vabanque",
            GameKind::Bouillabaisse => "bouillabaisse",
        }
    }

    /// The game called `name`.
    ///
    /// # Errors
    /// [`UnknownGame`] listing the games there are.
    pub fn from_name(name: &str) -> Result<Self, UnknownGame> {
        Self::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }
}

/// A game name the referee does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (known games: {known})", known = GameKind::ALL.map(GameKind::name).join(", "))]
pub struct UnknownGame(pub String);

/// Runs `$body` with `$g` bound to the game type of the [`GameKind`] `$kind`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Vabanque => {
                type $g = $crate::engine::vabanque::Vabanque;
                $body
            }
            $crate::games::GameKind::Bouillabaisse => {
                type $g = $crate::engine::bouillabaisse::Bouillabaisse;
                $body
            }
        }
    };
}
