//! The documented exit codes of the `referee` binary.

/// Exit codes of the `referee` binary, stable across releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ExitCode {
    /// The command did what was asked (a match completed, a log was confirmed), even if bots
    /// faulted along the way: bot faults are results, not errors.
    Success = 0,
    /// An unexpected internal error of the referee.
    Internal = 1,
    /// The user's input was refused: a bad flag or config, an unknown game, a wrong player
    /// count, a bot command that cannot be run, an unreadable file.
    Usage = 2,
    /// `referee replay`: the log does not hold (an illegal or misattributed action, a result
    /// that is not the one the rules give, a truncated or edited file).
    ReplayMismatch = 3,
    /// `referee check`: the bot failed (or could not be checked on) at least one required item
    /// of the protocol checklist.
    CheckFailed = 4,
    /// `referee rerun`: the match played again did not give the recorded scores, ranks or
    /// faults, or, where its log was kept, the recorded decisions (a bot that is not
    /// deterministic, or a machine that changes what bots do).
    RerunDiffers = 5,
    /// The run was interrupted by a signal (SIGINT or SIGTERM); every child was stopped.
    Interrupted = 130,
}

impl ExitCode {
    /// The numeric process exit code.
    pub fn code(self) -> i32 {
        self as i32
    }
}
