//! The words for how a bot's process ended or fell silent, for fault messages: its exit status
//! or signal, its last stderr lines (enough of a traceback to keep its file and line), and what
//! came on its standard output before a start-up limit ran out. Pure: the process
//! ([`ProcessBot`](super::ProcessBot)) gathers the facts, this says them.

use super::reply::excerpt;

/// How many of a bot's last stderr lines a fault message quotes, at most: a Python traceback's
/// `File "…", line N` stays in.
pub const STDERR_LINES: usize = 20;

/// The most bytes of a bot's last stderr lines a fault message quotes.
pub const STDERR_QUOTE_BYTES: usize = 4096;

/// Where a bot's process stood when a fault that ends it was told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Status(i32),
    /// A signal killed it.
    Signal(i32),
    /// It is still running.
    Running,
    /// It is gone, but how is not known.
    Unknown,
}

impl Ending {
    /// The message of a bot whose standard output closed: "the bot exited with status 1",
    /// "the bot was killed by signal 9 (SIGKILL)", "the bot closed its standard output but is
    /// still running".
    pub fn output_closed(self) -> String {
        match self {
            Ending::Running => "the bot closed its standard output but is still running".into(),
            _ => self.said(),
        }
    }

    /// The message of a bot that ended while `what` happened: "`what`; the bot exited with
    /// status 1", and so on.
    pub fn after(self, what: &str) -> String {
        format!("{what}; {}", self.said())
    }

    fn said(self) -> String {
        match self {
            Ending::Status(code) => format!("the bot exited with status {code}"),
            Ending::Signal(sig) => match signal_name(sig) {
                Some(name) => format!("the bot was killed by signal {sig} ({name})"),
                None => format!("the bot was killed by signal {sig}"),
            },
            Ending::Running => "the bot is still running".into(),
            Ending::Unknown => "the bot exited".into(),
        }
    }
}

/// The usual name of signal `sig`, for the signals that end bots.
fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// "; its last stderr lines: A | B | C" for the end of a bot's stderr `tail`: its last
/// [`STDERR_LINES`] lines that are not blank, at most [`STDERR_QUOTE_BYTES`] bytes of them (the
/// last kept), control characters escaped; "" when it wrote nothing.
pub fn stderr_quote(tail: &str) -> String {
    let mut kept: Vec<String> = Vec::new();
    let mut bytes = 0;
    for line in tail.lines().rev().filter(|l| !l.trim().is_empty()) {
        let shown = escaped(line.trim_end());
        bytes += shown.len() + 3;
        if kept.len() == STDERR_LINES || (bytes > STDERR_QUOTE_BYTES && !kept.is_empty()) {
            break;
        }
        kept.push(shown);
    }
    if kept.is_empty() {
        return String::new();
    }
    kept.reverse();
    format!("; its last stderr lines: {}", kept.join(" | "))
}

/// `line` with its control and format characters escaped ([`crate::untrusted::line`]: a bot's
/// terminal escapes never reach the referee's output), its end kept when it alone is over
/// [`STDERR_QUOTE_BYTES`].
fn escaped(line: &str) -> String {
    let shown = crate::untrusted::line(line).into_owned();
    if shown.len() <= STDERR_QUOTE_BYTES {
        return shown;
    }
    let mut start = shown.len() - STDERR_QUOTE_BYTES;
    while !shown.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &shown[start..])
}

/// What came on a bot's standard output before its start-up limit ran out with no line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Not a byte.
    Nothing,
    /// The beginning of a line, without its newline.
    PartialLine(Vec<u8>),
    /// Only blank lines.
    Blanks,
}

impl Silence {
    /// What it says after "no hello reply within the start-up limit of N ms: ", for a bot that
    /// is still running: what came, and what to do about it.
    pub fn explain(&self) -> String {
        const FLUSH: &str = "flush after every line (docs/protocol.md#transport)";
        match self {
            Silence::Nothing => format!(
                "nothing arrived on its standard output and the bot is still running: if it \
                 wrote its reply, it did not flush it — {FLUSH}; if it is only slow to start, \
                 --startup-limit-ms gives it longer"
            ),
            Silence::PartialLine(bytes) => format!(
                "a partial line of {} bytes arrived without its newline ({}) and the bot is \
                 still running: end each message with a newline and {FLUSH}",
                bytes.len(),
                excerpt(&String::from_utf8_lossy(bytes))
            ),
            Silence::Blanks => format!(
                "only blank lines arrived on its standard output and the bot is still running: \
                 if it wrote its reply, it did not flush it — {FLUSH}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_has_words_of_its_own() {
        assert_eq!(
            Ending::Status(1).output_closed(),
            "the bot exited with status 1"
        );
        assert_eq!(
            Ending::Signal(9).output_closed(),
            "the bot was killed by signal 9 (SIGKILL)"
        );
        assert_eq!(
            Ending::Running.output_closed(),
            "the bot closed its standard output but is still running"
        );
        assert_eq!(
            Ending::Signal(11).after("writing to the bot failed (Broken pipe)"),
            "writing to the bot failed (Broken pipe); the bot was killed by signal 11 (SIGSEGV)"
        );
    }

    #[test]
    fn a_traceback_keeps_its_file_and_line_and_a_flood_its_last_lines() {
        let traceback = "Traceback (most recent call last):\n  File \"/bots/me.py\", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax\n";
        assert_eq!(
            stderr_quote(traceback),
            "; its last stderr lines: Traceback (most recent call last): |   File \"/bots/me.py\", line 2 |     def f(: |           ^ | SyntaxError: invalid syntax"
        );
        let flood: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let quote = stderr_quote(&flood);
        assert!(
            quote.starts_with("; its last stderr lines: line 80 |"),
            "{quote}"
        );
        assert!(quote.ends_with("| line 99"), "{quote}");
        let wide: String = (0..20)
            .map(|i| format!("{i}{}\n", "x".repeat(500)))
            .collect();
        assert!(stderr_quote(&wide).len() <= STDERR_QUOTE_BYTES + 40);
        assert_eq!(stderr_quote("\n \n"), "");
        assert!(stderr_quote("\u{1b}[31mred\n").contains("\\u{1b}[31mred"));
    }
}
