//! The API's docs and schemas are the code's, and every listed endpoint is routed.

use super::endpoints::{ENDPOINTS, markdown_table};
use crate::service::Ladder;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_docs_list_every_endpoint_as_the_code_does() {
    let page = std::fs::read_to_string(root().join("docs/ladder-api.md")).unwrap();
    assert!(
        page.contains(&markdown_table()),
        "docs/ladder-api.md's table of endpoints is not ENDPOINTS' (ladder/src/api/endpoints.rs):\n{}",
        markdown_table()
    );
}

#[test]
fn checked_in_schemas_equal_the_generated_ones() {
    for file in super::schemas() {
        let path = root().join("docs/schema").join(&file.name);
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == file.text,
            "{} is missing or stale: run `referee schema --out docs/schema`",
            path.display()
        );
    }
}

#[tokio::test]
async fn every_listed_endpoint_is_routed() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::config::tests::config();
    Ladder::init(dir.path(), &config, None).await.unwrap();
    let ladder = Ladder::open(dir.path()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(super::serve(ladder, listener, async {
        let _ = stopped.await;
    }));
    let http = reqwest::Client::new();
    for e in ENDPOINTS {
        let path = e
            .path
            .replace("{bot}", "nobody")
            .replace("{n}", "1")
            .replace("{id}", "1")
            .replace("{seat}", "0")
            .replace("{hash}", &"a".repeat(64))
            .replace("=L", "=python")
            .replace("=N", "=5")
            .replace("=MS", "=0");
        let method = reqwest::Method::from_bytes(e.method.as_bytes()).unwrap();
        let response = http
            .request(method, format!("http://{address}{path}"))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        // An unrouted path is axum's bare 404 or 405; the service's own 404 says why.
        assert!(
            status != 405 && (status != 404 || body.contains("\"error\"")),
            "{} {path}: {status} {body}",
            e.method
        );
    }
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn every_admin_endpoint_refuses_an_owner_and_anyone() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::config::tests::config();
    let made = Ladder::init(dir.path(), &config, None).await.unwrap();
    let ladder = Ladder::open(dir.path()).await.unwrap();
    let admin = ladder.authenticate(&made.admin_token).await.unwrap();
    let owner = ladder
        .add_account(&admin, "ada", crate::store::Role::Owner)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(super::serve(ladder.clone(), listener, async {
        let _ = stopped.await;
    }));
    let http = reqwest::Client::new();
    let admin_only: Vec<_> = ENDPOINTS.iter().filter(|e| e.who == "admin").collect();
    assert!(admin_only.len() >= 15, "{}", admin_only.len());
    for e in admin_only {
        let path = e
            .path
            .replace("{bot}", "ada-bot")
            .replace("{n}", "1")
            .replace("{id}", "1")
            .replace("{name}", "ada")
            .replace("{job}", "1")
            .replace("=MS", "=0");
        // A body the endpoint would take from the admin: the refusal is the role's.
        let body = match e.request {
            "ClassImport" => serde_json::json!({"members": [{"name": "eve"}]}),
            "AccountBody" => serde_json::json!({"name": "eve", "role": "admin"}),
            "DeadlineBody" => serde_json::json!({"at_ms": 0}),
            _ => serde_json::json!({}),
        };
        let method = reqwest::Method::from_bytes(e.method.as_bytes()).unwrap();
        for (token, expected) in [(Some(owner.as_str()), 403), (None, 401)] {
            let mut request = http
                .request(method.clone(), format!("http://{address}{path}"))
                .json(&body);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.send().await.unwrap();
            assert_eq!(
                response.status().as_u16(),
                expected,
                "{} {path} as {token:?}",
                e.method
            );
        }
    }
    // Nothing the owner asked for was done.
    assert!(
        ladder
            .store()
            .account_by_name("eve")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(ladder.deadline().await.unwrap(), None);
    assert!(!ladder.frozen().await.unwrap() && !ladder.paused().await.unwrap());
    assert!(ladder.store().latest_final().await.unwrap().is_none());
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
