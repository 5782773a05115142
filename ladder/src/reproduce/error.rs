//! Why a match cannot be reproduced, or a bundle not given.

use referee::runner::MatchError;
use referee::safe_fs::FileError;
use referee::seat::BotSpecError;
use std::path::PathBuf;

/// Why a match cannot be reproduced: the bundle (missing, unreadable, inconsistent), this
/// machine (a seat's command, the sandbox), or the referee while playing. Never a bot: what a
/// bot does is in the reproduction.
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    /// A file or directory of the bundle cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file of the bundle is not what it should be.
    #[error("{}: {why}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The bundle has nothing to play a seat with: no stand-in script, not a built-in, and no
    /// artifact unpacked.
    #[error(
        "seat {seat} ({bot}): the bundle holds neither its stand-in script (stand-in/{bot}.jsonl) nor its artifact (artifacts/HASH/)"
    )]
    NoSource {
        /// The seat.
        seat: usize,
        /// Its bot.
        bot: String,
    },
    /// The spec does not fit the record or the bundle's seats.
    #[error("the bundle does not hold together: {0}")]
    Inconsistent(String),
    /// The seats' working directories cannot be made.
    #[error("cannot prepare {}: {error}", path.display())]
    Workdir {
        /// The file or directory.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// The running program's path, which the stand-ins run, cannot be found.
    #[error("cannot find the referee program to run the stand-ins: {0}")]
    Referee(std::io::Error),
    /// The game is not one this referee has.
    #[error(transparent)]
    Game(#[from] engine::UnknownGame),
    /// A seat cannot be started as its spec says.
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    /// The match cannot be played here (a command not found, the sandbox), or the referee
    /// failed while playing.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The recorded log cannot be compared with the match played again.
    #[error("the recorded log cannot be compared: {0}")]
    Log(String),
}

impl ReproduceError {
    /// Whether the error is in the caller's input (the bundle, this machine) rather than a
    /// failure of the referee while playing.
    pub fn is_usage(&self) -> bool {
        match self {
            ReproduceError::Match(error) => error.is_usage(),
            _ => true,
        }
    }
}
