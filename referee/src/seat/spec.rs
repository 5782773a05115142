//! Bot specifications from the command line or a config file: `NAME=COMMAND`, a command alone,
//! or `builtin:NAME`; a command is split like a shell would, or given as a list.

use super::{ResourceLimits, TimeControl};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// How a seat's bot is launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A built-in bot, by name (`random`, `heuristic`).
    Builtin(String),
    /// A program and its arguments.
    Command(Vec<String>),
}

/// How a bot is held: its time control, resource limits, working directory and environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotSettings {
    /// Its time limits and overrun tolerance.
    pub time: TimeControl,
    /// Its resource limits.
    pub limits: ResourceLimits,
    /// Its working directory (writable in the sandbox); relative commands are found from it.
    pub workdir: Option<PathBuf>,
    /// The variables its environment holds besides the few of the referee's it gets
    /// ([`environment`](super::environment)).
    pub env: BTreeMap<String, String>,
}

/// A named bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The name used in results (unique within a match).
    pub name: String,
    /// How it is launched.
    pub launch: Launch,
    /// How it is held.
    pub settings: BotSettings,
}

/// A bot specification that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// Nothing to run.
    #[error("bot '{0}': the command is empty")]
    Empty(String),
    /// Unbalanced quotes or a trailing backslash.
    #[error("bot '{name}': cannot split the command {command:?} (unbalanced quotes?)")]
    Unsplittable {
        /// The bot's name.
        name: String,
        /// The command as given.
        command: String,
    },
    /// The program is not on `PATH` or not at the path given.
    #[error("bot '{name}': command '{program}' not found{where_}")]
    NotFound {
        /// The bot's name.
        name: String,
        /// The program.
        program: String,
        /// Where it was looked for.
        where_: String,
    },
    /// The program exists but cannot be executed.
    #[error(
        "bot '{name}': '{program}' is not executable (chmod +x it, or name its interpreter: 'python3 {program}')"
    )]
    NotExecutable {
        /// The bot's name.
        name: String,
        /// The program.
        program: String,
    },
    /// A name used twice in one match.
    #[error("two bots are named '{0}': give each a unique NAME=COMMAND")]
    DuplicateName(String),
    /// A name that cannot be used.
    #[error("bot name {0:?} is not valid: use letters, digits, '_', '-' or '.'")]
    BadName(String),
    /// A built-in bot the game does not have.
    #[error("bot '{name}': {game} has no built-in bot '{builtin}' (built-ins: {known})")]
    UnknownBuiltin {
        /// The bot's name.
        name: String,
        /// The game.
        game: &'static str,
        /// The built-in asked for.
        builtin: String,
        /// The game's built-ins, comma-separated.
        known: String,
    },
}

const BUILTIN_PREFIX: &str = "builtin:";

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn default_name(launch: &Launch) -> String {
    match launch {
        Launch::Builtin(b) => b.clone(),
        Launch::Command(words) => {
            let last = words.last().map(String::as_str).unwrap_or("bot");
            let stem = Path::new(last)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("bot");
            let cleaned: String = stem
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if cleaned.is_empty() {
                "bot".into()
            } else {
                cleaned
            }
        }
    }
}

impl BotSpec {
    /// Parses `NAME=COMMAND`, `COMMAND` or `builtin:NAME` (optionally `NAME=builtin:NAME`).
    ///
    /// # Errors
    /// [`BotSpecError`] for an empty or unsplittable command or an invalid name.
    pub fn parse(arg: &str) -> Result<Self, BotSpecError> {
        let (name, command) = match arg.split_once('=') {
            Some((name, command)) if valid_name(name) => (Some(name.to_string()), command),
            _ => (None, arg),
        };
        let launch = if let Some(builtin) = command.trim().strip_prefix(BUILTIN_PREFIX) {
            Launch::Builtin(builtin.to_string())
        } else {
            let words = shlex::split(command).ok_or_else(|| BotSpecError::Unsplittable {
                name: name.clone().unwrap_or_default(),
                command: command.to_string(),
            })?;
            Launch::Command(words)
        };
        Self::new(name, launch)
    }

    /// A spec from a name (derived from the command when `None`) and a launch.
    ///
    /// # Errors
    /// [`BotSpecError`] for an empty command or an invalid name.
    pub fn new(name: Option<String>, launch: Launch) -> Result<Self, BotSpecError> {
        let name = name.unwrap_or_else(|| default_name(&launch));
        if !valid_name(&name) {
            return Err(BotSpecError::BadName(name));
        }
        if matches!(&launch, Launch::Command(words) if words.is_empty()) {
            return Err(BotSpecError::Empty(name));
        }
        Ok(BotSpec {
            name,
            launch,
            settings: BotSettings::default(),
        })
    }

    /// The command as one line (for logs and tables).
    pub fn describe(&self) -> String {
        match &self.launch {
            Launch::Builtin(b) => format!("{BUILTIN_PREFIX}{b}"),
            Launch::Command(words) => shlex::try_join(words.iter().map(String::as_str))
                .unwrap_or_else(|_| words.join(" ")),
        }
    }

