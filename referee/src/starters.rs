//! Starter bots for `referee new-bot`: one table, keyed by game and language, whose entries are
//! sample bots of `sample-bots/` built into the binary as they are (`include_str!`), so a starter
//! is a sample bot by construction. Adding a game's starters is adding its entries here.

use crate::games::GameKind;
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
#[derive(Debug)]
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
#[derive(Debug)]
pub struct Starter {
    /// The game it plays.
    pub game: GameKind,
    /// The language it is written in.
    pub language: Language,
    /// Its files.
    pub files: &'static [StarterFile],
    /// The command that builds it in its directory, if it needs building.
    pub build: Option<&'static str>,
    /// The command that runs it from its directory.
    pub command: &'static str,
}

/// The Rust starter's files: one crate for every game (it plays among the legal actions).
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

/// A starter that is one script of `sample-bots/`, run by `interpreter`.
macro_rules! script {
    ($game:expr, $language:expr, $dir:literal, $file:literal, $interpreter:literal) => {
        Starter {
            game: $game,
            language: $language,
            files: &[StarterFile {
                path: $file,
                sample: concat!("sample-bots/", $dir, "/", $file),
                text: include_str!(concat!("../../sample-bots/", $dir, "/", $file)),
                executable: true,
            }],
            build: None,
            command: concat!($interpreter, " ", $file),
        }
    };
}

/// The Rust starter for `game`.
const fn rust(game: GameKind) -> Starter {
    Starter {
        game,
        language: Language::Rust,
        files: RUST_STARTER,
        build: Some("cargo build --release"),
        command: "target/release/random-starter",
    }
}

/// Every starter bot.
pub const STARTERS: &[Starter] = &[
    script!(
        GameKind::Vabanque,
        Language::Python,
        "python",
        "vabanque_random.py",
        "python3"
    ),
    rust(GameKind::Vabanque),
    script!(
        GameKind::Vabanque,
        Language::JavaScript,
        "javascript",
        "vabanque_random.js",
        "node"
    ),
    script!(
        GameKind::Bouillabaisse,
        Language::Python,
        "python",
        "bouillabaisse_random.py",
        "python3"
    ),
    rust(GameKind::Bouillabaisse),
    script!(
        GameKind::Bouillabaisse,
        Language::JavaScript,
        "javascript",
        "bouillabaisse_random.js",
        "node"
    ),
];

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
pub fn starter(game: GameKind, language: Language) -> Result<&'static Starter, NewBotError> {
    STARTERS
        .iter()
        .find(|s| s.game == game && s.language == language)
        .ok_or_else(|| NewBotError::NoStarter {
            game: game.name(),
            language: language.name(),
            available: match STARTERS
                .iter()
                .filter(|s| s.game == game)
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
        let opponents: Vec<String> = crate::with_game!(self.game, G => {
            crate::bots::sparring_partners::<G>(crate::bots::trial_players::<G>() - 1)
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
        for starter in STARTERS {
            for file in starter.files {
                let sample = std::fs::read_to_string(root.join(file.sample)).unwrap();
                assert_eq!(file.text, sample, "{}", file.sample);
            }
            assert_eq!(starter.readme("/bin/referee").lines().count(), 2);
        }
        for language in [Language::Python, Language::Rust, Language::JavaScript] {
            assert!(self::starter(GameKind::Vabanque, language).is_ok());
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
