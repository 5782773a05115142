//! A class's store on each backend: groups and contacts, one-time links taken once (and not
//! after they expire), versions removed from play, final tournaments and their jobs.

use super::cases::{owner, ready_version};
use super::on_each;
use crate::store::{FinalMatch, JobKind, NewJob, Role};

#[tokio::test]
async fn a_link_is_taken_once_and_not_after_it_expires() {
    on_each("invites", |store| async move {
        store
            .add_account("ada", Role::Owner, "t-ada", 1)
            .await
            .unwrap();
        assert!(
            store
                .set_class("ada", Some("A"), Some("ada@example.org"))
                .await
                .unwrap()
        );
        assert!(!store.set_class("nobody", None, None).await.unwrap());
        assert_eq!(
            store.contact_of("ada").await.unwrap().as_deref(),
            Some("ada@example.org")
        );
        let ada = store.account_by_name("ada").await.unwrap().unwrap();
        assert_eq!(ada.group.as_deref(), Some("A"));
        store.add_invite("code-1", ada.id, 10, 100).await.unwrap();
        assert_eq!(
            store.invited("code-1", 50).await.unwrap(),
            Some(ada.clone())
        );
        assert_eq!(store.invited("code-1", 100).await.unwrap(), None);
        // A new link replaces the account's earlier one.
        store.add_invite("code-2", ada.id, 20, 200).await.unwrap();
        assert_eq!(store.invited("code-1", 50).await.unwrap(), None);
        assert_eq!(
            store.take_invite("code-2", 50).await.unwrap(),
            Some(ada.clone())
        );
        assert_eq!(store.take_invite("code-2", 50).await.unwrap(), None);
        // Expired: gone, and not given.
        store.add_invite("code-3", ada.id, 20, 60).await.unwrap();
        assert_eq!(store.take_invite("code-3", 70).await.unwrap(), None);
        assert_eq!(store.invited("code-3", 50).await.unwrap(), None);
        // A disabled account's link gives nothing.
        store.add_invite("code-4", ada.id, 20, 200).await.unwrap();
        assert!(store.set_disabled("ada", true).await.unwrap());
        assert_eq!(store.take_invite("code-4", 50).await.unwrap(), None);
    })
    .await;
}

#[tokio::test]
async fn a_removed_version_leaves_play_and_a_final_holds_its_jobs() {
    on_each("finals", |store| async move {
        let ada = owner(&store, "ada").await;
        let v1 = ready_version(&store, ada, "adabot").await;
        let bot = store.bot("adabot").await.unwrap().unwrap();
        let (v2, _) = store
            .add_version(&bot, "src-2", (25.0, 8.3), 2)
            .await
            .unwrap();
        let ready = crate::store::BuildResult {
            state: crate::store::VersionState::Ready,
            artifact_hash: None,
            run_command: Some("builtin:random".into()),
            build_log_hash: None,
            check_report: None,
        };
        store.set_version_build(v2.id, &ready).await.unwrap();
        let v2 = v2.id;
        let ids = |vs: Vec<crate::store::Version>| vs.iter().map(|v| v.id).collect::<Vec<_>>();
        assert_eq!(ids(store.playable().await.unwrap()), [v2]);
        assert!(store.set_version_removed("adabot", 2, true).await.unwrap());
        assert_eq!(ids(store.playable().await.unwrap()), [v1]);
        assert!(!ids(store.rated().await.unwrap()).contains(&v2));
        assert!(!store.set_version_removed("adabot", 7, true).await.unwrap());

        assert_eq!(store.latest_final().await.unwrap(), None);
        let first = store.add_final("{}", 5).await.unwrap();
        let id = store.add_final("{\"x\":1}", 6).await.unwrap();
        assert!(id > first);
        for index in 0..3 {
            let job = NewJob {
                final_match: Some(FinalMatch {
                    final_id: id,
                    index,
                }),
                deal: Some(40 + index),
                ..NewJob::new(JobKind::Match, "{}")
            };
            store.enqueue(&job, 7).await.unwrap();
        }
        assert_eq!(store.final_jobs_open(id).await.unwrap(), (3, 0));
        assert_eq!(store.final_jobs_open(first).await.unwrap(), (0, 0));
        let latest = store.latest_final().await.unwrap().unwrap();
        assert_eq!((latest.id, latest.standings), (id, None));
        store.set_final_standings(id, "[]").await.unwrap();
        let row = store.final_row(id).await.unwrap().unwrap();
        assert_eq!(row.standings.as_deref(), Some("[]"));
        let queued = store.jobs_in(crate::store::JobState::Queued).await.unwrap();
        let marks: Vec<(Option<i64>, Option<FinalMatch>)> =
            queued.iter().map(|j| (j.deal, j.final_match)).collect();
        assert!(marks.contains(&(
            Some(41),
            Some(FinalMatch {
                final_id: id,
                index: 1
            })
        )));
        assert!(store.final_matches(id).await.unwrap().is_empty());
        assert_eq!(store.final_played(id).await.unwrap(), 0);
    })
    .await;
}
