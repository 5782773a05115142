//! `referee report DIR --html OUT --bot NAME`: one bot's report holds its faults, stderr,
//! matches and their replays, and nothing of another bot but its name and numbers: every file
//! written (the replay pages' compressed logs decoded) is searched for the other bots' stderr,
//! commands and fault messages (docs/tournament.md §12). With `REFEREE_SCREENSHOTS=DIR` set, it
//! writes `DIR/report-one-bot.png`.

use crate::browser::Browser;
use crate::faulty_tournament::{self, results, seat_of};
use crate::report_size::write_report;
use crate::util::*;
use std::path::Path;

/// The text of every file under `dir`, with each compressed data block of a page decoded and
/// added after it.
pub fn written_text(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(written_text(&path));
            continue;
        }
        let mut text = std::fs::read_to_string(&path).unwrap();
        let decoded = compressed_log_blocks(&text);
        for json in decoded {
            text.push_str(&json);
        }
        out.push((path.display().to_string(), text));
    }
    out
}

#[test]
fn one_bots_report_holds_no_other_bots_stderr_command_or_fault_message() {
    let dir = faulty_tournament::dir();
    let out = temp_dir("report_one_bot").join("diarist");
    write_report(dir, &out, &["--bot", "diarist"]);
    let rows = results();
    let mine = rows
        .iter()
        .filter(|r| seat_of(r, "diarist").is_some())
        .count();
    let pages = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "html")
        })
        .count();
    assert_eq!(pages, mine, "a replay page per match of the diarist's");
    // What the others wrote and were told: their stderr, commands and fault messages.
    let mut foreign: Vec<String> = vec![
        "RuntimeError".into(),
        "deliberate crash".into(),
        "crasher.py".into(),
        "vabanque_random.py".into(),
        "vabanque-heuristic".into(),
    ];
    for row in &rows {
        let players = row["players"].as_array().unwrap();
        for fault in row["faults"].as_array().unwrap() {
            let seat = fault["seat"].as_u64().unwrap() as usize;
            if players[seat] != "diarist" {
                foreign.push(fault["message"].as_str().unwrap().to_string());
            }
        }
    }
    assert!(foreign.len() > 5, "the crasher's faults are among them");
    let files = written_text(&out);
    assert!(files.len() > mine);
    for (file, text) in &files {
        for other in &foreign {
            assert!(!text.contains(other.as_str()), "{file} holds {other:?}");
        }
    }
    // Its own stderr is there, in the page and in its replays.
    let own = "diarist: a bogus action in match";
    let with_own = files.iter().filter(|(_, t)| t.contains(own)).count();
    assert!(
        with_own > mine,
        "{with_own} files hold the diarist's stderr"
    );

    let Some(mut browser) = Browser::launch("report_one_bot", &[]) else {
        return;
    };
    browser.open(&out.join("index.html"));
    assert!(browser.text("#for-bot").contains("The report of diarist"));
    assert_eq!(browser.count("#bot-diarist"), 1);
    assert_eq!(browser.count("#bot-crasher"), 0);
    assert_eq!(browser.count("#standings a[href='#bot-diarist']"), 1);
    assert_eq!(
        browser.count("#standings a"),
        1,
        "the others have no section to link to"
    );
    assert!(
        browser.count("#standings tbody tr") == 5,
        "the leaderboard stays whole"
    );
    assert_eq!(browser.errors(), Vec::<String>::new());
    crate::report::keep_view(&mut browser, "header", "report-one-bot.png");
    // A replay of a match the crasher played too: drawn without its faults and stderr.
    let shared = rows
        .iter()
        .find(|r| seat_of(r, "diarist").is_some() && seat_of(r, "crasher").is_some())
        .unwrap();
    let replay = out.join("replays").join(format!("{}.html", shared["id"]));
    browser.open(&replay);
    browser.wait_until("document.body.dataset.ready === 'true'");
    browser.press("End");
    assert!(browser.text("body").contains("diarist"));
    assert!(!browser.text("body").contains("deliberate crash"));
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_report_for_a_bot_the_tournament_lacks_is_refused_naming_its_bots() {
    let out = temp_dir("report_one_bot_unknown").join("r");
    refused(
        &[
            "report",
            faulty_tournament::dir().to_str().unwrap(),
            "--html",
            out.to_str().unwrap(),
            "--bot",
            "nobody",
        ],
        "no bot named \"nobody\" in this tournament; its bots: ",
    );
    assert!(!out.exists());
}
