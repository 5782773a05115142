//! A ladder whose matches are played by a worker on "another machine" (a separate process
//! with a worker token), ranked per version.

use super::harness::{BUILTINS, Server, Worker, block_on, config, databases, wait_for};
use crate::util::temp_dir;
use std::time::Duration;

#[test]
fn a_remote_worker_plays_the_ladder_and_the_standings_rank_every_version() {
    for (i, db) in databases("ladder flow").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-flow-{i}"));
        let file = config(&dir, "[matchmaking]\nqueue = 6\n", BUILTINS);
        // No local worker: every match is the remote worker's.
        let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 0);
        let admin = server.client(Some(&server.admin_token()));
        let made = block_on(admin.add_account("box-1", "worker")).unwrap();
        assert_eq!(made.role, "worker");
        let worker = Worker::start(&server.url, &made.token, 2, &dir.join("worker"));
        let public = server.client(None);
        let rows = wait_for(
            "every version to play 10 ranked matches",
            Duration::from_secs(300),
            || {
                let rows = block_on(public.standings()).ok()?;
                (rows.len() == 4 && rows.iter().all(|r| r.matches >= 10)).then_some(rows)
            },
        );
        // A challenge: unranked matches of one version against named ones, before the
        // ranked ones in the queue.
        let asked = ladder::service::ChallengeRequest {
            bot: "rand-a".into(),
            version: None,
            opponents: vec!["heur-a".into(), "heur-b.v1".into()],
            matches: 3,
        };
        let queued = block_on(admin.challenge(&asked)).unwrap();
        assert_eq!(queued.jobs.len(), 3);
        assert_eq!(queued.table, ["rand-a.v1", "heur-a.v1", "heur-b.v1"]);
        let played = wait_for(
            "the challenge's 3 matches",
            Duration::from_secs(300),
            || {
                let views = block_on(public.matches_of("rand-a", 200)).ok()?;
                let challenges: Vec<_> = views.into_iter().filter(|v| v.challenge).collect();
                (challenges.len() == 3).then_some(challenges)
            },
        );
        for view in &played {
            assert!(!view.ranked);
            assert_eq!(view.seats.len(), 3);
        }
        let too_many = ladder::service::ChallengeRequest {
            matches: 1000,
            ..asked
        };
        assert!(block_on(admin.challenge(&too_many)).is_err());
        worker.stop();
        // Ranked by μ − 3σ, each version with its interval.
        for pair in rows.windows(2) {
            assert!(pair[0].conservative >= pair[1].conservative, "{rows:?}");
        }
        for row in &rows {
            assert!((row.conservative - (row.mu - 3.0 * row.sigma)).abs() < 1e-9);
            assert!(row.sigma < 25.0 / 3.0, "{row:?}");
            assert!(row.name.ends_with(".v1"), "{row:?}");
        }
        let info = block_on(public.info()).unwrap();
        assert_eq!(info.game, "vabanque");
        assert!(info.matches >= 10, "{info:?}");
        server.stop();
    }
}
