//! `run.json`: how a tournament's last run was run — the directory it ran in, each bot's
//! working directory and environment, the sandbox and the hidden paths. None of it is part of
//! the tournament's identity (`tournament.json`): a run may change it without changing a
//! result, and `--resume` takes it from its own flags again. `referee rerun` reads it to play a
//! match again as it was played.

use super::results::{ResultsError, io_err};
use crate::seat::{Sandbox, SandboxMode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The run record's file name.
pub const RUN_FILE: &str = "run.json";

/// How a tournament's last run was run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The directory the referee ran in: relative commands, working directories and hidden
    /// paths are relative to it.
    pub cwd: PathBuf,
    /// The sandbox bots ran in: `bwrap` or `none` (as resolved, never `auto`).
    pub sandbox: SandboxMode,
    /// The paths bots could not see besides the other bots' working directories: the results
    /// directory, the config file and those given with `hide`.
    pub hidden: Vec<PathBuf>,
    /// Each bot's working directory and environment, by name (bots with neither are left out).
    pub bots: BTreeMap<String, RunBot>,
}

/// Where one bot ran.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunBot {
    /// Its working directory, if not the referee's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir: Option<PathBuf>,
    /// The variables its settings named.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
}

impl RunRecord {
    /// The record of a run of `config` started in `cwd`.
    pub fn of(config: &super::TournamentConfig, cwd: PathBuf) -> Self {
        RunRecord {
            cwd,
            sandbox: match config.process.sandbox {
                Sandbox::None => SandboxMode::None,
                Sandbox::Bwrap(_) => SandboxMode::Bwrap,
            },
            hidden: config
                .process
                .hidden
                .iter()
                .filter(|path| {
                    !config
                        .bots
                        .iter()
                        .any(|b| b.settings.workdir.as_ref() == Some(path))
                })
                .cloned()
                .collect(),
            bots: config
                .bots
                .iter()
                .filter(|b| b.settings.workdir.is_some() || !b.settings.env.is_empty())
                .map(|b| {
                    let bot = RunBot {
                        workdir: b.settings.workdir.clone(),
                        env: b.settings.env.clone(),
                    };
                    (b.name.clone(), bot)
                })
                .collect(),
        }
    }

    /// Writes the record into `dir`, atomically (a temporary file, then a rename).
    ///
    /// # Errors
    /// [`ResultsError::Io`] when it cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), ResultsError> {
        let path = dir.join(RUN_FILE);
        let temporary = dir.join(format!("{RUN_FILE}.tmp"));
        let text = serde_json::to_string_pretty(self).expect("run records serialize") + "\n";
        std::fs::write(&temporary, text).map_err(io_err(&temporary))?;
        std::fs::rename(&temporary, &path).map_err(io_err(&path))
    }

    /// Reads `dir`'s record: `None` where there is none (a directory written by `referee
    /// merge --out`, or by an older referee).
    ///
    /// # Errors
    /// [`ResultsError::Unreadable`] for a file that is not a run record, or an unreadable one.
    pub fn read(dir: &Path) -> Result<Option<Self>, ResultsError> {
        let path = dir.join(RUN_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(&path)(e)),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| ResultsError::Unreadable {
                path,
                message: e.to_string(),
            })
    }
}
