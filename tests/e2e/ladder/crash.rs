//! A server killed with SIGKILL mid-run and started again: no match lost, none counted twice;
//! the jobs it had given out are played again once their leases expire.

use super::harness::{BUILTINS, Server, block_on, config, databases, wait_for};
use crate::util::temp_dir;
use ladder::service::{HOME_FILE, Home};
use ladder::store::Store;
use std::time::Duration;

async fn store_of(home: &std::path::Path) -> Store {
    let text = std::fs::read_to_string(home.join(HOME_FILE)).unwrap();
    let found: Home = serde_json::from_str(&text).unwrap();
    Store::open(&found.db).await.unwrap()
}

#[test]
fn a_server_killed_mid_run_loses_no_match_and_counts_none_twice() {
    for (i, db) in databases("ladder crash").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-crash-{i}"));
        let file = config(
            &dir,
            "[lease]\nseconds = 2\nheartbeat_s = 1\n[matchmaking]\nqueue = 8\n",
            BUILTINS,
        );
        let home = dir.join("home");
        let server = Server::start(&file, &home, db.url.as_deref(), 2);
        let public = server.client(None);
        wait_for("20 matches", Duration::from_secs(300), || {
            let info = block_on(public.info()).ok()?;
            (info.matches >= 20).then_some(())
        });
        server.kill();
        let before = block_on(async {
            let store = store_of(&home).await;
            let count = store.match_count().await.unwrap();
            store.close().await;
            count
        });
        // Started again on the same home: it goes on from where the database says.
        let server = Server::start(&file, &home, db.url.as_deref(), 2);
        let public = server.client(None);
        wait_for("20 more matches", Duration::from_secs(300), || {
            let info = block_on(public.info()).ok()?;
            (info.matches >= before + 20).then_some(())
        });
        server.stop();
        block_on(async {
            let store = store_of(&home).await;
            let matches = store.matches_between(0, i64::MAX).await.unwrap();
            assert!(matches.len() as i64 >= before + 20);
            // Every match was recorded once, by its own job, with its log kept.
            let mut jobs: Vec<i64> = matches.iter().map(|m| m.job_id).collect();
            jobs.sort_unstable();
            jobs.dedup();
            assert_eq!(jobs.len(), matches.len());
            for m in &matches {
                assert!(home.join("artifacts").join(&m.log_hash).is_file(), "{m:?}");
                let job = store.job(m.job_id).await.unwrap().unwrap();
                assert_eq!(job.state, ladder::store::JobState::Done);
            }
            // The ratings moved once per ranked match and seat.
            let seats: i64 = matches
                .iter()
                .filter(|m| m.ranked)
                .map(|m| {
                    let spec: serde_json::Value = serde_json::from_str(&m.spec).unwrap();
                    spec["seats"].as_array().unwrap().len() as i64
                })
                .sum();
            let counted: i64 = store
                .rated()
                .await
                .unwrap()
                .iter()
                .map(|v| v.ranked_matches)
                .sum();
            assert_eq!(seats, counted);
            store.close().await;
        });
    }
}
