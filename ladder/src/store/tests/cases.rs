//! What the store promises, on each backend.

use super::on_each;
use crate::store::{
    BuildResult, Finish, JobKind, JobState, NewJob, NewMatch, Role, SeatResult, Store, StoreError,
    VersionState,
};

const LEASE_MS: i64 = 60_000;

pub(super) async fn owner(store: &Store, name: &str) -> i64 {
    store
        .add_account(name, Role::Owner, &format!("hash-of-{name}"), 1)
        .await
        .unwrap()
        .id
}

/// Worker accounts 1..=n (ids as the store gives them).
pub(super) async fn workers(store: &Store, n: usize) -> Vec<i64> {
    let mut ids = Vec::new();
    for i in 0..n {
        let name = format!("worker{i}");
        let account = store
            .add_account(&name, Role::Worker, &format!("w-{name}"), 1)
            .await;
        ids.push(account.unwrap().id);
    }
    ids
}

/// A ready version of a new bot `name` of `owner_id`.
pub(super) async fn ready_version(store: &Store, owner_id: i64, name: &str) -> i64 {
    let bot = store.add_bot(owner_id, name, "python", 1).await.unwrap();
    let (version, added) = store
        .add_version(&bot, "src", (25.0, 8.3), 1)
        .await
        .unwrap();
    assert!(added);
    let job = store
        .enqueue(
            &NewJob {
                priority: 10,
                seated: &[],
                ..NewJob::new(JobKind::Build, "{}")
            },
            1,
        )
        .await
        .unwrap();
    let worker = match store.account_by_name("builder").await.unwrap() {
        Some(account) => account.id,
        None => {
            store
                .add_account("builder", Role::Worker, "w-builder", 1)
                .await
                .unwrap()
                .id
        }
    };
    let claimed = store
        .claim(worker, "lease", 2, LEASE_MS)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, job);
    let result = BuildResult {
        state: VersionState::Ready,
        artifact_hash: Some("a".repeat(64)),
        run_command: Some("python3 bot.py".into()),
        build_log_hash: Some("b".repeat(64)),
        check_report: Some("{}".into()),
    };
    let finish = store
        .finish_build(job, "lease", 3, version.id, &result)
        .await
        .unwrap();
    assert_eq!(finish, Finish::Counted(None));
    version.id
}

#[tokio::test]
async fn sessions_hold_until_they_expire_end_or_their_account_changes() {
    on_each("sessions", |store| async move {
        let ada = store
            .add_account("ada", Role::Owner, "t-ada", 5)
            .await
            .unwrap();
        let bob = store
            .add_account("bob", Role::Owner, "t-bob", 5)
            .await
            .unwrap();
        store
            .add_session("s1", ada.id, "c1", 10, 100)
            .await
            .unwrap();
        store
            .add_session("s2", ada.id, "c2", 10, 100)
            .await
            .unwrap();
        store
            .add_session("s3", bob.id, "c3", 10, 100)
            .await
            .unwrap();
        let found = store.session("s1", 50).await.unwrap().unwrap();
        assert_eq!((found.account, found.csrf.as_str()), (ada.clone(), "c1"));
        // Expired, unknown.
        assert!(store.session("s1", 100).await.unwrap().is_none());
        assert!(store.session("nope", 50).await.unwrap().is_none());
        // Signed out: that one only.
        store.end_session("s1", 50).await.unwrap();
        assert!(store.session("s1", 50).await.unwrap().is_none());
        assert!(store.session("s2", 50).await.unwrap().is_some());
        // A new token ends the account's sessions, not another's.
        assert!(store.set_token("ada", "t-ada-2").await.unwrap());
        assert!(store.session("s2", 50).await.unwrap().is_none());
        assert!(store.session("s3", 50).await.unwrap().is_some());
        // A disabled account's sessions end (and do not come back with it).
        assert!(store.set_disabled("bob", true).await.unwrap());
        assert!(store.session("s3", 50).await.unwrap().is_none());
        assert!(store.set_disabled("bob", false).await.unwrap());
        assert!(store.session("s3", 50).await.unwrap().is_none());
        // An account holds at most MAX_SESSIONS: signing in once more ends its oldest.
        let max = crate::store::sessions::MAX_SESSIONS;
        for n in 0..=max {
            let id = format!("b{n}");
            store
                .add_session(&id, bob.id, "c", 60 + n, 1000)
                .await
                .unwrap();
        }
        assert!(store.session("b0", 70).await.unwrap().is_none());
        for n in 1..=max {
            let id = format!("b{n}");
            assert!(store.session(&id, 70).await.unwrap().is_some(), "{id}");
        }
    })
    .await;
}

