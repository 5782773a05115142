//! The most the referee reads of each kind of file it does not trust, in bytes. A file or a line
//! beyond its bound is refused ([`FileErrorKind::TooBig`](super::FileErrorKind::TooBig),
//! [`FileErrorKind::LineTooLong`](super::FileErrorKind::LineTooLong)) before more is read. Each
//! is many times what the referee itself writes (docs/security.md lists them with what they
//! hold).

const MIB: u64 = 1 << 20;

/// `tournament.json`: a thousand bots with long commands take under 2 MiB.
pub const META_BYTES: u64 = 4 * MIB;
/// `run.json`: each bot's working directory and environment.
pub const RUN_BYTES: u64 = 4 * MIB;
/// A TOML config file given to `referee match` or `referee tournament`.
pub const CONFIG_BYTES: u64 = 4 * MIB;
/// One line of `matches.jsonl`, its newline included (a real line is about 1 KiB; read line by
/// line, the file itself is not bounded).
pub const RESULT_LINE_BYTES: usize = 16 * MIB as usize;
/// One line of a match log, its newline included (a bot's hello name is up to 1 MiB, and a
/// header holds every seat's; read line by line, the file itself is not bounded).
pub const LOG_LINE_BYTES: usize = 16 * MIB as usize;

/// A bot process's stderr file, copied from a results directory by `referee merge` and by a
/// replacement (the referee caps each at 1 MiB, and its cap line).
pub const STDERR_FILE_BYTES: u64 = 16 * MIB;
/// A match log, copied from a results directory by `referee merge` and by a replacement (a
/// 12-player La Bouillabaisse match with a redraw per manche takes 150 KB).
pub const LOG_FILE_BYTES: u64 = 256 * MIB;

/// `n` bytes in words: `4 MiB`, `1000 bytes`.
pub fn shown(n: u64) -> String {
    if n >= MIB && n % MIB == 0 {
        format!("{} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}
