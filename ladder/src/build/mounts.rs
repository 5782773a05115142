//! What a build sees besides the bots' sandbox: the worker user's home hidden (an empty,
//! read-only directory in its place) but for the toolchains on `PATH` and rustup's home,
//! bound back read-only; and, for Rust, the host's cargo registry, read-only, in the build's
//! own cargo home (cargo runs offline: a crate missing there fails the build, with cargo's
//! message in its log).

use std::path::{Path, PathBuf};

/// The cargo home of a build, in its private `/tmp`.
pub const CARGO_HOME: &str = "/tmp/cargo-home";

/// The host's cargo registry (`$CARGO_HOME/registry`, else `~/.cargo/registry`), if there is
/// one.
pub fn host_cargo_registry() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".cargo")))?;
    Some(home.join("registry")).filter(|r| r.is_dir())
}

/// Where rustup keeps its toolchains (`$RUSTUP_HOME`, else `~/.rustup`), if it is there: cargo
/// installed by rustup is a proxy that reads it to find its toolchain.
pub fn rustup_home() -> Option<PathBuf> {
    std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".rustup")))
        .filter(|h| h.is_dir())
}

/// The worker user's home, absolute, if it has one.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute() && h.is_dir() && h != Path::new("/"))
}

/// The directories bound back into the hidden home: `PATH`'s entries and rustup's home that
/// are under it.
pub fn kept_in_home(home: &Path) -> Vec<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut kept: Vec<PathBuf> = std::env::split_paths(&path)
        .chain(rustup_home())
        .filter(|p| p.is_absolute() && p.starts_with(home) && p != home && p.is_dir())
        .collect();
    kept.sort();
    kept.dedup();
    kept
}

/// The bubblewrap arguments of a build at `dir`: the home hidden (unless the build is in it),
/// its toolchains bound back, and for Rust (`rust`) the registry.
pub fn extra_args(dir: &Path, rust: bool) -> Vec<String> {
    let mut args = Vec::new();
    let ro_bind = |args: &mut Vec<String>, host: &Path, inside: &str| {
        args.extend([
            "--ro-bind".into(),
            host.display().to_string(),
            inside.into(),
        ]);
    };
    if let Some(home) = home().filter(|h| !dir.starts_with(h)) {
        let shown = home.display().to_string();
        args.extend(["--tmpfs".into(), shown.clone()]);
        for kept in kept_in_home(&home) {
            ro_bind(&mut args, &kept, &kept.display().to_string());
        }
        args.extend(["--remount-ro".into(), shown]);
    }
    if let Some(registry) = host_cargo_registry().filter(|_| rust) {
        ro_bind(&mut args, &registry, &format!("{CARGO_HOME}/registry"));
    }
    args
}
