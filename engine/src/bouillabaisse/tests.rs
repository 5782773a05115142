//! Rule tests (one or more per ruling of `docs/rules-bouillabaisse.md`) and property tests over
//! random legal games for La Bouillabaisse.

use super::deck::{all_cards, trim};
use super::scoring::scoring;
use super::*;
use crate::{Addressed, Audience, Game, SetupError};
use proptest::prelude::*;
use protocol::bouillabaisse::{Action, Card, Event, Played, Suit};
use rand::{SeedableRng, seq::IndexedRandom};
use rand_chacha::ChaCha8Rng;

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

fn cards(texts: &str) -> Vec<Card> {
    texts.split_whitespace().map(card).collect()
}

fn new_game(players: usize, seed: u64, options: &Options) -> Bouillabaisse {
    Bouillabaisse::new(options, players, seed).unwrap()
}

/// Plays the whole game with cards drawn from `rng` among the legal ones; returns every event
/// with its audience.
fn random_game(game: &mut Bouillabaisse, rng: &mut ChaCha8Rng) -> Vec<Addressed<Event>> {
    let mut events = game.opening_events();
    while game.to_move().is_some() {
        let legal = game.legal_actions().unwrap();
        let action = *legal.choose(rng).unwrap();
        game.play(&action, &mut events).unwrap();
    }
    events
}

fn scored(events: &[Addressed<Event>]) -> Vec<(u32, Vec<i64>, Option<usize>)> {
    events
        .iter()
        .filter_map(|a| match &a.event {
            Event::MancheScored {
                manche,
                points,
                all_or_nothing,
                ..
            } => Some((*manche, points.clone(), *all_or_nothing)),
            _ => None,
        })
        .collect()
}

// --- Players and cards -------------------------------------------------------------------------

#[test]
fn player_counts_and_decks() {
    for players in [1, 13] {
        assert!(matches!(
            Bouillabaisse::new(&Options::default(), players, 1),
            Err(SetupError::PlayerCount { .. })
        ));
    }
    for players in 2..=12 {
        let game = new_game(players, 1, &Options::default());
        assert_eq!(game.decks, if players <= 6 { 1 } else { 2 }, "{players}");
        for decks in [1, 2] {
            let options = Options {
                decks: Some(decks),
                ..Options::default()
            };
            assert_eq!(new_game(players, 1, &options).decks, decks);
        }
    }
    let three = Options {
        decks: Some(3),
        ..Options::default()
    };
    assert!(matches!(
        Bouillabaisse::new(&three, 4, 1),
        Err(SetupError::Options { .. })
    ));
}

#[test]
fn removal_takes_the_lowest_cards_in_suit_order_and_every_suit_before_a_second_copy() {
    assert_eq!(all_cards(1).len(), 52);
    assert_eq!(all_cards(2).len(), 104);
    for (players, in_play) in [(2, 52), (3, 51), (4, 52), (5, 50), (6, 48)] {
        assert_eq!(trim(1, players).1.len(), in_play, "{players} players");
    }
    assert_eq!(trim(1, 3).0, cards("2C"));
    assert_eq!(trim(1, 5).0, cards("2C 2D"));
    assert_eq!(trim(1, 6).0, cards("2C 2D 2H 2S"));
    // Two decks: all four 2s once, then the second copies.
    assert_eq!(trim(2, 7).0, cards("2C 2D 2H 2S 2C 2D"));
    assert_eq!(trim(2, 12).0, cards("2C 2D 2H 2S 2C 2D 2H 2S"));
    // One deck at 11 players: 52 mod 11 = 8, so the 2s and then 3C to 3S.
    assert_eq!(trim(1, 11).0, cards("2C 2D 2H 2S 3C 3D 3H 3S"));
    for players in 2..=12 {
        for decks in [1, 2] {
            let (removed, in_play) = trim(decks, players);
            assert_eq!(in_play.len() % players, 0);
            assert_eq!(removed.len() + in_play.len(), 52 * decks as usize);
        }
    }
}

#[test]
fn every_hand_is_equal_and_removed_cards_are_public() {
    for players in 2..=12 {
        let game = new_game(players, 9, &Options::default());
        let size = game.in_play.len() / players;
        assert!(game.hands.iter().all(|h| h.len() == size));
        for seat in 0..players {
            assert_eq!(game.view(seat).removed, game.removed);
        }
        let Event::MancheStart { removed, .. } = &game.opening_events()[0].event else {
            panic!("the first event starts the manche");
        };
        assert_eq!(removed, &game.removed);
    }
}

// --- Dealer, leads, following suit ----------------------------------------------------------------

