//! Why a run's bot processes cannot be run as its [`ProcessPolicy`](super::ProcessPolicy) asks.

use crate::seat::users::IsolationError;
use crate::seat::workdir_rule::WorkdirRefusal;
use std::path::PathBuf;

/// A refusal of the process policy, before any bot starts.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The current directory, which relative workdirs are found from, cannot be read.
    #[error("cannot read the current directory: {0}")]
    CurrentDir(std::io::Error),
    /// The directory the bots are to run from ([`ProcessPolicy::from`](super::ProcessPolicy::from))
    /// is not one here.
    #[error("bots cannot run from {}: {error}", crate::untrusted::shown(&dir.to_string_lossy()))]
    From {
        /// The directory asked for.
        dir: std::path::PathBuf,
        /// Why not.
        error: std::io::Error,
    },
    /// A workdir refused (another user's directory, a system directory, a place another user
    /// can change, a symbolic link on the way), with the flag that gives it anyway where one
    /// does.
    #[error("{refusal}{}", typed_hint(refusal))]
    Workdir {
        /// Why.
        refusal: WorkdirRefusal,
    },
    /// A bot's workdir is (inside) a path bots must not see: it would be hidden from the bot
    /// itself.
    #[error(
        "bot '{bot}': its workdir {} is (inside) {}, which bots must not see; move one of them",
        workdir.display(),
        hidden.display()
    )]
    InsideHidden {
        /// The bot.
        bot: String,
        /// Its workdir.
        workdir: PathBuf,
        /// The hidden path, as given.
        hidden: PathBuf,
    },
    /// A bot's workdir breaks its quota already: the bot would forfeit every match.
    #[error(
        "bot '{bot}': {breach}: empty it or raise its quota (workdir_mb) before the run; the referee never deletes a bot's files"
    )]
    OverQuota {
        /// The bot.
        bot: String,
        /// The workdir's usage against its quota.
        breach: String,
    },
    /// A workdir could not be marked for its bots.
    #[error(transparent)]
    Mark(WorkdirRefusal),
    /// The sandbox or the uids asked for cannot be had here, or a workdir cannot be given to
    /// its bot's group.
    #[error(transparent)]
    Isolation(#[from] IsolationError),
    /// A workdir cannot be held open to hide it from the other bots.
    #[error("cannot hold {} open to hide it: {error}", dir.display())]
    Hide {
        /// The workdir.
        dir: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// How to give a bot the workdir `refusal` refused, when typing its path does: the flag with
/// the exact path, quoted for a shell.
pub(crate) fn typed_hint(refusal: &WorkdirRefusal) -> String {
    if !refusal.accepted_when_named() {
        return String::new();
    }
    let word = format!("{}={}", refusal.bot, refusal.path.display());
    let quoted = shlex::try_quote(&word).map_or(word.clone(), |q| q.into_owned());
    format!("; to give it to the bot anyway, type its path: --workdir {quoted}")
}
