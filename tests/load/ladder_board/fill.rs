//! The ladder made (`referee ladder init` of the field) and filled with the field's matches,
//! each recorded as a worker's report would be, through the store's own methods: the match
//! job queued with the spec the matchmaker would write (`Store::enqueue`), claimed by the
//! server's own worker account under a lease (`claim`), and finished with its record, its
//! seats and the seats' new ratings, rated as the server rates them (`finish_match` with
//! `referee::tournament::ratings::updated`). The matchmaker is paused first, so that the
//! server started on the ladder afterwards queues nothing.
//!
//! Two things are not the ladder's own. The clock: match `i` of `n` is queued `n − i` times
//! [`STEP_MS`] before the fill starts and recorded half a step later, as if the ladder had
//! played one match every 30 seconds for 35 days (100,000 matches). And the logs: 100,000
//! logs would take some 2.7 GB of artifacts for a page that reads none, so every match names
//! one artifact that says so (a match's page, which the bench does not open, shows it as a
//! log that does not read).

use ladder::service::Ladder;
use ladder::spec::{JobSpec, MatchSpec, REFEREE_VERSION, SeatSpec};
use ladder::store::{Finish, JobKind, NewJob, NewMatch, SeatResult, Version};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::field::{Bot, Field, LIMITS};
use super::{Env, PLAYERS, SEED};

/// The time between two matches of the filled ladder's history.
const STEP_MS: i64 = 30_000;

/// What the fill made.
#[derive(Clone, Debug)]
pub struct Filled {
    /// The ladder's home.
    pub home: PathBuf,
    /// Matches recorded.
    pub matches: u64,
    /// Wall seconds the fill took (`init` and the matches recorded).
    pub seconds: f64,
    /// The database's size afterwards, in bytes (`Store::size_bytes`).
    pub db_bytes: i64,
}

