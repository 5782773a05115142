//! A worker killed with SIGKILL in the middle of a match, as a machine lost would be: its
//! bots go with it, its lease expires, and another worker plays the match again; it is counted
//! once, never against a bot.

use super::harness::{Server, Worker, block_on, config, databases, signal, wait_for};
use crate::util::{file, referee, stdout, temp_dir};
use ladder::service::{HOME_FILE, Home};
use ladder::store::{JobKind, JobState, Store};
use std::time::{Duration, Instant};

async fn store_of(home: &std::path::Path) -> Store {
    let text = std::fs::read_to_string(home.join(HOME_FILE)).unwrap();
    let found: Home = serde_json::from_str(&text).unwrap();
    Store::open(&found.db).await.unwrap()
}

#[test]
fn a_worker_killed_mid_match_is_replaced_and_the_match_played_again() {
    for (i, db) in databases("ladder lost worker").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-lost-{i}"));
        let house = &[
            ("rand-a", "builtin", "random"),
            ("heur-a", "builtin", "heuristic"),
        ];
        let file_path = config(
            &dir,
            "players = [3, 3]\n[lease]\nseconds = 4\nheartbeat_s = 1\n[matchmaking]\nqueue = 1\n",
            house,
        );
        // `config` wrote players = [3, 4] first; the later key would be a duplicate.
        let text = std::fs::read_to_string(&file_path)
            .unwrap()
            .replace("players = [3, 4]\n", "");
        std::fs::write(&file_path, text).unwrap();
        let home = dir.join("home");
        let server = Server::start(&file_path, &home, db.url.as_deref(), 0);
        let admin = server.client(Some(&server.admin_token()));
        let box1 = block_on(admin.add_account("box-1", "worker")).unwrap();
        let box2 = block_on(admin.add_account("box-2", "worker")).unwrap();
        let sloth = block_on(admin.add_account("sloth", "owner")).unwrap();
        let first = Worker::start(&server.url, &box1.token, 1, &dir.join("worker-1"));

        // A bot that thinks a tenth of a second per decision: its matches last seconds.
        let slow = std::fs::read_to_string(file("sample-bots/python/vabanque_random.py"))
            .unwrap()
            .replace("import json\n", "import json\nimport time\n")
            .replace(
                "    return rng.choice(request[\"legal\"])",
                "    time.sleep(0.1)\n    return rng.choice(request[\"legal\"])",
            );
        let slow_path = dir.join("slow.py");
        std::fs::write(&slow_path, slow).unwrap();
        let out = referee()
            .args([
                "ladder",
                "submit",
                "--server",
                &server.url,
                "--name",
                "slow",
                "--lang",
                "python",
            ])
            .arg(&slow_path)
            .arg("--wait")
            .env("REFEREE_LADDER_TOKEN", &sloth.token)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stdout(&out));

        // The first worker holds a match with the slow bot, half a second into it: kill it.
        let job = wait_for(
            "a match leased by the first worker",
            Duration::from_secs(300),
            || {
                block_on(async {
                    let store = store_of(&home).await;
                    let leased = store.jobs_in(JobState::Leased).await.unwrap();
                    store.close().await;
                    leased
                        .into_iter()
                        .find(|j| j.kind == JobKind::Match && j.worker_id.is_some())
                })
            },
        );
        std::thread::sleep(Duration::from_millis(500));
        let killed_at = Instant::now();
        let mut first = first;
        signal(&first.child, libc::SIGKILL);
        let _ = first.child.wait();
        // Its bots went with it.
        crate::util::assert_no_marked_survivors(&first.command);

        let second = Worker::start(&server.url, &box2.token, 1, &dir.join("worker-2"));
        let done = wait_for(
            "the match played again by the second worker",
            Duration::from_secs(300),
            || {
                block_on(async {
                    let store = store_of(&home).await;
                    let row = store.job(job.id).await.unwrap().unwrap();
                    store.close().await;
                    (row.state == JobState::Done).then_some(row)
                })
            },
        );
        let waited = killed_at.elapsed();
        // Played again once its lease (4 s) expired: not counted against the slow bot, and
        // counted once.
        assert_eq!(done.attempts, 1, "{done:?}");
        assert!(
            done.error
                .as_deref()
                .unwrap_or_default()
                .contains("lease expired"),
            "{done:?}"
        );
        let matches = block_on(async {
            let store = store_of(&home).await;
            let rows = store.matches_between(0, i64::MAX).await.unwrap();
            store.close().await;
            rows
        });
        assert_eq!(matches.iter().filter(|m| m.job_id == job.id).count(), 1);
        let record: serde_json::Value =
            serde_json::from_str(&matches.iter().find(|m| m.job_id == job.id).unwrap().record)
                .unwrap();
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        eprintln!("the lost match was played again {waited:?} after its worker was killed");
        // The queue's page (its JSON) says so: the platform's trouble, what failed to the
        // admin only; each worker with its matches.
        let queue = block_on(admin.queue_view()).unwrap();
        let trouble = queue.troubles.iter().find(|t| t.id == job.id).unwrap();
        assert_eq!((trouble.state.as_str(), trouble.attempts), ("done", 1));
        assert!(
            trouble
                .error
                .as_deref()
                .unwrap_or_default()
                .contains("lease expired")
        );
        let public = block_on(server.client(None).queue_view()).unwrap();
        let trouble = public.troubles.iter().find(|t| t.id == job.id).unwrap();
        assert_eq!(trouble.error, None);
        let names: Vec<&str> = public.workers.iter().map(|w| w.name.as_str()).collect();
        // The server's own local worker's account is there too (with -j 0, idle).
        assert_eq!(names, ["box-1", "box-2", "local-worker"]);
        assert!(
            public.workers[1].matches_last_hour >= 1,
            "{:?}",
            public.workers
        );
        second.stop();
        server.stop();
    }
}
