//! Rule tests, worked examples and property tests for Vabanque.

use super::payout::{next_order, table_payout};
use super::*;
use crate::{Addressed, Game};
use proptest::prelude::*;
use protocol::vabanque::{Action, Card, Event, Phase};
use rand::{SeedableRng, seq::IndexedRandom};
use rand_chacha::ChaCha8Rng;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;

fn new_game(players: usize, seed: u64) -> Vabanque {
    Vabanque::new(&Options::default(), players, seed).unwrap()
}

fn play(game: &mut Vabanque, action: Action) -> Vec<Addressed<Event>> {
    let mut events = Vec::new();
    game.play(&action, &mut events).unwrap();
    events
}

/// Plays the whole game with actions drawn from `rng` among the legal ones.
fn random_game(
    players: usize,
    seed: u64,
    rng: &mut ChaCha8Rng,
) -> (Vabanque, Vec<Action>, Vec<Event>) {
    let mut game = new_game(players, seed);
    let mut actions = Vec::new();
    let mut events = Vec::new();
    while game.to_move().is_some() {
        let legal = game.legal_actions().unwrap();
        let action = *legal.choose(rng).unwrap();
        let mut out = Vec::new();
        game.play(&action, &mut out).unwrap();
        events.extend(out.into_iter().map(|a| a.event));
        actions.push(action);
    }
    (game, actions, events)
}

#[test]
fn worked_example_1_raise_bluff_trap() {
    // Chips 15; Raise by A and C, Bluff by D, Trap by B; tokens of B and A.
    let cards = [
        (A, Card::Raise),
        (C, Card::Raise),
        (D, Card::Bluff),
        (B, Card::Trap),
    ];
    let paid = table_payout(15, &cards, &[B, A], 4);
    assert_eq!(paid, vec![0, 90_000, 0, 0]);
}

#[test]
fn worked_example_2_two_traps() {
    // Chips 15; Trap by D, Trap by A; tokens of A and B.
    let cards = [(D, Card::Trap), (A, Card::Trap)];
    let paid = table_payout(15, &cards, &[A, B], 4);
    assert_eq!(paid, vec![15_000, 0, 0, 30_000]);
}

#[test]
fn own_trap_never_blocks_own_token() {
    let paid = table_payout(10, &[(A, Card::Trap)], &[A], 3);
    assert_eq!(paid, vec![10_000, 0, 0]);
}

#[test]
fn several_tokens_do_not_split_and_bluff_does_nothing() {
    let paid = table_payout(20, &[(C, Card::Bluff)], &[A, B], 3);
    assert_eq!(paid, vec![20_000, 20_000, 0]);
}

#[test]
fn two_own_cards_at_one_table_count_each() {
    let paid = table_payout(10, &[(A, Card::Raise), (A, Card::Raise)], &[A], 3);
    assert_eq!(paid, vec![30_000, 0, 0]);
}

#[test]
fn trap_pays_per_opposing_token_and_a_table_without_chips_pays_nothing() {
    // C's own token is not blocked by its own Trap: 10,000 for the token, 2 × 10,000 for the Trap.
    assert_eq!(
        table_payout(10, &[(C, Card::Trap)], &[A, B, C], 3),
        vec![0, 0, 30_000]
    );
    assert_eq!(
        table_payout(0, &[(C, Card::Trap), (A, Card::Raise)], &[A, B], 3),
        vec![0, 0, 0]
    );
}

#[test]
fn table_counts_and_player_limits() {
    for (players, tables) in [(3, 7), (4, 9), (5, 10), (6, 12)] {
        assert_eq!(new_game(players, 1).tables, tables);
    }
    for players in [0, 1, 2, 7, 12] {
        let err = Vabanque::new(&Options::default(), players, 1).unwrap_err();
        assert!(err.to_string().contains("3 to 6 players"), "{err}");
    }
}

#[test]
fn initial_tokens_two_tables_apart_in_playing_order_from_table_0() {
    for players in 3..=6 {
        for seed in 0..20 {
            let game = new_game(players, seed);
            assert_eq!(game.order[0], game.first_player);
            for (i, &seat) in game.order.iter().enumerate() {
                assert_eq!(game.order[i], (game.first_player + i) % players);
                assert_eq!(game.tokens[seat], (2 * i) % game.tables);
            }
        }
    }
}

#[test]
fn first_player_is_drawn_from_the_seed() {
    let firsts: std::collections::BTreeSet<usize> = (0..200)
        .map(|seed| new_game(5, seed).first_player)
        .collect();
    assert_eq!(firsts.len(), 5, "every seat can start");
    assert_eq!(new_game(5, 77).first_player, new_game(5, 77).first_player);
}

