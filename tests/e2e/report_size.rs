//! A report that travels: its replay pages share one viewer (`replays/viewer.js`,
//! `replays/viewer.css`) and hold their log compressed, so that a class tournament's report
//! stays small; opened in headless chromium from disk, a page still draws its match, and its
//! policy still refuses a script the page does not own (docs/tournament.md §12).

use crate::browser::{Browser, file_url};
use crate::faulty_tournament;
use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// Writes the report of the results directory `dir` into `out` with the further arguments
/// `extra`, asserts that it succeeded, and returns what it printed.
pub fn write_report(dir: &Path, out: &Path, extra: &[&str]) -> String {
    let written = referee()
        .args([
            "report",
            dir.to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(written.status.success(), "{}", stderr(&written));
    stdout(&written)
}

/// The `.html` files of `dir` and their sizes.
fn pages(dir: &Path) -> Vec<(String, u64)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, e.metadata().unwrap().len())
        })
        .collect()
}

#[test]
fn replay_pages_share_one_viewer_and_their_policy_refuses_an_injected_script() {
    let out = temp_dir("report_size_shared").join("report");
    let printed = write_report(faulty_tournament::dir(), &out, &[]);
    assert!(printed.contains(" in all): open it"), "{printed}");
    let replays = out.join("replays");
    let viewer = std::fs::read_to_string(replays.join("viewer.js")).unwrap();
    assert!(viewer.contains("Referee.startPlayer"));
    assert!(replays.join("viewer.css").is_file());
    let pages = pages(&replays);
    assert_eq!(pages.len(), faulty_tournament::MATCHES);
    for (name, bytes) in &pages {
        let html = std::fs::read_to_string(replays.join(name)).unwrap();
        assert!(
            !html.contains("Referee.games"),
            "{name} holds no viewer code"
        );
        assert!(
            html.contains("<script src=\"viewer.js\"></script>"),
            "{name}"
        );
        assert!(
            html.contains("script-src &#39;self&#39;;"),
            "{name}: the policy"
        );
        assert!(!html.contains("unsafe"), "{name}");
        assert!(*bytes < 24 * 1024, "{name}: {bytes} bytes");
    }

    // A script put into a page by any other means than the program's own file does not run:
    // neither an inline script nor a handler.
    let (name, _) = &pages[0];
    let page = std::fs::read_to_string(replays.join(name)).unwrap();
    let injected = page.replace(
        "</body>",
        "<script>document.title = 'INJECTED';</script>\
         <img src=\"x\" onerror=\"document.title = 'INJECTED'\"></body>",
    );
    assert_ne!(injected, page);
    let hostile = replays.join("injected.html");
    std::fs::write(&hostile, injected).unwrap();
    let Some(mut browser) = Browser::launch("report_size_shared", &[]) else {
        return;
    };
    browser.open(&hostile);
    browser.wait_until("document.body.dataset.ready === 'true'");
    let id = name.trim_end_matches(".html");
    assert_eq!(
        browser.eval(&format!(
            "JSON.parse(document.getElementById('{}').textContent)[0].match_id",
            referee::html::replay_page::LOG_BLOCK
        )),
        Value::String(id.to_string()),
        "the log decoded, the match drawn"
    );
    assert!(browser.count("#seats tr") > 0, "the seats are drawn");
    assert_ne!(browser.eval("document.title"), Value::from("INJECTED"));
    assert_eq!(browser.errors(), Vec::<String>::new());
    let requests = browser.requests();
    for shared in ["viewer.js", "viewer.css"] {
        let url = file_url(&replays.join(shared));
        assert!(requests.contains(&url), "{requests:?}");
    }
    assert!(
        requests
            .iter()
            .all(|r| r.starts_with("file://") || r.starts_with("data:")),
        "{requests:?}"
    );
}

#[test]
fn a_class_round_robin_report_stays_within_its_budget() {
    // 12 bots, 3 a match: a whole cycle is 660 matches (the class tournament of issue 28, whose
    // report is 4.1 MiB); a tenth of it here, every log kept.
    let out = temp_dir("report_size_budget");
    let mut args = vec![
        "tournament".to_string(),
        "--game".into(),
        "machiavelli".into(),
        "--players".into(),
        "3".into(),
        "--matches".into(),
        "66".into(),
        "--seed".into(),
        "28".into(),
        "--logs".into(),
        "-q".into(),
        "--out".into(),
        out.join("results").display().to_string(),
    ];
    for i in 0..12 {
        let builtin = if i % 2 == 0 { "heuristic" } else { "baseline" };
        args.push("--bot".into());
        args.push(format!("b{i}=builtin:{builtin}"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let played = run(&args);
    assert!(played.status.success(), "{}", stderr(&played));
    let report = out.join("report");
    write_report(&out.join("results"), &report, &[]);
    let pages = pages(&report.join("replays"));
    assert_eq!(pages.len(), 66);
    let mean = pages.iter().map(|(_, b)| b).sum::<u64>() / 66;
    // 660 pages of this mean, the viewer and the index stay under 5 MB.
    assert!(mean < 6 * 1024, "a replay page is {mean} bytes on average");
}
