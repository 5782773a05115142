//! Every page of the ladder at a phone's width (390 CSS pixels, as a common phone), in Chromium,
//! against a real server whose own worker played a few matches: the board, a bot's page, a
//! version's, a match's with its replay framed (the admin's), the queue, the challenges (the
//! admin's) and the submission form (an owner's), and the sign-in form. None scrolls sideways (a table may scroll in its own
//! box) and none logs an error. One bot has the longest name a bot may have. With
//! `REFEREE_SCREENSHOTS=DIR`, it writes `DIR/ladder-PAGE-phone.png` for each page (the images
//! of docs/ladder.md).

use super::harness::{Server, block_on, config, databases, wait_for};
use crate::browser::Browser;
use crate::util::temp_dir;
use ladder::service::ChallengeRequest;
use serde_json::json;
use std::time::Duration;

/// A bot's longest name (48 characters).
const LONG: &str = "a-bot-whose-name-is-as-long-as-a-name-may-be-48c";

/// Three built-in bots: every match of three seats all of them.
const BOTS: &[(&str, &str, &str)] = &[
    ("rand-a", "builtin", "random"),
    ("heur-a", "builtin", "heuristic"),
    (LONG, "builtin", "heuristic"),
];

/// The phone: its width and height in CSS pixels.
const PHONE: (u32, u32) = (390, 844);

/// Opens `path` of the server at `url`, waits for `ready` (a JavaScript condition; the load is
/// enough for most pages), and checks the page does not scroll sideways and logged no error;
/// keeps its screenshot as `ladder-NAME-phone.png` when `shot`.
fn look_at(browser: &mut Browser, url: &str, name: &str, path: &str, ready: &str, shot: bool) {
    browser.open_url(&format!("{url}{path}"));
    browser.wait_until(ready);
    let widths = browser.eval(
        "[document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]",
    );
    let [page, body, viewport] = [0, 1, 2].map(|i| widths[i].as_u64().unwrap());
    assert_eq!(viewport, u64::from(PHONE.0), "{name}: the viewport");
    assert!(
        page <= viewport && body <= viewport,
        "{name} ({path}) scrolls sideways at {viewport} px: the page is {page} px wide, its body {body} px; \
         the widest: {}",
        browser.eval(WIDEST)
    );
    assert_eq!(browser.errors(), Vec::<String>::new(), "{name} ({path})");
    if shot {
        browser.keep_screenshot(&format!("ladder-{name}-phone.png"));
    }
}

/// The elements that reach past the viewport's right edge, for a failure's message.
const WIDEST: &str = "[...document.querySelectorAll('body *')]\
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)\
    .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))";

#[test]
fn every_page_fits_a_phones_width() {
    for (i, db) in databases("ladder phone").into_iter().enumerate() {
        let Some(mut browser) = Browser::launch("ladder phone", &[]) else {
            return;
        };
        let shot = i == 0;
        let dir = temp_dir(&format!("ladder-phone-{i}"));
        let file = config(&dir, "", BOTS);
        let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 1);
        let url = server.url.clone();
        let token = server.admin_token().trim().to_owned();
        let admin = server.client(Some(&token));
        // A challenge of the long-named bot, for the challenges' page to list.
        let request = ChallengeRequest {
            bot: LONG.to_owned(),
            version: None,
            opponents: vec!["rand-a".into(), "heur-a".into()],
            matches: 2,
        };
        wait_for(
            "the built-in bots ready for a challenge",
            Duration::from_secs(120),
            || block_on(admin.challenge(&request)).ok(),
        );
        // A ranked match the admin may replay, and the challenge's matches, played.
        let id = wait_for(
            "a ranked match played out",
            Duration::from_secs(300),
            || {
                let played = block_on(admin.matches_of(LONG, 20)).ok()?;
                played.into_iter().filter(|m| m.ranked).find_map(|m| {
                    let seen = block_on(admin.match_log(m.id)).ok()?;
                    (!seen.withheld).then_some(m.id)
                })
            },
        );
        wait_for(
            "the challenge's matches played",
            Duration::from_secs(300),
            || {
                let mine = block_on(admin.challenges()).ok()?;
                (mine.pending == 0 && mine.played.len() >= 2).then_some(())
            },
        );

        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": PHONE.0, "height": PHONE.1, "deviceScaleFactor": 1, "mobile": true}),
        );
        let loaded = "document.readyState === 'complete'";
        look_at(&mut browser, &url, "sign-in", "/signin", loaded, shot);
        browser.type_into("#token", &token);
        browser.click_and_load("form.sign-in button");
        assert_eq!(browser.eval("location.pathname"), json!("/"));

        look_at(
            &mut browser,
            &url,
            "board",
            "/",
            "document.querySelectorAll('table.board tbody tr').length === 3",
            shot,
        );
        look_at(
            &mut browser,
            &url,
            "bot",
            &format!("/bots/{LONG}"),
            "document.querySelector('figure.rating polyline.mu') !== null",
            shot,
        );
        look_at(
            &mut browser,
            &url,
            "version",
            &format!("/bots/{LONG}/versions/1"),
            "document.querySelectorAll('#version ul.latest li').length >= 1",
            shot,
        );
        look_at(
            &mut browser,
            &url,
            "match",
            &format!("/matches/{id}"),
            // The replay framed, its player started (it decodes its log after the load).
            "(() => { const d = document.querySelector('iframe.replay').contentDocument; \
               return d && d.querySelector('#seats tr') !== null; })()",
            shot,
        );
        look_at(
            &mut browser,
            &url,
            "queue",
            "/queue",
            "document.querySelectorAll('table.workers tbody tr').length === 1",
            shot,
        );
        look_at(
            &mut browser,
            &url,
            "challenges",
            "/challenges",
            "document.querySelectorAll('#challenges ul.latest li').length >= 2",
            shot,
        );
        // The submission form is an owner's (the admin adds built-ins from the command line).
        let owner = block_on(admin.add_account("ada", "owner")).unwrap().token;
        browser.click_and_load("nav.account button");
        browser.open_url(&format!("{url}/signin"));
        browser.type_into("#token", &owner);
        browser.click_and_load("form.sign-in button");
        look_at(
            &mut browser,
            &url,
            "submit",
            "/submit",
            "document.querySelector('form.submit input[type=file]') !== null",
            shot,
        );
        for request in browser.requests() {
            assert!(
                request.starts_with(&url) || request.starts_with("data:"),
                "{request}"
            );
        }
        server.stop();
    }
}
