//! What a build and its check give: data for the owner's page (the log, the checklist) and for
//! the worker (the run command, whether the version enters the ladder).

use schemars::JsonSchema;
use serde::Serialize;

/// Why a build was stopped before it ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "cap", rename_all = "snake_case")]
pub enum BuildStop {
    /// It ran past its wall-time cap (`time_s`).
    Time {
        /// The cap, in seconds.
        seconds: u64,
    },
    /// Its directory grew past its disk cap (`disk_mb`).
    Disk {
        /// What the watcher saw.
        message: String,
    },
    /// It used more memory than its cap (`memory_mb`; seen where a control group enforces it).
    Memory {
        /// The cap, in MiB.
        mb: u64,
    },
}

/// How a build's memory cap is enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryCap {
    /// A control group of its own: every process of the build together.
    Cgroup,
    /// `RLIMIT_AS`: each process's address space (where no control group can be made).
    Rlimit,
}

/// What a build gave.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct BuildOutcome {
    /// Whether the build command ended with success (always, for a language with no build).
    pub ok: bool,
    /// Its output, stdout and stderr interleaved, capped ([`super::log`]), with a first line
    /// saying what ran and a last one saying how it ended.
    pub log: String,
    /// The command that runs the built bot from its directory.
    pub run_command: String,
    /// How long the build took, in milliseconds.
    pub duration_ms: u64,
    /// Why it was stopped, if it was.
    pub stopped: Option<BuildStop>,
    /// How its memory cap was enforced (`None` for a language with no build).
    pub memory_cap: Option<MemoryCap>,
    /// The built directory as an artifact (a deterministic `.tar.gz`), when it built.
    #[serde(skip)]
    pub artifact: Option<Vec<u8>>,
    /// The artifact's sha256, in lowercase hex.
    pub artifact_sha256: Option<String>,
    /// The check of the built bot (`None` when the build failed).
    pub check: Option<CheckOutcome>,
    /// Whether the version enters the ladder: it built and passed its check.
    pub passed: bool,
}

/// The check of a built bot, as `referee check --format json` gives it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CheckOutcome {
    /// Whether every required item passed.
    pub passed: bool,
    /// The check's report ([`referee::check::Report`]) as JSON.
    pub report: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_and_the_refusals_have_schemas_without_the_artifact_bytes() {
        let outcome = serde_json::to_value(schemars::schema_for!(BuildOutcome)).unwrap();
        let properties = &outcome["properties"];
        assert!(properties.get("artifact_sha256").is_some(), "{outcome}");
        assert!(properties.get("artifact").is_none(), "{outcome}");
        let refusal = schemars::schema_for!(crate::upload::UploadRefusal);
        assert!(
            serde_json::to_string(&refusal)
                .unwrap()
                .contains("unpacks_too_big")
        );
    }
}