#[test]
fn the_dealer_rotates_each_manche_and_the_left_of_the_dealer_leads() {
    for seed in 0..10 {
        let mut game = new_game(5, seed, &Options::default());
        let first = game.first_dealer;
        let events = random_game(&mut game, &mut ChaCha8Rng::seed_from_u64(seed));
        let starts: Vec<(u32, usize, usize)> = events
            .iter()
            .filter_map(|a| match a.event {
                Event::MancheStart {
                    manche,
                    dealer,
                    leader,
                    ..
                } => Some((manche, dealer, leader)),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 6);
        for (manche, dealer, leader) in starts {
            assert_eq!(dealer, (first + manche as usize - 1) % 5);
            assert_eq!(leader, (dealer + 1) % 5);
        }
    }
    let dealers: std::collections::BTreeSet<usize> = (0..50)
        .map(|seed| new_game(4, seed, &Options::default()).first_dealer)
        .collect();
    assert_eq!(dealers.len(), 4, "the first dealer is drawn from the seed");
}

#[test]
fn the_winner_of_a_trick_leads_the_next() {
    let mut game = new_game(4, 3, &Options::default());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut events = Vec::new();
    for _ in 0..40 {
        let legal = game.legal_actions().unwrap();
        game.play(legal.choose(&mut rng).unwrap(), &mut events)
            .unwrap();
        if let Some(Event::TrickWon { seat, .. }) = events.last().map(|a| &a.event) {
            assert_eq!(game.to_move().unwrap().seat, *seat);
            assert_eq!(game.leader, *seat);
        }
    }
}

/// A game of 4 whose current seat holds `hand`, with `trick` already played.
fn position(hand: &str, trick: &[(usize, &str)]) -> Bouillabaisse {
    let mut game = new_game(4, 1, &Options::default());
    game.trick = trick
        .iter()
        .map(|&(seat, c)| Played {
            seat,
            card: card(c),
        })
        .collect();
    game.leader = trick.first().map_or(0, |t| t.0);
    let seat = (game.leader + game.trick.len()) % 4;
    game.hands[seat] = cards(hand);
    game
}

#[test]
fn a_seat_that_can_follow_suit_must() {
    let game = position("3H 9H 4S KC", &[(0, "5H")]);
    let legal: Vec<Card> = game
        .legal_actions()
        .unwrap()
        .iter()
        .map(|a| a.card)
        .collect();
    assert_eq!(legal, cards("3H 9H"));
    let err = game.check(&Action { card: card("KC") }).unwrap_err();
    assert!(err.0.contains("follow"), "{err}");
    assert!(game.check(&Action { card: card("9H") }).is_ok());
    assert!(
        game.check(&Action { card: card("AH") })
            .unwrap_err()
            .0
            .contains("not in your hand")
    );
}

#[test]
fn a_void_seat_may_play_anything_and_a_leader_anything() {
    let game = position("4S KC", &[(0, "5H")]);
    assert_eq!(game.legal_actions().unwrap().len(), 2);
    let leader = position("3H 4S KC", &[]);
    assert_eq!(leader.legal_actions().unwrap().len(), 3);
}

#[test]
fn the_highest_card_of_the_led_suit_wins_and_off_suit_cards_never_do() {
    let game = position("", &[(0, "5H"), (1, "AS"), (2, "9H"), (3, "KD")]);
    assert_eq!(game.trick_winner(), 2);
}

#[test]
fn with_two_decks_the_first_of_two_identical_winning_cards_wins() {
    let game = position("", &[(1, "5H"), (2, "QH"), (3, "QH"), (0, "2H")]);
    assert_eq!(game.trick_winner(), 2);
    let later = position("", &[(1, "QH"), (2, "3H"), (3, "QH"), (0, "2H")]);
    assert_eq!(later.trick_winner(), 1);
}

// --- The chosen suit, face rank and card ----------------------------------------------------------

fn chosen_by_manche(events: &[Addressed<Event>]) -> Vec<protocol::bouillabaisse::Chosen> {
    events
        .iter()
        .filter_map(|a| match a.event {
            Event::MancheStart { chosen, .. } => Some(chosen),
            _ => None,
        })
        .collect()
}

#[test]
fn the_chosen_items_are_drawn_once_from_the_seed_and_kept_for_every_manche() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let mut game = new_game(3, seed, &Options::default());
        let chosen = chosen_by_manche(&random_game(&mut game, &mut ChaCha8Rng::seed_from_u64(1)));
        assert!(
            chosen.iter().all(|c| *c == chosen[0]),
            "reused in all six manches"
        );
        let c = chosen[0];
        assert!(FACE_RANKS_FOR_TEST.contains(&c.rank));
        assert_ne!(c.card, card("2C"), "the removed card is not in play");
        assert_eq!(
            new_game(3, seed, &Options::default()).chosen,
            c,
            "drawn from the seed"
        );
        seen.insert((c.suit, c.rank));
    }
    assert!(seen.len() > 6, "suit and rank vary with the seed: {seen:?}");
}

