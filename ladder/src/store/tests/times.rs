//! A version's decision times: each ranked match adds its seat's to them, an unranked one
//! leaves them, on each backend.

use super::cases::{owner, ready_version, workers};
use super::on_each;
use crate::store::{Finish, JobKind, NewJob, NewMatch, SeatResult, Store};
use referee::runner::TimeHistogram;

const LEASE_MS: i64 = 60_000;

/// A decision taking each of `ms`.
fn times(ms: &[f64]) -> TimeHistogram {
    let mut times = TimeHistogram::default();
    for &ms in ms {
        times.record(ms);
    }
    times
}

/// Leaves ratings as they are: these tests look at the times only.
fn unrated(before: &[(f64, f64)], _ranks: &[u32]) -> Vec<(f64, f64)> {
    before.to_vec()
}

/// Plays one match of `seats` (each a version and its times), ranked or not, through a job
/// of its own.
async fn play(store: &Store, worker: i64, ranked: bool, seats: &[(i64, TimeHistogram)]) {
    let versions: Vec<i64> = seats.iter().map(|(v, _)| *v).collect();
    let job = store
        .enqueue(
            &NewJob {
                seated: &versions,
                ..NewJob::new(JobKind::Match, "{}")
            },
            10,
        )
        .await
        .unwrap();
    let lease = format!("L{job}");
    let claimed = store.claim(worker, &lease, 11, LEASE_MS).await.unwrap();
    assert_eq!(claimed.map(|c| c.id), Some(job));
    let result = NewMatch {
        ranked,
        spec: "{}".into(),
        record: "{}".into(),
        log_hash: "c".repeat(64),
        stderr_hashes: "[]".into(),
        seats: seats
            .iter()
            .enumerate()
            .map(|(n, (version, times))| SeatResult {
                version: *version,
                score: 0,
                rank: n as u32 + 1,
                faults: 0,
                times: times.clone(),
            })
            .collect(),
    };
    let finish = store
        .finish_match(job, &lease, worker, 12, &result, &unrated)
        .await
        .unwrap();
    assert!(matches!(finish, Finish::Counted(Some(_))), "{finish:?}");
}

#[tokio::test]
async fn a_versions_times_add_up_over_its_ranked_matches() {
    on_each("times", |store| async move {
        let ada = owner(&store, "ada").await;
        let bob = owner(&store, "bob").await;
        let a = ready_version(&store, ada, "a").await;
        let b = ready_version(&store, bob, "b").await;
        let worker = workers(&store, 1).await[0];
        let before = store.version(a).await.unwrap().unwrap();
        assert_eq!(before.times, TimeHistogram::default());
        assert_eq!(before.times.quantile_ms(0.99), None);

        play(
            &store,
            worker,
            true,
            &[(a, times(&[1.0, 2.0, 3.0])), (b, times(&[50.0]))],
        )
        .await;
        play(
            &store,
            worker,
            true,
            &[(b, times(&[60.0, 70.0])), (a, times(&[4.0, 400.0]))],
        )
        .await;
        // Unranked (a challenge): its times are not the board's.
        play(
            &store,
            worker,
            false,
            &[(a, times(&[9000.0])), (b, times(&[9000.0]))],
        )
        .await;

        let va = store.version(a).await.unwrap().unwrap();
        assert_eq!(va.times, times(&[1.0, 2.0, 3.0, 4.0, 400.0]));
        assert_eq!(va.times.count(), 5);
        let p99 = va.times.quantile_ms(0.99).unwrap();
        assert!((400.0..=440.0).contains(&p99), "{p99}");
        let vb = store.version(b).await.unwrap().unwrap();
        assert_eq!(vb.times, times(&[50.0, 60.0, 70.0]));
        let p99 = vb.times.quantile_ms(0.99).unwrap();
        assert!((70.0..=77.0).contains(&p99), "{p99}");
    })
    .await;
}
