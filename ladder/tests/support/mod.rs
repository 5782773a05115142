//! What the reproduction tests share: a ladder match of real sample bots (each from an
//! artifact directory of its own, as a worker unpacks them), played and recorded as a worker
//! plays it, and its bundle written for a caller.

use referee::runner::{FaultPolicy, LogRecord, MatchLog, MatchRecord, run_match};
use referee::seat::SandboxMode;
use referee::tournament::meta::MetaBot;
use referee_ladder::reproduce::{
    Bundle, Caller, ReproduceOptions, artifact_dir, match_config, visible_bundle,
};
use referee_ladder::spec::{MatchSpec, SeatSpec, seat_name};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A binary of the workspace (`cargo build --workspace --bins` makes them), beside this test's
/// own directory.
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join(name);
    assert!(
        path.exists(),
        "{} is missing: build the binaries first with `cargo build --workspace --bins`",
        path.display()
    );
    path
}

/// A fresh directory for one test, under the target directory (not /tmp: sandboxed bots get a
/// private /tmp).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("reproduce-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A sample bot as an owner submits it: a file (a Python script or a Rust binary) that its
/// artifact holds, and the command that runs it from there.
pub struct Sample {
    /// The owner.
    pub owner: &'static str,
    /// The bot's name on the ladder.
    pub bot: &'static str,
    /// The file.
    pub file: PathBuf,
    /// The command, run from the artifact.
    pub command: &'static str,
}

/// Three deterministic sample bots of `game`, each of another owner: two Python ones and a
/// Rust one.
pub fn samples(game: &str) -> Vec<Sample> {
    let python = |owner, bot, file: &str| Sample {
        owner,
        bot,
        file: root().join("sample-bots/python").join(file),
        command: "python3 bot.py",
    };
    let rust = |owner, bot, file: &str| Sample {
        owner,
        bot,
        file: bin(file),
        command: "./bot",
    };
    match game {
        "vabanque" => vec![
            python("alice", "vr", "vabanque_random.py"),
            python("bob", "vh", "vabanque_heuristic.py"),
            rust("carol", "vrr", "vabanque-random"),
        ],
        "bouillabaisse" => vec![
            python("alice", "br", "bouillabaisse_random.py"),
            python("bob", "bh", "bouillabaisse_heuristic.py"),
            rust("carol", "bhr", "bouillabaisse-heuristic"),
        ],
        "machiavelli" => vec![
            python("alice", "mr", "machiavelli_random.py"),
            // Not the rearranger: its search stops at a time budget, so a loaded machine
            // changes its play (its docstring says so).
            python("bob", "mr2", "machiavelli_random.py"),
            rust("carol", "mhr", "machiavelli-heuristic"),
        ],
        _ => unreachable!("{game}"),
    }
}

/// A recorded ladder match: its spec, its record and log, and where its artifacts are.
pub struct Recorded {
    /// The spec.
    pub spec: MatchSpec,
    /// The record.
    pub record: MatchRecord,
    /// The log.
    pub log: Vec<LogRecord>,
    /// The artifacts, each unpacked in `DIR/HASH/`.
    pub store: PathBuf,
}

/// Plays a match of `game` between its [`samples`] with `seed`, as a worker plays it: each
/// bot from a copy of its artifact, the seats named `BOT.v1`, into a log in memory.
pub async fn record(game: &str, seed: u64, dir: &Path) -> Recorded {
    let store = dir.join("store");
    let mut seats = Vec::new();
    for sample in samples(game) {
        let content = std::fs::read(&sample.file).unwrap();
        let hash: String = Sha256::digest(&content)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let unpacked = store.join(&hash);
        std::fs::create_dir_all(&unpacked).unwrap();
        let file = unpacked.join(if sample.command.starts_with("python3") {
            "bot.py"
        } else {
            "bot"
        });
        std::fs::copy(&sample.file, &file).unwrap();
        seats.push(SeatSpec {
            version: 1,
            owner: sample.owner.into(),
            artifact: Some(hash),
            bot: MetaBot {
                name: seat_name(sample.bot, 1),
                command: sample.command.into(),
                limits: protocol::Limits::new(20_000, 10_000),
                overruns: 0,
                overrun_ms: 100,
                resources: Default::default(),
                time_basis: Default::default(),
                turn_isolation: false,
            },
        });
    }
    let spec = MatchSpec {
        referee: referee_ladder::spec::REFEREE_VERSION.into(),
        game: game.into(),
        options: serde_json::json!({}),
        seed,
        seats,
        max_faults: 3,
        policy: FaultPolicy::default(),
        sandbox: SandboxMode::Auto,
        ranked: true,
        group: 0,
    };
    // The worker's side: each seat from a working copy of its artifact.
    let work = dir.join("worker");
    let bots = spec
        .seats
        .iter()
        .map(|seat| {
            let workdir = work.join(&seat.bot.name);
            std::fs::create_dir_all(&workdir).unwrap();
            let hash = seat.artifact.as_ref().unwrap();
            for entry in std::fs::read_dir(store.join(hash)).unwrap() {
                let entry = entry.unwrap();
                std::fs::copy(entry.path(), workdir.join(entry.file_name())).unwrap();
            }
            let mut bot = seat.bot.spec(None).unwrap();
            bot.settings.workdir = Some(workdir);
            bot
        })
        .collect();
    let config = match_config(&spec, "42", bots).unwrap();
    let mut log = MatchLog::memory();
    let record = run_match(&config, None, &mut log, &mut ()).await.unwrap();
    assert!(
        record.faults.is_empty(),
        "the sample bots play without a fault: {:?}",
        record.faults
    );
    Recorded {
        spec,
        record,
        log: log.records().to_vec(),
        store,
    }
}

impl Recorded {
    /// Writes the bundle `caller` may have into `dir`, with the artifacts it names unpacked, as
    /// a fetch would.
    pub fn bundle(&self, caller: Caller<'_>, dir: &Path) -> Bundle {
        let bundle = visible_bundle(&self.spec, &self.record, &self.log, caller, false).unwrap();
        bundle.write(dir).unwrap();
        for seat in &bundle.spec.seats {
            if let Some(hash) = &seat.artifact {
                let to = artifact_dir(dir, hash);
                std::fs::create_dir_all(&to).unwrap();
                for entry in std::fs::read_dir(self.store.join(hash)).unwrap() {
                    let entry = entry.unwrap();
                    std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
                }
            }
        }
        bundle
    }
}

/// The options of a reproduction by the `referee` binary of this build.
pub fn options() -> ReproduceOptions {
    ReproduceOptions {
        referee: bin("referee"),
        sandbox: None,
        stderr_dir: None,
    }
}
