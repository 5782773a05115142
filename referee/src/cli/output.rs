//! Writing results to standard output. A reader that stops early (`referee replay log | head -1`)
//! closes the pipe; that is not an error, so a broken pipe is ignored instead of panicking as
//! `println!` would.

use std::io::Write;

/// Writes `text` to standard output.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("referee: cannot write to standard output: {e}");
    }
}

/// `print!` that ignores a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::emit(&format!($($arg)*)) };
}

/// `println!` that ignores a closed pipe.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::output::emit(&format!("{}\n", format!($($arg)*))) };
}

pub(crate) use {out, outln};

pub use crate::numbers::grouped;
