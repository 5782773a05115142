//! The board's class-group filter over HTTP: the links only once a group is given, one
//! group's rows (each keeping its rank on the whole ladder) on the page, in its live table and
//! in the API; a group's name is text wherever it shows.

use super::tests::served;
use crate::store::{BuildResult, Role, Store, VersionState};

/// A group's name that would be markup if it were not escaped.
const HOSTILE: &str = "\"><script>alert(1)</script>";

/// Owner `name`'s bot `name`, its one version ready at rating (μ = `mu`, σ = 1).
async fn playing(store: &Store, name: &str, mu: f64) {
    let owner = store
        .add_account(name, Role::Owner, &format!("hash-of-{name}"), 1)
        .await
        .unwrap();
    let bot = store.add_bot(owner.id, name, "python", 1).await.unwrap();
    let (version, _) = store
        .add_version(&bot, &format!("source-of-{name}"), (mu, 1.0), 1)
        .await
        .unwrap();
    let ready = BuildResult {
        state: VersionState::Ready,
        artifact_hash: Some("a".repeat(64)),
        run_command: Some("python3 bot.py".into()),
        build_log_hash: None,
        check_report: None,
    };
    store.set_version_build(version.id, &ready).await.unwrap();
}

/// The text of `url`.
async fn get(url: &str) -> String {
    let answer = reqwest::get(url).await.unwrap();
    assert_eq!(answer.status(), reqwest::StatusCode::OK, "{url}");
    answer.text().await.unwrap()
}

/// The bots of the board's rows in `html`, each with its rank, in order.
fn board_rows(html: &str) -> Vec<(String, String)> {
    let Some(body) = html.split("<tbody>").nth(1) else {
        return Vec::new();
    };
    let body = body.split("</tbody>").next().unwrap();
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let rank = row.split("<td class=\"num\">").nth(1).unwrap();
            let rank = rank.split('<').next().unwrap().to_owned();
            let bot = row.split("href=\"/bots/").nth(1).unwrap();
            let bot = bot.split('"').next().unwrap().to_owned();
            (rank, bot)
        })
        .collect()
}

fn ranked(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(rank, bot)| ((*rank).to_owned(), (*bot).to_owned()))
        .collect()
}

#[tokio::test]
async fn the_board_filters_by_class_group_keeping_ranks_and_escaping_names() {
    let (url, _admin, ladder, _dir) = served().await;
    let store = ladder.store();
    playing(store, "ada", 30.0).await;
    playing(store, "cy", 25.0).await;
    playing(store, "bob", 20.0).await;
    playing(store, "dee", 15.0).await;

    // No group anywhere: no filter.
    let board = get(&format!("{url}/")).await;
    assert!(!board.contains("class=\"groups\""), "{board}");
    assert!(board.contains("data-live=\"/board/rows\""), "{board}");

    assert!(store.set_class("ada", Some("A 1"), None).await.unwrap());
    assert!(store.set_class("bob", Some(HOSTILE), None).await.unwrap());
    assert!(store.set_class("dee", Some("A 1"), None).await.unwrap());
    assert!(!store.set_class("nobody", Some("A 1"), None).await.unwrap());
    let hostile_query = crate::client::escaped(HOSTILE);

    let board = get(&format!("{url}/")).await;
    assert!(board.contains("<nav class=\"groups\""), "{board}");
    assert!(
        board.contains("<a href=\"/\" aria-current=\"page\">All</a>"),
        "{board}"
    );
    assert!(
        board.contains("<a href=\"/?group=A%201\">A 1</a>"),
        "{board}"
    );
    assert!(
        board.contains(&format!(
            "<a href=\"/?group={hostile_query}\">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>"
        )),
        "{board}"
    );
    assert!(!board.contains("<script>alert"), "{board}");
    assert_eq!(
        board_rows(&board),
        ranked(&[("1", "ada"), ("2", "cy"), ("3", "bob"), ("4", "dee")])
    );

    // One group: its rows only, ranked as on the whole ladder, and the live table asks for
    // the same group.
    let board = get(&format!("{url}/?group=A%201")).await;
    assert_eq!(board_rows(&board), ranked(&[("1", "ada"), ("4", "dee")]));
    assert!(
        board.contains("<a href=\"/?group=A%201\" aria-current=\"page\">A 1</a>"),
        "{board}"
    );
    assert!(
        board.contains("data-live=\"/board/rows?group=A%201\""),
        "{board}"
    );
    let live = get(&format!("{url}/board/rows?group=A%201")).await;
    assert_eq!(board_rows(&live), ranked(&[("1", "ada"), ("4", "dee")]));
    let live = get(&format!("{url}/board/rows")).await;
    assert_eq!(board_rows(&live).len(), 4);

    let board = get(&format!("{url}/?group={hostile_query}")).await;
    assert_eq!(board_rows(&board), ranked(&[("3", "bob")]));
    assert!(!board.contains("<script>alert"), "{board}");
    assert!(
        board.contains(&format!("data-live=\"/board/rows?group={hostile_query}\"")),
        "{board}"
    );

    // A group nobody is in: an empty board that says so, its name as text.
    let board = get(&format!("{url}/?group=%3Ci%3Enone")).await;
    assert!(board_rows(&board).is_empty(), "{board}");
    assert!(board.contains("&lt;i&gt;none"), "{board}");
    assert!(!board.contains("<i>none"), "{board}");
    // An empty name is no filter.
    assert_eq!(board_rows(&get(&format!("{url}/?group=")).await).len(), 4);

    // The API filters the same way.
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&get(&format!("{url}/api/v1/standings?group=A%201")).await).unwrap();
    let seen: Vec<(i64, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["rank"].as_i64().unwrap(),
                r["bot"].as_str().unwrap(),
                r["group"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [(1, "ada", "A 1"), (4, "dee", "A 1")]);
    let all: Vec<serde_json::Value> =
        serde_json::from_str(&get(&format!("{url}/api/v1/standings")).await).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[1]["group"], serde_json::Value::Null);
    let hostile: Vec<serde_json::Value> =
        serde_json::from_str(&get(&format!("{url}/api/v1/standings?group={hostile_query}")).await)
            .unwrap();
    assert_eq!(hostile.len(), 1);
    assert_eq!(hostile[0]["group"], HOSTILE);
}
