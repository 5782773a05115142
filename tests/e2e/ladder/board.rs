//! The ladder's web board in a real browser (Debian's chromium, headless) against a real
//! server whose own worker plays real matches: the standings shown as the API gives them, the
//! table updated without a reload as matches are played, nothing fetched but from the server,
//! no script but the board's own (its Content-Security-Policy header), and the page readable
//! at a phone's width; the admin signs in with its token and out; a match's page is reached
//! from the board. With `REFEREE_SCREENSHOTS=DIR`, it writes `DIR/ladder-board.png`,
//! `DIR/ladder-sign-in.png` and `DIR/ladder-queue.png` (the images of docs/ladder.md; the
//! pages at a phone's width are `ladder::phone`'s).

use super::harness::{BUILTINS, Server, block_on, config, databases, wait_for};
use crate::browser::Browser;
use crate::util::temp_dir;
use serde_json::json;
use std::io::{Read, Write};
use std::time::Duration;

/// The headers of `GET path` from the server at `url`, lower-cased, as sent.
fn headers(url: &str, path: &str) -> String {
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    head.to_lowercase()
}

/// The number in each cell of the board's column `n` (1 first).
fn column(browser: &mut Browser, n: usize) -> Vec<String> {
    browser.texts(&format!("table.board tbody tr td:nth-child({n})"))
}

#[test]
fn the_board_shows_the_standings_and_follows_the_matches_without_a_reload() {
    for (i, db) in databases("ladder board").into_iter().enumerate() {
        let Some(mut browser) = Browser::launch("ladder board", &[]) else {
            return;
        };
        let dir = temp_dir(&format!("ladder-board-{i}"));
        let file = config(&dir, "", BUILTINS);
        let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 1);
        let public = server.client(None);
        wait_for(
            "every version on the board with a match played",
            Duration::from_secs(300),
            || {
                let rows = block_on(public.standings()).ok()?;
                (rows.len() == 4 && rows.iter().all(|r| r.matches > 0)).then_some(())
            },
        );

        let head = headers(&server.url, "/");
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(
            head.contains("content-security-policy: default-src 'none'; script-src 'self';"),
            "{head}"
        );
        assert!(head.contains("connect-src 'self'"), "{head}");

        browser.open_url(&format!("{}/", server.url));
        assert_eq!(browser.count("table.board tbody tr"), 4);
        // As the API ranks them, each bot of its owner, version 1.
        let rows = block_on(public.standings()).unwrap();
        let mut bots = column(&mut browser, 2);
        let mut expected: Vec<String> = rows.iter().map(|r| r.bot.clone()).collect();
        bots.sort();
        expected.sort();
        assert_eq!(bots, expected);
        assert!(column(&mut browser, 4).iter().all(|v| v == "v1"));
        assert_eq!(browser.count("table.board td.interval svg rect.span"), 4);
        assert!(browser.text("dl.legend").contains("μ − 3σ"));
        // A win rate and an age for every version that has played.
        for rate in column(&mut browser, 8) {
            let percent: u32 = rate.strip_suffix('%').unwrap().parse().unwrap();
            assert!(percent <= 100, "{rate}");
        }
        for faults in column(&mut browser, 9) {
            assert_eq!(faults, "0", "built-ins commit none");
        }
        // Every version that played has decided: its p99 decision time, in milliseconds.
        for p99 in column(&mut browser, 10) {
            let ms: f64 = p99.parse().unwrap_or_else(|_| panic!("p99 ms {p99:?}"));
            assert!(ms > 0.0, "{p99}");
        }
        for age in column(&mut browser, 11) {
            assert!(age.ends_with(" ago"), "{age}");
        }
        for row in &rows {
            assert!(row.wins <= row.matches, "{row:?}");
            assert!(row.last_played_ms.is_some(), "{row:?}");
            assert!(row.p99_ms.is_some_and(|ms| ms > 0.0), "{row:?}");
        }
        assert!(
            browser
                .text("dl.legend")
                .contains(referee::tournament::legend::P99_MS)
        );

        // Matches go on: the table follows without a reload (a mark set in the page stays).
        browser.eval("window.boardMark = 'still here'");
        let before: u64 = column(&mut browser, 7)
            .iter()
            .map(|n| n.parse::<u64>().unwrap())
            .sum();
        browser.wait_until(&format!(
            "window.boardMark === 'still here' && \
             [...document.querySelectorAll('table.board tbody tr td:nth-child(7)')]\
               .reduce((sum, td) => sum + Number(td.textContent), 0) > {before}"
        ));
        assert!(browser.text("#updated").starts_with("Last updated "));
        let refreshed = browser.eval("Number(document.getElementById('board').dataset.refreshes)");
        assert!(refreshed.as_u64().unwrap() >= 1, "{refreshed}");
        assert_eq!(browser.errors(), Vec::<String>::new());
        for request in browser.requests() {
            assert!(
                request.starts_with(&server.url) || request.starts_with("data:"),
                "{request}"
            );
        }
        if i == 0 {
            browser.keep_screenshot("ladder-board.png");
        }

        // The admin signs in with its token, from the link every page has, and out again.
        browser.click_and_load("nav.account a[href='/signin']");
        assert_eq!(browser.text("h1"), "Sign in");
        if i == 0 {
            browser.keep_screenshot("ladder-sign-in.png");
        }
        browser.type_into("#token", "rl_not-a-token");
        browser.click_and_load("form.sign-in button");
        assert!(browser.text("p.error").contains("not one of this ladder"));
        let token = server.admin_token();
        let token = token.trim();
        browser.type_into("#token", token);
        browser.click_and_load("form.sign-in button");
        assert_eq!(browser.eval("location.pathname"), json!("/"));
        assert_eq!(
            browser.text("nav.account .who"),
            "Signed in as admin (admin)"
        );
        assert_eq!(browser.count("table.board tbody tr"), 4);
        // The session's cookie is out of scripts' reach; the token is nowhere in the page.
        assert_eq!(browser.eval("document.cookie"), json!(""));
        let html = browser.eval("document.documentElement.outerHTML");
        assert!(!html.as_str().unwrap().contains(token));
        browser.click_and_load("nav.account button");
        assert_eq!(browser.text("nav.account a"), "Sign in");
        assert_eq!(browser.errors(), Vec::<String>::new());

        // The queue's page, from the header: the server's own worker, its matches.
        browser.click_and_load("header a[href='/queue']");
        assert_eq!(browser.text("h1"), "Queue and workers");
        assert_eq!(browser.count("table.workers tbody tr"), 1);
        assert_eq!(browser.errors(), Vec::<String>::new());
        if i == 0 {
            browser.keep_screenshot("ladder-queue.png");
        }
        browser.open_url(&format!("{}/", server.url));

        // The latest matches link to their pages: to anyone, the public view.
        assert!(browser.count("ul.latest li a") >= 1);
        browser.click_and_load("ul.latest li a");
        assert!(browser.text("h1").starts_with("Match "));
        // The public view, or, while a match of its deal is still to be played, nothing of
        // its play.
        let main = browser.text("main");
        assert!(
            main.contains("What everyone was told")
                || main.contains("once every match of its deal"),
            "{main}"
        );
        assert_eq!(browser.count("iframe.replay"), 0);

        // At a phone's width: the page does not scroll sideways (the table scrolls in its box).
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}),
        );
        browser.open_url(&format!("{}/", server.url));
        assert_eq!(
            browser.eval("document.documentElement.scrollWidth <= window.innerWidth"),
            json!(true)
        );
        server.stop();
    }
}
