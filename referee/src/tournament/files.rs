//! The names of what a tournament's results directory holds.

/// The results file's name.
pub const MATCHES_FILE: &str = "matches.jsonl";
/// The tournament identity file's name.
pub const META_FILE: &str = "tournament.json";
/// The directory of each bot process's stderr.
pub const STDERR_DIR: &str = "stderr";
/// The directory of the match logs (`--logs`).
pub const LOGS_DIR: &str = "logs";
/// The directory where `referee check` verdicts are kept, one `NAME.json` per bot (by
/// `referee tournament --check`; the grade sheet reads them: [`crate::report::grades`]).
pub const CHECKS_DIR: &str = "checks";
/// The most bytes of a verdict file read.
pub const CHECK_FILE_LIMIT: u64 = 1 << 20;