#[test]
fn phases_run_chip_card_move_in_playing_order() {
    let mut game = new_game(3, 9);
    let order = game.order.clone();
    for k in 0..12 {
        let turn = game.to_move().unwrap();
        assert_eq!((turn.seat, turn.phase), (order[k % 3], "chip"));
        assert_eq!(
            game.view(turn.seat).chips_left[turn.seat],
            4 - (k / 3) as u32
        );
        play(&mut game, Action::Chip { table: 0 });
    }
    assert_eq!(game.table_chips[0], 60, "round 1: 12 chips of 5");
    for k in 0..9 {
        let turn = game.to_move().unwrap();
        assert_eq!((turn.seat, turn.phase), (order[k % 3], "card"));
        let card = game.hands[turn.seat][0];
        play(&mut game, Action::Card { card, table: 1 });
    }
    for &seat in &order {
        assert_eq!(game.to_move().unwrap().seat, seat);
        assert_eq!(game.to_move().unwrap().phase, "move");
        play(&mut game, Action::Move { steps: 0 });
    }
    assert_eq!(game.round, 1);
    assert_eq!(game.phase, Phase::Chip);
}

#[test]
fn phases_lists_every_phase_a_match_requests_in_first_reached_order() {
    let mut seen: Vec<&str> = Vec::new();
    let mut game = new_game(4, 5);
    while let Some(turn) = game.to_move() {
        if !seen.contains(&turn.phase) {
            seen.push(turn.phase);
        }
        let action = game.default_action();
        play(&mut game, action);
    }
    assert_eq!(seen, Vabanque::phases());
    let wire: Vec<&str> = [Phase::Chip, Phase::Card, Phase::Move]
        .map(Phase::as_str)
        .to_vec();
    assert_eq!(Vabanque::phases(), wire.as_slice());
}

#[test]
fn moves_wrap_around_and_are_limited_to_four() {
    let mut game = new_game(3, 2);
    while game.phase != Phase::Move {
        let action = game.default_action();
        play(&mut game, action);
    }
    let seat = game.to_move().unwrap().seat;
    assert!(game.check(&Action::Move { steps: 5 }).is_err());
    let from = game.tokens[seat];
    play(&mut game, Action::Move { steps: 4 });
    assert_eq!(game.tokens[seat], (from + 4) % 7);
    // A token at table 6 of 7 moving 3 lands on table 2.
    let mut game = new_game(3, 2);
    game.phase = Phase::Move;
    let seat = game.to_move().unwrap().seat;
    game.tokens[seat] = 6;
    let events = play(&mut game, Action::Move { steps: 3 });
    assert_eq!(game.tokens[seat], 2);
    assert!(matches!(
        events[0].event,
        Event::Move {
            from: 6,
            to: 2,
            steps: 3,
            ..
        }
    ));
}

#[test]
fn illegal_actions_are_refused_with_a_reason_and_leave_the_state_untouched() {
    let mut game = new_game(4, 3);
    let before = format!("{game:?}");
    let mut events = Vec::new();
    let err = game
        .play(&Action::Chip { table: 9 }, &mut events)
        .unwrap_err();
    assert!(err.0.contains("table 9 does not exist"), "{err}");
    let err = game
        .play(&Action::Move { steps: 1 }, &mut events)
        .unwrap_err();
    assert!(err.0.contains("chip phase expects"), "{err}");
    assert_eq!(before, format!("{game:?}"));
    assert!(events.is_empty());
    // A card already placed this round is not in the hand any more.
    while game.phase != Phase::Card {
        play(&mut game, Action::Chip { table: 0 });
    }
    play(
        &mut game,
        Action::Card {
            card: Card::Trap,
            table: 0,
        },
    );
    for _ in 1..4 {
        play(
            &mut game,
            Action::Card {
                card: Card::Raise,
                table: 0,
            },
        );
    }
    let err = game
        .check(&Action::Card {
            card: Card::Trap,
            table: 0,
        })
        .unwrap_err();
    assert!(err.0.contains("not in your hand"), "{err}");
}

#[test]
fn cards_at_tables_without_tokens_are_never_revealed() {
    let mut game = new_game(3, 5);
    let order = game.order.clone();
    // Tokens start on tables 0, 2, 4. All chips on table 0; every card on table 6 (no token).
    while game.phase == Phase::Chip {
        play(&mut game, Action::Chip { table: 0 });
    }
    while game.phase == Phase::Card {
        let seat = game.to_move().unwrap().seat;
        let card = game.hands[seat][0];
        play(&mut game, Action::Card { card, table: 6 });
    }
    let mut events = Vec::new();
    for _ in &order {
        events.extend(play(&mut game, Action::Move { steps: 0 }));
    }
    let payout = events.iter().find_map(|e| match &e.event {
        Event::Payout { tables, .. } => Some(tables.clone()),
        _ => None,
    });
    let tables = payout.unwrap();
    assert!(tables.iter().all(|t| t.table != 6 && t.cards.is_empty()));
    assert!(game.revealed.is_empty());
    assert_eq!(game.never_revealed.len(), 9);
    for seat in 0..3 {
        assert!(game.view(seat).revealed.is_empty());
    }
    // The first player's token on table 0 collected the 60 chips.
    assert_eq!(game.money[order[0]], 60_000);
}

