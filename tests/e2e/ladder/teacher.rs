//! A class's teacher, end to end, in a real browser (Debian's chromium, headless) against a
//! real server whose own worker plays real matches, on SQLite and PostgreSQL: the admin signs
//! in, makes accounts from a class list (one-time links), a student opens its link and gets its
//! token and a session, the admin sets a deadline and freezes the ladder, starts the final
//! tournament, which the workers play; the board shows its standings beside the ladder's, and
//! the grade sheet is downloaded from the page; `referee ladder admin class|final-status|
//! final-export` do the same from the command line, and the export is a tournament that
//! `referee leaderboard` reads. With `REFEREE_SCREENSHOTS=DIR`: `ladder-admin.png`,
//! `ladder-welcome.png`, `ladder-final.png` and `ladder-admin-phone.png`.

use super::harness::{BUILTINS, Server, block_on, config, databases, wait_for};
use crate::browser::Browser;
use crate::util::{referee, temp_dir};
use serde_json::json;
use std::time::Duration;

/// `referee ladder admin --server URL --token TOKEN ARGS…`, run to its end.
fn admin_cli(url: &str, token: &str, args: &[&str]) -> std::process::Output {
    referee()
        .args(["ladder", "admin", "--server", url, "--token", token])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_teacher_makes_accounts_sets_a_deadline_freezes_and_grades_a_final() {
    for (i, db) in databases("ladder teacher").into_iter().enumerate() {
        let Some(mut browser) = Browser::launch("ladder teacher", &[]) else {
            return;
        };
        let dir = temp_dir(&format!("ladder-teacher-{i}"));
        let file = config(&dir, "", BUILTINS);
        let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 1);
        let token = server.admin_token();
        let token = token.trim();
        let admin = server.client(Some(token));

        // The admin signs in and opens its page from the header.
        browser.open_url(&format!("{}/signin", server.url));
        browser.type_into("#token", token);
        browser.click_and_load("form.sign-in button");
        browser.click_and_load("nav.account a[href='/admin']");
        assert_eq!(browser.text("h1"), "The admin's page");

        // A class list, one-time links for each student.
        browser.type_into(
            "#csv",
            "name,contact,group\nada,ada@example.org,A\nalan,s1234,B\n",
        );
        browser.click_and_load("#class form.submit button");
        assert_eq!(browser.count("#handed tbody tr"), 2);
        let links = browser.texts("#handed td.secret code");
        assert!(
            links
                .iter()
                .all(|l| l.starts_with(&format!("{}/welcome/", server.url))),
            "{links:?}"
        );
        if i == 0 {
            browser.keep_screenshot("ladder-admin.png");
        }
        // The same page at a phone's width: nothing sideways but inside the tables' boxes.
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}),
        );
        browser.open_url(&format!("{}/admin", server.url));
        // (Chromium widens an emulated phone's viewport to what overflows it: the width
        // asked for is checked too.)
        let wide = browser.eval(
            "document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth === 390",
        );
        assert_eq!(wide, json!(true));
        if i == 0 {
            browser.keep_screenshot("ladder-admin-phone.png");
        }
        browser.call("Emulation.clearDeviceMetricsOverride", json!({}));

        // The student opens its link (signed out), presses its button, gets its token once.
        browser.open_url(&format!("{}/", server.url));
        browser.click_and_load("nav.account button");
        browser.open_url(&links[0]);
        assert_eq!(browser.text("h1"), "Welcome, ada");
        browser.click_and_load("form.sign-in button");
        let student = browser.text("#token");
        assert!(student.starts_with("rl_"), "{student}");
        assert_eq!(browser.text("nav.account .who"), "Signed in as ada");
        if i == 0 {
            browser.keep_screenshot("ladder-welcome.png");
        }
        let ada = block_on(server.client(Some(&student)).challenges());
        assert!(ada.is_ok(), "{ada:?}");
        // Used: the link says so.
        browser.open_url(&links[0]);
        assert_eq!(browser.text("h1"), "This link does not work");
        browser.click_and_load("nav.account button");

        // The admin again: a deadline (past), the ladder frozen, the final started.
        browser.open_url(&format!("{}/signin", server.url));
        browser.type_into("#token", token);
        browser.click_and_load("form.sign-in button");
        browser.open_url(&format!("{}/admin", server.url));
        browser.type_into("#deadline", "2026-01-01T12:00");
        browser.click_and_load("#state form.submit button");
        assert_eq!(
            browser.text("p.done"),
            "Submissions close at 2026-01-01 12:00 UTC."
        );
        browser.open_url(&format!("{}/admin", server.url));
        let state = browser.text("#state p.counts");
        assert!(state.contains("Submissions: closed"), "{state}");
        browser.click_and_load("#state div.actions form:nth-child(2) button");
        wait_for("the ladder frozen", Duration::from_secs(60), || {
            block_on(admin.info()).ok()?.frozen.then_some(())
        });
        browser.open_url(&format!("{}/admin", server.url));
        browser.eval("document.querySelector('#players').value = '3'");
        browser.click_and_load("#final form.submit button");
        let started = browser.text("p.done");
        assert!(
            started.starts_with("Final 1 started: 12 matches among 4 versions"),
            "{started}"
        );
        let view = wait_for("the final played", Duration::from_secs(600), || {
            let view = block_on(admin.final_view()).ok()?;
            view.done.then_some(view)
        });
        assert_eq!((view.played, view.failed), (12, 0));
        assert_eq!(view.standings.len(), 4);

        // The board shows the final's standings beside the ladder's, without a reload.
        browser.open_url(&format!("{}/", server.url));
        browser.wait_until("document.querySelectorAll('#final-standings tbody tr').length === 4");
        assert!(browser.text("#event p.notice").contains("frozen"));
        let versions = browser.texts("#final-standings tbody td:nth-child(2)");
        let expected: Vec<String> = view.standings.iter().map(|s| s.version.clone()).collect();
        assert_eq!(versions, expected);
        assert_eq!(browser.errors(), Vec::<String>::new());
        if i == 0 {
            browser.keep_screenshot("ladder-final.png");
        }

        // The grade sheet, downloaded from the admin's page as the browser fetches its link.
        browser.open_url(&format!("{}/admin", server.url));
        let sheet =
            browser.eval("fetch(document.querySelector('#grades').href).then((r) => r.text())");
        let sheet = sheet.as_str().unwrap().to_owned();
        let mut rows = csv::Reader::from_reader(sheet.as_bytes());
        let header = rows.headers().unwrap().clone();
        assert_eq!(&header[0], "rank", "{sheet}");
        let graded: Vec<String> = rows.records().map(|r| r.unwrap()[1].to_owned()).collect();
        assert_eq!(graded, expected, "{sheet}");
        assert_eq!(block_on(admin.final_grades()).unwrap(), sheet);

        // From the command line: a class list's tokens, the final's status and its export.
        let list = dir.join("more.csv");
        std::fs::write(&list, "grace,g@example.org,A\n").unwrap();
        let made = admin_cli(&server.url, token, &["class", list.to_str().unwrap()]);
        assert!(made.status.success(), "{made:?}");
        let printed = String::from_utf8(made.stdout).unwrap();
        assert!(
            printed.starts_with("name,group,contact,token,link\ngrace,A,g@example.org,rl_"),
            "{printed}"
        );
        let status = admin_cli(&server.url, token, &["final-status"]);
        let status = String::from_utf8(status.stdout).unwrap();
        assert!(
            status.contains("12 of 12 matches played (done)"),
            "{status}"
        );
        let out = dir.join("final");
        let exported = admin_cli(&server.url, token, &["final-export", out.to_str().unwrap()]);
        assert!(exported.status.success(), "{exported:?}");
        assert!(out.join("report/index.html").is_file());
        assert_eq!(
            std::fs::read_to_string(out.join("report/grades.csv")).unwrap(),
            sheet
        );
        let board = referee()
            .args(["leaderboard", "--format", "csv"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(board.status.success(), "{board:?}");
        let board = String::from_utf8(board.stdout).unwrap();
        let first = board.lines().nth(1).unwrap_or_default();
        assert!(first.contains(&expected[0]), "{board}");
        // A match played out is not played again: its result stands.
        let played = block_on(admin.matches_of("rand-a", 1)).unwrap()[0].id;
        let again = admin_cli(&server.url, token, &["again", &played.to_string()]);
        assert!(!again.status.success());
        let said = String::from_utf8_lossy(&again.stderr);
        assert!(said.contains("was played out: its result stands"), "{said}");
        server.stop();
    }
}
