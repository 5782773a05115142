//! The faults of every way a bot's process is seen to end, with no process.

use super::*;
use std::os::unix::process::ExitStatusExt;

/// The raw wait status of an exit with `code`.
fn exited(code: i32) -> ExitStatus {
    ExitStatus::from_raw(code << 8)
}

/// The raw wait status of a death by `signal`.
fn killed(signal: i32) -> ExitStatus {
    ExitStatus::from_raw(signal)
}

/// A bot that ended as `ending` says, with nothing else seen.
fn seen(ending: Ending) -> ExitSeen<'static> {
    ExitSeen {
        what: None,
        ending,
        notes: LimitNotes::default(),
        quota_breach: None,
        oom_killed: false,
        limits: ResourceLimits::default(),
    }
}

#[test]
fn an_exit_status_and_a_signal_are_told_through_bubblewrap_too() {
    assert_eq!(ending(Some(exited(3)), false), Ending::Status(3));
    assert_eq!(
        ending(Some(killed(libc::SIGKILL)), false),
        Ending::Signal(9)
    );
    // bubblewrap exits with 128 + the signal of the process it ran…
    assert_eq!(ending(Some(exited(128 + 11)), true), Ending::Signal(11));
    // …which outside it is an exit status like any other.
    assert_eq!(ending(Some(exited(128 + 11)), false), Ending::Status(139));
    assert_eq!(ending(Some(exited(200)), true), Ending::Status(200));
    assert_eq!(ending(None, true), Ending::Running);
}

#[test]
fn a_bot_whose_output_closed_exited_with_its_status() {
    let fault = exit_fault(seen(Ending::Status(1)));
    assert_eq!(fault.fault, FaultKind::Exited);
    assert_eq!(fault.message, "the bot exited with status 1");
    let fault = exit_fault(seen(Ending::Running));
    assert_eq!(
        fault.message,
        "the bot closed its standard output but is still running"
    );
}

#[test]
fn what_happened_comes_first_and_the_last_stderr_lines_last() {
    let fault = exit_fault(ExitSeen {
        what: Some("it crashed"),
        notes: LimitNotes {
            stderr: "Traceback\n  File \"bot.py\", line 3\nValueError\n",
            ..LimitNotes::default()
        },
        ..seen(Ending::Signal(libc::SIGSEGV))
    });
    assert_eq!(fault.fault, FaultKind::Exited);
    assert_eq!(
        fault.message,
        "it crashed; the bot was killed by signal 11 (SIGSEGV); its last stderr lines: Traceback |   File \"bot.py\", line 3 | ValueError"
    );
}

#[test]
fn a_limit_that_killed_the_bot_is_a_resource_limit_fault_the_quota_first() {
    let limits = ResourceLimits {
        memory_mb: Some(64),
        cpu_s: Some(2),
        file_mb: Some(8),
        ..ResourceLimits::default()
    };
    let limited = |ending, oom_killed, quota_breach: Option<&str>| {
        exit_fault(ExitSeen {
            oom_killed,
            quota_breach: quota_breach.map(String::from),
            limits,
            ..seen(ending)
        })
    };
    let quota = limited(Ending::Signal(9), true, Some("its workdir went over 1 MiB"));
    assert_eq!(quota.fault, FaultKind::ResourceLimit);
    assert_eq!(
        quota.message,
        "its workdir went over 1 MiB (the bot was killed by signal 9 (SIGKILL))"
    );
    let memory = limited(Ending::Signal(9), true, None);
    assert_eq!(
        memory.message,
        "the bot went over its memory limit of 64 MiB and the kernel killed it (the bot was killed by signal 9 (SIGKILL))"
    );
    let cpu = limited(Ending::Signal(libc::SIGXCPU), false, None);
    assert_eq!(
        cpu.message,
        "the bot used up its CPU-time limit of 2 s (the bot was killed by signal 24 (SIGXCPU))"
    );
    let file = limited(Ending::Signal(libc::SIGXFSZ), false, None);
    assert_eq!(
        file.message,
        "the bot wrote past its file-size limit of 8 MiB (the bot was killed by signal 25 (SIGXFSZ))"
    );
    let plain = limited(Ending::Signal(libc::SIGTERM), false, None);
    assert_eq!(plain.fault, FaultKind::Exited);
}

#[test]
fn the_notes_say_a_process_limit_reached_a_stderr_budget_passed_and_a_filter_refusal() {
    let budget = StderrBudget {
        per_decision: Some(16 << 10),
        per_match: None,
    };
    let stderr = "The futex facility returned an unexpected error code\n";
    let notes = LimitNotes {
        processes_hit: Some(8),
        stderr_over: Some(budget),
        stderr,
    };
    let text = notes.text();
    assert!(
        text.starts_with("; it reached its limit of 8 processes and threads; its stderr was over its budget (16 KiB a decision, no bound a match)"),
        "{text}"
    );
    assert!(
        text.ends_with("(docs/security.md#the-system-call-filter)"),
        "{text}"
    );
    assert_eq!(LimitNotes::default().text(), "");
    // Past its budget, the lines quoted are the last ones read, and said so.
    let fault = exit_fault(ExitSeen {
        notes,
        ..seen(Ending::Status(134))
    });
    assert!(
        fault.message.ends_with(
            "its last stderr lines: The futex facility returned an unexpected error code (the last lines the referee read: the bot wrote more, past its stderr budget)"
        ),
        "{}",
        fault.message
    );
}
