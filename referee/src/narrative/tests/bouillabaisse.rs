//! La Bouillabaisse's narrative against the rules' fixed points (`docs/rules-bouillabaisse.md`,
//! "Points"; the rules sheet's "Checks a referee test can lean on"): with four players and one
//! deck, whoever takes them, the manches hand out 65, 130, 200, 200, 595 and −595 points, and
//! each trick line's points add up to its manche's. Played by built-in bots.

use super::*;
use crate::runner::LogAudience;
use engine::bouillabaisse::{Bouillabaisse, Options};
use protocol::bouillabaisse::{Chosen, Event, Suit};

const NAMES: [&str; 4] = ["A", "B", "C", "D"];

/// The log of a match of four built-in bots with `options`.
async fn play(options: Options, seed: u64) -> Vec<LogRecord> {
    let game = Bouillabaisse::new(&options, 4, seed).unwrap();
    let players = NAMES
        .iter()
        .enumerate()
        .map(|(seat, name)| builtin(name, if seat % 2 == 0 { "heuristic" } else { "random" }))
        .collect();
    logged(game, &options, seed, players).await
}

/// The events of the log that everyone was told, read as the game's.
fn public_events(records: &[LogRecord]) -> Vec<Event> {
    records
        .iter()
        .filter_map(|r| match r {
            LogRecord::Event {
                to: LogAudience::All,
                event,
                ..
            } => Some(serde_json::from_value(event.clone()).unwrap()),
            _ => None,
        })
        .collect()
}

/// Each manche's chosen items, from its `manche_start`.
fn chosen_by_manche(records: &[LogRecord]) -> Vec<Chosen> {
    public_events(records)
        .into_iter()
        .filter_map(|e| match e {
            Event::MancheStart { chosen, .. } => Some(chosen),
            _ => None,
        })
        .collect()
}

fn suit(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "club",
        Suit::Diamonds => "diamond",
        Suit::Hearts => "heart",
        Suit::Spades => "spade",
    }
}

fn face(rank: u8) -> &'static str {
    ["jack", "queen", "king"][usize::from(rank - 11)]
}

/// The points of a trick line ("… takes it: 30 points.").
fn trick_points(line: &str) -> i64 {
    let points = line.rsplit(": ").next().unwrap();
    match points {
        "no points." => 0,
        _ => points
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap(),
    }
}

#[tokio::test(start_paused = true)]
async fn each_manche_hands_out_the_points_the_rules_fix() {
    let records = play(Options::default(), 5).await;
    let story = told(&records, Perspective::Everything);
    let c = chosen_by_manche(&records)[0];
    let (s, f, k) = (suit(c.suit), face(c.rank), c.card);
    let scoring = [
        "5 a trick".to_string(),
        format!("10 a {s}"),
        format!("50 a {f}"),
        format!("200 a {k}"),
        format!("5 a trick, 10 a {s}, 50 a {f}, 200 a {k}"),
        format!("-5 a trick, -10 a {s}, -50 a {f}, -200 a {k}"),
    ];
    let handed_out = [65, 130, 200, 200, 595, -595];
    for manche in 1..=6 {
        let lines = section(&story, &format!("Manche {manche}"));
        assert_eq!(
            lines[1],
            format!("Chosen: the suit {s}s, the face rank {f}, the card {k}.")
        );
        assert_eq!(lines[2], format!("Scoring: {}.", scoring[manche - 1]));
        let hands = lines.iter().filter(|l| l.contains("'s hand: ")).count();
        assert_eq!(hands, 4, "every hand is told in full");
        let tricks: Vec<&&str> = lines.iter().filter(|l| l.starts_with("Trick ")).collect();
        assert_eq!(tricks.len(), 13, "13 cards a hand, 13 tricks");
        for (i, trick) in tricks.iter().enumerate() {
            assert!(trick.starts_with(&format!("Trick {}: ", i + 1)), "{trick}");
        }
        let total = handed_out[manche - 1];
        let from_tricks: i64 = tricks.iter().map(|l| trick_points(l)).sum();
        assert_eq!(from_tricks, total, "manche {manche}");
        let scored = lines
            .iter()
            .find(|l| l.starts_with(&format!("Manche {manche} scores: ")))
            .unwrap();
        assert!(
            scored.ends_with(&format!("({} in all).", super::super::grouped(total))),
            "{scored}"
        );
        assert!(lines.last().unwrap().starts_with("Totals: A "));
    }
    let result = section(&story, "Result");
    assert_eq!(result.len(), 5, "four ranks and the faults: {result:?}");
}

#[tokio::test(start_paused = true)]
async fn a_redrawn_choice_is_told_with_its_manche() {
    let options = Options {
        redraw: true,
        ..Options::default()
    };
    let records = play(options, 9).await;
    let story = told(&records, Perspective::Everything);
    let chosen = chosen_by_manche(&records);
    assert_eq!(chosen.len(), 6);
    assert!(
        chosen.windows(2).any(|w| w[0] != w[1]),
        "seed 9 draws more than one choice: {chosen:?}"
    );
    for (i, c) in chosen.iter().enumerate() {
        assert_eq!(
            section(&story, &format!("Manche {}", i + 1))[1],
            format!(
                "Chosen: the suit {}s, the face rank {}, the card {}.",
                suit(c.suit),
                face(c.rank),
                c.card
            )
        );
    }
}

#[tokio::test(start_paused = true)]
async fn seat_0_is_told_its_own_hand_and_no_other() {
    let records = play(Options::default(), 5).await;
    let everything = told(&records, Perspective::Everything);
    let mine = told(&records, Perspective::Seat(0));
    let text = all_text(&mine);
    for manche in 1..=6 {
        let heading = format!("Manche {manche}");
        let hands: Vec<&str> = section(&mine, &heading)
            .into_iter()
            .filter(|l| l.contains("'s hand: "))
            .collect();
        assert_eq!(hands.len(), 1);
        assert!(hands[0].starts_with("A's hand: "));
        for other in section(&everything, &heading)
            .into_iter()
            .filter(|l| l.contains("'s hand: ") && !l.starts_with("A's"))
        {
            let cards = other.split(": ").nth(1).unwrap();
            assert!(!text.contains(cards), "seat 0 was told {other}");
        }
    }
    // Everything public is there: every trick and every score.
    let count = |story: &Narrative, prefix: &str| {
        story.lines().filter(|l| l.text.starts_with(prefix)).count()
    };
    assert_eq!(count(&mine, "Trick "), 78);
    assert_eq!(count(&mine, "Trick "), count(&everything, "Trick "));
    assert_eq!(count(&mine, "Totals: "), 6);
}
