//! A worker keeps bot processes between matches, and each sees its own workdir and nothing
//! else of the worker's `seats/`, not even the workdirs made after it started: a spy lists the
//! directory its workdir is in at every match and says it on its stderr, which its owner reads.
//! As root, every process runs as a uid of its own, in its check as in its matches: the spy
//! says its uid, and will not run as root at all (its check would fail); it cannot read the
//! ladder's database (which holds every seed) or the admin's token.

use super::harness::{Server, block_on, config, databases, wait_for};
use crate::util::temp_dir;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

/// A random Vabanque bot that, at each `match_start`, writes `SPY proc=P uid=U own=W
/// seen=A,B,…` to its stderr: a name its process drew when it started (in its PID namespace
/// every bot is process 2), its uid, its workdir's name, what it sees beside it, and whether it
/// could read the ladder's database and the admin's token (`home=`). Run as root, it exits at
/// once.
const SPY: &str = r#"import json, os, random, sys
if os.getuid() == 0:
    sys.exit("SPY: run as root")
rng = random.Random(0)
proc = os.urandom(8).hex()
HOME = "LADDER_HOME"
def peek(path):
    try:
        with open(path, "rb") as f:
            f.read(1)
        return "read"
    except OSError as e:
        return "error:" + type(e).__name__
for line in sys.stdin:
    if not line.strip():
        continue
    m = json.loads(line)
    t = m.get("type")
    if t == "hello":
        print(json.dumps({"type": "hello", "name": "spy", "protocol": 1}), flush=True)
    elif t == "match_start":
        rng = random.Random(m["seed"])
        own = os.path.basename(os.getcwd())
        try:
            seen = ",".join(sorted(os.listdir("..")))
        except OSError as e:
            seen = "error:" + type(e).__name__
        home = peek(HOME + "/ladder.sqlite") + "," + peek(HOME + "/admin.token")
        print(f"SPY proc={proc} uid={os.getuid()} own={own} seen={seen} home={home}", file=sys.stderr, flush=True)
    elif t == "request":
        print(json.dumps({"type": "action", "id": m["id"], "action": rng.choice(m["legal"])}), flush=True)
    elif t == "goodbye":
        break
"#;

#[test]
fn kept_processes_play_again_and_see_no_workdir_but_their_own() {
    let db = databases("ladder sealed")
        .into_iter()
        .next()
        .expect("SQLite");
    let dir = temp_dir("ladder-sealed");
    let home = dir.join("home");
    std::fs::write(
        dir.join("spy.py"),
        SPY.replace("LADDER_HOME", &home.display().to_string()),
    )
    .unwrap();
    let random = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sample-bots/python/vabanque_random.py")
        .canonicalize()
        .unwrap();
    let random = random.to_str().unwrap();
    let bots = [
        ("spy", "python", "spy.py"),
        ("rand-p", "python", random),
        ("rand-q", "python", random),
        ("heur-a", "builtin", "heuristic"),
    ];
    let file = config(&dir, "sandbox = \"bwrap\"\n", &bots);
    // One slot: the spy's first process is still kept when the others' workdirs are made.
    let server = Server::start(&file, &home, db.url.as_deref(), 1);
    let admin = server.client(Some(&server.admin_token()));
    let spied = wait_for("8 matches of the spy", Duration::from_secs(300), || {
        let views = block_on(admin.matches_of("spy", 100)).ok()?;
        (views.len() >= 8).then_some(views)
    });
    // SAFETY: geteuid only reads the caller's id.
    let root = unsafe { libc::geteuid() } == 0;
    let mut matches_by_process: BTreeMap<String, usize> = BTreeMap::new();
    let mut workdirs = BTreeSet::new();
    for view in &spied {
        let seat = view
            .seats
            .iter()
            .position(|s| s.name.starts_with("spy."))
            .unwrap();
        let bytes = block_on(admin.match_stderr(view.id, seat)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let line = text
            .lines()
            .find(|l| l.starts_with("SPY "))
            .unwrap_or_else(|| panic!("match {}: no SPY line in {text:?}", view.id));
        let fields: BTreeMap<&str, &str> = line[4..]
            .split(' ')
            .filter_map(|f| f.split_once('='))
            .collect();
        // Beside its workdir, nothing: not the other bots', not its own earlier or later ones
        // (as a uid of its own, it may not even list the directory).
        assert!(
            [fields["own"], "error:PermissionError"].contains(&fields["seen"]),
            "match {}: {line}",
            view.id
        );
        if workdirs.is_empty() {
            eprintln!("the spy says: {line}");
        }
        // The ladder's database and the admin's token are out of its reach.
        assert!(
            !fields["home"].contains("read"),
            "match {}: {line}",
            view.id
        );
        if root {
            // The bots' range (UidRange::DEFAULT).
            let uid: u32 = fields["uid"].parse().unwrap();
            assert!(
                (60_000..=60_999).contains(&uid),
                "match {}: {line}",
                view.id
            );
        }
        workdirs.insert(fields["own"].to_owned());
        *matches_by_process
            .entry(fields["proc"].to_owned())
            .or_default() += 1;
    }
    // A process played several matches; and with the duplicate deals (a process never plays
    // one deal twice) there were several processes, so workdirs were made after one started.
    assert!(
        matches_by_process.values().any(|&n| n >= 2),
        "no process was kept: {matches_by_process:?}"
    );
    assert!(workdirs.len() >= 2, "{workdirs:?}");
    server.stop();
}
