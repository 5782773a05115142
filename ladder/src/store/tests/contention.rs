//! Reports and enqueues that share versions, all at once: none deadlocks, none rates from a
//! stale (μ, σ) and none loses another's decision times, on each backend.

use super::cases::{owner, ready_version, workers};
use super::on_each;
use crate::store::{Backend, Finish, JobKind, NewJob, NewMatch, SeatResult, Store};
use referee::runner::TimeHistogram;

const LEASE_MS: i64 = 60_000;

/// Rank 1 gains 1 in μ, every other rank loses 1: the final μ is the same in any order, so a
/// lost update shows.
fn rate(before: &[(f64, f64)], ranks: &[u32]) -> Vec<(f64, f64)> {
    before
        .iter()
        .zip(ranks)
        .map(|(&(mu, sigma), &rank)| (if rank == 1 { mu + 1.0 } else { mu - 1.0 }, sigma))
        .collect()
}

/// Table `i` of `versions`: three of them, in an order that differs from table to table.
fn table(versions: &[i64], i: usize) -> Vec<i64> {
    let n = versions.len();
    let mut seats: Vec<i64> = (0..3)
        .map(|k| versions[(i + k * (1 + i % 2)) % n])
        .collect();
    if i.is_multiple_of(3) {
        seats.reverse();
    }
    seats.dedup();
    seats
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reports_and_enqueues_sharing_versions_neither_deadlock_nor_lose_a_rating() {
    on_each("contention", |store| async move {
        let mut versions = Vec::new();
        for name in ["a", "b", "c", "d", "e"] {
            let who = owner(&store, name).await;
            versions.push(ready_version(&store, who, name).await);
        }
        let worker = workers(&store, 1).await[0];
        let tables: Vec<Vec<i64>> = (0..48).map(|i| table(&versions, i)).collect();
        let mut jobs = Vec::new();
        for seats in &tables {
            let job = enqueue(&store, seats).await;
            let claimed = store
                .claim(worker, &format!("L{job}"), 10, LEASE_MS)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(claimed.id, job);
            jobs.push(job);
        }
        let mut tasks = Vec::new();
        for (job, seats) in jobs.iter().copied().zip(tables.clone()) {
            let mut reversed = seats.clone();
            reversed.reverse();
            let reporter = store.clone();
            tasks.push(tokio::spawn(async move {
                let result = NewMatch {
                    ranked: true,
                    spec: "{}".into(),
                    // The third seat commits one fault, in the record as in its count.
                    record: if seats.len() == 3 {
                        r#"{"faults":[{"seat":2,"kind":"timeout"}]}"#.into()
                    } else {
                        "{}".into()
                    },
                    log_hash: "c".repeat(64),
                    stderr_hashes: "[]".into(),
                    seats: seats
                        .iter()
                        .enumerate()
                        .map(|(seat, &version)| SeatResult {
                            version,
                            score: 0,
                            rank: seat as u32 + 1,
                            faults: i64::from(seat == 2),
                            times: decisions(seat + 1),
                        })
                        .collect(),
                };
                let finish = reporter
                    .finish_match(job, &format!("L{job}"), worker, 20, &result, &rate)
                    .await
                    .unwrap();
                assert!(matches!(finish, Finish::Counted(Some(_))), "{finish:?}");
            }));
            // New tables of the same versions, in the other order, at the same time.
            let enqueuer = store.clone();
            tasks.push(tokio::spawn(async move {
                enqueue(&enqueuer, &reversed).await;
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(store.match_count().await.unwrap(), 48);
        for &version in &versions {
            let played: Vec<&Vec<i64>> = tables.iter().filter(|t| t.contains(&version)).collect();
            let won = played.iter().filter(|t| t[0] == version).count() as f64;
            let lost = played.len() as f64 - won;
            let row = store.version(version).await.unwrap().unwrap();
            assert_eq!(row.ranked_matches, played.len() as i64, "version {version}");
            assert_eq!(row.ranked_wins, won as i64, "version {version}");
            assert_eq!(row.mu, 25.0 + won - lost, "version {version}");
            let faulted = played.iter().filter(|t| t.get(2) == Some(&version)).count();
            assert_eq!(row.ranked_faults, faulted as i64, "version {version}");
            // Seat k took k + 1 decisions: every match's times are in, none lost.
            let decided: usize = played
                .iter()
                .map(|t| t.iter().position(|&v| v == version).unwrap() + 1)
                .sum();
            assert_eq!(row.times.count(), decided as u64, "version {version}");
        }
        // The migration's backfill, run again over these matches, counts the same.
        let backfill = match store.backend {
            Backend::Sqlite => include_str!("../../../migrations/sqlite/0002_board_counts.sql"),
            Backend::Postgres => {
                include_str!("../../../migrations/postgres/0002_board_counts.sql")
            }
        };
        sqlx::query("UPDATE match_seats SET faults = 0")
            .execute(&store.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE versions SET ranked_wins = 0, ranked_faults = 0")
            .execute(&store.pool)
            .await
            .unwrap();
        for statement in backfill.split(';').map(|s| {
            s.lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .collect::<Vec<_>>()
                .join("\n")
        }) {
            if statement.trim_start().starts_with("UPDATE") {
                sqlx::query(sqlx::AssertSqlSafe(statement))
                    .execute(&store.pool)
                    .await
                    .unwrap();
            }
        }
        for &version in &versions {
            let played: Vec<&Vec<i64>> = tables.iter().filter(|t| t.contains(&version)).collect();
            let row = store.version(version).await.unwrap().unwrap();
            let won = played.iter().filter(|t| t[0] == version).count();
            let faulted = played.iter().filter(|t| t.get(2) == Some(&version)).count();
            assert_eq!(
                (row.ranked_wins, row.ranked_faults),
                (won as i64, faulted as i64),
                "version {version}, backfilled"
            );
        }
    })
    .await;
}

/// `n` decisions of 1 ms each.
fn decisions(n: usize) -> TimeHistogram {
    let mut times = TimeHistogram::default();
    for _ in 0..n {
        times.record(1.0);
    }
    times
}

async fn enqueue(store: &Store, seats: &[i64]) -> i64 {
    store
        .enqueue(
            &NewJob {
                priority: 0,
                seated: seats,
                ..NewJob::new(JobKind::Match, "{}")
            },
            10,
        )
        .await
        .unwrap()
}
