//! What the leaderboard says before its rows are compared (issue 28, items 7 and 9), with the
//! real binary: a gauntlet whose candidate, with the lower μ but the narrower interval, is
//! ranked below the bot with the higher μ and marked, with the note saying why, in every format
//! and the report; a 12-bot Nava tournament whose movement keeps pairs together every round,
//! named under its table.

use crate::browser::Browser;
use crate::util::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `referee leaderboard DIR --format FORMAT`'s output.
fn leaderboard(dir: &Path, format: &str) -> String {
    let out = run(&["leaderboard", dir.to_str().unwrap(), "--format", format]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The notes under the standings of the report in `out`, as headless Chromium shows them
/// (none when Chromium is missing and the run allows that).
fn notes_shown(out: &Path, test: &str) -> Option<Vec<String>> {
    let mut browser = Browser::launch(test, &[])?;
    browser.open(&out.join("index.html"));
    browser.wait_until("document.body.dataset.ready === 'true'");
    let notes = browser.texts("#leaderboard .scroll + p.note");
    assert_eq!(browser.errors(), Vec::<String>::new());
    Some(notes)
}

/// The report of `dir`, its `index.html`.
fn report_page(dir: &Path, out: &Path) -> String {
    let done = run(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
        "--replays",
        "none",
    ]);
    assert!(done.status.success(), "{}", stderr(&done));
    std::fs::read_to_string(out.join("index.html")).unwrap()
}

#[test]
fn a_gauntlets_candidate_is_not_ranked_first_for_a_narrower_interval() {
    // Two equal heuristic bots and five random ones, the Rust sample programs: with seed 2 the
    // candidate h1 ends with the lower μ (32.73 against h2's 33.86) but, having played every
    // match (90 to h2's 30), the smaller σ, and so the higher own μ − 3σ (25.03 against 23.58).
    let dir = temp_dir("gauntlet-candidate");
    let out = dir.join("results");
    let heuristic = bin("vabanque-heuristic").display().to_string();
    let random = bin("vabanque-random").display().to_string();
    let mut args = vec![
        "tournament".to_string(),
        "--game=vabanque".into(),
        "--schedule=gauntlet".into(),
        "--candidate=h1".into(),
        format!("--bot=h1={heuristic}"),
        format!("--bot=h2={heuristic}"),
    ];
    args.extend((1..=5).map(|i| format!("--bot=r{i}={random}")));
    args.extend(
        [
            "--players=3",
            "--matches=90",
            "--seed=2",
            "--quiet",
            "--time-limit-ms",
            LIMIT_MS,
            "--out",
        ]
        .map(String::from),
    );
    args.push(out.display().to_string());
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = run(&words);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let table = stdout(&ran);
    assert!(
        table.contains("the candidate's at the others' median σ (*)"),
        "{table}"
    );
    let note = "* h1 is the candidate: it plays every match, so its σ is smaller";
    assert!(table.contains(note), "{table}");
    assert!(
        table.contains("because it played 90 matches to the others' 30"),
        "{table}"
    );
    // The others' σ it is ranked with is their median, which no row shows: said so.
    assert!(table.contains("against the others' median"), "{table}");

    let board: Value = serde_json::from_str(&leaderboard(&out, "json")).unwrap();
    let standings = board["standings"].as_array().unwrap();
    let by_bot: BTreeMap<&str, &Value> = standings
        .iter()
        .map(|s| (s["bot"].as_str().unwrap(), s))
        .collect();
    let (h1, h2) = (by_bot["h1"], by_bot["h2"]);
    let f = |v: &Value, key: &str| v[key].as_f64().unwrap();
    // The trap: by its own μ − 3σ the candidate would be first with the lower μ.
    assert!(f(h1, "mu") < f(h2, "mu"), "{board}");
    assert!(f(h1, "conservative") > f(h2, "conservative"), "{board}");
    assert!(f(h1, "sigma") < f(h2, "sigma"), "{board}");
    let order: Vec<&str> = standings
        .iter()
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    assert_eq!(&order[..2], ["h2", "h1"], "{board}");
    let candidate = &board["gauntlet"];
    assert_eq!(candidate["bot"], "h1");
    assert_eq!(candidate["matches"], 90);
    assert_eq!(candidate["others_matches_min"], 30);
    assert_eq!(candidate["others_matches_max"], 30);
    let expected = f(h1, "mu") - 3.0 * f(candidate, "others_sigma");
    assert!(
        (f(candidate, "rank_rating") - expected).abs() < 1e-9,
        "{board}"
    );
    assert!(
        f(candidate, "rank_rating") < f(h2, "conservative"),
        "{board}"
    );

    let csv = leaderboard(&out, "csv");
    let mut lines = csv.lines();
    assert!(
        lines.next().unwrap().ends_with(",rank_rating,candidate"),
        "{csv}"
    );
    let h1_row = csv.lines().find(|l| l.starts_with("2,h1,")).expect(&csv);
    assert!(h1_row.ends_with(",true"), "{csv}");
    assert!(
        csv.lines()
            .find(|l| l.starts_with("1,h2,"))
            .unwrap()
            .ends_with(",false")
    );

    let markdown = leaderboard(&out, "markdown");
    assert!(markdown.contains("| 2    | h1  |"), "{markdown}");
    assert!(markdown.contains("\\* h1 is the candidate"), "{markdown}");
    assert!(
        markdown.contains("To compare strengths, read μ."),
        "{markdown}"
    );

    let page = report_page(&out, &dir.join("report"));
    assert!(
        page.contains("h1 is the candidate: it plays every match"),
        "the report's note"
    );
    assert!(page.contains("the candidate plays every match and the others a share of them"));
}

/// The pairs of bots that share a table in every round, from the results alone (a match's
/// round is its id over tables × hands: docs/tournament.md §11).
fn together_in_results(results: &[Value], per_round: u64) -> BTreeSet<(String, String)> {
    let mut met: BTreeMap<(String, String), BTreeSet<u64>> = BTreeMap::new();
    let mut rounds = BTreeSet::new();
    for r in results {
        let round = r["id"].as_u64().unwrap() / per_round;
        rounds.insert(round);
        let players: Vec<&str> = r["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        for (i, a) in players.iter().enumerate() {
            for b in &players[i + 1..] {
                let pair = (a.min(b).to_string(), a.max(b).to_string());
                met.entry(pair).or_default().insert(round);
            }
        }
    }
    met.into_iter()
        .filter(|(_, met)| met.len() == rounds.len())
        .map(|(pair, _)| pair)
        .collect()
}

#[test]
fn a_twelve_bot_nava_leaderboard_names_the_pairs_the_movement_keeps_together() {
    let dir = temp_dir("nava-together");
    let out = dir.join("results");
    let mut args = vec![
        "tournament".to_string(),
        "--game=vabanque".into(),
        "--schedule=nava".into(),
        "--rounds=3".into(),
        "--hands=3".into(),
        "--seed=4".into(),
        "--quiet".into(),
    ];
    args.extend((1..=6).map(|i| format!("--bot=heuristic-{i}=builtin:heuristic")));
    args.extend((1..=6).map(|i| format!("--bot=random-{i}=builtin:random")));
    args.extend(["--out".to_string(), out.display().to_string()]);
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = run(&words);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let table = stdout(&ran);

    // 3 tables of 4, 3 hands a round: 9 matches a round.
    let results = json_lines(&out.join("matches.jsonl"));
    assert_eq!(results.len(), 27);
    let expected = together_in_results(&results, 9);
    assert_eq!(
        expected.len(),
        6,
        "North–West and East–South at each of 3 tables"
    );
    let board: Value = serde_json::from_str(&leaderboard(&out, "json")).unwrap();
    let named: BTreeSet<(String, String)> = board["nava"]["together"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
            )
        })
        .map(|(a, b)| (a.clone().min(b.clone()), a.max(b)))
        .collect();
    assert_eq!(named, expected);

    let flat = table.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "note: with 12 bots the tables' movement keeps 6 pairs of bots at one table in all 3 rounds ("
        ),
        "{table}"
    );
    assert!(flat.contains("their head-to-head says little"), "{table}");
    for pair in board["nava"]["together"].as_array().unwrap() {
        let shown = format!(
            "{}·{}",
            pair[0].as_str().unwrap(),
            pair[1].as_str().unwrap()
        );
        assert!(flat.contains(&shown), "{shown} in {table}");
    }
    let page = report_page(&out, &dir.join("report"));
    assert!(page.contains("the tables' movement keeps 6 pairs of bots at one table"));
    if let Some(notes) = notes_shown(&dir.join("report"), "nava_note") {
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("their head-to-head says little"),
            "{notes:?}"
        );
    }
}