const FACE_RANKS_FOR_TEST: [u8; 3] = [11, 12, 13];

#[test]
fn with_redraw_the_chosen_items_are_drawn_again_every_manche() {
    let options = Options {
        redraw: true,
        ..Options::default()
    };
    let mut differing = 0;
    for seed in 0..10 {
        let mut game = new_game(4, seed, &options);
        let chosen = chosen_by_manche(&random_game(&mut game, &mut ChaCha8Rng::seed_from_u64(1)));
        assert_eq!(chosen.len(), 6);
        differing += chosen.windows(2).filter(|w| w[0] != w[1]).count();
    }
    assert!(differing >= 45, "{differing} of 50 changes");
}

// --- Scoring ----------------------------------------------------------------------------------

#[test]
fn the_six_manches_score_as_listed_with_one_deck_of_four() {
    for seed in 0..20 {
        let mut game = new_game(4, seed, &Options::default());
        let events = random_game(&mut game, &mut ChaCha8Rng::seed_from_u64(seed));
        let totals: Vec<i64> = scored(&events)
            .iter()
            .map(|(_, points, _)| points.iter().sum())
            .collect();
        assert_eq!(totals, [65, 130, 200, 200, 595, -595]);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.scores.iter().sum::<i64>(), 595);
    }
}

#[test]
fn manche_six_subtracts_and_a_card_scores_several_ways_at_once() {
    let game = new_game(4, 5, &Options::default());
    let mut chosen = game.chosen;
    let both = Card::new(chosen.rank, chosen.suit);
    chosen.card = both;
    let five = scoring(5);
    let six = scoring(6);
    let points = super::scoring::card_points(both, &chosen, &five);
    let expected = 10 + 50 + 200;
    assert_eq!(points, expected);
    assert_eq!(super::scoring::card_points(both, &chosen, &six), -expected);
    assert_eq!(scoring(1).suit, 0, "manche 1 counts tricks only");
}

#[test]
fn lowest_total_wins_and_equal_totals_share_the_rank() {
    let mut game = new_game(4, 2, &Options::default());
    game.manche = MANCHES + 1;
    game.totals = vec![30, -10, 30, 200];
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.ranks, [2, 1, 2, 4]);
}

/// The state at the end of `manche` where seat 0 took every card in play.
fn seat_zero_took_everything(manche: u32, all_or_nothing: bool) -> Bouillabaisse {
    let options = Options {
        all_or_nothing,
        ..Options::default()
    };
    let mut game = new_game(4, 8, &options);
    game.manche = manche;
    let scoring = scoring(manche);
    game.taken = vec![game.in_play.clone(), vec![], vec![], vec![]];
    game.tricks_taken = vec![13, 0, 0, 0];
    game.points = vec![
        super::scoring::trick_points(std::iter::empty(), &game.chosen, &scoring) * 13
            + game
                .in_play
                .iter()
                .map(|&c| super::scoring::card_points(c, &game.chosen, &scoring))
                .sum::<i64>(),
        0,
        0,
        0,
    ];
    game.hands = vec![vec![]; 4];
    game
}

#[test]
fn all_or_nothing_reverses_a_sweep_of_manches_one_two_three_and_five_only() {
    for (manche, points) in [(1, 65), (2, 130), (3, 200), (4, 200), (5, 595), (6, -595)] {
        for variant in [false, true] {
            let mut game = seat_zero_took_everything(manche, variant);
            assert_eq!(game.points[0], points, "manche {manche}");
            let mut events = Vec::new();
            game.finish_manche(&mut events);
            let reversed = variant && [1, 2, 3, 5].contains(&manche);
            let Event::MancheScored {
                points: scored,
                all_or_nothing,
                ..
            } = &events[0].event
            else {
                panic!("the manche is scored first");
            };
            assert_eq!(
                scored[0],
                if reversed { -points } else { points },
                "manche {manche}"
            );
            assert_eq!(all_or_nothing, &reversed.then_some(0));
        }
    }
}

#[test]
fn all_or_nothing_needs_every_item_not_most() {
    let mut game = seat_zero_took_everything(2, true);
    let suit_card = *game
        .in_play
        .iter()
        .find(|c| c.suit == game.chosen.suit)
        .unwrap();
    let at = game.taken[0].iter().position(|&c| c == suit_card).unwrap();
    game.taken[0].remove(at);
    game.taken[1].push(suit_card);
    let mut events = Vec::new();
    game.finish_manche(&mut events);
    assert!(matches!(
        events[0].event,
        Event::MancheScored {
            all_or_nothing: None,
            ..
        }
    ));
}

