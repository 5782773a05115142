//! Why a starter bot could not be written.

use std::path::PathBuf;

/// Why a starter bot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum NewBotError {
    /// No starter for this game in this language.
    #[error("there is no {language} starter bot for {game} (its starters: {available})")]
    NoStarter {
        /// The game.
        game: &'static str,
        /// The language asked for.
        language: &'static str,
        /// The languages there are for the game.
        available: String,
    },
    /// The bot's directory is a file.
    #[error("{0} is a file, not a directory; choose a new directory (nothing was written)")]
    NotADirectory(PathBuf),
    /// A file of the starter is there already.
    #[error("{0} exists already; choose a new directory (nothing was written)")]
    Exists(PathBuf),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}
