//! The lines that say, once per run, which sandbox bots get, who they run as and what they can
//! do then (`docs/security.md#bot-users`): one short line each, the long form with `--verbose`.

use super::setting::{BotUids, UidRange};
use crate::seat::notice::{Notice, SHORT_MAX, some_names};
use crate::seat::sandbox::{Bubblewrap, Sandbox};

/// The warning of a referee that runs as root but cannot give bots uids of their own, `why`.
pub(super) fn no_own_uids(why: &str) -> Notice {
    Notice::new(
        "warning: bots cannot run as uids of their own here; see docs/security.md#bot-users (--verbose: why)",
        vec![format!(
            "warning: bots cannot run as uids of their own here ({why})"
        )],
    )
}

/// The warning of `--sandbox auto` that found no usable bubblewrap, with its `long` form.
pub(super) fn no_sandbox(long: String) -> Notice {
    Notice::new(
        "warning: bots run without a sandbox: bubblewrap is missing or does not work here; see docs/security.md#the-layers (--verbose: why)",
        vec![long],
    )
}

/// The warning of a bubblewrap `bwrap` that cannot forbid user namespaces, if it cannot.
pub(super) fn userns_allowed(bwrap: &Bubblewrap) -> Option<Notice> {
    if bwrap.disables_userns {
        return None;
    }
    Some(Notice::new(
        "warning: this bubblewrap (before 0.8.0) cannot forbid user namespaces in the sandbox; see docs/security.md#the-layers (--verbose: what a bot can do)",
        vec![format!(
            "warning: {} has no --disable-userns (bubblewrap 0.8.0 and later): a bot can make a user namespace in the sandbox, mount the cgroup2 hierarchy there and read every process of the machine and its CPU use and pressure; install bubblewrap 0.8.0 or later",
            bwrap.path.display()
        )],
    ))
}

/// The warning of bubblewrap that runs as root because it cannot run as a bot's user, `why`.
pub(super) fn bwrap_as_root(why: &str) -> Notice {
    Notice::new(
        "warning: bubblewrap cannot run as a bot's user here: bots run in it as root; see docs/security.md#bot-users (--verbose: why)",
        vec![format!(
            "warning: bubblewrap cannot run as a bot's user here ({why}): bots run in it as root"
        )],
    )
}

/// The line of bots that run as uids of `range`.
pub(super) fn own_uids(range: UidRange) -> Notice {
    Notice::plain(format!(
        "bots run as uids {range} (one per bot process), without capabilities, no_new_privs"
    ))
}

/// The one warning for the bots of `bots` (name, why) that run as root although others do not:
/// all of them named in a short line (or as many as fit), one line each with why, the fix and
/// what a bot can do then in the long form.
pub(super) fn running_as_root(bots: &[(&str, String)], sandbox: &Sandbox) -> Option<Notice> {
    let names: Vec<&str> = bots.iter().map(|(name, _)| *name).collect();
    let (subject, files) = match names.len() {
        0 => return None,
        1 => ("bot", "its files"),
        _ => ("bots", "their files"),
    };
    let verb = if names.len() == 1 { "runs" } else { "run" };
    let place = if sandbox.is_bwrap() {
        "in bubblewrap"
    } else {
        "without a sandbox"
    };
    let line = |who: &str| {
        format!(
            "warning: {subject} {who} {verb} as root {place}: no bot uid can reach {files}; see docs/security.md#bot-users or --verbose"
        )
    };
    let budget = SHORT_MAX.saturating_sub(line("").len());
    let long = bots
        .iter()
        .map(|(name, why)| {
            format!(
                "warning: bot '{name}' runs as root, not as a uid of its own: {why}; {}",
                exposure(sandbox, true)
            )
        })
        .collect();
    Some(Notice::new(line(&some_names(&names, budget)), long))
}

/// The notice for bots that run as the referee's user, whose effective uid is `euid`: which,
/// and what a bot can do then.
pub(super) fn referee_user(sandbox: &Sandbox, uids: BotUids, euid: u32) -> Notice {
    let root = euid == 0;
    let who = if root {
        "root".to_string()
    } else {
        format!("uid {euid}")
    };
    let why = match (root, uids) {
        (_, BotUids::Off) => " (--bot-uids off)",
        (false, _) => " (bots get uids of their own only when it runs as root)",
        (true, _) => "",
    };
    let warning = if sandbox.is_bwrap() { "" } else { "warning: " };
    let short_why = if uids == BotUids::Off {
        " (--bot-uids off)"
    } else {
        ""
    };
    Notice::new(
        format!(
            "{warning}bots run as {who}, the referee's user{short_why}: {}; see docs/security.md#bot-users",
            brief_exposure(sandbox, root)
        ),
        vec![format!(
            "{warning}bots run as {who}, the referee's user{why}: {}",
            exposure(sandbox, root)
        )],
    )
}