#[test]
fn actions_parse_from_their_wire_form_only() {
    let game = new_game(4, 1, &Options::default());
    let ok = game
        .parse_action(&serde_json::json!({"card": "QS"}))
        .unwrap();
    assert_eq!(ok.card, Card::new(12, Suit::Spades));
    for bad in [
        serde_json::json!({"card": "10S"}),
        serde_json::json!({"card": "QS", "extra": 1}),
        serde_json::json!({"table": 1}),
        serde_json::json!("QS"),
    ] {
        assert!(
            game.parse_action(&bad).unwrap_err().contains("\"card\""),
            "{bad}"
        );
    }
}

// --- Properties over random legal games -------------------------------------------------------

/// Per manche, the cards played, from the events.
fn played_by_manche(events: &[Addressed<Event>]) -> Vec<Vec<Card>> {
    let mut manches = Vec::new();
    for a in events {
        match a.event {
            Event::MancheStart { .. } => manches.push(Vec::new()),
            Event::CardPlayed { card, .. } => manches.last_mut().unwrap().push(card),
            _ => {}
        }
    }
    manches
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_legal_games_hold_the_invariants(
        players in 2usize..=12,
        two_decks in any::<bool>(),
        redraw in any::<bool>(),
        all_or_nothing in any::<bool>(),
        seed in any::<u64>(),
        play_seed in any::<u64>(),
    ) {
        let options = Options { decks: Some(1 + u8::from(two_decks)), redraw, all_or_nothing };
        let mut game = new_game(players, seed, &options);
        let in_play = {
            let mut c = game.in_play.clone();
            c.sort();
            c
        };
        let mut rng = ChaCha8Rng::seed_from_u64(play_seed);
        let mut events = game.opening_events();
        while let Some(turn) = game.to_move() {
            // A seat that can follow suit always does: every other card of its hand is refused.
            let hand = game.hands[turn.seat].clone();
            let led = game.trick.first().map(|p| p.card.suit);
            let legal: Vec<Card> = game.legal_actions().unwrap().iter().map(|a| a.card).collect();
            for &c in &hand {
                let follows = led.is_none_or(|l| c.suit == l || hand.iter().all(|h| h.suit != l));
                prop_assert_eq!(legal.contains(&c), follows, "{} with led {:?}", c, led);
                prop_assert_eq!(game.check(&Action { card: c }).is_ok(), follows);
            }
            let action = *game.legal_actions().unwrap().choose(&mut rng).unwrap();
            game.play(&action, &mut events).unwrap();
        }
        // Every card in play is played exactly once per manche.
        let manches = played_by_manche(&events);
        prop_assert_eq!(manches.len(), 6);
        for mut played in manches {
            played.sort();
            prop_assert_eq!(&played, &in_play);
        }
        // The points of each manche add up to the totals fixed by the deal and that manche's
        // chosen items (a seat whose points the variant reversed counts with its raw points).
        let tricks = (in_play.len() / players) as i64;
        let count = |f: &dyn Fn(&Card) -> bool| in_play.iter().filter(|c| f(c)).count() as i64;
        let chosen = chosen_by_manche(&events);
        prop_assert_eq!(chosen.len(), 6);
        for ((manche, points, reversed), chosen) in scored(&events).into_iter().zip(chosen) {
            let suit = count(&|c| c.suit == chosen.suit) * 10;
            let rank = count(&|c| c.rank == chosen.rank) * 50;
            let card = count(&|c| *c == chosen.card) * 200;
            let all = tricks * 5 + suit + rank + card;
            let expected = [tricks * 5, suit, rank, card, all, -all][manche as usize - 1];
            prop_assert!(all_or_nothing || reversed.is_none());
            let raw = points.iter().sum::<i64>() - reversed.map_or(0, |s| 2 * points[s]);
            prop_assert_eq!(raw, expected, "manche {}", manche);
        }
        // Every hand is told to its own seat only, in every manche.
        for event in &events {
            if let Event::Dealt { .. } = event.event {
                prop_assert!(matches!(event.to, Audience::Seat(_)));
            }
        }
    }
}

#[test]
fn dealt_hands_go_to_their_seat_only() {
    let game = new_game(6, 4, &Options::default());
    for event in game.opening_events() {
        if let Event::Dealt { hand } = &event.event {
            let Audience::Seat(seat) = event.to else {
                panic!("a hand told to everyone");
            };
            assert_eq!(hand, &game.hands[seat]);
        }
    }
}
