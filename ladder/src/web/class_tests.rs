//! A class's teacher over HTTP, as the API and a browser do it: accounts from a class list,
//! one-time links that give a token once, tokens given anew, the deadline, a version taken out
//! of play, a void match only played again, the final tournament queued as its schedule says,
//! and the admin's page (the admin's only, its forms CSRF-checked).

use super::tests::{http, served, set_cookies, signed_in, value_of};
use crate::client::Client;
use crate::service::{FinalRequest, Handout, ServiceError, read_class_csv};
use crate::store::{JobState, Role};
use reqwest::StatusCode;
use reqwest::header::COOKIE;

const CLASS: &str = "name,contact,group\nada,ada@example.org,A\n\nalan , s1234 , B\ngrace\n";

/// `POST /admin` with `form`, from the session whose cookie header is `session`.
async fn post_admin(
    http: &reqwest::Client,
    url: &str,
    session: &str,
    form: &[(&str, &str)],
) -> reqwest::Response {
    http.post(format!("{url}/admin"))
        .header(COOKIE, session)
        .form(form)
        .send()
        .await
        .unwrap()
}

#[test]
fn a_class_list_reads_with_or_without_its_header_and_names_every_wrong_row() {
    let members = read_class_csv(CLASS).unwrap();
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["ada", "alan", "grace"]);
    assert_eq!(members[1].contact.as_deref(), Some("s1234"));
    assert_eq!(members[1].group.as_deref(), Some("B"));
    assert_eq!(members[2].group, None);
    assert_eq!(
        read_class_csv("bob,,X").unwrap()[0].group.as_deref(),
        Some("X")
    );
    let wrong = read_class_csv("ada\n<script>,x\nada\nbob,a,b,c\n").unwrap_err();
    let ServiceError::BadRequest(why) = wrong else {
        panic!("{wrong:?}")
    };
    assert!(why.contains("line 2: a name is"), "{why}");
    assert!(why.contains("line 3: 'ada' is given twice"), "{why}");
    assert!(
        why.contains("line 4: a row is name, contact, group"),
        "{why}"
    );
    assert!(read_class_csv("name\n\n").is_err());
}

