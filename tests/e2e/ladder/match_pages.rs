//! A match on the web, as each kind of viewer sees it, against a real server whose worker
//! played it with two owners' Python bots: the public, each owner (signed in with its token),
//! the admin. Every page and the API's JSON are searched for what the viewer may not see: the
//! other seats' start views (their hands), their actions (a Vabanque card is placed face down by
//! an action), the truth and the seed; the replay, in Chromium, offers the owner its own seat
//! only, and steps; a bot's page shows its build log and checklist to its owner only. With
//! `REFEREE_SCREENSHOTS=DIR`, it writes `DIR/ladder-match.png` and `DIR/ladder-bot.png`.

use super::harness::{BUILTINS, Server, block_on, config, databases, wait_for};
use crate::browser::Browser;
use crate::util::{compressed_log_blocks, file, temp_dir};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::time::Duration;

/// An HTTP/1.1 exchange with the server at `url`: the status, the raw headers (lower-cased)
/// and the body.
fn exchange(url: &str, request: &str) -> (u16, String, String) {
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split(' ').nth(1).unwrap_or("0").parse().unwrap();
    (status, head.to_lowercase(), body.to_owned())
}

/// `GET path` with `cookie` (may be empty): status and body.
fn get(url: &str, path: &str, cookie: &str) -> (u16, String) {
    let address = url.trim_start_matches("http://");
    let cookie = if cookie.is_empty() {
        String::new()
    } else {
        format!("Cookie: {cookie}\r\n")
    };
    let (status, _, body) = exchange(
        url,
        &format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n{cookie}Connection: close\r\n\r\n"),
    );
    (status, body)
}

