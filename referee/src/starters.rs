//! Starter bots for `referee new-bot`, for every registered game: in Python and JavaScript, the
//! game's sample bot `sample-bots/<language>/<game>_random.<extension>` where there is one (found
//! by the build script, `build.rs`, and built into the binary as it is, so a starter is a sample
//! bot by construction); in Rust, the one crate of `sample-bots/rust-starter/`, which plays among
//! the legal actions, for every game that lists them. A new game's starters need no code here.

use engine::{Game, GameKind, with_game};
use std::path::{Path, PathBuf};

/// A language starter bots are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Python 3, standard library only.
    Python,
    /// Rust, a crate of its own depending on crates.io crates only.
    Rust,
    /// JavaScript for Node.js, no packages.
    JavaScript,
}

impl Language {
    /// Every language, in the order listed to users.
    pub const ALL: [Language; 3] = [Language::Python, Language::Rust, Language::JavaScript];

    /// The language's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Rust => "rust",
            Language::JavaScript => "javascript",
        }
    }
}

/// One file of a starter bot.
#[derive(Clone, Debug)]
pub struct StarterFile {
    /// Where it goes, relative to the bot's directory.
    pub path: &'static str,
    /// Where it comes from, relative to the repository's root.
    pub sample: &'static str,
    /// Its contents.
    pub text: &'static str,
    /// Whether it is made executable (scripts that start with `#!`).
    pub executable: bool,
}

/// A starter bot: a game, a language, its files and how to run it.
#[derive(Clone, Debug)]
pub struct Starter {
    /// The game it plays.
    pub game: GameKind,
    /// The language it is written in.
    pub language: Language,
    /// Its files.
    pub files: Vec<StarterFile>,
    /// The command that builds it in its directory, if it needs building.
    pub build: Option<&'static str>,
    /// The command that runs it from its directory.
    pub command: String,
}

/// The Rust starter's files: one crate for every game that lists its legal actions.
const RUST_STARTER: &[StarterFile] = &[
    StarterFile {
        path: "Cargo.toml",
        sample: "sample-bots/rust-starter/Cargo.toml",
        text: include_str!("../../sample-bots/rust-starter/Cargo.toml"),
        executable: false,
    },
    StarterFile {
        path: "src/main.rs",
        sample: "sample-bots/rust-starter/src/main.rs",
        text: include_str!("../../sample-bots/rust-starter/src/main.rs"),
        executable: false,
    },
];

/// A sample bot in a scripting language that is a game's starter (the table `build.rs` writes).
struct ScriptStarter {
    /// The game's name.
    game: &'static str,
    language: Language,
    /// Its file name, also its name in the bot's directory.
    file: &'static str,
    /// Its path from the repository's root.
    sample: &'static str,
    text: &'static str,
    /// The program that runs it.
    interpreter: &'static str,
}

/// Every `sample-bots/<language>/<game>_random.<extension>`.
const SCRIPTS: &[ScriptStarter] = include!(concat!(env!("OUT_DIR"), "/starter_scripts.rs"));

/// Every starter bot, game by game in the registry's order, languages in [`Language::ALL`]'s.
pub fn starters() -> Vec<Starter> {
    let mut all = Vec::new();
    for &game in GameKind::ALL {
        for language in Language::ALL {
            if language == Language::Rust {
                if with_game!(game, G => G::LISTS_ACTIONS) {
                    all.push(Starter {
                        game,
                        language,
                        files: RUST_STARTER.to_vec(),
                        build: Some("cargo build --release"),
                        command: "target/release/random-starter".to_string(),
                    });
                }
                continue;
            }
            let scripts = SCRIPTS
                .iter()
                .filter(|s| s.game == game.name() && s.language == language);
            all.extend(scripts.map(|script| Starter {
                game,
                language,
                files: vec![StarterFile {
                    path: script.file,
                    sample: script.sample,
                    text: script.text,
                    executable: true,
                }],
                build: None,
                command: format!("{} {}", script.interpreter, script.file),
            }));
        }
    }
    all
}

/// Why a starter bot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum NewBotError {
    /// No starter for this game in this language.
    #[error("there is no {language} starter bot for {game} (its starters: {available})")]
    NoStarter {
        /// The game.
        game: &'static str,
        /// The language asked for.
        language: &'static str,
        /// The languages there are for the game.
        available: String,
    },
    /// The bot's directory is a file.
    #[error("{0} is a file, not a directory; choose a new directory (nothing was written)")]
    NotADirectory(PathBuf),
    /// A file of the starter is there already.
    #[error("{0} exists already; choose a new directory (nothing was written)")]
    Exists(PathBuf),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// The starter for `game` in `language`.
