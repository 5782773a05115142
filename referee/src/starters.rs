//! Starter bots for `referee new-bot`, for every registered game. In Python, JavaScript, Java,
//! C++ and Go a game's starter is its sample bot `sample-bots/<directory>/<game>_random.<extension>`
//! where there is one (found by the build script, `build.rs`, and built into the binary as it is,
//! so a starter is a sample bot by construction), with the files its language's samples share
//! (Java's `Json.java`, Go's `go.mod`); in Rust, the one crate of `sample-bots/rust-starter/`, which plays among the
//! legal actions, for every game that lists them. A new game's starters need no code here.

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
    /// Java 17, no library.
    Java,
    /// C++17, with the JSON library nlohmann/json (Debian's `nlohmann-json3-dev`).
    Cpp,
    /// Go 1.19, standard library only.
    Go,
}

/// How a language's sample bots become starters: where they are, what they are called in the
/// bot's directory, and how they are built and run there.
struct Convention {
    /// Its directory under `sample-bots/`.
    dir: &'static str,
    /// Its samples' extension.
    extension: &'static str,
    /// The starter's name in the bot's directory, or `None` to keep the sample's.
    file: Option<&'static str>,
    /// Files every starter of the language has besides its sample.
    shared: &'static [StarterFile],
    /// Whether the starter is a script made executable.
    executable: bool,
    /// The command that builds it, if any.
    build: Option<&'static str>,
    /// The command that runs it; `{file}` stands for its name in the bot's directory.
    run: &'static str,
    /// What it needs, for its README.
    needs: &'static str,
}

impl Language {
    /// Every language, in the order listed to users.
    pub const ALL: [Language; 6] = [
        Language::Python,
        Language::Rust,
        Language::JavaScript,
        Language::Java,
        Language::Cpp,
        Language::Go,
    ];

    /// The language's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Rust => "rust",
            Language::JavaScript => "javascript",
            Language::Java => "java",
            Language::Cpp => "cpp",
            Language::Go => "go",
        }
    }

    /// How its starters are made from `sample-bots/`, for all but Rust's one crate.
    fn convention(self) -> Option<Convention> {
        let script = |dir, extension, interpreter, needs| Convention {
            dir,
            extension,
            file: None,
            shared: &[],
            executable: true,
            build: None,
            run: interpreter,
            needs,
        };
        Some(match self {
            Language::Rust => return None,
            Language::Python => script(
                "python",
                "py",
                "python3 {file}",
                "It needs Python 3 and its standard library only.",
            ),
            Language::JavaScript => script(
                "javascript",
                "js",
                "node {file}",
                "It needs Node.js and no package.",
            ),
            Language::Java => Convention {
                dir: "java",
                extension: "java",
                file: Some("Bot.java"),
                shared: JAVA_SHARED,
                executable: false,
                build: Some("javac -d build Bot.java Json.java"),
                run: "java -cp build Bot",
                needs: "It needs a JDK, 17 or later (`apt install default-jdk-headless`), and no \
                        library: Json.java, beside it, is a small JSON reader and writer.",
            },
            Language::Cpp => Convention {
                dir: "cpp",
                extension: "cpp",
                file: Some("bot.cpp"),
                shared: &[],
                executable: false,
                build: Some("g++ -std=c++17 -O2 -Wall -o bot bot.cpp"),
                run: "./bot",
                needs: "It needs g++ (C++17) and the JSON library nlohmann/json, Debian's \
                        nlohmann-json3-dev (`apt install g++ nlohmann-json3-dev`).",
            },
            Language::Go => Convention {
                dir: "go",
                extension: "go",
                file: Some("main.go"),
                shared: GO_SHARED,
                executable: false,
                build: Some("go build -o bot ."),
                run: "./bot",
                needs: "It needs Go 1.19 or later (`apt install golang-go`) and its standard \
                        library only.",
            },
        })
    }

    /// The language's name in prose.
    fn title(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::JavaScript => "JavaScript",
            Language::Java => "Java",
            Language::Cpp => "C++",
            Language::Go => "Go",
        }
    }

    /// What the Rust starter needs, for its README.
    const RUST_NEEDS: &'static str =
        "It needs Rust (cargo) and one crate from crates.io, serde_json.";

    /// What a starter in it needs (a sentence of its README).
    fn needs(self) -> &'static str {
        self.convention()
            .map_or(Self::RUST_NEEDS, |convention| convention.needs)
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

/// A starter bot: a game, a language, its files and how to build and run it.
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

/// The file every Java starter has besides its `Bot.java`: the JSON reader and writer it uses.
const JAVA_SHARED: &[StarterFile] = &[StarterFile {
    path: "Json.java",
    sample: "sample-bots/java/Json.java",
    text: include_str!("../../sample-bots/java/Json.java"),
    executable: false,
}];

/// The file every Go starter has besides its `main.go`: the module it is.
const GO_SHARED: &[StarterFile] = &[StarterFile {
    path: "go.mod",
    sample: "sample-bots/go/go.mod",
    text: include_str!("../../sample-bots/go/go.mod"),
    executable: false,
}];

/// A sample bot `sample-bots/<dir>/<game>_random.<extension>` (the table `build.rs` writes).
struct SampleBot {
    /// Its directory under `sample-bots/`.
    dir: &'static str,
    /// The game's name.
    game: &'static str,
    extension: &'static str,
    /// Its path from the repository's root.
    sample: &'static str,
    /// Its file name.
    file: &'static str,
    text: &'static str,
}