/// Signs in with `token` as a browser would (the form's page, then its post): the session's
/// cookie (`ladder_session=…`).
fn sign_in(url: &str, token: &str) -> String {
    let address = url.trim_start_matches("http://");
    let (_, head, _) = exchange(
        url,
        &format!("GET /signin HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"),
    );
    let csrf = cookie_value(&head, "ladder_signin");
    let body = format!("csrf={csrf}&token={token}");
    let (status, head, _) = exchange(
        url,
        &format!(
            "POST /signin HTTP/1.1\r\nHost: {address}\r\nCookie: ladder_signin={csrf}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 303, "{head}");
    format!("ladder_session={}", cookie_value(&head, "ladder_session"))
}

/// The value of cookie `name` set in the (lower-cased) headers `head`.
fn cookie_value(head: &str, name: &str) -> String {
    head.lines()
        .filter_map(|l| l.strip_prefix("set-cookie: "))
        .find_map(|c| c.strip_prefix(&format!("{name}=")))
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no cookie {name} in {head}"))
        .to_owned()
}

/// The records a replay page holds (its log block: gzip + base64), as the browser decodes them.
fn replay_records(html: &str) -> Vec<Value> {
    let blocks = compressed_log_blocks(html);
    assert_eq!(blocks.len(), 1, "a replay page has one log block");
    serde_json::from_str(&blocks[0]).unwrap()
}

/// What a viewer of seat `own` (`None`: the public) may not be served, from the truth's log:
/// each other seat's start view, the truth, and (as JSON) each action of another seat.
fn secrets(truth: &[Value], own: Option<usize>) -> Vec<String> {
    let start = truth.iter().find(|r| r["type"] == "start").unwrap();
    let mut secrets = vec![start["truth"].to_string()];
    for (seat, view) in start["views"].as_array().unwrap().iter().enumerate() {
        if Some(seat) != own {
            secrets.push(view.to_string());
        }
    }
    secrets
}

/// `records` as a viewer of seat `own` (`None`: the public) must have them: no truth, no seed,
/// no other seat's view, action, stderr or event told to it alone.
fn assert_seen_by(records: &[Value], own: Option<usize>, truth: &[Value], what: &str) {
    let text = serde_json::to_string(records).unwrap();
    for secret in secrets(truth, own) {
        assert!(!text.contains(&secret), "{what} serves {secret}");
    }
    for r in records {
        let seat = r["seat"].as_u64().map(|s| s as usize);
        match r["type"].as_str().unwrap() {
            "header" => assert_eq!(r["seed"], json!(0), "{what}: {r}"),
            "start" | "result" => assert!(r["truth"].is_null(), "{what}: {r}"),
            "action" if seat != own => assert!(r["action"].is_null(), "{what}: {r}"),
            "stderr" => assert_eq!(seat, own, "{what}: {r}"),
            "event" => assert!(
                r["to"] == json!("all") || own.is_some_and(|s| r["to"] == json!(s)),
                "{what}: {r}"
            ),
            _ => {}
        }
    }
    // Its own actions are there, whole.
    if let Some(own) = own {
        let mine = |rs: &[Value]| {
            rs.iter()
                .filter(|r| r["type"] == "action" && r["seat"] == json!(own))
                .map(|r| r["action"].clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(mine(records), mine(truth), "{what}");
    }
}

#[test]
fn a_match_shows_each_viewer_its_own_view_and_nothing_of_the_others() {
    for (i, db) in databases("ladder match pages").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-match-pages-{i}"));
        let file_path = config(&dir, "", &BUILTINS[..2]);
        let server = Server::start(&file_path, &dir.join("home"), db.url.as_deref(), 1);
        let admin_token = server.admin_token().trim().to_owned();
        let admin = server.client(Some(&admin_token));
        let alice = block_on(admin.add_account("alice", "owner")).unwrap().token;
        let bob = block_on(admin.add_account("bob", "owner")).unwrap().token;
        for (token, bot, sample) in [
            (&alice, "alice-py", "vabanque_heuristic.py"),
            (&bob, "bob-py", "vabanque_random.py"),
        ] {
            let upload = std::fs::read(file(&format!("sample-bots/python/{sample}"))).unwrap();
            block_on(server.client(Some(token)).submit(bot, "python", upload)).unwrap();
        }
        // A match where both sat.
        let id = wait_for(
            "a match of Alice's and Bob's bots",
            Duration::from_secs(300),
            || {
                let played = block_on(admin.matches_of("alice-py", 50)).ok()?;
                played
                    .into_iter()
                    .find(|m| m.seats.iter().any(|s| s.owner == "bob"))
                    .map(|m| m.id)
            },
        );
        // Its play is shown once every match of its deal is played.
        wait_for(
            "the match's deal played out",
            Duration::from_secs(300),
            || {
                let seen = block_on(server.client(Some(&alice)).match_log(id)).ok()?;
                (!seen.withheld).then_some(())
            },
        );
        let seat_of = |owner: &str| {
            let view = block_on(admin.match_view(id)).unwrap();
            view.seats.iter().position(|s| s.owner == owner).unwrap()
        };
        let (alice_seat, bob_seat) = (seat_of("alice"), seat_of("bob"));

        // The API's JSON, as each viewer.
        let truth = block_on(admin.match_log(id)).unwrap();
        assert_eq!(truth.audience, "truth");
        let truth = truth.records;
        assert!(
            truth
                .iter()
                .any(|r| r["type"] == "action" && r["action"]["card"].is_string())
        );
        for (token, own, who) in [
            (Some(&alice), Some(alice_seat), "alice"),
            (Some(&bob), Some(bob_seat), "bob"),
            (None, None, "the public"),
        ] {
            let seen = block_on(server.client(token.map(String::as_str)).match_log(id)).unwrap();
            assert_eq!(seen.seat, own, "{who}");
            assert_seen_by(&seen.records, own, &truth, &format!("the API to {who}"));
        }

        // The pages, as each viewer (signed in with its token, or not).
        let sessions = [
            (sign_in(&server.url, &alice), Some(alice_seat), "alice"),
            (sign_in(&server.url, &bob), Some(bob_seat), "bob"),
            (String::new(), None, "the public"),
        ];
        for (cookie, own, who) in &sessions {
            let (status, page) = get(&server.url, &format!("/matches/{id}"), cookie);
            assert_eq!(status, 200, "{who}: {page}");
            for secret in secrets(&truth, *own) {
                // As the page writes it: HTML-escaped.
                let escaped = secret.replace('&', "&amp;").replace('"', "&quot;");
                assert!(
                    !page.contains(&escaped) && !page.contains(&secret),
                    "{who}'s page"
                );
            }
            let (status, replay) = get(&server.url, &format!("/replays/{id}"), cookie);
            match own {
                Some(_) => {
                    assert_eq!(status, 200, "{who}");
                    assert!(page.contains(&format!("src=\"/replays/{id}\"")), "{who}");
                    let records = replay_records(&replay);
                    assert_seen_by(&records, *own, &truth, &format!("the replay to {who}"));
                }
                None => {
                    assert_eq!(status, 404, "{replay}");
                    assert!(page.contains("What everyone was told"));
                }
            }
        }
        // A bot's page: its build log and checklist to its owner only.
        for (cookie, own, who) in &sessions {
            let (status, page) = get(&server.url, "/bots/alice-py", cookie);
            assert_eq!(status, 200, "{who}: {page}");
            assert!(
                page.contains("Head to head") && page.contains("href=\"/bots/bob-py\""),
                "{who}"
            );
            let alices = *own == Some(alice_seat);
            assert_eq!(
                page.contains("needs no build"),
                alices,
                "{who}: the build log"
            );
            assert_eq!(page.contains("Checklist"), alices, "{who}: the checklist");
        }
        let (status, _) = get(&server.url, "/bots/nobody", "");
        assert_eq!(status, 404);
        let admin_cookie = sign_in(&server.url, &admin_token);
        let (status, replay) = get(&server.url, &format!("/replays/{id}"), &admin_cookie);
        assert_eq!(status, 200);
        assert_eq!(replay_records(&replay), truth);

        // In Chromium: Alice signs in, her match's page frames the replay, which offers her
        // seat alone and steps.
        if i == 0 {
            let Some(mut browser) = Browser::launch("ladder match pages", &[]) else {
                return;
            };
            browser.open_url(&format!("{}/signin", server.url));
            browser.type_into("#token", &alice);
            browser.click_and_load("form.sign-in button");
            browser.open_url(&format!("{}/matches/{id}", server.url));
            browser.wait_until(
                "(() => { const d = document.querySelector('iframe.replay').contentDocument; \
                   return d && d.querySelectorAll('#perspective button').length === 1; })()",
            );
            let offered = browser.eval(
                "document.querySelector('iframe.replay').contentDocument\
                   .querySelector('#perspective button').dataset.view",
            );
            assert_eq!(offered, json!(alice_seat.to_string()));
            assert_eq!(browser.errors(), Vec::<String>::new());
            browser.keep_screenshot("ladder-match.png");
            // Her bot's page, from the seat's link: its rating drawn.
            browser.click_and_load("table.seats tr.own td.name a");
            assert_eq!(browser.text("h1"), "alice-py");
            browser.wait_until("document.querySelector('figure.rating polyline.mu') !== null");
            assert_eq!(browser.count("details.build"), 1);
            assert_eq!(browser.errors(), Vec::<String>::new());
            browser.keep_screenshot("ladder-bot.png");
            // The replay on its own, stepped with the keyboard.
            browser.open_url(&format!("{}/replays/{id}", server.url));
            // The player starts once the page's log is decoded, after the load.
            browser.wait_until("document.querySelector('#seats tr') !== null");
            let step = |b: &mut Browser| b.eval("location.hash");
            let before = step(&mut browser);
            browser.press("ArrowRight");
            browser.press("ArrowRight");
            let after = step(&mut browser);
            assert_ne!(before, after);
            assert!(
                after
                    .as_str()
                    .unwrap()
                    .contains(&format!("view={alice_seat}"))
            );
            assert!(!browser.text("#match-info").contains("seed"));
            assert_eq!(browser.errors(), Vec::<String>::new());

            // She submits a second bot from the browser and watches its build, check and
            // first matches on its version's page, without a reload.
            browser.open_url(&format!("{}/", server.url));
            browser.click_and_load("nav.account a[href='/submit']");
            browser.type_into("#bot", "alice-two");
            browser.eval("document.getElementById('lang').value = 'python'");
            browser.choose_file(
                "#file",
                std::path::Path::new(&file("sample-bots/python/vabanque_random.py")),
            );
            browser.click_and_load("form.submit button");
            assert_eq!(
                browser.eval("location.pathname"),
                json!("/bots/alice-two/versions/1")
            );
            browser.eval("window.stayed = true");
            browser.wait_until(
                "window.stayed === true && \
                 document.querySelector('#version p.state strong').textContent === 'ready' && \
                 document.querySelectorAll('#version ul.latest li').length >= 1",
            );
            assert!(browser.text("#version").contains("needs no build"));
            if i == 0 {
                browser.keep_screenshot("ladder-version.png");
            }
            // A second submission of the same source changes nothing; a form from elsewhere is
            // refused.
            browser.open_url(&format!("{}/submit", server.url));
            browser.eval("document.querySelector('form.submit input[name=csrf]').value = 'forged'");
            browser.type_into("#bot", "alice-three");
            browser.choose_file(
                "#file",
                std::path::Path::new(&file("sample-bots/python/vabanque_random.py")),
            );
            browser.click_and_load("form.submit button");
            let said = browser.text("main");
            assert!(said.contains("not one of your pages"), "{said}");
            assert!(block_on(admin.version("alice-three", 1)).is_err());
            assert_eq!(browser.errors(), Vec::<String>::new());

            // She challenges Bob's bot and watches the matches come, without a reload; they
            // are hers to list, not Bob's.
            browser.click_and_load("nav.account a[href='/challenges']");
            browser.type_into("#bot", "alice-py");
            browser.type_into("#opponents", "bob-py, rand-a");
            browser.eval("document.getElementById('matches').value = '3'");
            browser.click_and_load("form.submit button");
            assert_eq!(browser.eval("location.pathname"), json!("/challenges"));
            browser.eval("window.stayed = true");
            browser.wait_until(
                "window.stayed === true && \
                 document.querySelectorAll('#challenges ul.latest li').length >= 3",
            );
            assert!(browser.text("#challenges").contains("bob-py.v1"));
            if i == 0 {
                browser.keep_screenshot("ladder-challenges.png");
            }
            let bobs = block_on(server.client(Some(&bob)).challenges()).unwrap();
            assert!(bobs.played.is_empty() && bobs.pending == 0, "{bobs:?}");
            assert_eq!(browser.errors(), Vec::<String>::new());
            for request in browser.requests() {
                assert!(
                    request.starts_with(&server.url) || request.starts_with("data:"),
                    "{request}"
                );
            }
        }
        server.stop();
    }
}