#[tokio::test]
async fn a_class_list_makes_accounts_whose_links_give_a_token_once() {
    let (url, admin, ladder, _dir) = served().await;
    let client = Client::new(&url, Some(&admin));
    let members = read_class_csv(CLASS).unwrap();
    let handed = client
        .import_class(members.clone(), Handout::Link)
        .await
        .unwrap();
    assert_eq!(handed.len(), 3);
    assert!(handed.iter().all(|h| h.token.is_none()));
    assert_eq!(handed[0].group.as_deref(), Some("A"));
    assert_eq!(handed[0].contact.as_deref(), Some("ada@example.org"));
    // The same names again: nothing is made.
    let again = client.import_class(members, Handout::Token).await;
    assert_eq!(again.unwrap_err().status(), Some(409));
    let ada = ladder
        .store()
        .account_by_name("ada")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((ada.role, ada.group.as_deref()), (Role::Owner, Some("A")));

    let code = handed[0].link_code.clone().unwrap();
    let http = http();
    let link = format!("{url}/welcome/{code}");
    // Opening the link (a mail scanner does) does not use it.
    for _ in 0..2 {
        let answer = http.get(&link).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        // The code in its address is sent nowhere from it.
        assert_eq!(answer.headers()["referrer-policy"], "no-referrer");
        assert!(answer.text().await.unwrap().contains("Welcome, ada"));
    }
    let answer = http.get(&link).send().await.unwrap();
    let cookies = set_cookies(&answer);
    let csrf = value_of(&cookies, "ladder_welcome").unwrap();
    // Without the form's cookie: refused, and the link still good.
    let forged = http
        .post(&link)
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let taken = http
        .post(&link)
        .header(COOKIE, format!("ladder_welcome={csrf}"))
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(taken.status(), StatusCode::OK);
    let session = value_of(&set_cookies(&taken), "ladder_session").unwrap();
    let page = taken.text().await.unwrap();
    let token = page
        .split("<code id=\"token\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap()
        .to_owned();
    assert!(token.starts_with("rl_"), "{page}");
    assert_eq!(ladder.authenticate(&token).await.unwrap().name, "ada");
    let board = http
        .get(&url)
        .header(COOKIE, format!("ladder_session={session}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        board.contains("Signed in as <strong>ada</strong>"),
        "{board}"
    );
    // Used: gone, whoever asks.
    let used = http.get(&link).send().await.unwrap();
    assert_eq!(used.status(), StatusCode::NOT_FOUND);
    let replayed = http
        .post(&link)
        .header(COOKIE, format!("ladder_welcome={csrf}"))
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(replayed.status(), StatusCode::NOT_FOUND);

    // A token given anew: the old one stops working.
    let reset = client.reset_token("ada", Handout::Token).await.unwrap();
    let new = reset.token.unwrap();
    assert!(ladder.authenticate(&token).await.is_err());
    assert_eq!(ladder.authenticate(&new).await.unwrap().name, "ada");
    // Only an owner's, only by the admin.
    let admins = client.reset_token("admin", Handout::Token).await;
    assert_eq!(admins.unwrap_err().status(), Some(400));
    let by_owner = Client::new(&url, Some(&new))
        .reset_token("alan", Handout::Token)
        .await;
    assert_eq!(by_owner.unwrap_err().status(), Some(403));
    let by_owner = Client::new(&url, Some(&new))
        .import_class(read_class_csv("eve").unwrap(), Handout::Token)
        .await;
    assert_eq!(by_owner.unwrap_err().status(), Some(403));
    assert!(
        ladder
            .store()
            .account_by_name("eve")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn the_deadline_closes_owners_submissions_and_a_removed_version_leaves_play() {
    let (url, admin, ladder, _dir) = served().await;
    let client = Client::new(&url, Some(&admin));
    let handed = client
        .import_class(read_class_csv("ada").unwrap(), Handout::Token)
        .await
        .unwrap();
    let ada = ladder
        .authenticate(handed[0].token.as_deref().unwrap())
        .await
        .unwrap();
    client.set_deadline(Some(1_000)).await.unwrap();
    assert_eq!(client.info().await.unwrap().deadline_ms, Some(1_000));
    let refused = ladder
        .submit(&ada, "adabot", "python", b"print('hi')\n")
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, ServiceError::Conflict(why) if why.contains("submissions closed at 1970-01-01 00:00 UTC")),
        "{refused:?}"
    );
    client.set_deadline(None).await.unwrap();
    assert_eq!(client.info().await.unwrap().deadline_ms, None);
    let submitted = ladder
        .submit(&ada, "adabot", "python", b"print('hi')\n")
        .await
        .unwrap();
    assert_eq!(submitted.state, "building");

    // A bot of two ready versions plays its newest, then, that one removed, the one before.
    let me = ladder.admin().await.unwrap();
    for name in ["random", "heuristic"] {
        ladder
            .submit(&me, "house", crate::service::BUILTIN, name.as_bytes())
            .await
            .unwrap();
    }
    let playing = |v: &[crate::store::Version]| -> Vec<String> {
        v.iter().map(crate::store::Version::seat_name).collect()
    };
    assert_eq!(
        playing(&ladder.store().playable().await.unwrap()),
        ["house.v2"]
    );
    client.remove_version("house", 2).await.unwrap();
    assert_eq!(
        playing(&ladder.store().playable().await.unwrap()),
        ["house.v1"]
    );
    let board: Vec<String> = ladder
        .standings(None)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert!(!board.iter().any(|v| v == "house.v2"), "{board:?}");
    let missing = client.remove_version("house", 9).await;
    assert_eq!(missing.unwrap_err().status(), Some(404));
}

#[tokio::test]
async fn a_final_is_queued_as_its_schedule_says_and_one_at_a_time() {
    let (url, admin, ladder, _dir) = served().await;
    let client = Client::new(&url, Some(&admin));
    let me = ladder.admin().await.unwrap();
    for (bot, name) in [
        ("r1", "random"),
        ("r2", "random"),
        ("h1", "heuristic"),
        ("h2", "heuristic"),
    ] {
        ladder
            .submit_for(&me, bot, bot, crate::service::BUILTIN, name.as_bytes())
            .await
            .unwrap();
    }
    assert_eq!(client.final_view().await.unwrap_err().status(), Some(404));
    let request = FinalRequest {
        schedule: Some("round-robin".into()),
        players: Some(3),
        matches: None,
        duplicate: Some(true),
    };
    let started = client.start_final(&request).await.unwrap();
    // Every 3 of the 4, each rotated through the 3 seats.
    assert_eq!(started.matches, 12);
    assert_eq!(started.field.len(), 4);
    let queued = ladder.store().jobs_in(JobState::Queued).await.unwrap();
    let mut indices: Vec<i64> = queued
        .iter()
        .filter_map(|j| j.final_match)
        .inspect(|f| assert_eq!(f.final_id, started.id))
        .map(|f| f.index)
        .collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..12).collect::<Vec<_>>());
    // A group's three matches share one deal of the ladder's (the play is withheld until
    // the group is played out), and every match is unranked.
    let deals: std::collections::BTreeSet<Option<i64>> = queued.iter().map(|j| j.deal).collect();
    assert_eq!(deals.len(), 4);
    assert!(queued.iter().all(|j| j.spec.contains("\"ranked\":false")));
    let view = client.final_view().await.unwrap();
    assert_eq!((view.played, view.matches, view.done), (0, 12, false));
    // One final at a time; the admin's only; a schedule the game allows.
    let second = client.start_final(&request).await;
    assert_eq!(second.unwrap_err().status(), Some(409));
    let owner = client
        .import_class(read_class_csv("ada").unwrap(), Handout::Token)
        .await
        .unwrap();
    let by_owner = Client::new(&url, owner[0].token.as_deref())
        .start_final(&request)
        .await;
    assert_eq!(by_owner.unwrap_err().status(), Some(403));
    // Not played yet: nothing to grade.
    assert_eq!(client.final_grades().await.unwrap_err().status(), Some(400));

    // A job whose worker is lost for good is the platform's: queued again, in its place.
    let store = ladder.store();
    ladder.add_account(&me, "w1", Role::Worker).await.unwrap();
    let worker = store.account_by_name("w1").await.unwrap().unwrap().id;
    let claimed = store.claim(worker, "lease", 1, 10).await.unwrap().unwrap();
    let swept = store.sweep(i64::MAX / 2, 1).await.unwrap();
    assert!(
        swept.iter().any(|s| s.id == claimed.id && s.failed),
        "{swept:?}"
    );
    let failed = store.job(claimed.id).await.unwrap().unwrap();
    assert_eq!(failed.state, JobState::Failed);
    let queued_before = store.jobs_in(JobState::Queued).await.unwrap().len();
    let again = client.retry_job(claimed.id).await.unwrap();
    let again = store.job(again).await.unwrap().unwrap();
    assert_eq!(
        (
            again.state,
            again.spec.as_str(),
            again.final_match,
            again.deal
        ),
        (
            JobState::Queued,
            failed.spec.as_str(),
            failed.final_match,
            failed.deal
        )
    );
    assert_eq!(
        store.jobs_in(JobState::Queued).await.unwrap().len(),
        queued_before + 1
    );
    // Only a failed match job; only a void match.
    let twice = client.retry_job(again.id).await;
    assert_eq!(twice.unwrap_err().status(), Some(409));
    assert_eq!(
        client.play_again(999).await.unwrap_err().status(),
        Some(404)
    );
}

