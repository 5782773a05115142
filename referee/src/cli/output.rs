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

/// Formats an integer with thousands separators (90000 → 90,000).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(90_000), "90,000");
        assert_eq!(grouped(-1_234_567), "-1,234,567");
    }
}