#[tokio::test]
async fn accounts_are_found_by_token_hash_and_names_are_unique() {
    on_each("accounts", |store| async move {
        let admin = store
            .add_account("root", Role::Admin, "h1", 5)
            .await
            .unwrap();
        assert_eq!(admin.role, Role::Admin);
        let found = store.account_by_token("h1").await.unwrap().unwrap();
        assert_eq!(found, admin);
        assert!(store.account_by_token("h2").await.unwrap().is_none());
        let taken = store.add_account("root", Role::Owner, "h3", 5).await;
        assert!(matches!(taken, Err(StoreError::Taken(name)) if name == "root"));
        assert!(store.set_token("root", "h4").await.unwrap());
        assert!(store.account_by_token("h1").await.unwrap().is_none());
        assert!(store.set_disabled("root", true).await.unwrap());
        assert!(
            store
                .account_by_name("root")
                .await
                .unwrap()
                .unwrap()
                .disabled
        );
    })
    .await;
}

#[tokio::test]
async fn a_version_is_named_by_its_source_and_starts_from_its_predecessors_mu() {
    on_each("versions", |store| async move {
        let alice = owner(&store, "alice").await;
        let v1 = ready_version(&store, alice, "zeta").await;
        let bot = store.bot("zeta").await.unwrap().unwrap();
        // The same source again is the same version.
        let (same, added) = store
            .add_version(&bot, "src", (25.0, 8.3), 9)
            .await
            .unwrap();
        assert!(!added);
        assert_eq!(same.id, v1);
        // A new source is version 2, from version 1's μ (moved by a match) with σ reset.
        sqlx::query("UPDATE versions SET mu = 31.5, sigma = 1.5 WHERE id = $1")
            .bind(v1)
            .execute(&store.pool)
            .await
            .unwrap();
        let (v2, added) = store
            .add_version(&bot, "src2", (25.0, 8.3), 9)
            .await
            .unwrap();
        assert!(added);
        assert_eq!((v2.number, v2.mu, v2.sigma), (2, 31.5, 8.3));
        assert_eq!(v2.state, VersionState::Building);
        assert_eq!(v2.seat_name(), "zeta.v2");
        // Version 1 plays until version 2 is ready.
        let playing: Vec<i64> = store
            .playable()
            .await
            .unwrap()
            .iter()
            .map(|v| v.id)
            .collect();
        assert_eq!(playing, vec![v1]);
        assert_eq!(store.versions_of("zeta").await.unwrap().len(), 2);
        assert!(store.set_removed("zeta", true).await.unwrap());
        assert!(store.playable().await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_lease_is_the_only_key_to_a_result_and_twice_is_once() {
    on_each("leases", |store| async move {
        let alice = owner(&store, "alice").await;
        let bob = owner(&store, "bob").await;
        let a = ready_version(&store, alice, "a").await;
        let b = ready_version(&store, bob, "b").await;
        let w = workers(&store, 2).await;
        let job = store
            .enqueue(
                &NewJob {
                    priority: 0,
                    seated: &[a, b],
                    ..NewJob::new(JobKind::Match, "{\"m\":1}")
                },
                100,
            )
            .await
            .unwrap();
        assert_eq!(store.pending_matches().await.unwrap(), 1);
        let claimed = store
            .claim(w[0], "L1", 100, LEASE_MS)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((claimed.id, claimed.kind), (job, JobKind::Match));
        assert!(
            store
                .claim(w[1], "L2", 100, LEASE_MS)
                .await
                .unwrap()
                .is_none()
        );
        assert!(store.heartbeat(job, "L1", 150, LEASE_MS).await.unwrap());
        assert!(!store.heartbeat(job, "wrong", 150, LEASE_MS).await.unwrap());
        let result = NewMatch {
            ranked: true,
            spec: "{}".into(),
            record: "{}".into(),
            log_hash: "c".repeat(64),
            stderr_hashes: "[]".into(),
            seats: vec![
                SeatResult {
                    version: a,
                    score: 10,
                    rank: 1,
                    faults: 0,
                    times: Default::default(),
                },
                SeatResult {
                    version: b,
                    score: 3,
                    rank: 2,
                    faults: 0,
                    times: Default::default(),
                },
            ],
        };
        let rate = |before: &[(f64, f64)], ranks: &[u32]| {
            before
                .iter()
                .zip(ranks)
                .map(|(&(mu, sigma), &rank)| {
                    (if rank == 1 { mu + 1.0 } else { mu - 1.0 }, sigma * 0.9)
                })
                .collect()
        };
        let wrong = store
            .finish_match(job, "L2", w[1], 160, &result, &rate)
            .await
            .unwrap();
        assert_eq!(wrong, Finish::LeaseLost);
        let first = store
            .finish_match(job, "L1", w[0], 160, &result, &rate)
            .await
            .unwrap();
        let Finish::Counted(Some(match_id)) = first else {
            panic!("{first:?}")
        };
        let again = store
            .finish_match(job, "L1", w[0], 170, &result, &rate)
            .await
            .unwrap();
        assert_eq!(again, Finish::Duplicate(Some(match_id)));
        assert_eq!(store.match_count().await.unwrap(), 1);
        let va = store.version(a).await.unwrap().unwrap();
        assert_eq!(
            (va.mu, va.ranked_matches, va.last_played),
            (26.0, 1, Some(160))
        );
        let vb = store.version(b).await.unwrap().unwrap();
        assert_eq!((vb.mu, vb.ranked_matches), (24.0, 1));
        assert_eq!(store.job(job).await.unwrap().unwrap().state, JobState::Done);
        assert_eq!(store.matches_of(a, 10).await.unwrap()[0].id, match_id);
        assert_eq!(store.matches_between(150, 170).await.unwrap().len(), 1);
        assert!(store.matches_between(0, 150).await.unwrap().is_empty());
        // Each bot's rating after the match, and how it fared against the other.
        let history = store.rating_history("a", 10).await.unwrap();
        assert_eq!(history.len(), 1);
        let point = &history[0];
        assert_eq!(
            (point.match_id, point.finished_ms, point.version, point.mu),
            (match_id, 160, 1, 26.0)
        );
        assert!((point.sigma - 8.3 * 0.9).abs() < 1e-9, "{point:?}");
        let met = store.meetings("b").await.unwrap();
        assert_eq!(met.len(), 1);
        assert_eq!(
            (met[0].opponent.as_str(), met[0].owner.as_str()),
            ("a", "alice")
        );
        assert_eq!((met[0].matches, met[0].ahead, met[0].behind), (1, 0, 1));
        assert_eq!(store.latest_matches(5).await.unwrap()[0].id, match_id);
    })
    .await;
}

#[tokio::test]
async fn an_expired_lease_puts_the_job_back_and_its_late_result_is_refused() {
    on_each("sweep", |store| async move {
        let w = workers(&store, 4).await;
        let job = store
            .enqueue(
                &NewJob {
                    priority: 0,
                    seated: &[],
                    ..NewJob::new(JobKind::Match, "{}")
                },
                0,
            )
            .await
            .unwrap();
        store.claim(w[0], "L1", 0, 1000).await.unwrap().unwrap();
        // Not expired yet: nothing to sweep.
        assert!(store.sweep(1000, 3).await.unwrap().is_empty());
        let swept = store.sweep(1001, 3).await.unwrap();
        assert_eq!((swept[0].id, swept[0].failed), (job, false));
        let row = store.job(job).await.unwrap().unwrap();
        assert_eq!((row.state, row.attempts), (JobState::Queued, 1));
        // The first worker's late heartbeat and result are refused; the second's count.
        assert!(!store.heartbeat(job, "L1", 1002, 1000).await.unwrap());
        assert_eq!(
            store.give_back(job, "L1", "x", 1002, 3).await.unwrap(),
            None
        );
        let again = store.claim(w[1], "L2", 1003, 1000).await.unwrap().unwrap();
        assert_eq!((again.id, again.attempts), (job, 1));
        // A result after the lease's end, before any sweep, is refused too.
        let result = NewMatch {
            ranked: false,
            spec: "{}".into(),
            record: "{}".into(),
            log_hash: String::new(),
            stderr_hashes: "[]".into(),
            seats: vec![],
        };
        let late = store
            .finish_match(job, "L2", w[1], 2004, &result, &|_, _| vec![])
            .await;
        assert_eq!(late.unwrap(), Finish::LeaseLost);
        // Given back by its worker (the platform failed), then lost twice more: failed.
        assert_eq!(
            store
                .give_back(job, "L2", "no disk", 1500, 3)
                .await
                .unwrap(),
            Some(false)
        );
        store.claim(w[2], "L3", 1600, 1000).await.unwrap().unwrap();
        let swept = store.sweep(5000, 3).await.unwrap();
        assert!(swept[0].failed);
        let row = store.job(job).await.unwrap().unwrap();
        assert_eq!((row.state, row.attempts), (JobState::Failed, 3));
        assert!(store.claim(w[3], "L4", 5000, 1000).await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn concurrent_claims_give_each_job_to_one_worker() {
    on_each("claims", |store| async move {
        let w = workers(&store, 8).await;
        for _ in 0..40 {
            store
                .enqueue(
                    &NewJob {
                        priority: 0,
                        seated: &[],
                        ..NewJob::new(JobKind::Match, "{}")
                    },
                    0,
                )
                .await
                .unwrap();
        }
        let mut tasks = Vec::new();
        for worker in w {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                while let Some(job) = store
                    .claim(worker, &format!("W{worker}"), 0, LEASE_MS)
                    .await
                    .unwrap()
                {
                    mine.push(job.id);
                }
                mine
            }));
        }
        let mut all = Vec::new();
        for task in tasks {
            all.extend(task.await.unwrap());
        }
        all.sort_unstable();
        let before = all.len();
        all.dedup();
        assert_eq!((before, all.len()), (40, 40));
    })
    .await;
}

#[tokio::test]
async fn priority_first_then_age_and_counters_and_settings() {
    on_each("queue order", |store| async move {
        let w = workers(&store, 1).await;
        let low = store
            .enqueue(
                &NewJob {
                    priority: 0,
                    seated: &[],
                    ..NewJob::new(JobKind::Match, "{}")
                },
                0,
            )
            .await
            .unwrap();
        let high = store
            .enqueue(
                &NewJob {
                    priority: 10,
                    seated: &[],
                    ..NewJob::new(JobKind::Build, "{}")
                },
                0,
            )
            .await
            .unwrap();
        assert_eq!(
            store.claim(w[0], "a", 0, 10).await.unwrap().unwrap().id,
            high
        );
        assert_eq!(
            store.claim(w[0], "b", 0, 10).await.unwrap().unwrap().id,
            low
        );
        assert_eq!(store.take("group", 2).await.unwrap(), 0);
        assert_eq!(store.take("group", 1).await.unwrap(), 2);
        assert_eq!(store.setting("paused").await.unwrap(), None);
        store.set_setting("paused", "1").await.unwrap();
        store.set_setting("paused", "0").await.unwrap();
        assert_eq!(store.setting("paused").await.unwrap().as_deref(), Some("0"));
        assert!(store.size_bytes().await.unwrap() > 0);
    })
    .await;
}
