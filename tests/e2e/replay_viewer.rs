//! `referee replay FILE --html OUT`: real matches, their replay pages opened in a real browser
//! (headless chromium, `browser.rs`), stepped through with the keyboard and the mouse, and what
//! the page shows read back through the DOM and compared with the log.
//!
//! With `REFEREE_SCREENSHOTS=DIR` set, each game's test also writes `DIR/replay-GAME.png` (how
//! `docs/images/` is made: docs/replay-viewer.md).

use crate::browser::{Browser, file_url};
use crate::util::{file, json_lines, played_log, referee, run, stderr, stdout, temp_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A match played, checked and made into a replay page.
struct Replay {
    records: Vec<Value>,
    html: PathBuf,
}

impl Replay {
    /// Plays `referee match` with `args` (a `--log` is added), checks its log, and writes its
    /// replay page with `referee replay LOG --html`.
    fn of(test: &str, args: &[&str]) -> Replay {
        let dir = temp_dir(test);
        let log = dir.join("match.jsonl");
        let html = dir.join("replay.html");
        let mut cmd = referee();
        cmd.arg("match").args(args).arg("--log").arg(&log);
        let records = played_log(&mut cmd, &log);
        write_page(&log, &html);
        Replay { records, html }
    }

    /// The records of `type`.
    fn of_type(&self, kind: &str) -> Vec<&Value> {
        self.records.iter().filter(|r| r["type"] == kind).collect()
    }

    /// The events of `kind`, with their records.
    fn events(&self, kind: &str) -> Vec<&Value> {
        self.records
            .iter()
            .filter(|r| r["type"] == "event" && r["event"]["kind"] == kind)
            .collect()
    }

    /// The last step of the page (the end): one step for the start, one per decision.
    fn last_step(&self) -> usize {
        self.of_type("action").len() + 1
    }
}

/// The arguments of a Vabanque match of three built-in bots with the seed `seed`.
fn built_in_vabanque(seed: &str) -> Vec<&str> {
    let bots = [
        "a=builtin:random",
        "b=builtin:heuristic",
        "c=builtin:random",
    ];
    let mut args = vec!["--game", "vabanque", "--seed", seed];
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    args
}

/// Writes the replay page of the log `log` to `html` with `referee replay LOG --html HTML`.
fn write_page(log: &Path, html: &Path) {
    let out = run(&[
        "replay",
        log.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("replay page written to {}", html.display())),
        "{}",
        stdout(&out)
    );
}

/// Asserts that the page, at its end, shows every seat's final score as the log's result has
/// it, and its rank.
fn assert_final_scores(browser: &mut Browser, replay: &Replay) {
    browser.press("End");
    assert_eq!(shown_step(browser), replay.last_step());
    let result = replay.of_type("result")[0];
    let seats = result["scores"].as_array().unwrap().len();
    for seat in 0..seats {
        let row = format!("#seats tr[data-seat=\"{seat}\"]");
        let shown = browser.text(&format!("{row} .score")).replace(',', "");
        assert_eq!(shown, result["scores"][seat].to_string());
        assert_eq!(
            browser.text(&format!("{row} .rank")),
            result["ranks"][seat].to_string()
        );
    }
}

/// Asserts that the page, at the step of `record`, shows what `seat` wrote to stderr before that
/// decision, as the log has it.
fn assert_stderr_shown(browser: &mut Browser, replay: &Replay, record: &Value, seat: u64) {
    let said = replay
        .of_type("stderr")
        .into_iter()
        .find(|r| r["n"] == record["n"] && r["seat"] == seat)
        .expect("the bot writes to stderr every turn");
    assert_eq!(
        browser.text(&format!("#stderr .stderr-item[data-seat=\"{seat}\"] pre")),
        said["text"].as_str().unwrap()
    );
}

/// The page's step of the decision that a record belongs to (0: the start).
fn step_of(record: &Value) -> usize {
    record["n"].as_u64().map_or(0, |n| n as usize + 1)
}

/// Opens a replay page and waits until it has drawn its first step, with no script error.
fn open(browser: &mut Browser, html: &Path) {
    browser.open(html);
    browser.wait_until("document.body.dataset.ready === 'true'");
    assert_eq!(browser.errors(), Vec::<String>::new());
}

/// The step the page shows.
fn shown_step(browser: &mut Browser) -> usize {
    browser
        .eval("Number(document.body.dataset.step)")
        .as_u64()
        .unwrap() as usize
}

/// Goes to `step` from the first one with the keyboard, ten steps at a time then one by one,
/// as a person would.
fn go_to(browser: &mut Browser, step: usize) {
    browser.press("Home");
    while shown_step(browser) + 10 <= step {
        browser.press_shifted("ArrowRight");
    }
    while shown_step(browser) < step {
        browser.press("ArrowRight");
    }
    assert_eq!(shown_step(browser), step);
}

/// Shows the match as seat `seat` knew it (`None`: the whole truth), by clicking the switch.
fn view_as(browser: &mut Browser, seat: Option<usize>) {
    let key = seat.map_or("truth".to_string(), |s| s.to_string());
    browser.click(&format!("#perspective button[data-view=\"{key}\"]"));
    assert_eq!(
        browser.eval("document.body.dataset.view"),
        Value::String(key)
    );
}

/// Each number of a JSON array, as text.
fn numbers(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.to_string())
        .collect()
}

