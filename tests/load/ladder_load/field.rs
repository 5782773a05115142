//! The field of bots: their kinds, their names, and each bot's own files (its copy of a
//! sample's source, the command that runs it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::Env;

/// A kind of bot in the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The built-in `random`.
    BuiltinRandom,
    /// The built-in `heuristic`.
    BuiltinHeuristic,
    /// `sample-bots/python/vabanque_heuristic.py`.
    PythonHeuristic,
    /// `sample-bots/python/vabanque_random.py`.
    PythonRandom,
    /// `sample-bots/javascript/vabanque_random.js`.
    JavaScriptRandom,
    /// `sample-bots/go/vabanque_random.go`.
    GoRandom,
}

impl Kind {
    /// Every kind, in the field's order.
    pub const ALL: [Kind; 6] = [
        Kind::BuiltinRandom,
        Kind::BuiltinHeuristic,
        Kind::PythonHeuristic,
        Kind::PythonRandom,
        Kind::JavaScriptRandom,
        Kind::GoRandom,
    ];

    /// Its share of a field of 100.
    fn weight(self) -> usize {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic | Kind::PythonRandom => 15,
            Kind::PythonHeuristic => 20,
            Kind::JavaScriptRandom => 25,
            Kind::GoRandom => 10,
        }
    }

    /// Its bots' names: this, a dash and a number.
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::BuiltinRandom => "builtin-random",
            Kind::BuiltinHeuristic => "builtin-heuristic",
            Kind::PythonHeuristic => "py-heuristic",
            Kind::PythonRandom => "py-random",
            Kind::JavaScriptRandom => "js-random",
            Kind::GoRandom => "go-random",
        }
    }

    /// Its `lang` in a ladder's file.
    pub(super) fn lang(self) -> &'static str {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic => "builtin",
            Kind::PythonHeuristic | Kind::PythonRandom => "python",
            Kind::JavaScriptRandom => "javascript",
            Kind::GoRandom => "go",
        }
    }

    /// Its source under the workspace root, and the name each copy gets; `None` for a
    /// built-in.
    fn source(self) -> Option<(&'static str, &'static str)> {
        match self {
            Kind::BuiltinRandom | Kind::BuiltinHeuristic => None,
            Kind::PythonHeuristic => Some(("sample-bots/python/vabanque_heuristic.py", "bot.py")),
            Kind::PythonRandom => Some(("sample-bots/python/vabanque_random.py", "bot.py")),
            Kind::JavaScriptRandom => Some(("sample-bots/javascript/vabanque_random.js", "bot.js")),
            Kind::GoRandom => Some(("sample-bots/go/vabanque_random.go", "main.go")),
        }
    }

    /// Whether it runs as a process of its own (all but the built-ins).
    pub fn is_process(self) -> bool {
        self.source().is_some()
    }
}

/// One bot of the field.
#[derive(Clone, Debug)]
pub struct Bot {
    /// Its name, in the ladder and in the tournament.
    pub name: String,
    /// What it is.
    pub kind: Kind,
}

/// A field of `n` bots, the kinds in proportion to their weights (largest remainder), numbered
/// within each kind.
pub fn field(n: usize) -> Vec<Bot> {
    let total: usize = Kind::ALL.iter().map(|k| k.weight()).sum();
    let mut counts: Vec<usize> = Kind::ALL.iter().map(|k| k.weight() * n / total).collect();
    let mut by_remainder: Vec<usize> = (0..Kind::ALL.len()).collect();
    by_remainder.sort_by_key(|&i| std::cmp::Reverse(Kind::ALL[i].weight() * n % total));
    let missing = n - counts.iter().sum::<usize>();
    for &i in by_remainder.iter().take(missing) {
        counts[i] += 1;
    }
    let mut bots = Vec::with_capacity(n);
    for (kind, count) in Kind::ALL.into_iter().zip(counts) {
        for k in 1..=count {
            bots.push(Bot {
                name: format!("{}-{k:02}", kind.prefix()),
                kind,
            });
        }
    }
    bots
}

/// The kind of the bot a player name (a bot's name, or a ladder's `BOT.vN`) or a stderr file
/// name (`NAME.wW.K.stderr`) is of.
pub(super) fn kind_of(bots: &[Bot], name: &str) -> Option<Kind> {
    let bot = name.split_once(".v").map_or(name, |(bot, _)| bot);
    let bot = bot.split_once(".w").map_or(bot, |(bot, _)| bot);
    bots.iter().find(|b| b.name == bot).map(|b| b.kind)
}

/// Each bot's own files: for a process bot, a copy of its sample's source in a directory of
/// its own (the ladder's upload) and the command that runs it (the tournament's).
pub(super) struct Sources {
    /// The ladder's `path` of each bot (a file; a built-in's name).
    pub(super) paths: BTreeMap<String, String>,
    /// The tournament's `command` of each bot (a command line: the paths have no spaces).
    pub(super) commands: BTreeMap<String, String>,
    /// One bot of each kind's command (for the start costs).
    pub(super) by_kind: BTreeMap<Kind, String>,
}

/// Writes each process bot's copy of its sample (and builds the Go binary once).
pub(super) fn write_sources(env: &Env, bots: &[Bot]) -> Sources {
    let dir = env.dir.join("bots");
    let mut go_binary: Option<PathBuf> = None;
    let mut sources = Sources {
        paths: BTreeMap::new(),
        commands: BTreeMap::new(),
        by_kind: BTreeMap::new(),
    };
    for bot in bots {
        let (path, command) = match bot.kind.source() {
            None => {
                let name = match bot.kind {
                    Kind::BuiltinRandom => "random",
                    _ => "heuristic",
                };
                (name.to_owned(), format!("builtin:{name}"))
            }
            Some((sample, file)) => {
                let own = dir.join(&bot.name);
                std::fs::create_dir_all(&own).unwrap();
                let copy = own.join(file);
                std::fs::copy(env.root.join(sample), &copy).unwrap();
                let copy_text = copy.display().to_string();
                let command = match bot.kind {
                    Kind::JavaScriptRandom => format!("node {copy_text}"),
                    Kind::GoRandom => {
                        // The tournament runs the binary the ladder's recipe builds (`go build
                        // -o bot .`); the copies have the same source, so it is built once.
                        let built = go_binary.get_or_insert_with(|| go_build(&copy, &dir));
                        let binary = own.join("bot");
                        std::fs::copy(&*built, &binary).unwrap();
                        binary.display().to_string()
                    }
                    _ => format!("python3 {copy_text}"),
                };
                (copy_text, command)
            }
        };
        sources
            .by_kind
            .entry(bot.kind)
            .or_insert_with(|| command.clone());
        sources.paths.insert(bot.name.clone(), path);
        sources.commands.insert(bot.name.clone(), command);
    }
    sources
}

/// `go build` of one file, as the ladder's recipe builds it (the local toolchain, no module).
fn go_build(file: &Path, dir: &Path) -> PathBuf {
    let out = dir.join("go-random.bin");
    let built = Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&out)
        .arg(file)
        .env("GOTOOLCHAIN", "local")
        .env("GO111MODULE", "off")
        .output()
        .expect("go runs");
    assert!(
        built.status.success(),
        "go build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    out
}