/// [`exposure`] in a few words, for a short line.
fn brief_exposure(sandbox: &Sandbox, root: bool) -> &'static str {
    match (sandbox.is_bwrap(), root) {
        (false, true) => "without a sandbox a bot has every capability",
        (false, false) => "without a sandbox a bot can reach all this user can",
        (true, true) => "in bubblewrap a bot can read every file root can",
        (true, false) => "in bubblewrap a bot can read every file this user can",
    }
}

/// What a bot that runs as the referee's user can do, in `sandbox`, when that user is root or
/// not (`docs/security.md#bot-users`).
pub fn exposure(sandbox: &Sandbox, root: bool) -> &'static str {
    match (sandbox.is_bwrap(), root) {
        (false, true) => {
            "without a sandbox a bot has every capability: it can signal, ptrace and read the memory of the referee and of every bot, move itself out of its control group, and read and change every file of the machine"
        }
        (false, false) => {
            "without a sandbox a bot can signal, ptrace and read the memory of the referee and of every bot (they share its uid), and read and change every file this user can"
        }
        (true, true) => {
            "in bubblewrap a bot has no capability and sees no other process, but it can read every file root owns in the sandbox's read-only view of the file system (such as /root and /etc/shadow)"
        }
        (true, false) => {
            "in bubblewrap a bot sees no other process (it cannot signal, ptrace or read the referee or another bot), but it can read every file this user can in the sandbox's read-only view of the file system"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_referees_user_is_one_line_that_says_who_and_what_a_bot_can_do() {
        for (euid, who) in [(0, "root"), (1000, "uid 1000")] {
            let notice = referee_user(&Sandbox::None, BotUids::Off, euid);
            assert_eq!(
                notice.lines(true),
                [format!(
                    "warning: bots run as {who}, the referee's user (--bot-uids off): {}",
                    exposure(&Sandbox::None, euid == 0)
                )]
            );
            assert_eq!(
                notice.lines(false),
                [format!(
                    "warning: bots run as {who}, the referee's user (--bot-uids off): {}; see docs/security.md#bot-users",
                    brief_exposure(&Sandbox::None, euid == 0)
                )]
            );
        }
        let notice = referee_user(&Sandbox::None, BotUids::Auto, 1000);
        assert!(
            notice.lines(true)[0]
                .contains("(bots get uids of their own only when it runs as root)"),
            "{notice:?}"
        );
    }

    #[test]
    fn the_bots_that_run_as_root_are_one_short_warning_and_one_long_line_each() {
        let names = ["ada", "brian", "chen", "dana", "emil"];
        let bots: Vec<(&str, String)> = names.iter().map(|n| (*n, "why".to_string())).collect();
        for sandbox in [
            Sandbox::None,
            Sandbox::Bwrap(crate::seat::Bubblewrap::at("/usr/bin/bwrap")),
        ] {
            let notice = running_as_root(&bots, &sandbox).unwrap();
            assert!(notice.short().len() <= SHORT_MAX, "{}", notice.short());
            assert!(
                notice.short().starts_with("warning: bots 'ada', 'brian'"),
                "{}",
                notice.short()
            );
            let long = notice.lines(true);
            assert_eq!(long.len(), 5);
            assert!(
                long[4].starts_with(
                    "warning: bot 'emil' runs as root, not as a uid of its own: why; "
                )
            );
            // Whoever the referee runs as, up to the longest uid there is.
            for euid in [0, 1000, u32::MAX - 1] {
                let line = referee_user(&sandbox, BotUids::Off, euid);
                assert!(line.short().len() <= SHORT_MAX, "{}", line.short());
            }
            for root in [true, false] {
                assert!(brief_exposure(&sandbox, root).len() < exposure(&sandbox, root).len());
            }
        }
        let long = ["x".repeat(64), "y".repeat(64)];
        let bots: Vec<(&str, String)> = long.iter().map(|n| (n.as_str(), String::new())).collect();
        let notice = running_as_root(&bots, &Sandbox::None).unwrap();
        assert!(notice.short().len() <= SHORT_MAX + 64, "{}", notice.short());
        assert!(running_as_root(&[], &Sandbox::None).is_none());
    }
}
