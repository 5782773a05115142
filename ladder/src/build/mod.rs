//! Builds of versions: a version's source, unpacked, built in place by its language's
//! [`Recipe`](referee::starters::Recipe) in the sandbox ([`sandboxed`]: no network, a
//! read-only system, only its directory writable, caps on wall time, memory and disk), then
//! checked as `referee check` checks a bot ([`check`]). The directory, built, is what the
//! version's artifact holds ([`crate::artifacts::pack_dir`], in the outcome). The caps, the sandbox and the
//! recipes are in `docs/ladder.md` (#submissions-and-builds).
//!
//! A bot's failure (a compiler's error, a build that never ends or fills the disk, a check that
//! fails) is an outcome, with its log; an error ([`BuildError`]) is the platform's (the sandbox
//! cannot start, the game is unknown), never held against the bot.

pub mod check;
pub mod log;
pub mod mounts;
pub mod outcome;
pub mod sandboxed;
#[cfg(test)]
mod tests;

pub use check::check_built;
pub use outcome::{BuildOutcome, BuildStop, CheckOutcome, MemoryCap};
pub use sandboxed::{BuildSandbox, Caps};

use crate::artifacts::sha256_hex;
use crate::config::BuildSettings;
use crate::spec::BuildSpec;
use crate::upload::{PackError, pack_dir, program};
use mounts::{CARGO_HOME, rustup_home};
use referee::starters::Language;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

/// A fault of the platform during a build: the build is to be tried again, not held against
/// the bot.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The spec names no language, or no game, that there is.
    #[error("the build spec cannot be used: {0}")]
    Spec(String),
    /// The sandbox, a directory or a process could not be had.
    #[error("the build could not run here: {0}")]
    Platform(String),
    /// The check could not run (the referee failed, not the bot).
    #[error("the check could not run: {0}")]
    Check(String),
}