/// The ladder's file of `bots`: Vabanque at tables of [`PLAYERS`], the bots built-ins.
fn ladder_toml(dir: &Path, bots: &[Bot]) -> PathBuf {
    let mut text = format!(
        "game = \"vabanque\"\nplayers = [{PLAYERS}, {PLAYERS}]\nseed = {SEED}\n{LIMITS}\n\
         [matchmaking]\nqueue = 8\n\n"
    );
    for bot in bots {
        text += &format!(
            "[[bot]]\nname = {:?}\nowner = {:?}\nlang = \"builtin\"\npath = {:?}\n\n",
            bot.name, bot.owner, bot.builtin
        );
    }
    let path = dir.join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Makes the ladder of `field` in `dir/home` on `db` (`None`: SQLite in the home) and records
/// every match of the field in it; `label` names the database in progress lines.
pub(super) fn fill(env: &Env, field: &Field, dir: &Path, db: Option<&str>, label: &str) -> Filled {
    let started = Instant::now();
    let file = ladder_toml(dir, &field.bots);
    let home = dir.join("home");
    let mut init = (env.referee)();
    init.args(["ladder", "init"])
        .arg(&file)
        .arg("--home")
        .arg(&home);
    if let Some(db) = db {
        init.args(["--db", db]);
    }
    let made = init.output().unwrap();
    assert!(
        made.status.success(),
        "referee ladder init: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (matches, db_bytes) = runtime.block_on(record_all(&home, field, label));
    Filled {
        home,
        matches,
        seconds: started.elapsed().as_secs_f64(),
        db_bytes,
    }
}

/// Records every match of `field` in the ladder at `home`, the matchmaker paused first;
/// returns how many, and the database's bytes afterwards.
async fn record_all(home: &Path, field: &Field, label: &str) -> (u64, i64) {
    let ladder = Ladder::open(home).await.unwrap();
    let store = ladder.store();
    let account = |name: &'static str| async move {
        store
            .account_by_name(name)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("the ladder has no account {name}"))
    };
    let admin = account("admin").await;
    let worker = account("local-worker").await;
    ladder.set_paused(&admin, true).await.unwrap();
    let versions: HashMap<String, Version> = store
        .playable()
        .await
        .unwrap()
        .into_iter()
        .map(|v| (v.bot.name.clone(), v))
        .collect();
    assert_eq!(
        versions.len(),
        field.bots.len(),
        "every bot's version plays"
    );
    let log_hash = ladder
        .artifacts()
        .put(b"not kept: the board bench records its matches without their logs\n")
        .unwrap();
    let no_stderr = serde_json::to_string(&vec![None::<String>; PLAYERS]).unwrap();
    let lease_ms = (ladder.config().lease.seconds * 1000) as i64;
    let first = ladder::service::now_ms() - field.count as i64 * STEP_MS;
    let mut groups: HashMap<u64, i64> = HashMap::new();
    let started = Instant::now();
    let mut recorded = 0;
    for (i, (group, mut record)) in field.records().enumerate() {
        let queued = first + i as i64 * STEP_MS;
        let deal = match groups.get(&group) {
            Some(&deal) => deal,
            None => {
                let deal = store.take("group", 1).await.unwrap();
                groups.insert(group, deal);
                deal
            }
        };
        let seats: Vec<&Version> = record.players.iter().map(|p| &versions[p]).collect();
        let spec = match_spec(&ladder, &seats, record.seed, deal as u64);
        let job_spec = serde_json::to_string(&JobSpec::Match(spec.clone())).unwrap();
        let ids: Vec<i64> = seats.iter().map(|v| v.id).collect();
        let job = store
            .enqueue(
                &NewJob {
                    seated: &ids,
                    deal: Some(deal),
                    ..NewJob::new(JobKind::Match, &job_spec)
                },
                queued,
            )
            .await
            .unwrap();
        let lease = ladder::auth::new_lease();
        let claimed = store
            .claim(worker.id, &lease, queued, lease_ms)
            .await
            .unwrap()
            .expect("the job just queued");
        assert_eq!(claimed.id, job, "the only job in the queue");
        // As a worker's referee writes it: the seats by their seat names, the job's match id.
        record.players = seats.iter().map(|v| v.seat_name()).collect();
        record.match_id = format!("job-{job}");
        let result = NewMatch {
            ranked: spec.ranked && record.internal_error.is_none(),
            spec: serde_json::to_string(&spec).unwrap(),
            record: serde_json::to_string(&record).unwrap(),
            log_hash: log_hash.clone(),
            stderr_hashes: no_stderr.clone(),
            seats: seats
                .iter()
                .enumerate()
                .map(|(n, v)| SeatResult {
                    version: v.id,
                    score: record.scores[n],
                    rank: record.ranks[n],
                    faults: record.fault_count(n) as i64,
                    times: record.stats[n].times.clone(),
                })
                .collect(),
        };
        let finish = store
            .finish_match(
                job,
                &lease,
                worker.id,
                queued + STEP_MS / 2,
                &result,
                &referee::tournament::ratings::updated,
            )
            .await
            .unwrap();
        assert!(matches!(finish, Finish::Counted(Some(_))), "{finish:?}");
        recorded += 1;
        if recorded % 10_000 == 0 {
            eprintln!(
                "ladder board: {label}: {recorded} of {} matches recorded ({:.0}/s)",
                field.count,
                recorded as f64 / started.elapsed().as_secs_f64()
            );
        }
    }
    let bytes = store.size_bytes().await.unwrap();
    store.close().await;
    (recorded, bytes)
}

/// The spec of a ranked match of `seats` (in seat order), as the matchmaker writes it
/// (`Ladder::match_spec`).
fn match_spec(ladder: &Ladder, seats: &[&Version], seed: u64, group: u64) -> MatchSpec {
    let config = ladder.config();
    MatchSpec {
        referee: REFEREE_VERSION.to_owned(),
        game: config.game.clone(),
        options: config.options.clone(),
        seed,
        seats: seats
            .iter()
            .map(|v| SeatSpec {
                version: v.id,
                owner: v.bot.owner.clone(),
                artifact: v.artifact_hash.clone(),
                bot: config
                    .seat
                    .bot(&v.seat_name(), v.run_command.as_deref().unwrap_or_default()),
            })
            .collect(),
        max_faults: config.max_faults,
        policy: config.policy,
        sandbox: config.sandbox,
        ranked: true,
        group,
    }
}
