//! How a bot in each language is built and run from its directory: the one place that says it,
//! for `new-bot`'s starters and for the ladder's builds of uploaded bots.

use super::language::Language;

/// How a bot in a language is built and run from its directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// The file a bot's directory is known by, at its top: the program of a script or of a
    /// one-file source (`bot.py`, `bot.cpp`, `main.go`...), the manifest of a Rust crate
    /// (`Cargo.toml`). A one-file upload is saved under this name.
    pub main: &'static str,
    /// The extension of the language's sources, without its dot.
    pub extension: &'static str,
    /// The command that builds it in its directory, if it needs building.
    pub build: Option<&'static str>,
    /// The command that runs it from its directory; `{file}` stands for its program: a
    /// script's file name, a Rust crate's binary.
    pub run: &'static str,
}

impl Recipe {
    /// The command that runs the bot whose program is `file`.
    pub fn run_command(&self, file: &str) -> String {
        self.run.replace("{file}", file)
    }
}

impl Language {
    /// The language named `name` on the command line ([`Language::name`]).
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.name() == name)
    }

    /// How a bot in the language is built and run.
    pub fn recipe(self) -> Recipe {
        let script = |main, extension, run| Recipe {
            main,
            extension,
            build: None,
            run,
        };
        match self {
            Language::Python => script("bot.py", "py", "python3 {file}"),
            Language::JavaScript => script("bot.js", "js", "node {file}"),
            Language::Rust => Recipe {
                main: "Cargo.toml",
                extension: "rs",
                build: Some("cargo build --release"),
                run: "target/release/{file}",
            },
            Language::Java => Recipe {
                main: "Bot.java",
                extension: "java",
                build: Some("javac -d build Bot.java Json.java"),
                run: "java -cp build Bot",
            },
            Language::Cpp => Recipe {
                main: "bot.cpp",
                extension: "cpp",
                build: Some("g++ -std=c++17 -O2 -Wall -o bot bot.cpp"),
                run: "./bot",
            },
            Language::Go => Recipe {
                main: "main.go",
                extension: "go",
                build: Some("go build -o bot ."),
                run: "./bot",
            },
        }
    }
}
