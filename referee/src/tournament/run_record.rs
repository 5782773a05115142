//! `run.json`: how a tournament's last run was run — the directory it ran in, each bot's
//! working directory and environment, the sandbox and the hidden paths. None of it is part of
//! the tournament's identity (`tournament.json`): a run may change it without changing a
//! result, and `--resume` takes it from its own flags again. `referee rerun` reads it to play a
//! match again as it was played.

use super::results_error::ResultsError;
use crate::safe_fs::SafeDir;
use crate::safe_fs::limits::RUN_BYTES;
use crate::seat::{BotSpec, ProcessOptions, Sandbox, SandboxMode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

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
    /// The record of a run of `config` with its bots' `process` options, started in `cwd`.
    pub fn of(config: &super::TournamentConfig, process: &ProcessOptions, cwd: PathBuf) -> Self {
        Self::of_bots(&config.bots, process, cwd)
    }

    /// The record of a run of `bots` with their `process` options, started in `cwd`.
    pub fn of_bots(bots: &[BotSpec], process: &ProcessOptions, cwd: PathBuf) -> Self {
        RunRecord {
            cwd,
            sandbox: match process.sandbox {
                Sandbox::None => SandboxMode::None,
                Sandbox::Bwrap(_) => SandboxMode::Bwrap,
            },
            hidden: process
                .hidden
                .iter()
                .filter(|path| !process.workdirs.iter().any(|(_, w)| path.is(w)))
                .map(|path| path.path().to_path_buf())
                .collect(),
            bots: bots
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
    /// [`ResultsError::File`] when it cannot be written.
    pub fn write(&self, dir: &SafeDir) -> Result<(), ResultsError> {
        let text = serde_json::to_string_pretty(self).expect("run records serialize") + "\n";
        Ok(dir.replace_file(RUN_FILE, text.as_bytes(), false)?)
    }

    /// Reads `dir`'s record (at most [`RUN_BYTES`]): `None` where there is none (a directory written by `referee
    /// merge --out`, or by an older referee).
    ///
    /// # Errors
    /// [`ResultsError::Unreadable`] for a file that is not a run record, or an unreadable one.
    pub fn read(dir: &SafeDir) -> Result<Option<Self>, ResultsError> {
        let Some(bytes) = dir.read(RUN_FILE, RUN_BYTES)? else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ResultsError::Unreadable {
                path: dir.path_of(RUN_FILE),
                message: e.to_string(),
            })
    }
}
