//! Writing results to standard output, and notes to standard error. A reader that stops early
//! (`referee replay log | head -1`) closes the pipe; that is not an error, so a broken pipe is
//! ignored instead of panicking as `println!` would.
//!
//! Both go through [`untrusted::layout`](referee::untrusted::layout), the last guard before the
//! terminal: every text a bot or a file wrote is escaped where it is put in a line
//! ([`referee::untrusted::line`]), and whatever dangerous character was missed there is escaped
//! here — the referee's own line breaks and tabs alone reach the terminal as they are.

use referee::untrusted;
use std::io::Write;

/// Writes `text` to standard output.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out
        .write_all(untrusted::layout(text).as_bytes())
        .and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("referee: cannot write to standard output: {e}");
    }
}

/// Writes `text` to standard error.
pub fn emit_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(untrusted::layout(text).as_bytes());
}

/// `print!` that ignores a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::emit(&format!($($arg)*)) };
}

/// `println!` that ignores a closed pipe.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::output::emit(&format!("{}\n", format!($($arg)*))) };
}

/// `eprintln!` through the same guard.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::output::emit_err(&format!("{}\n", format!($($arg)*))) };
}

pub(crate) use {errln, out, outln};

pub use referee::numbers::grouped;

/// Says each of `notices` (how bot processes run) on standard error, in its long form when
/// `verbose`.
pub fn notices(notices: &[referee::seat::notice::Notice], verbose: bool) {
    for notice in notices {
        for line in notice.lines(verbose) {
            errln!("referee: {line}");
        }
    }
}

/// `1 file or stderr range … was` or `N files or stderr ranges … were`: the count of what a
/// carry left behind of `whose` (`of the shards`, `of DIR`), in words that agree with it.
pub fn files_were(n: usize, whose: &str) -> String {
    match n {
        1 => format!("1 file or stderr range {whose} was"),
        n => format!("{n} files or stderr ranges {whose} were"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_file_was_two_files_were() {
        assert_eq!(
            super::files_were(1, "of the shards"),
            "1 file or stderr range of the shards was"
        );
        assert_eq!(
            super::files_were(2, "of d"),
            "2 files or stderr ranges of d were"
        );
    }
}