#[test]
fn revealed_cards_become_public_and_hands_are_restored() {
    let mut game = new_game(3, 5);
    while game.phase == Phase::Chip {
        play(&mut game, Action::Chip { table: 0 });
    }
    while game.phase == Phase::Card {
        let seat = game.to_move().unwrap().seat;
        let card = game.hands[seat][0];
        play(&mut game, Action::Card { card, table: 0 });
    }
    while game.phase == Phase::Move {
        play(&mut game, Action::Move { steps: 0 });
    }
    assert_eq!(game.revealed.len(), 9);
    for seat in 0..3 {
        let view = game.view(seat);
        assert_eq!(view.revealed.len(), 9);
        assert_eq!(view.hand, Card::ALL.to_vec());
        assert!(view.cards.is_empty());
    }
}

#[test]
fn new_order_richest_first_and_ties_reverse_the_last_order() {
    assert_eq!(
        next_order(&[0, 1, 2, 3], &[10, 30, 20, 0]),
        vec![1, 2, 0, 3]
    );
    // All tied: the whole order is reversed.
    assert_eq!(next_order(&[2, 0, 1], &[5, 5, 5]), vec![1, 0, 2]);
    // Seat 2 is richest; seats 3 and 1 tie; 3 played before 1, so 1 now plays before 3.
    assert_eq!(
        next_order(&[3, 1, 0, 2], &[0, 40, 50, 40]),
        vec![2, 1, 3, 0]
    );
}

#[test]
fn four_rounds_then_money_ranks_with_shared_places() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (game, actions, _) = random_game(4, 11, &mut rng);
    assert_eq!(actions.len(), 4 * (4 + 3 + 2 + 1) + 4 * (4 * 3 + 4));
    let outcome = game.outcome().unwrap();
    assert_eq!(
        outcome.scores,
        game.money.iter().map(|&m| m as i64).collect::<Vec<_>>()
    );
    let tied = crate::Outcome::from_scores(vec![50, 70, 50, 10], true);
    assert_eq!(tied.ranks, vec![2, 1, 2, 4]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn random_legal_games_hold_the_invariants(players in 3usize..=6, seed in any::<u64>(), play_seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(play_seed);
        let (game, actions, events) = random_game(players, seed, &mut rng);
        // Chips per round: the table totals grow by chips × value × players each round.
        let mut expected_total = 0;
        let mut payouts = 0;
        for event in &events {
            if let Event::Payout { round, tables, money } = event {
                let r = *round as usize - 1;
                expected_total += CHIPS_PER_PLAYER[r] * CHIP_VALUES[r] * players as u32;
                payouts += 1;
                let paid: u64 = tables.iter().flat_map(|t| t.paid.iter()).sum();
                prop_assert!(money.iter().sum::<u64>() >= paid);
            }
        }
        prop_assert_eq!(payouts, 4);
        prop_assert_eq!(game.table_chips.iter().sum::<u32>(), expected_total);
        // Every card placed: 3 per player per round.
        let card_actions = actions.iter().filter(|a| matches!(a, Action::Card { .. })).count();
        prop_assert_eq!(card_actions, 3 * players * ROUNDS);
        prop_assert_eq!(game.revealed.len() + game.never_revealed.len(), 3 * players * ROUNDS);
    }
}

#[test]
fn a_seat_played_by_default_actions_does_no_better_than_random_play() {
    // Seat 0 is played by the referee's default action, seats 1 and 2 by random bots; over
    // 600 games its share of wins stays near a third (random play), far from a winning strategy.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut wins = 0.0;
    let games = 600;
    for seed in 0..games {
        let mut game = new_game(3, seed);
        while let Some(turn) = game.to_move() {
            let action = if turn.seat == 0 {
                game.default_action()
            } else {
                *game.legal_actions().unwrap().choose(&mut rng).unwrap()
            };
            play(&mut game, action);
        }
        let ranks = game.outcome().unwrap().ranks;
        if ranks[0] == 1 {
            wins += 1.0 / ranks.iter().filter(|&&r| r == 1).count() as f64;
        }
    }
    let share = wins / games as f64;
    assert!(
        (0.25..0.42).contains(&share),
        "default play won {share:.3} of the games"
    );
}
