//! The built-in bots: what each finds, that their plays hold, and that the heuristic beats the
//! baseline.

use super::{cards, melds};
use crate::machiavelli::Machiavelli;
use crate::machiavelli::bots::{Baseline, Heuristic};
use crate::machiavelli::cards::Card;
use crate::machiavelli::table::check_table;
use crate::{Game, Strategy};
use protocol::machiavelli::{Action, Options, True, View};

/// The cards of `text`, sorted.
fn sorted(text: &str) -> Vec<Card> {
    let mut cards = cards(text);
    cards.sort_unstable();
    cards
}

fn view(table: &str, hand: &str) -> View {
    let hand = sorted(hand);
    View {
        hand_number: 1,
        hands: 1,
        dealer: 0,
        you: 1,
        players: 2,
        hand,
        table: melds(table),
        stock: 40,
        hand_sizes: vec![13, 13],
        skip_available: true,
        totals: vec![0, 0],
        revealed: vec![Vec::new(), Vec::new()],
    }
}

/// The cards `action` lays from the hand of `view`, checked as the referee checks it.
fn laid(view: &View, action: &Action, limit: usize) -> Vec<Card> {
    let Action::Play(table) = action else {
        panic!("{action:?} is not a play");
    };
    check_table(table, &view.table, &view.hand, limit)
        .unwrap_or_else(|m| panic!("the bot's play is refused: {m}"))
        .from_hand
}

#[test]
fn the_heuristic_turns_the_guides_sets_into_runs_to_lay_the_ace_of_clubs() {
    let view = view("KH KD KC | QH QD QC | JH JD JC", "AC 5D 9S");
    let action = Heuristic::choose(&view);
    assert_eq!(laid(&view, &action, 1), cards("AC"));
    // The baseline sees no meld in its hand and draws.
    assert_eq!(Baseline::choose(&view), Action::Draw(True));
}

#[test]
fn the_heuristic_lays_the_nine_of_spades_with_both_queens() {
    let view = view("10H 10D 10S | JH JD JS | QH QD QC", "9S QD QS 2H");
    let action = Heuristic::choose(&view);
    assert_eq!(laid(&view, &action, 1), sorted("9S QD QS"));
}

#[test]
fn the_heuristic_attaches_to_the_table() {
    let view = view("3C 4C 5C | 9H 9D 9S", "6C 9C KD");
    let action = Heuristic::choose(&view);
    assert_eq!(laid(&view, &action, 1), cards("6C 9C"));
}

#[test]
fn the_heuristic_places_the_tables_jokers_again() {
    let view = view("3C JK 5C | 9H 9D 9S", "4C 2H");
    let action = Heuristic::choose(&view);
    assert_eq!(laid(&view, &action, 1), cards("4C"));
}

#[test]
fn the_baseline_lays_its_own_melds_largest_first_and_jokers_only_to_complete_one() {
    let v = view("QC QD QH", "3C 4C 5C 6C 7H 7D 7S 9S JK 2D 4D KH");
    let action = Baseline::choose(&v);
    assert_eq!(
        laid(&v, &action, 1),
        sorted("3C 4C 5C 6C 2D 4D 7D 7H 7S JK")
    );
    let Action::Play(table) = &action else {
        unreachable!()
    };
    assert!(table.contains(&vec!["QC".to_string(), "QD".into(), "QH".into()]));
    // Nothing to lay: a draw.
    assert_eq!(
        Baseline::choose(&view("", "3C 6C 9H QD JK")),
        Action::Draw(True)
    );
    // It never attaches.
    assert_eq!(
        Baseline::choose(&view("3C 4C 5C", "6C 9D")),
        Action::Draw(True)
    );
}

#[test]
fn the_bots_never_lay_more_jokers_than_the_table_shows_allowed() {
    let v = view("", "5H JK JK 9C");
    assert_eq!(Baseline::choose(&v), Action::Draw(True));
    let v = view("", "5H 6H JK JK 9C 10C");
    let action = Heuristic::choose(&v);
    assert_eq!(laid(&v, &action, 1), sorted("5H 6H 9C 10C JK JK"));
}

/// Seat 0 played by `first`, seat 1 by `second`, from `seed`: the ranks.
fn duel(
    first: &mut dyn Strategy<Machiavelli>,
    second: &mut dyn Strategy<Machiavelli>,
    seed: u64,
) -> Vec<u32> {
    let mut game = Machiavelli::new(&Options::default(), 2, seed).unwrap();
    let mut events = Vec::new();
    while let Some(turn) = game.to_move() {
        let view = game.view(turn.seat);
        let action = if turn.seat == 0 {
            first.decide(&view, None)
        } else {
            second.decide(&view, None)
        };
        game.play(&action, &mut events).unwrap();
        assert!(
            !events
                .iter()
                .any(|e| matches!(e.event, protocol::machiavelli::Event::PlayRefused { .. })),
            "a built-in bot's play was refused: {events:?}"
        );
        events.clear();
    }
    game.outcome().unwrap().ranks
}

#[test]
fn the_heuristic_beats_the_baseline() {
    let (mut wins, mut losses) = (0, 0);
    for seed in 0..40 {
        // Each deal played twice, the heuristic in either seat.
        for heuristic_seat in 0..2 {
            let ranks = if heuristic_seat == 0 {
                duel(&mut Heuristic, &mut Baseline, seed)
            } else {
                duel(&mut Baseline, &mut Heuristic, seed)
            };
            if ranks[heuristic_seat] < ranks[1 - heuristic_seat] {
                wins += 1;
            } else if ranks[heuristic_seat] > ranks[1 - heuristic_seat] {
                losses += 1;
            }
        }
    }
    assert!(
        wins >= 2 * losses,
        "heuristic {wins} wins, baseline {losses}"
    );
}