/// The strings of a JSON array.
fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_vabanque_replay_shows_scores_payouts_faults_and_each_seats_own_cards() {
    let Some(mut browser) = Browser::launch("replay_viewer_vabanque", &[]) else {
        return;
    };
    let illegal = format!("illegal=python3 {}", file("tests/bots/illegal.py"));
    let replay = Replay::of(
        "viewer-vabanque",
        &[
            "--game",
            "vabanque",
            "--seed",
            "42",
            "--bot",
            "heuristic=builtin:heuristic",
            "--bot",
            &format!(
                "py-random=python3 {}",
                file("sample-bots/python/vabanque_random.py")
            ),
            "--bot",
            &illegal,
            "--bot",
            "random=builtin:random",
        ],
    );
    open(&mut browser, &replay.html);

    // The end: every seat's final money and rank, as the result has them.
    assert_final_scores(&mut browser, &replay);

    // The first payout: the tables paid and every card it turned over, by owner.
    let payout = replay.events("payout")[0];
    go_to(&mut browser, step_of(payout));
    let revealed: Vec<(String, String)> = payout["event"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["cards"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["owner"].to_string(),
                c["card"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let shown = browser.eval(
        "[...document.querySelectorAll('.payout.current .revealed-card')].map(e => [e.dataset.owner, e.textContent.trim().split(' ').pop()])",
    );
    let shown: Vec<(String, String)> = serde_json::from_value(shown).unwrap();
    assert_eq!(shown, revealed);
    // On the board too: the paid round's cards, the revealed ones face up.
    assert_eq!(browser.count("g.vcard.revealed"), revealed.len());
    let paid_tables: Vec<String> = payout["event"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["table"].to_string())
        .collect();
    assert_eq!(
        strings(
            &browser
                .eval("[...document.querySelectorAll('g.table.paid')].map(e => e.dataset.table)")
        ),
        paid_tables
    );
    browser.keep_screenshot("replay-vabanque.png");

    // Just before the first move every card of round 1 lies face down: the truth knows each
    // type, seat 0 only its own.
    let first_move = replay.events("move")[0];
    let before = step_of(first_move) - 1;
    go_to(&mut browser, before);
    let placed = replay
        .events("card")
        .iter()
        .filter(|r| step_of(r) <= before)
        .count();
    assert_eq!(placed, 12, "3 cards each for 4 seats");
    let hidden = "document.querySelectorAll('g.vcard[data-card=\"hidden\"]').length";
    assert_eq!(browser.count("g.vcard"), placed);
    assert_eq!(browser.eval(hidden), 0);
    view_as(&mut browser, Some(0));
    assert_eq!(browser.count("g.vcard"), placed);
    assert_eq!(
        browser.count("g.vcard[data-owner=\"0\"]:not([data-card=\"hidden\"])"),
        3
    );
    assert_eq!(browser.eval(hidden), placed as u64 - 3);
    assert_eq!(browser.count(".hand"), 1, "seat 0 sees its own hand only");
    view_as(&mut browser, None);

    // Keys: the next round, a seat's view by its number, the truth.
    browser.press("Home");
    browser.press("PageDown");
    assert_eq!(
        shown_step(&mut browser),
        step_of(replay.events("round_start")[1])
    );
    browser.press("2");
    assert_eq!(browser.eval("document.body.dataset.view"), "2");
    browser.press("t");
    assert_eq!(browser.eval("document.body.dataset.view"), "truth");

    // A fault: the illegal bot's first, its message at its step and in the list of faults.
    let fault = replay.of_type("fault")[0];
    assert_eq!(fault["seat"], 2);
    go_to(&mut browser, step_of(fault));
    assert_eq!(
        browser.text("#records li.fault .fault-message"),
        fault["message"].as_str().unwrap()
    );
    assert_eq!(
        browser.text("#faults li.current .fault-message"),
        fault["message"].as_str().unwrap()
    );
    assert_eq!(browser.text("#seats tr[data-seat=\"2\"] td.faults"), "1");
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_twelve_seat_bouillabaisse_replay_shows_tricks_manche_points_and_only_a_seats_own_hand() {
    let Some(mut browser) = Browser::launch("replay_viewer_bouillabaisse", &[]) else {
        return;
    };
    let mut args = vec![
        "--game".to_string(),
        "bouillabaisse".to_string(),
        "--seed".to_string(),
        "5".to_string(),
        "--option".to_string(),
        "decks=2".to_string(),
    ];
    for seat in 0..12 {
        args.push("--bot".into());
        args.push(match seat {
            0 => format!(
                "py=python3 {}",
                file("sample-bots/python/bouillabaisse_random.py")
            ),
            s if s % 2 == 1 => format!("h{s}=builtin:heuristic"),
            s => format!("r{s}=builtin:random"),
        });
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let replay = Replay::of("viewer-bouillabaisse", &args);
    let started = Instant::now();
    open(&mut browser, &replay.html);
    eprintln!(
        "a 12-seat La Bouillabaisse replay of {} KiB opened in {:?}",
        std::fs::metadata(&replay.html).unwrap().len() / 1024,
        started.elapsed()
    );

    // The start: seat 3 sees its own dealt hand and eleven hidden ones.
    let dealt = replay
        .events("dealt")
        .into_iter()
        .find(|r| r["to"] == 3)
        .unwrap();
    view_as(&mut browser, Some(3));
    let hand = strings(&browser.eval(
        "[...document.querySelectorAll('.seat-box[data-seat=\"3\"] .seat-hand .card')].map(e => e.dataset.card)",
    ));
    assert_eq!(hand, strings(&dealt["event"]["hand"]));
    assert_eq!(browser.count(".hidden-hand"), 11);
    view_as(&mut browser, None);
    assert_eq!(browser.count(".hidden-hand"), 0);

    // The first trick: twelve cards, the winner marked.
    let won = replay.events("trick_won")[0];
    go_to(&mut browser, step_of(won));
    assert_eq!(browser.count(".trick.won .played"), 12);
    assert_eq!(
        browser.eval("document.querySelector('.trick.won .played.winner').dataset.seat"),
        Value::String(won["event"]["seat"].to_string())
    );

    // The first manche's points, by seat.
    let scored = replay.events("manche_scored")[0];
    browser.press("End");
    go_to(&mut browser, step_of(scored));
    assert_eq!(
        browser.texts("table.manche-points tr[data-manche=\"1\"] td.num"),
        numbers(&scored["event"]["points"])
    );
    browser.keep_screenshot("replay-bouillabaisse.png");
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_machiavelli_replay_shows_rearrangements_refused_plays_and_the_stderr_of_the_turn() {
    let Some(mut browser) = Browser::launch("replay_viewer_machiavelli", &[]) else {
        return;
    };
    let invalid = format!(
        "invalid=python3 {}",
        file("tests/bots/machiavelli_invalid.py")
    );
    let replay = Replay::of(
        "viewer-machiavelli",
        &[
            "--game",
            "machiavelli",
            "--seed",
            "11",
            "--option",
            "hands=2",
            "--bot",
            "heuristic=builtin:heuristic",
            "--bot",
            &invalid,
            "--bot",
            "baseline=builtin:baseline",
            "--bot",
            "heuristic2=builtin:heuristic",
        ],
    );
    open(&mut browser, &replay.html);

    // A refused play: the whole truth and the seat that played see the message, the others
    // only the penalty.
    let refused = replay.events("play_refused")[0];
    let seat = refused["to"].as_u64().unwrap() as usize;
    assert_eq!(seat, 1);
    let message = refused["event"]["message"].as_str().unwrap();
    go_to(&mut browser, step_of(refused));
    assert_eq!(browser.text(".refused .refusal-message"), message);
    let penalty = replay
        .events("drew")
        .into_iter()
        .find(|r| r["n"] == refused["n"])
        .unwrap();
    assert!(
        browser
            .text(".refused .penalty")
            .contains(&format!("drew {}", penalty["event"]["count"])),
        "{}",
        browser.text(".refused")
    );
    // The bot's stderr on that turn (it copies what it reads there).
    assert_stderr_shown(&mut browser, &replay, refused, 1);
    view_as(&mut browser, Some(0));
    assert_eq!(browser.count(".refused .refusal-message"), 0);
    assert!(
        browser
            .text(".refused")
            .contains("only the seat is told why")
    );
    view_as(&mut browser, Some(1));
    assert_eq!(browser.text(".refused .refusal-message"), message);
    view_as(&mut browser, None);

    // The play that moved the most cards between melds: the cards from the hand are marked, and
    // the cards of the melds it made or changed that came from the table.
    let (played, moved) = most_rearranging_play(&replay);
    go_to(&mut browser, step_of(played));
    let from_hand = strings(&played["event"]["from_hand"]);
    let mut marked = strings(&browser.eval(
        "[...document.querySelectorAll('.table-area .card.from-hand')].map(e => e.dataset.card)",
    ));
    marked.sort();
    let mut expected = from_hand.clone();
    expected.sort();
    assert_eq!(marked, expected);
    assert_eq!(browser.count(".table-area .card.moved"), moved);
    assert!(moved > 0, "no play of this match rearranged the table");
    let melds = played["event"]["table"].as_array().unwrap().len();
    assert_eq!(browser.count(".table-area .meld"), melds);
    browser.keep_screenshot("replay-machiavelli.png");

    // The end of the first hand: its points by seat.
    let hand_end = replay.events("hand_end")[0];
    go_to(&mut browser, step_of(hand_end));
    assert_eq!(
        browser.texts("table.hand-points tr[data-hand=\"1\"] td.num"),
        numbers(&hand_end["event"]["points"])
    );
    assert_eq!(browser.errors(), Vec::<String>::new());
}

/// The `played` event that moved the most cards between melds, and how many: in each meld that
/// was not on the table as it is, the cards that neither stayed from the old meld it shares most
/// with nor came from the hand (as the page marks them).
fn most_rearranging_play(replay: &Replay) -> (&Value, usize) {
    use std::collections::HashMap;
    fn counts(cards: &[String]) -> HashMap<&str, usize> {
        let mut out = HashMap::new();
        for card in cards {
            *out.entry(card.as_str()).or_default() += 1;
        }
        out
    }
    fn overlap(a: &HashMap<&str, usize>, b: &HashMap<&str, usize>) -> usize {
        a.iter()
            .map(|(card, k)| (*k).min(b.get(card).copied().unwrap_or(0)))
            .sum()
    }
    let key = |meld: &[String]| {
        let mut cards = meld.to_vec();
        cards.sort();
        cards.join(" ")
    };
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut best: Option<(&Value, usize)> = None;
    for r in &replay.records {
        match r["event"]["kind"].as_str() {
            Some("hand_start") => table.clear(),
            Some("played") => {
                let after: Vec<Vec<String>> = r["event"]["table"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(strings)
                    .collect();
                let mut old: HashMap<String, usize> = HashMap::new();
                for meld in &table {
                    *old.entry(key(meld)).or_default() += 1;
                }
                let same: Vec<bool> = after
                    .iter()
                    .map(|meld| match old.get_mut(&key(meld)) {
                        Some(k) if *k > 0 => {
                            *k -= 1;
                            true
                        }
                        _ => false,
                    })
                    .collect();
                let left: Vec<HashMap<&str, usize>> = table
                    .iter()
                    .filter(|meld| match old.get_mut(&key(meld)) {
                        Some(k) if *k > 0 => {
                            *k -= 1;
                            true
                        }
                        _ => false,
                    })
                    .map(|meld| counts(meld))
                    .collect();
                let from_hand = strings(&r["event"]["from_hand"]);
                let mut hand_left = counts(&from_hand);
                let mut moved = 0;
                for (meld, _) in after.iter().zip(&same).filter(|(_, same)| !**same) {
                    let mine = counts(meld);
                    let mut stay = HashMap::new();
                    for candidate in &left {
                        if overlap(&mine, candidate) > overlap(&mine, &stay) {
                            stay = candidate.clone();
                        }
                    }
                    for card in meld {
                        if let Some(k) = stay.get_mut(card.as_str()).filter(|k| **k > 0) {
                            *k -= 1;
                        } else if let Some(k) = hand_left.get_mut(card.as_str()).filter(|k| **k > 0)
                        {
                            *k -= 1;
                        } else {
                            moved += 1;
                        }
                    }
                }
                if best.is_none_or(|(_, most)| moved > most) {
                    best = Some((r, moved));
                }
                table = after;
            }
            _ => {}
        }
    }
    best.expect("the built-in bots lay melds")
}

/// A seed above 2^53 (the largest prime below 2^64).
const BIG_SEED: &str = "18446744073709551557";

#[test]
fn hostile_names_stderr_and_fault_messages_stay_text() {
    let Some(mut browser) = Browser::launch("replay_viewer_hostile", &[]) else {
        return;
    };
    // Player names are plain (letters, digits, `_-.`); the name a bot gives in its hello is
    // anything.
    let hostile = "</script><img src=x onerror=alert(1)><!--";
    let replay = Replay::of(
        "viewer-hostile",
        &[
            "--game",
            "vabanque",
            "--seed",
            BIG_SEED,
            "--bot",
            &format!("hostile=python3 {}", file("tests/bots/hostile_text.py")),
            "--bot",
            "a=builtin:random",
            "--bot",
            "b=builtin:random",
        ],
    );
    let header = &replay.records[0];
    assert_eq!(header["players"][0]["hello_name"], hostile);
    open(&mut browser, &replay.html);
    // A seed above 2^53, which a JavaScript number would round, is shown as it was played.
    assert!(
        browser
            .text("#match-info")
            .contains(&format!("seed {BIG_SEED} ·")),
        "{}",
        browser.text("#match-info")
    );
    let fault = replay.of_type("fault")[0];
    assert!(fault["message"].as_str().unwrap().contains("<img"));
    go_to(&mut browser, step_of(fault));
    assert_eq!(
        browser.count("img"),
        0,
        "no markup from the log became an element"
    );
    assert_eq!(
        browser.text("#seats tr[data-seat=\"0\"] .hello"),
        format!("“{hostile}”")
    );
    assert_eq!(
        browser.text("#records li.fault .fault-message"),
        fault["message"].as_str().unwrap()
    );
    assert_stderr_shown(&mut browser, &replay, fault, 0);
    browser.press("End");
    assert_eq!(browser.count("img"), 0);
    assert_eq!(browser.errors(), Vec::<String>::new(), "no alert, no error");
}

#[test]
fn a_version_2_log_is_shown_from_the_records_the_replay_makes_again() {
    let Some(mut browser) = Browser::launch("replay_viewer_version_2", &[]) else {
        return;
    };
    // A log the referee wrote before version 3: no start, events, scores or stderr.
    let log = crate::util::root().join("tests/fixtures/logs/machiavelli-v2.jsonl");
    let html = temp_dir("viewer-version-2").join("v2.html");
    write_page(&log, &html);
    let replay = Replay {
        records: json_lines(&log),
        html,
    };
    assert_eq!(replay.records[0]["log_version"], 2);
    open(&mut browser, &replay.html);
    assert_final_scores(&mut browser, &replay);
    // The hand's end, made again by the replay: its points are the result's.
    assert_eq!(
        browser.texts("table.hand-points tr[data-hand=\"1\"] td.num"),
        numbers(&replay.of_type("result")[0]["scores"])
    );
    assert_eq!(browser.errors(), Vec::<String>::new());
}

#[test]
fn a_replay_page_sends_no_request_and_its_policy_refuses_one() {
    use std::net::TcpListener;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    // Every request a page makes, to any host, loopback included, goes to the listener.
    let Some(mut browser) = Browser::launch_behind_proxy("replay_viewer_requests", port) else {
        return;
    };
    let replay = Replay::of("viewer-requests", &built_in_vabanque("9"));
    open(&mut browser, &replay.html);
    // Step, play, scrub and switch views.
    for _ in 0..5 {
        browser.press("ArrowRight");
    }
    browser.click("#play");
    browser.wait_until("Number(document.body.dataset.step) >= 7");
    browser.click("#play");
    browser.eval("(() => { const s = document.getElementById('scrub'); s.value = '40'; s.dispatchEvent(new Event('input')); })()");
    view_as(&mut browser, Some(1));
    browser.press("End");
    view_as(&mut browser, None);
    assert_eq!(browser.requests(), vec![file_url(&replay.html)]);

    // A script that tries to send something is refused by the page's policy.
    let url = format!("http://127.0.0.1:{port}/leak");
    let violated = browser.eval(&format!(
        "new Promise((done) => {{ \
           const seen = []; \
           document.addEventListener('securitypolicyviolation', (e) => {{ \
             seen.push(e.effectiveDirective); if (seen.length === 2) done(seen.sort()); }}); \
           fetch({url:?}).catch(() => {{}}); \
           const img = new Image(); img.src = {url:?} + '.png'; }})"
    ));
    assert_eq!(violated, serde_json::json!(["connect-src", "img-src"]));
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        Ok((mut connection, _)) => {
            use std::io::Read;
            connection.set_nonblocking(false).unwrap();
            connection
                .set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .unwrap();
            let mut request = [0; 512];
            let n = connection.read(&mut request).unwrap_or(0);
            panic!(
                "a request reached the proxy: {}",
                String::from_utf8_lossy(&request[..n])
            );
        }
        Err(e) => panic!("accept: {e}"),
    }

    // The control: the same browser does reach the proxy when a page asks the network, so the
    // silence above is the page's.
    browser.eval(&format!(
        "location.href = 'http://referee-viewer.invalid:{port}/'"
    ));
    let deadline = Instant::now() + std::time::Duration::from_secs(120);
    loop {
        match listener.accept() {
            Ok(_) => break,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(Instant::now() < deadline, "chromium never used its proxy");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) => panic!("accept: {e}"),
        }
    }
}
