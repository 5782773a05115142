//! The files starters are made of, built into the binary: the Rust starter's crate, the files a
//! language's samples share, and every sample bot the build script found.

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

/// The Rust starter's files: one crate for every game that lists its legal actions.
pub(super) const RUST_STARTER: &[StarterFile] = &[
    StarterFile {
        path: "Cargo.toml",
        sample: "sample-bots/rust-starter/Cargo.toml",
        text: include_str!("../../../sample-bots/rust-starter/Cargo.toml"),
        executable: false,
    },
    StarterFile {
        path: "src/main.rs",
        sample: "sample-bots/rust-starter/src/main.rs",
        text: include_str!("../../../sample-bots/rust-starter/src/main.rs"),
        executable: false,
    },
];

/// The file every Java starter has besides its `Bot.java`: the JSON reader and writer it uses.
pub(super) const JAVA_SHARED: &[StarterFile] = &[StarterFile {
    path: "Json.java",
    sample: "sample-bots/java/Json.java",
    text: include_str!("../../../sample-bots/java/Json.java"),
    executable: false,
}];

/// The file every Go starter has besides its `main.go`: the module it is.
pub(super) const GO_SHARED: &[StarterFile] = &[StarterFile {
    path: "go.mod",
    sample: "sample-bots/go/go.mod",
    text: include_str!("../../../sample-bots/go/go.mod"),
    executable: false,
}];

/// A sample bot `sample-bots/<dir>/<game>_random.<extension>` (the table `build.rs` writes).
pub(super) struct SampleBot {
    /// Its directory under `sample-bots/`.
    pub(super) dir: &'static str,
    /// The game's name.
    pub(super) game: &'static str,
    pub(super) extension: &'static str,
    /// Its path from the repository's root.
    pub(super) sample: &'static str,
    /// Its file name.
    pub(super) file: &'static str,
    pub(super) text: &'static str,
}

/// Every `sample-bots/<dir>/<game>_random.<extension>`.
pub(super) const SAMPLES: &[SampleBot] = include!(concat!(env!("OUT_DIR"), "/starter_samples.rs"));
