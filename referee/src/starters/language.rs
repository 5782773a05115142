//! The languages of starter bots and their conventions: which directory and extension are
//! whose, the name each takes in the bot's directory, (how it is built and run: `recipe.rs`).

use super::files::{GO_SHARED, JAVA_SHARED, StarterFile};

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

/// How a language's sample bots become starters: where they are and what they are called in the
/// bot's directory (how they are built and run there is the language's
/// [`Recipe`](super::Recipe)).
pub(super) struct Convention {
    /// Its directory under `sample-bots/`.
    pub(super) dir: &'static str,
    /// Its samples' extension.
    pub(super) extension: &'static str,
    /// The starter's name in the bot's directory, or `None` to keep the sample's.
    pub(super) file: Option<&'static str>,
    /// Files every starter of the language has besides its sample.
    pub(super) shared: &'static [StarterFile],
    /// Whether the starter is a script made executable.
    pub(super) executable: bool,
    /// What it needs, for its README.
    pub(super) needs: &'static str,
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
    pub(super) fn convention(self) -> Option<Convention> {
        let script = |dir, extension, needs| Convention {
            dir,
            extension,
            file: None,
            shared: &[],
            executable: true,
            needs,
        };
        Some(match self {
            Language::Rust => return None,
            Language::Python => script(
                "python",
                "py",
                "It needs Python 3 and its standard library only.",
            ),
            Language::JavaScript => script("javascript", "js", "It needs Node.js and no package."),
            Language::Java => Convention {
                dir: "java",
                extension: "java",
                file: Some("Bot.java"),
                shared: JAVA_SHARED,
                executable: false,
                needs: "It needs a JDK, 17 or later (`apt install default-jdk-headless`), and no \
                        library: Json.java, beside it, is a small JSON reader and writer.",
            },
            Language::Cpp => Convention {
                dir: "cpp",
                extension: "cpp",
                file: Some("bot.cpp"),
                shared: &[],
                executable: false,
                needs: "It needs g++ (C++17) and the JSON library nlohmann/json, Debian's \
                        nlohmann-json3-dev (`apt install g++ nlohmann-json3-dev`).",
            },
            Language::Go => Convention {
                dir: "go",
                extension: "go",
                file: Some("main.go"),
                shared: GO_SHARED,
                executable: false,
                needs: "It needs Go 1.19 or later (`apt install golang-go`) and its standard \
                        library only.",
            },
        })
    }

    /// The language's name in prose.
    pub(super) fn title(self) -> &'static str {
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
    pub(super) fn needs(self) -> &'static str {
        self.convention()
            .map_or(Self::RUST_NEEDS, |convention| convention.needs)
    }
}