    /// Checks, before any process starts, that the bot can be run in game `G`: a built-in
    /// that the game has, or a command whose program exists and is executable.
    ///
    /// # Errors
    /// [`BotSpecError::UnknownBuiltin`], [`BotSpecError::NotFound`] or
    /// [`BotSpecError::NotExecutable`].
    pub fn check<G: engine::Game>(&self) -> Result<(), BotSpecError> {
        self.check_in::<G>(Path::new(""))
    }

    /// [`BotSpec::check`], with a relative program found from `from` (the directory the bot
    /// runs from; `""`: the current one).
    ///
    /// # Errors
    /// As [`BotSpec::check`].
    pub fn check_in<G: engine::Game>(&self, from: &Path) -> Result<(), BotSpecError> {
        if let Launch::Builtin(builtin) = &self.launch
            && engine::strategy::builtin::<G>(builtin).is_none()
        {
            return Err(BotSpecError::UnknownBuiltin {
                name: self.name.clone(),
                game: G::NAME,
                builtin: builtin.clone(),
                known: engine::strategy::builtin_names::<G>().join(", "),
            });
        }
        self.resolve_in(from).map(drop)
    }

    /// Checks that a command's program exists and is executable, and returns its path.
    /// Built-in bots resolve to `None`.
    ///
    /// # Errors
    /// [`BotSpecError::NotFound`] or [`BotSpecError::NotExecutable`].
    pub fn resolve(&self) -> Result<Option<PathBuf>, BotSpecError> {
        self.resolve_in(Path::new(""))
    }

    /// [`BotSpec::resolve`], with a relative program found from `from` (the directory the bot
    /// runs from; `""`: the current one).
    ///
    /// # Errors
    /// As [`BotSpec::resolve`].
    pub fn resolve_in(&self, from: &Path) -> Result<Option<PathBuf>, BotSpecError> {
        let Launch::Command(words) = &self.launch else {
            return Ok(None);
        };
        let program = &words[0];
        let not_found = |where_: String| BotSpecError::NotFound {
            name: self.name.clone(),
            program: program.clone(),
            where_,
        };
        let candidate = if program.contains('/') {
            let path = match &self.settings.workdir {
                Some(dir) => from.join(dir).join(program),
                None => from.join(program),
            };
            if !path.is_file() {
                return Err(not_found(String::new()));
            }
            path
        } else {
            let paths = std::env::var_os("PATH").unwrap_or_default();
            std::env::split_paths(&paths)
                .map(|dir| dir.join(program))
                .find(|p| p.is_file())
                .ok_or_else(|| not_found(" in PATH".into()))?
        };
        let mode = std::fs::metadata(&candidate)
            .map(|m| m.permissions().mode())
            .unwrap_or(0);
        if mode & 0o111 == 0 {
            return Err(BotSpecError::NotExecutable {
                name: self.name.clone(),
                program: program.clone(),
            });
        }
        Ok(Some(candidate))
    }
}

/// Checks that no two specs share a name.
///
/// # Errors
/// [`BotSpecError::DuplicateName`] naming the first repeated name.
pub fn check_unique(specs: &[BotSpec]) -> Result<(), BotSpecError> {
    let mut seen = std::collections::BTreeSet::new();
    for spec in specs {
        if !seen.insert(spec.name.as_str()) {
            return Err(BotSpecError::DuplicateName(spec.name.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_and_unnamed_commands_and_builtins() {
        let spec = BotSpec::parse("alice=python3 'my bot.py' --fast").unwrap();
        assert_eq!(spec.name, "alice");
        assert_eq!(
            spec.launch,
            Launch::Command(vec!["python3".into(), "my bot.py".into(), "--fast".into()])
        );
        let spec = BotSpec::parse("python3 bots/greedy.py").unwrap();
        assert_eq!(spec.name, "greedy");
        let spec = BotSpec::parse("builtin:random").unwrap();
        assert_eq!(
            (spec.name.as_str(), &spec.launch),
            ("random", &Launch::Builtin("random".into()))
        );
        let spec = BotSpec::parse("r2=builtin:heuristic").unwrap();
        assert_eq!(spec.name, "r2");
        // An '=' inside the command is not a name.
        let spec = BotSpec::parse("env X=1 ./bot").unwrap();
        assert_eq!(
            spec.launch,
            Launch::Command(vec!["env".into(), "X=1".into(), "./bot".into()])
        );
    }

    #[test]
    fn refuses_bad_commands_with_one_clear_line() {
        assert!(matches!(
            BotSpec::parse("a='unbalanced"),
            Err(BotSpecError::Unsplittable { .. })
        ));
        assert!(matches!(BotSpec::parse("a="), Err(BotSpecError::Empty(_))));
        let missing = BotSpec::parse("x=definitely-not-a-program-4711")
            .unwrap()
            .resolve()
            .unwrap_err();
        assert_eq!(
            missing.to_string(),
            "bot 'x': command 'definitely-not-a-program-4711' not found in PATH"
        );
        let not_exec = BotSpec::parse("y=./Cargo.toml")
            .unwrap()
            .resolve()
            .unwrap_err();
        assert!(
            matches!(not_exec, BotSpecError::NotExecutable { .. }),
            "{not_exec}"
        );
        let a = BotSpec::parse("a=builtin:random").unwrap();
        assert!(matches!(
            check_unique(&[a.clone(), a]),
            Err(BotSpecError::DuplicateName(_))
        ));
    }
}
