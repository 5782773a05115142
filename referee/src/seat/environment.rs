//! A bot's environment: a short allow-list of the referee's own variables, and the variables the
//! bot's settings name — nothing else of the referee's, whose environment may hold secrets
//! (`docs/security.md#the-environment`). The bot's process is started with exactly this
//! environment (`env_clear`, then these), so a sandbox changes nothing in it.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

/// The referee's variables every bot gets as they are, when the referee has them.
pub const PASSED: [&str; 6] = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM"];

/// The referee's variable that names more of its variables to pass to every bot as they are,
/// separated by commas (systemd's `PassEnvironment=`): for a harness that marks the processes
/// it starts, like the end-to-end tests.
pub const PASS_VAR: &str = "REFEREE_PASS_ENV";

/// A bot's `PATH` when the referee has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The one directory every bot may write, in the sandbox or not.
const TMP: &str = "/tmp";

/// The environment of a bot whose settings name `own`, run in `workdir` (if not the referee's
/// directory), sandboxed or not: see [`environment`].
pub fn bot_environment(
    own: &BTreeMap<String, String>,
    workdir: Option<&Path>,
    sandboxed: bool,
) -> BTreeMap<OsString, OsString> {
    environment(|name| std::env::var_os(name), own, workdir, sandboxed)
}

/// The environment of a bot, with `referee` reading the referee's variables: those of
/// [`PASSED`] and of [`PASS_VAR`] that the referee has (`PATH` always: a default when the
/// referee has none), `HOME` (the bot's `workdir`, else `/tmp`), `TMPDIR` (`/tmp` in the
/// sandbox, else the referee's, if it has one), then `own` over all of them.
pub fn environment(
    referee: impl Fn(&str) -> Option<OsString>,
    own: &BTreeMap<String, String>,
    workdir: Option<&Path>,
    sandboxed: bool,
) -> BTreeMap<OsString, OsString> {
    let mut env = BTreeMap::new();
    let passed = referee(PASS_VAR).map(|names| names.to_string_lossy().into_owned());
    let extra = passed
        .iter()
        .flat_map(|names| names.split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty());
    for name in PASSED.into_iter().chain(extra) {
        if let Some(value) = referee(name) {
            env.insert(name.into(), value);
        }
    }
    env.entry("PATH".into())
        .or_insert_with(|| DEFAULT_PATH.into());
    let home = workdir
        .and_then(|dir| std::path::absolute(dir).ok())
        .map_or_else(|| TMP.into(), OsString::from);
    env.insert("HOME".into(), home);
    match (sandboxed, referee("TMPDIR")) {
        (true, _) => {
            env.insert("TMPDIR".into(), TMP.into());
        }
        (false, Some(tmpdir)) => {
            env.insert("TMPDIR".into(), tmpdir);
        }
        (false, None) => {}
    }
    for (name, value) in own {
        env.insert(name.into(), value.into());
    }
    env
}

/// Whether `name` can name a variable of a bot's environment: letters, digits and `_`, not
/// starting with a digit (the names a shell can set).
pub fn is_valid_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(
        referee: &[(&str, &str)],
        own: &[(&str, &str)],
        workdir: Option<&str>,
        sandboxed: bool,
    ) -> Vec<(String, String)> {
        let referee: BTreeMap<String, String> = referee
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let own = own
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        environment(
            |name| referee.get(name).map(OsString::from),
            &own,
            workdir.map(Path::new),
            sandboxed,
        )
        .into_iter()
        .map(|(k, v)| (k.into_string().unwrap(), v.into_string().unwrap()))
        .collect()
    }

    #[test]
    fn only_the_allow_list_passes_and_the_settings_come_on_top() {
        let referee = [
            ("PATH", "/opt/bin:/usr/bin"),
            ("LANG", "C.UTF-8"),
            ("HOME", "/root"),
            ("TMPDIR", "/var/tmp"),
            ("REFEREE_SECRET", "hunter2"),
            ("AWS_SECRET_ACCESS_KEY", "xyz"),
        ];
        assert_eq!(
            env_of(&referee, &[("SEED_FILE", "s.txt")], None, false),
            [
                ("HOME", "/tmp"),
                ("LANG", "C.UTF-8"),
                ("PATH", "/opt/bin:/usr/bin"),
                ("SEED_FILE", "s.txt"),
                ("TMPDIR", "/var/tmp"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
        // In the sandbox, /tmp is the bot's own; a bot's settings may set HOME or PATH too.
        let env = env_of(&referee, &[("PATH", "/bot/bin")], None, true);
        assert!(env.contains(&("TMPDIR".into(), "/tmp".into())), "{env:?}");
        assert!(env.contains(&("PATH".into(), "/bot/bin".into())), "{env:?}");
    }

    #[test]
    fn home_is_the_workdir_and_a_harness_may_pass_more_by_name() {
        let referee = [
            (PASS_VAR, "MARK, OTHER,,ABSENT"),
            ("MARK", "m-1"),
            ("OTHER", "o"),
            ("TERM", "xterm"),
        ];
        let env = env_of(&referee, &[], Some("/srv/bots/alice"), false);
        let get = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        assert_eq!(get("HOME"), Some("/srv/bots/alice"));
        assert_eq!(get("MARK"), Some("m-1"));
        assert_eq!(get("OTHER"), Some("o"));
        assert_eq!(get("TERM"), Some("xterm"));
        assert_eq!(get("PATH"), Some(DEFAULT_PATH));
        assert_eq!(
            (get("ABSENT"), get(PASS_VAR), get("TMPDIR")),
            (None, None, None)
        );
    }

    #[test]
    fn names_are_those_a_shell_can_set() {
        for good in ["A", "_x", "LC_ALL", "b2"] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in ["", "2A", "A-B", "A=B", "A B", "É"] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }
}