/// Every `sample-bots/<dir>/<game>_random.<extension>`.
const SAMPLES: &[SampleBot] = include!(concat!(env!("OUT_DIR"), "/starter_samples.rs"));

/// Every starter bot, game by game in the registry's order, languages in [`Language::ALL`]'s.
pub fn starters() -> Vec<Starter> {
    let mut all = Vec::new();
    for &game in GameKind::ALL {
        for language in Language::ALL {
            let Some(convention) = language.convention() else {
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
            };
            let samples = SAMPLES.iter().filter(|s| {
                s.game == game.name()
                    && s.dir == convention.dir
                    && s.extension == convention.extension
            });
            all.extend(samples.map(|sample| {
                let file = convention.file.unwrap_or(sample.file);
                let main = StarterFile {
                    path: file,
                    sample: sample.sample,
                    text: sample.text,
                    executable: convention.executable,
                };
                Starter {
                    game,
                    language,
                    files: std::iter::once(main)
                        .chain(convention.shared.iter().cloned())
                        .collect(),
                    build: convention.build,
                    command: convention.run.replace("{file}", file),
                }
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
    /// The commands to run from its directory, in order: its build command (if it has one),
    /// `referee check` on it, and a match against the built-in bots, with `referee` the
    /// referee's command (the running binary's absolute path, so that they work whether or not
    /// the referee is on `PATH`).
    pub fn commands(&self, referee: &str) -> Vec<String> {
        let game = self.game.name();
        let opponents: Vec<String> = with_game!(self.game, G => {
            crate::check::sparring_partners::<G>(crate::check::trial_players::<G>() - 1)
        })
        .iter()
        .map(|spec| format!("--bot {}={}", spec.name, spec.describe()))
        .collect();
        let command = &self.command;
        self.build
            .map(str::to_string)
            .into_iter()
            .chain([
                format!("{referee} check --game {game} {command}"),
                format!(
                    "{referee} match --game {game} --bot \"me={command}\" {}",
                    opponents.join(" ")
                ),
            ])
            .collect()
    }

    /// Its README: what it is and needs, then its [`Starter::commands`] in one `sh` block.
    pub fn readme(&self, referee: &str) -> String {
        let samples: Vec<String> = self
            .files
            .iter()
            .map(|f| format!("`{}` is `{}`", f.path, f.sample))
            .collect();
        let steps = match self.build {
            Some(_) => "build it, check",
            None => "check",
        };
        format!(
            "# A {language} bot for {game}\n\n\
             A complete bot that plays at random, with comments: put your strategy where they \
             say. Its files are sample bots of the referee's repository ({samples}). {needs}\n\n\
             From this directory, {steps} that it speaks the protocol, and play it against the \
             built-in bots:\n\n\
             ```sh\n{commands}\n```\n",
            language = self.language.title(),
            game = self.game.name(),
            samples = samples.join(", "),
            needs = self.language.needs(),
            commands = self.commands(referee).join("\n"),
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
    fn each_starter_is_its_sample_and_its_readme_builds_checks_and_plays_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for starter in starters() {
            for file in &starter.files {
                let sample = std::fs::read_to_string(root.join(file.sample)).unwrap();
                assert_eq!(file.text, sample, "{}", file.sample);
            }
            let game = starter.game.name();
            let readme = starter.readme("/bin/referee");
            let mut expected = Vec::from_iter(starter.build.map(str::to_string));
            expected.push(format!(
                "/bin/referee check --game {game} {}",
                starter.command
            ));
            let played = format!(
                "/bin/referee match --game {game} --bot \"me={}\" --bot ",
                starter.command
            );
            let commands = starter.commands("/bin/referee");
            assert_eq!(commands[..commands.len() - 1], expected);
            assert!(commands[commands.len() - 1].starts_with(&played));
            let block = format!("\n```sh\n{}\n```\n", commands.join("\n"));
            assert!(readme.ends_with(&block), "{readme}");
            assert_eq!(readme.matches("```").count(), 2, "one block: {readme}");
        }
    }

    #[test]
    fn starter_is_the_one_asked_for_or_names_the_languages_there_are() {
        let all = starters();
        for &game in GameKind::ALL {
            let of_game: Vec<&str> = all
                .iter()
                .filter(|s| s.game == game)
                .map(|s| s.language.name())
                .collect();
            for language in Language::ALL {
                match starter(game, language) {
                    Ok(found) => assert_eq!((found.game, found.language), (game, language)),
                    Err(NewBotError::NoStarter { available, .. }) => {
                        assert!(!of_game.contains(&language.name()));
                        assert_eq!(available, of_game.join(", "));
                    }
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }

    #[test]
    fn every_sample_starter_is_of_a_registered_game_and_a_language() {
        let conventions: Vec<Convention> = Language::ALL
            .into_iter()
            .filter_map(Language::convention)
            .collect();
        for sample in SAMPLES {
            assert!(
                GameKind::from_name(sample.game).is_ok(),
                "{} is named for no registered game",
                sample.sample
            );
            assert!(
                conventions
                    .iter()
                    .any(|c| c.dir == sample.dir && c.extension == sample.extension),
                "{} is in no language's directory or has not its extension",
                sample.sample
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