#[tokio::test]
async fn the_admins_page_is_the_admins_and_its_forms_carry_the_session_csrf() {
    let (url, admin, ladder, _dir) = served().await;
    let http = http();
    let anyone = http.get(format!("{url}/admin")).send().await.unwrap();
    assert_eq!(anyone.status(), StatusCode::FORBIDDEN);
    let (session, csrf) = signed_in(&http, &url, &admin).await;
    let page = http
        .get(format!("{url}/admin"))
        .header(COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    for part in [
        "Accounts from a class list",
        "The final tournament",
        "Set the deadline",
    ] {
        assert!(page.contains(part), "{part}: {page}");
    }
    let forged = post_admin(
        &http,
        &url,
        &session,
        &[("csrf", "0"), ("action", "freeze")],
    )
    .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(!ladder.frozen().await.unwrap());
    let made = post_admin(
        &http,
        &url,
        &session,
        &[
            ("csrf", csrf.as_str()),
            ("action", "class"),
            ("csv", "ada,,A\n<b>x</b>\n"),
            ("handout", "token"),
        ],
    )
    .await;
    assert_eq!(made.status(), StatusCode::BAD_REQUEST);
    let text = made.text().await.unwrap();
    assert!(text.contains("line 2: a name is"), "{text}");
    assert!(!text.contains("<b>x</b>"), "{text}");
    let made = post_admin(
        &http,
        &url,
        &session,
        &[
            ("csrf", csrf.as_str()),
            ("action", "class"),
            ("csv", "ada,,A\nalan,,B\n"),
            ("handout", "link"),
        ],
    )
    .await;
    assert_eq!(made.status(), StatusCode::OK);
    let text = made.text().await.unwrap();
    assert_eq!(text.matches("/welcome/").count(), 2, "{text}");
    let deadline = post_admin(
        &http,
        &url,
        &session,
        &[
            ("csrf", csrf.as_str()),
            ("action", "deadline"),
            ("deadline", "2030-01-02T03:04"),
        ],
    )
    .await;
    assert!(
        deadline
            .text()
            .await
            .unwrap()
            .contains("Submissions close at 2030-01-02 03:04 UTC.")
    );
    assert_eq!(
        ladder.deadline().await.unwrap(),
        Some(crate::utc::parse("2030-01-02T03:04").unwrap())
    );
    let board = http.get(&url).send().await.unwrap().text().await.unwrap();
    assert!(
        board.contains("Submissions close at 2030-01-02 03:04 UTC."),
        "{board}"
    );
    // Every repair's form reaches its action: an unknown match or job is said so.
    for (action, said) in [("again", "no match 99"), ("retry", "no job 99")] {
        let answer = post_admin(
            &http,
            &url,
            &session,
            &[("csrf", csrf.as_str()), ("action", action), ("id", "99")],
        )
        .await;
        assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{action}");
        assert!(answer.text().await.unwrap().contains(said), "{action}");
    }
    // An owner's session is refused the page and its actions.
    let ada = ladder
        .store()
        .account_by_name("ada")
        .await
        .unwrap()
        .unwrap();
    let handed = ladder
        .reset_token(
            &ladder.admin().await.unwrap(),
            &ada.name,
            &Default::default(),
        )
        .await
        .unwrap();
    let (owner_session, owner_csrf) =
        signed_in(&http, &url, handed.token.as_deref().unwrap()).await;
    let refused = post_admin(
        &http,
        &url,
        &owner_session,
        &[("csrf", owner_csrf.as_str()), ("action", "freeze")],
    )
    .await;
    assert_eq!(refused.status(), StatusCode::SEE_OTHER);
    assert!(!ladder.frozen().await.unwrap());
    let grades = http
        .get(format!("{url}/admin/final/grades.csv"))
        .header(COOKIE, &owner_session)
        .send()
        .await
        .unwrap();
    assert_eq!(grades.status(), StatusCode::FORBIDDEN);
}