///
/// # Errors
/// [`NewBotError::NoStarter`] naming the languages the game has starters in.
pub fn starter(game: GameKind, language: Language) -> Result<Starter, NewBotError> {
    let of_game: Vec<Starter> = starters().into_iter().filter(|s| s.game == game).collect();
    of_game
        .iter()
        .find(|s| s.language == language)
        .cloned()
        .ok_or_else(|| NewBotError::NoStarter {
            game: game.name(),
            language: language.name(),
            available: match of_game
                .iter()
                .map(|s| s.language.name())
                .collect::<Vec<_>>()
            {
                languages if languages.is_empty() => "none yet".to_string(),
                languages => languages.join(", "),
            },
        })
}

impl Starter {
    /// The two lines of its README: how to play it against the built-in bots, and how to check
    /// it, from its directory, with `referee` the referee's command (the running binary's
    /// absolute path, so that the lines work whether or not the referee is on `PATH`).
    pub fn readme(&self, referee: &str) -> String {
        let game = self.game.name();
        let opponents: Vec<String> = with_game!(self.game, G => {
            crate::check::sparring_partners::<G>(crate::check::trial_players::<G>() - 1)
        })
        .iter()
        .map(|spec| format!("--bot {}={}", spec.name, spec.describe()))
        .collect();
        let build = self.build.map(|b| format!("{b} && ")).unwrap_or_default();
        format!(
            "Play it against the built-in bots, from this directory: `{build}{referee} match --game {game} --bot \"me={}\" {}`\n\
             Check that it speaks the protocol: `{referee} check --game {game} {}`\n",
            self.command,
            opponents.join(" "),
            self.command
        )
    }

    /// Writes its files and its README (see [`Starter::readme`]) into `dir` (created if
    /// needed) and returns their paths. Nothing is written if any of them exists already.
    ///
    /// # Errors
    /// [`NewBotError::NotADirectory`], [`NewBotError::Exists`] or [`NewBotError::Io`].
    pub fn write(&self, dir: &Path, referee: &str) -> Result<Vec<PathBuf>, NewBotError> {
        if dir.exists() && !dir.is_dir() {
            return Err(NewBotError::NotADirectory(dir.to_path_buf()));
        }
        let readme = self.readme(referee);
        let files: Vec<(PathBuf, &str, bool)> = self
            .files
            .iter()
            .map(|f| (dir.join(f.path), f.text, f.executable))
            .chain(std::iter::once((
                dir.join("README.md"),
                readme.as_str(),
                false,
            )))
            .collect();
        if let Some((path, ..)) = files.iter().find(|(path, ..)| path.exists()) {
            return Err(NewBotError::Exists(path.clone()));
        }
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| NewBotError::Io { path, source }
        };
        for (path, text, executable) in &files {
            let parent = path.parent().unwrap_or(dir);
            std::fs::create_dir_all(parent).map_err(io(parent))?;
            std::fs::write(path, text).map_err(io(path))?;
            if *executable {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
                    .map_err(io(path))?;
            }
        }
        Ok(files.into_iter().map(|(path, ..)| path).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_starter_is_its_sample_and_has_a_two_line_readme() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for starter in starters() {
            for file in &starter.files {
                let sample = std::fs::read_to_string(root.join(file.sample)).unwrap();
                assert_eq!(file.text, sample, "{}", file.sample);
            }
            assert_eq!(starter.readme("/bin/referee").lines().count(), 2);
        }
        for language in Language::ALL {
            assert!(self::starter(GameKind::Vabanque, language).is_ok());
        }
    }

    #[test]
    fn every_starter_script_is_of_a_registered_game() {
        for script in SCRIPTS {
            assert!(
                GameKind::from_name(script.game).is_ok(),
                "{} is named for no registered game",
                script.sample
            );
        }
    }

    #[test]
    fn nothing_is_overwritten() {
        let dir = std::env::temp_dir().join(format!("starter-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let python = starter(GameKind::Vabanque, Language::Python).unwrap();
        let written = python.write(&dir, "referee").unwrap();
        assert_eq!(written.len(), 2);
        assert!(matches!(
            python.write(&dir, "referee"),
            Err(NewBotError::Exists(_))
        ));
        assert!(matches!(
            python.write(&written[0], "referee"),
            Err(NewBotError::NotADirectory(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