/// The build's environment: the bots' (`PATH` and the locale), with every cache and home in
/// the private `/tmp` (not in the directory, which becomes the artifact), Go on its own
/// toolchain with no proxy (and in GOPATH mode for a bot with no `go.mod`: one `main.go`),
/// cargo offline.
fn environment(dir: &Path) -> BTreeMap<OsString, OsString> {
    let no_module = !dir.join("go.mod").is_file();
    let own: BTreeMap<String, String> = [
        ("HOME", "/tmp/home"),
        ("XDG_CACHE_HOME", "/tmp/cache"),
        ("GOCACHE", "/tmp/go-cache"),
        ("GOPATH", "/tmp/go"),
        ("GOTOOLCHAIN", "local"),
        ("GOPROXY", "off"),
        ("CARGO_HOME", CARGO_HOME),
        ("CARGO_NET_OFFLINE", "true"),
        ("CARGO_INCREMENTAL", "0"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .chain(rustup_home().map(|home| ("RUSTUP_HOME".to_string(), home.display().to_string())))
    .chain(no_module.then(|| ("GO111MODULE".to_string(), "off".to_string())))
    .collect();
    referee::seat::environment::bot_environment(&own, Some(dir), true)
}

/// Builds the version of `spec`, whose source is unpacked at `dir` (by
/// [`crate::artifacts::unpack_artifact`]), in place, by its language's recipe, under
/// `settings`' caps, in `sandbox`. A language with no build step is only looked at (its program
/// must be there). The outcome's `check` is `None`: [`build_and_check`] does both.
///
/// # Errors
/// [`BuildError`]: the platform's faults only.
pub async fn build(
    spec: &BuildSpec,
    dir: &Path,
    settings: &BuildSettings,
    sandbox: &BuildSandbox,
) -> Result<BuildOutcome, BuildError> {
    let language = Language::from_name(&spec.lang)
        .ok_or_else(|| BuildError::Spec(format!("no language is called {:?}", spec.lang)))?;
    let recipe = language.recipe();
    let program = match program(language, dir) {
        Ok(program) => program,
        Err(refusal) if refusal.is_platform() => {
            return Err(BuildError::Platform(refusal.to_string()));
        }
        Err(refusal) => return Ok(unbuilt(false, format!("{refusal}\n"), String::new())),
    };
    let run_command = recipe.run_command(&program);
    let Some(command) = recipe.build else {
        let log = format!(
            "{} needs no build: it runs as `{run_command}`\n",
            language.name()
        );
        let mut outcome = unbuilt(true, log, run_command);
        pack(dir, &mut outcome)?;
        return Ok(outcome);
    };
    let words: Vec<String> = command.split_whitespace().map(String::from).collect();
    let mounts = mounts::extra_args(dir, language == Language::Rust);
    let caps = Caps {
        time: Duration::from_secs(settings.time_s),
        memory_mb: settings.memory_mb,
        disk_mb: settings.disk_mb,
    };
    let ran = sandboxed::run(&words, dir, &environment(dir), &mounts, caps, sandbox).await?;
    let network = if sandbox.sandbox.is_bwrap() {
        "no network"
    } else {
        "NOT SANDBOXED"
    };
    let log = format!(
        "$ {command}\n[in the sandbox: {network}; caps: {} s, {} MiB of memory ({}), {} MiB of disk]\n{}\n[{} after {:.1} s]\n",
        settings.time_s,
        settings.memory_mb,
        match ran.memory_cap {
            MemoryCap::Cgroup => "a control group",
            MemoryCap::Rlimit => "RLIMIT_AS",
        },
        settings.disk_mb,
        ran.log.text().trim_end(),
        ran.ending,
        ran.duration.as_secs_f64(),
    );
    let mut log = log;
    if ran.success && language == Language::Rust {
        keep_only_binary(dir, &program).map_err(|e| {
            BuildError::Platform(format!("cannot keep the built binary of target/: {e}"))
        })?;
        log.push_str(&format!(
            "[of target/, the artifact keeps target/release/{program} only]\n"
        ));
    }
    let mut outcome = BuildOutcome {
        ok: ran.success,
        log,
        run_command,
        duration_ms: ran.duration.as_millis() as u64,
        stopped: ran.stopped,
        memory_cap: Some(ran.memory_cap),
        artifact: None,
        artifact_sha256: None,
        check: None,
        passed: false,
    };
    pack(dir, &mut outcome)?;
    Ok(outcome)
}

/// Packs the built directory into the outcome's artifact, if it built; a tree that cannot be
/// an artifact (a link, a special file, a name outside the artifacts' set) fails the build.
fn pack(dir: &Path, outcome: &mut BuildOutcome) -> Result<(), BuildError> {
    if !outcome.ok {
        return Ok(());
    }
    match pack_dir(dir) {
        Ok(bytes) => {
            outcome.artifact_sha256 = Some(sha256_hex(&bytes));
            outcome.artifact = Some(bytes);
        }
        Err(e @ PackError::Io { .. }) => return Err(BuildError::Platform(e.to_string())),
        Err(e) => {
            outcome.ok = false;
            outcome.log.push_str(&format!(
                "[the built directory cannot be an artifact: {e}]\n"
            ));
        }
    }
    Ok(())
}

/// Removes a built Rust crate's `target/` but for its binary, `target/release/BIN`: the
/// artifact needs nothing else (its intermediate files are hundreds of MiB). The build's
/// processes are all gone: nothing changes the tree meanwhile.
fn keep_only_binary(dir: &Path, binary: &str) -> std::io::Result<()> {
    let target = dir.join("target");
    // A name outside the safe set of uploads' names: no file of the crate has it.
    let aside = dir.join("#binary");
    std::fs::rename(target.join("release").join(binary), &aside)?;
    std::fs::remove_dir_all(&target)?;
    std::fs::create_dir_all(target.join("release"))?;
    std::fs::rename(&aside, target.join("release").join(binary))
}

/// A build that ran no command: a language with no build step (`ok`), or a source that is not
/// the language's (not `ok`), its `log` saying which.
fn unbuilt(ok: bool, log: String, run_command: String) -> BuildOutcome {
    BuildOutcome {
        ok,
        log,
        run_command,
        duration_ms: 0,
        stopped: None,
        memory_cap: None,
        artifact: None,
        artifact_sha256: None,
        check: None,
        passed: false,
    }
}

/// [`build`], then, if it built, [`check_built`]: the outcome's `passed` says whether the
/// version enters the ladder.
///
/// # Errors
/// [`BuildError`]: the platform's faults only.
pub async fn build_and_check(
    spec: &BuildSpec,
    dir: &Path,
    settings: &BuildSettings,
    sandbox: &BuildSandbox,
) -> Result<BuildOutcome, BuildError> {
    let mut outcome = build(spec, dir, settings, sandbox).await?;
    if outcome.ok {
        let checked = check_built(spec, dir, &outcome.run_command, sandbox).await?;
        outcome.passed = checked.passed;
        outcome.check = Some(checked);
    }
    Ok(outcome)
}
