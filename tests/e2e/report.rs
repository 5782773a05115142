//! `referee report DIR --html OUT`: the stderr ranges of `matches.jsonl` hold each match's own
//! stderr, and the report, opened in headless chromium, shows the leaderboard, the
//! head-to-head matrix, the ratings, every fault with its message and stderr, and replay links
//! that open — for a round-robin with faults, a gauntlet of La Bouillabaisse and a Nava
//! tournament of Machiavelli. What the page shows is read through the DOM. With
//! `REFEREE_SCREENSHOTS=DIR` set, the first test also writes `DIR/report-*.png` (how
//! `docs/images/` is made: docs/tournament.md §12).

use crate::browser::{Browser, file_url};
use crate::faulty_tournament::{self, results, seat_of};
use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Writes the report of `dir` into a fresh directory named after `test` and returns it.
fn report(dir: &Path, test: &str) -> PathBuf {
    let out = temp_dir(test).join("report");
    let written = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(written.status.success(), "{}", stderr(&written));
    assert!(
        stdout(&written).contains("index.html"),
        "{}",
        stdout(&written)
    );
    out
}

/// Writes what the window shows with `selector` scrolled to its top into
/// `$REFEREE_SCREENSHOTS/NAME`, when that variable is set (a relative directory is taken from
/// the workspace root).
pub fn keep_view(browser: &mut Browser, selector: &str, name: &str) {
    use base64::Engine as _;
    let Some(dir) = std::env::var_os("REFEREE_SCREENSHOTS") else {
        return;
    };
    let dir = root().join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    browser.eval(&format!(
        "document.querySelector({}).scrollIntoView()",
        serde_json::json!(selector)
    ));
    let shot = browser.call(
        "Page.captureScreenshot",
        serde_json::json!({"format": "png"}),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// Writes the element `selector` whole (its first 1600 pixels at most) into
/// `$REFEREE_SCREENSHOTS/NAME`, when that variable is set: for an element the window cannot
/// scroll to the top of (the last on its page).
pub fn keep_element(browser: &mut Browser, selector: &str, name: &str) {
    use base64::Engine as _;
    let Some(dir) = std::env::var_os("REFEREE_SCREENSHOTS") else {
        return;
    };
    let dir = root().join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rect = browser.eval(&format!(
        "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); \
         return [r.left + scrollX, r.top + scrollY, r.width, Math.min(r.height, 1600)]; }})()",
        serde_json::json!(selector)
    ));
    let shot = browser.call(
        "Page.captureScreenshot",
        serde_json::json!({"format": "png", "captureBeyondViewport": true, "clip": {
            "x": rect[0], "y": rect[1], "width": rect[2], "height": rect[3], "scale": 1}}),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// The leaderboard of `dir` as JSON.
fn leaderboard(dir: &Path) -> Value {
    board(&run(&[
        "leaderboard",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]))
}

#[test]
fn each_stderr_range_of_matches_jsonl_holds_its_own_match_only() {
    let dir = faulty_tournament::dir();
    let mut checked = 0;
    for result in results() {
        let Some(seat) = seat_of(&result, "diarist") else {
            continue;
        };
        let range = &result["stderr"][seat];
        let bytes =
            std::fs::read(dir.join("stderr").join(range["file"].as_str().unwrap())).unwrap();
        let (from, to) = (
            range["from"].as_u64().unwrap() as usize,
            range["to"].as_u64().unwrap() as usize,
        );
        let text = String::from_utf8_lossy(&bytes[from..to]);
        let id = result["id"].as_u64().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty(), "match {id}: {range}");
        for line in &lines {
            assert!(
                line.contains(&format!("match {id},")) || line.ends_with(&format!("match {id}")),
                "match {id}'s range holds {line:?}"
            );
        }
        // Its requests from the first: the range begins where the match began.
        assert_eq!(lines[0], format!("diarist: match {id}, request 1"));
        checked += 1;
    }
    // diarist plays 4 of the 5 groups, 4 matches each.
    assert_eq!(checked, 16);
    // Built-in bots have no stderr: null in their seat.
    let first = &results()[0];
    let builtin = seat_of(first, "builtin-random");
    if let Some(seat) = builtin {
        assert_eq!(first["stderr"][seat], Value::Null);
    }
}

#[test]
fn the_report_shows_the_leaderboard_faults_with_their_stderr_and_replays_that_open() {
    let dir = faulty_tournament::dir();
    let out = report(dir, "report-faults");
    let Some(mut browser) = Browser::launch("report_faults", &[]) else {
        return;
    };
    let index = out.join("index.html");
    browser.open(&index);
    browser.wait_until("document.body.dataset.ready === 'true'");
    let board = leaderboard(dir);
    let standings = board["standings"].as_array().unwrap();
    // The leaderboard: a row per bot in its order, its cells the terminal's.
    let bots: Vec<String> = standings
        .iter()
        .map(|s| s["bot"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(browser.texts("#standings tbody tr td:nth-child(2)"), bots);
    let first: Vec<String> = browser.texts("#standings tbody tr:first-child td");
    assert_eq!(first[0], "1");
    assert_eq!(first[4], standings[0]["matches"].to_string());
    assert_eq!(
        first[2],
        format!("{:.2}", standings[0]["conservative"].as_f64().unwrap())
    );
    // A legend for every column, "lower is better" nowhere in Vabanque, fractional wins told.
    let titles = browser.texts("#standings thead th");
    assert_eq!(browser.texts("#legend dt"), titles);
    let legend = browser.text("#legend").to_lowercase();
    assert!(
        legend.contains("1/k") && legend.contains("more is better"),
        "{legend}"
    );
    assert!(!legend.contains("lower is better."), "{legend}");
    // The head-to-head heat map: the leaderboard's shares, coloured.
    assert_eq!(browser.count("#h2h tbody tr"), bots.len());
    let above = board["head_to_head"][0][1]["above"].as_f64().unwrap();
    let met = board["head_to_head"][0][1]["met"].as_u64().unwrap();
    assert_eq!(
        browser.text("#h2h tbody tr:first-child td:nth-of-type(2)"),
        format!("{:.0}% of {met}", above * 100.0)
    );
    assert_eq!(
        browser.eval("getComputedStyle(document.querySelector('#h2h td.cell')).backgroundColor !== 'rgba(0, 0, 0, 0)'"),
        Value::Bool(true)
    );
    // Ratings over the tournament: a line per bot.
    assert_eq!(browser.count("#ratings-svg polyline"), bots.len());
    // The faults of each bot with the referee's messages, and the stderr of their match.
    let recorded = results();
    let crash = recorded
        .iter()
        .find(|r| seat_of(r, "crasher").is_some())
        .unwrap();
    let crash_message = crash["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["fault"] == "exited")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    let messages = browser.texts("#bot-crasher .fault .message");
    assert_eq!(messages.len(), 16, "a crash in each of its 16 matches");
    assert!(messages.contains(&crash_message), "{messages:?}");
    let crash_stderr = browser.texts("#bot-crasher .all-faults pre.stderr");
    assert_eq!(crash_stderr.len(), 16);
    assert!(
        crash_stderr
            .iter()
            .all(|s| s.contains("RuntimeError: crasher: deliberate crash"))
    );
    let diarist = recorded
        .iter()
        .find(|r| seat_of(r, "diarist").is_some())
        .unwrap();
    let id = diarist["id"].as_u64().unwrap();
    let selector = format!("#bot-diarist pre.stderr[data-match='{id}']");
    let text = browser.text(&selector);
    assert!(
        text.starts_with(&format!("diarist: match {id}, request 1\n")),
        "{text}"
    );
    assert!(text.contains(&format!("diarist: a bogus action in match {id}\n")));
    // A fault's replay link opens the viewer at the fault's decision, as the bot's seat saw it.
    let seat = seat_of(diarist, "diarist").unwrap();
    let fault = diarist["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["fault"] == "wrong_shape" && f["seat"] == seat as u64)
        .unwrap();
    let decision = fault["decision"].as_u64().unwrap();
    let fault_href = browser.eval(&format!(
        "document.querySelector(\"#bot-diarist .fault[data-match='{id}'][data-kind='wrong_shape'] a.replay\").getAttribute('href')"
    ));
    assert_eq!(
        fault_href,
        Value::String(format!("replays/{id}.html#decision={decision}&view={seat}"))
    );
    let kinds = browser.texts("#bot-diarist .fault[data-kind='wrong_shape']");
    assert_eq!(kinds.len(), 16);
    keep_view(&mut browser, "header", "report-leaderboard.png");
    keep_view(&mut browser, "#ratings", "report-ratings.png");
    keep_view(&mut browser, "#bot-crasher", "report-faults.png");
    // A replay link that opens: the match's own page, drawn without an error.
    let href = browser.eval(&format!(
        "document.querySelector(\"#bot-diarist tr[data-match='{id}'] a.replay\").getAttribute('href')"
    ));
    assert_eq!(href, Value::String(format!("replays/{id}.html")));
    assert_eq!(browser.errors(), Vec::<String>::new());
    assert_eq!(
        browser.requests(),
        vec![file_url(&index)],
        "nothing left the page"
    );
    let replay = out.join("replays").join(format!("{id}.html"));
    browser.open_url(&format!(
        "{}#decision={decision}&view={seat}",
        file_url(&replay)
    ));
    browser.wait_until("document.body.dataset.ready === 'true'");
    assert_eq!(
        browser.eval("Number(document.body.dataset.step)"),
        Value::from(decision + 1),
        "the step of decision {decision} (step 0 is the start)"
    );
    assert_eq!(
        browser.eval("document.body.dataset.view"),
        Value::String(seat.to_string()),
        "as the diarist's seat saw it"
    );
    assert_eq!(
        browser.eval(&format!(
            "JSON.parse(document.getElementById('{}').textContent)[0].match_id",
            referee::html::replay_page::LOG_BLOCK
        )),
        Value::String(id.to_string()),
        "the page of match {id}"
    );
    assert!(browser.text("body").contains("diarist"));
    assert_eq!(browser.errors(), Vec::<String>::new());
    assert_eq!(
        std::fs::read_dir(out.join("replays"))
            .unwrap()
            .filter(|e| e
                .as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "html"))
            .count(),
        faulty_tournament::MATCHES,
        "a replay page per kept log"
    );
}

/// A tournament of built-in bots only (fast), in `test`'s directory, with `args`.
fn builtin_tournament(test: &str, args: &[&str]) -> PathBuf {
    let out = temp_dir(test).join("out");
    let played = referee()
        .args([
            "tournament",
            "-q",
            "--format",
            "json",
            "--seed",
            "8",
            "-j",
            "2",
        ])
        .args(["--out", out.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    board(&played);
    out
}

#[test]
fn a_gauntlet_of_la_bouillabaisse_says_lower_is_better() {
    let dir = builtin_tournament(
        "report-gauntlet",
        &[
            "--game",
            "bouillabaisse",
            "--schedule",
            "gauntlet",
            "--players",
            "3",
            "--bot",
            "cand=builtin:heuristic",
            "--bot",
            "r1=builtin:random",
            "--bot",
            "r2=builtin:random",
            "--bot",
            "h2=builtin:heuristic",
        ],
    );
    let out = report(&dir, "report-gauntlet-page");
    let Some(mut browser) = Browser::launch("report_gauntlet", &[]) else {
        return;
    };
    browser.open(&out.join("index.html"));
    browser.wait_until("document.body.dataset.ready === 'true'");
    let titles = browser.texts("#standings thead th");
    assert!(
        titles.contains(&"mean points (95% CI)".to_string()),
        "{titles:?}"
    );
    assert!(browser.text("#legend").contains("(lower is better)"));
    assert!(browser.text("#title").contains("gauntlet"));
    let board = leaderboard(&dir);
    let cand = board["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["bot"] == "cand")
        .unwrap();
    // The candidate plays every match.
    assert_eq!(
        browser.count("#bot-cand details.matches tbody tr") as u64,
        cand["matches"].as_u64().unwrap()
    );
    assert_eq!(browser.count("#bot-cand .fault"), 0);
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_nava_tournament_of_machiavelli_shows_its_victory_points() {
    let mut args: Vec<String> = [
        "--game",
        "machiavelli",
        "--schedule",
        "nava",
        "--rounds",
        "3",
        "--hands",
        "3",
    ]
    .map(String::from)
    .to_vec();
    for i in 1..=9 {
        let builtin = if i % 3 == 0 { "heuristic" } else { "baseline" };
        args.extend(["--bot".into(), format!("b{i}=builtin:{builtin}")]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let dir = builtin_tournament("report-nava", &refs);
    let out = report(&dir, "report-nava-page");
    let Some(mut browser) = Browser::launch("report_nava", &[]) else {
        return;
    };
    browser.open(&out.join("index.html"));
    browser.wait_until("document.body.dataset.ready === 'true'");
    let board = leaderboard(&dir);
    let rows = board["nava"]["rows"].as_array().unwrap();
    let titles = browser.texts("#standings thead th");
    assert_eq!(&titles[..5], ["rank", "bot", "VP", "diff VP", "points"]);
    let vps = browser.texts("#standings tbody tr td:nth-child(3)");
    let expected: Vec<String> = rows.iter().map(|r| r["vp"].to_string()).collect();
    assert_eq!(vps, expected);
    assert_eq!(
        browser.eval("document.getElementById('vp-box').hidden"),
        Value::Bool(false)
    );
    assert_eq!(browser.count("#vp-svg polyline"), 9);
    let key = browser.texts("#vp-chart .key-item");
    assert_eq!(
        key[0].trim(),
        format!("{}: {} VP", rows[0]["bot"].as_str().unwrap(), rows[0]["vp"])
    );
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_report_refuses_a_directory_without_a_tournament_and_an_html_file_name() {
    let base = temp_dir("report-refusals");
    let output = base.join("r");
    refused(
        &[
            "report",
            base.join("nope").to_str().unwrap(),
            "--html",
            output.to_str().unwrap(),
        ],
        "holds no tournament",
    );
    let html = base.join("report.html");
    let dir = faulty_tournament::dir().to_str().unwrap();
    refused(
        &["report", dir, "--html", html.to_str().unwrap()],
        "give a directory",
    );
}
