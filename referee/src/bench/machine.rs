//! What `referee bench` measures with: this machine's CPU, and the sample bots it finds (the
//! Rust one beside the running binary, the Python one from the repository root).

use crate::seat::BotSpec;
use std::path::{Path, PathBuf};

/// The CPU's model name, from `/proc/cpuinfo`; `unknown CPU` where it says none.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// The Rust sample bot `vabanque-random` in `dir` (the running binary's directory), named
/// `rust`, if it is there.
pub fn rust_bot(dir: &Path) -> Option<BotSpec> {
    let path = dir.join("vabanque-random");
    path.is_file()
        .then(|| BotSpec::parse(&format!("rust={}", path.display())).ok())
        .flatten()
}

/// The Python sample bot `vabanque_random.py`, from the current directory (the repository's
/// root), named `py`, if it is there and `python3` is found.
pub fn python_bot() -> Option<BotSpec> {
    let script = PathBuf::from("sample-bots/python/vabanque_random.py");
    let spec = BotSpec::parse(&format!("py=python3 {}", script.display())).ok()?;
    (script.is_file() && spec.resolve().is_ok()).then_some(spec)
}

/// Four copies of `spec`, named after it with 0 to 3.
pub fn four(spec: &BotSpec) -> Vec<BotSpec> {
    (0..4)
        .map(|i| {
            let mut s = spec.clone();
            s.name = format!("{}{i}", spec.name);
            s
        })
        .collect()
}
