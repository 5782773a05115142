//! Signing in and out over HTTP, as a browser does it: the cookies' attributes, the CSRF
//! tokens, the limit on failed sign-ins, a worker's token refused, a session ended.

use crate::service::Ladder;
use crate::store::Role;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::{Client, StatusCode};

/// A ladder served on a free port: its URL, its admin's token, and the ladder.
pub(super) async fn served() -> (String, String, Ladder, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::config::tests::config();
    let made = Ladder::init(dir.path(), &config, None).await.unwrap();
    let ladder = Ladder::open(dir.path()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(crate::api::serve(
        ladder.clone(),
        listener,
        std::future::pending(),
    ));
    (url, made.admin_token, ladder, dir)
}

fn http() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The `Set-Cookie` headers of `answer`.
fn set_cookies(answer: &reqwest::Response) -> Vec<String> {
    answer
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

/// The value of cookie `name` among `cookies`.
fn value_of(cookies: &[String], name: &str) -> Option<String> {
    cookies.iter().find_map(|c| {
        let first = c.split(';').next()?;
        let (n, v) = first.split_once('=')?;
        (n == name).then(|| v.to_owned())
    })
}

/// The sign-in form's CSRF token and its cookie (`ladder_signin=…`).
async fn sign_in_form(http: &Client, url: &str) -> (String, String) {
    let answer = http.get(format!("{url}/signin")).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let cookies = set_cookies(&answer);
    let form_cookie = cookies
        .iter()
        .find(|c| c.starts_with("ladder_signin="))
        .unwrap()
        .clone();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/signin"] {
        assert!(form_cookie.contains(attribute), "{form_cookie}");
    }
    let csrf = value_of(&cookies, "ladder_signin").unwrap();
    let page = answer.text().await.unwrap();
    assert!(
        page.contains(&format!("name=\"csrf\" value=\"{csrf}\"")),
        "{page}"
    );
    let cookie = format!("ladder_signin={csrf}");
    (csrf, cookie)
}

async fn post_sign_in(
    http: &Client,
    url: &str,
    cookie: &str,
    csrf: &str,
    token: &str,
) -> reqwest::Response {
    post_sign_in_with(http, url, cookie, csrf, token, None).await
}

/// [`post_sign_in`] with one more header, as a proxy in front of the server adds.
async fn post_sign_in_with(
    http: &Client,
    url: &str,
    cookie: &str,
    csrf: &str,
    token: &str,
    header: Option<(&str, &str)>,
) -> reqwest::Response {
    let mut request = http
        .post(format!("{url}/signin"))
        .header(COOKIE, cookie)
        .form(&[("csrf", csrf), ("token", token)]);
    if let Some((name, value)) = header {
        request = request.header(name, value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn a_token_signs_in_to_a_session_that_signs_out_with_its_own_form_only() {
    let (url, admin, _ladder, _dir) = served().await;
    let http = http();
    let (csrf, cookie) = sign_in_form(&http, &url).await;
    let answer = post_sign_in(&http, &url, &cookie, &csrf, &admin).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    assert_eq!(answer.headers()[LOCATION], "/");
    let cookies = set_cookies(&answer);
    let session_cookie = cookies
        .iter()
        .find(|c| c.starts_with("ladder_session="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=1209600"] {
        assert!(session_cookie.contains(attribute), "{session_cookie}");
    }
    // Plain HTTP: not `Secure` (a browser would not send it back).
    assert!(!session_cookie.contains("Secure"), "{session_cookie}");
    let session = format!(
        "ladder_session={}",
        value_of(&cookies, "ladder_session").unwrap()
    );
    // The token is not the cookie.
    assert!(!session.contains(&admin));

    let board = http
        .get(&url)
        .header(COOKIE, &session)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        board.contains("Signed in as <strong>admin</strong> (admin)"),
        "{board}"
    );
    let form_csrf = board
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();

    // Another page's (or site's) form does not sign out.
    let refused = http
        .post(format!("{url}/signout"))
        .header(COOKIE, &session)
        .form(&[("csrf", "0123")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let still = http
        .get(&url)
        .header(COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert!(still.text().await.unwrap().contains("Signed in as"));

    let out = http
        .post(format!("{url}/signout"))
        .header(COOKIE, &session)
        .form(&[("csrf", form_csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    let cleared = set_cookies(&out);
    assert!(
        cleared
            .iter()
            .any(|c| c.starts_with("ladder_session=;") && c.contains("Max-Age=0")),
        "{cleared:?}"
    );
    // The old cookie is worth nothing now.
    let after = http
        .get(&url)
        .header(COOKIE, &session)
        .send()
        .await
        .unwrap();
    let after = after.text().await.unwrap();
    assert!(
        !after.contains("Signed in as") && after.contains("href=\"/signin\""),
        "{after}"
    );
}

#[tokio::test]
async fn a_sign_in_needs_its_forms_token_and_a_known_owners_or_admins_token() {
    let (url, admin, ladder, _dir) = served().await;
    let http = http();
    let (csrf, cookie) = sign_in_form(&http, &url).await;
    // A form from elsewhere: no cookie, or another token.
    let forged = post_sign_in(&http, &url, "", &csrf, &admin).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(value_of(&set_cookies(&forged), "ladder_session").is_none());
    let other = post_sign_in(&http, &url, &cookie, "forged", &admin).await;
    assert_eq!(other.status(), StatusCode::FORBIDDEN);
    // An unknown token.
    let unknown = post_sign_in(&http, &url, &cookie, &csrf, "rl_nope").await;
    assert_eq!(unknown.status(), StatusCode::UNAUTHORIZED);
    assert!(
        unknown
            .text()
            .await
            .unwrap()
            .contains("not one of this ladder")
    );
    // A worker's token.
    let root = ladder.authenticate(&admin).await.unwrap();
    let worker = ladder
        .add_account(&root, "box", Role::Worker)
        .await
        .unwrap();
    let answer = post_sign_in(&http, &url, &cookie, &csrf, &worker).await;
    assert_eq!(answer.status(), StatusCode::FORBIDDEN);
    assert!(answer.text().await.unwrap().contains("worker"));
    // Behind a TLS proxy, the session cookie is `Secure`.
    let secure = post_sign_in_with(
        &http,
        &url,
        &cookie,
        &csrf,
        &admin,
        Some(("x-forwarded-proto", "https")),
    )
    .await;
    let cookies = set_cookies(&secure);
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("ladder_session=") && c.contains("Secure")),
        "{cookies:?}"
    );
}

#[tokio::test]
async fn failed_sign_ins_are_limited_per_address() {
    let (url, admin, _ladder, _dir) = served().await;
    let http = http();
    let (csrf, cookie) = sign_in_form(&http, &url).await;
    for _ in 0..super::sign_in_limit::MAX_FAILURES {
        let answer = post_sign_in(&http, &url, &cookie, &csrf, "rl_wrong").await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    }
    // Even the right token now waits.
    let held = post_sign_in(&http, &url, &cookie, &csrf, &admin).await;
    assert_eq!(held.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(
        held.text()
            .await
            .unwrap()
            .contains("Too many failed sign-ins")
    );
    // Through a proxy on this machine, the address it names counts instead.
    let proxied = post_sign_in_with(
        &http,
        &url,
        &cookie,
        &csrf,
        &admin,
        Some(("x-forwarded-for", "203.0.113.9")),
    )
    .await;
    assert_eq!(proxied.status(), StatusCode::SEE_OTHER);
}
