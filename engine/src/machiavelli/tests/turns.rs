//! The turns: deal, draw, pass, skip and its penalty, plays and the invalid-play penalty,
//! closing, the empty-stock ending, several hands and the outcome.

use super::{cards, melds};
use crate::machiavelli::cards::Card;
use crate::machiavelli::{Machiavelli, Options};
use crate::{Addressed, Audience, Game};
use protocol::machiavelli::{Action, DrawReason, Event, True};

fn new(players: usize, options: Options, seed: u64) -> Machiavelli {
    Machiavelli::new(&options, players, seed).unwrap()
}

fn play(game: &mut Machiavelli, action: Action) -> Vec<Addressed<Event>> {
    let mut events = Vec::new();
    game.play(&action, &mut events).unwrap();
    events
}

/// A hand as the engine keeps it: sorted.
fn hand(text: &str) -> Vec<Card> {
    let mut cards = cards(text);
    cards.sort_unstable();
    cards
}

fn draw() -> Action {
    Action::Draw(True)
}

fn skip() -> Action {
    Action::Skip(True)
}

fn table(text: &str) -> Action {
    Action::Play(
        text.split('|')
            .map(|m| m.split_whitespace().map(String::from).collect())
            .collect(),
    )
}

/// Every card of the match: hands, table and stock.
fn all_cards(game: &Machiavelli) -> usize {
    game.hands.iter().map(Vec::len).sum::<usize>()
        + game.table.iter().map(Vec::len).sum::<usize>()
        + game.stock.len()
}

#[test]
fn a_hand_is_dealt_from_the_seed_the_seat_after_the_dealer_first() {
    for players in 2..=6 {
        let game = new(players, Options::default(), 7);
        assert_eq!(all_cards(&game), 104);
        assert!(game.hands.iter().all(|h| h.len() == 13 && h.is_sorted()));
        assert_eq!(game.stock.len(), 104 - 13 * players);
        let turn = game.to_move().unwrap();
        assert_eq!(turn.seat, (game.dealer() + 1) % players);
        assert_eq!(turn.phase, "turn");
        assert_eq!(game, new(players, Options::default(), 7));
    }
    let options = Options {
        jokers: true,
        cards: 10,
        ..Options::default()
    };
    let game = new(4, options, 7);
    assert_eq!(all_cards(&game), 108);
    assert!(game.hands.iter().all(|h| h.len() == 10));
    // Dealers differ between seeds.
    let dealers: std::collections::BTreeSet<usize> = (0..40)
        .map(|s| new(4, Options::default(), s).dealer())
        .collect();
    assert_eq!(dealers.len(), 4);
}

#[test]
fn the_options_are_checked() {
    for bad in [
        Options {
            cards: 9,
            ..Options::default()
        },
        Options {
            cards: 14,
            ..Options::default()
        },
        Options {
            hands: 0,
            ..Options::default()
        },
        Options {
            jokers_per_meld: 0,
            ..Options::default()
        },
    ] {
        assert!(Machiavelli::new(&bad, 3, 1).is_err(), "{bad:?}");
    }
    assert!(Machiavelli::new(&Options::default(), 1, 1).is_err());
    assert!(Machiavelli::new(&Options::default(), 7, 1).is_err());
}

#[test]
fn a_draw_takes_the_top_card_seen_only_by_the_drawer() {
    let mut game = new(3, Options::default(), 1);
    let seat = game.to_play;
    let top = *game.stock.last().unwrap();
    let events = play(&mut game, draw());
    assert!(game.hands[seat].contains(&top));
    assert_eq!(game.hands[seat].len(), 14);
    assert_eq!(game.stock.len(), 104 - 39 - 1);
    assert_eq!(
        events,
        vec![
            Addressed {
                to: Audience::All,
                event: Event::Drew {
                    seat,
                    count: 1,
                    reason: DrawReason::Draw
                }
            },
            Addressed {
                to: Audience::Seat(seat),
                event: Event::YouDrew { cards: vec![top] }
            },
        ]
    );
    assert_eq!(game.to_play, (seat + 1) % 3);
}

#[test]
fn one_skip_per_hand_is_free_the_second_draws_two() {
    let mut game = new(2, Options::default(), 3);
    let seat = game.to_play;
    assert!(game.view(seat).skip_available);
    let events = play(&mut game, skip());
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event, Event::Skipped { seat });
    assert_eq!(game.hands[seat].len(), 13);
    assert!(!game.view(seat).skip_available);
    play(&mut game, draw());
    let events = play(&mut game, skip());
    assert_eq!(
        events[0].event,
        Event::Drew {
            seat,
            count: 2,
            reason: DrawReason::SkipPenalty
        }
    );
    assert_eq!(game.hands[seat].len(), 15);
    assert_eq!(game.to_play, 1 - seat);
}

#[test]
fn a_valid_play_moves_cards_from_the_hand_to_a_canonical_table() {
    let mut game = new(2, Options::default(), 5);
    let seat = game.to_play;
    game.hands[seat] = hand("3C 4C 5C 9H QS");
    game.table = melds("QC QD QH");
    let events = play(&mut game, table("QC QD QH QS | 5C 3C 4C"));
    assert_eq!(game.hands[seat], cards("9H"));
    assert_eq!(game.table, melds("3C 4C 5C | QC QD QH QS"));
    assert_eq!(
        events,
        vec![Addressed {
            to: Audience::All,
            event: Event::Played {
                seat,
                table: melds("3C 4C 5C | QC QD QH QS"),
                from_hand: cards("3C 4C 5C QS"),
                hand_size: 1,
            }
        }]
    );
    assert_eq!(game.to_play, 1 - seat);
}

#[test]
fn an_invalid_play_leaves_the_table_and_draws_three_told_to_the_player_alone() {
    let mut game = new(3, Options::default(), 5);
    let seat = game.to_play;
    game.hands[seat] = hand("9S QD QS 2H");
    game.table = melds("10H 10D 10S | JH JD JS | QH QD QC");
    let before = game.table.clone();
    let top3: Vec<_> = game.stock.iter().rev().take(3).copied().collect();
    let events = play(&mut game, table("10H JH QH | 10D JD QD | 9S 10S JS | QC"));
    assert_eq!(game.table, before);
    assert_eq!(game.hands[seat].len(), 7);
    assert_eq!(
        events,
        vec![
            Addressed {
                to: Audience::Seat(seat),
                event: Event::PlayRefused {
                    message: "meld 4 (QC) has one card; a meld needs three".into()
                }
            },
            Addressed {
                to: Audience::All,
                event: Event::Drew {
                    seat,
                    count: 3,
                    reason: DrawReason::InvalidPlay
                }
            },
            Addressed {
                to: Audience::Seat(seat),
                event: Event::YouDrew { cards: top3 }
            },
        ]
    );
    // With two cards left in the stock, the penalty takes two.
    let seat = game.to_play;
    let keep = game.stock.split_off(game.stock.len() - 2);
    game.stock = keep;
    let events = play(&mut game, table("1X"));
    assert_eq!(
        events[1].event,
        Event::Drew {
            seat,
            count: 2,
            reason: DrawReason::InvalidPlay
        }
    );
}

#[test]
fn the_guides_completed_play_is_accepted() {
    let mut game = new(3, Options::default(), 5);
    let seat = game.to_play;
    game.hands[seat] = hand("9S QD QS 2H");
    game.table = melds("10H 10D 10S | JH JD JS | QH QD QC");
    play(
        &mut game,
        table("10H JH QH | 10D JD QD | 9S 10S JS | QC QD QS"),
    );
    assert_eq!(game.hands[seat], cards("2H"));
    assert_eq!(game.table.len(), 4);
}

#[test]
fn emptying_the_hand_closes_and_the_others_score_their_cards() {
    let options = Options {
        hands: 2,
        jokers: true,
        ..Options::default()
    };
    let mut game = new(3, options, 9);
    let seat = game.to_play;
    let dealer = game.dealer();
    game.hands[seat] = hand("3C 4C 5C");
    game.hands[(seat + 1) % 3] = hand("AS KH 10D 2C JK");
    game.hands[(seat + 2) % 3] = hand("QS");
    let events = play(&mut game, table("3C 4C 5C"));
    let end = events
        .iter()
        .find_map(|e| match &e.event {
            Event::HandEnd {
                hand_number,
                closer,
                points,
                totals,
                hands_left,
            } => Some((
                *hand_number,
                *closer,
                points.clone(),
                totals.clone(),
                hands_left.clone(),
            )),
            _ => None,
        })
        .expect("the hand ends");
    let mut expected = vec![0; 3];
    expected[(seat + 1) % 3] = 11 + 10 + 10 + 2 + 25;
    expected[(seat + 2) % 3] = 10;
    assert_eq!(end.0, 1);
    assert_eq!(end.1, Some(seat));
    assert_eq!(end.2, expected);
    assert_eq!(end.3, expected);
    assert_eq!(end.4[(seat + 1) % 3], cards("2C 10D KH AS JK"));
    assert_eq!(game.deals[0][(seat + 2) % 3].len(), 13);
    // The second hand: the next dealer, a new deal, an empty table.
    assert_eq!(game.hand_number, 2);
    assert_eq!(game.dealer(), (dealer + 1) % 3);
    assert!(game.table.is_empty());
    assert_eq!(all_cards(&game), 108);
    assert_eq!(game.view(0).revealed, end.4);
    assert!(matches!(events.last().unwrap().event, Event::Dealt { .. }));
    assert!(game.to_move().is_some());
}

#[test]
fn with_an_empty_stock_a_full_cycle_without_a_play_ends_the_hand() {
    let mut game = new(3, Options::default(), 11);
    game.stock.truncate(1);
    let first = game.to_play;
    // The last card is drawn: the cycle counts from the next turn.
    play(&mut game, draw());
    assert!(game.stock.is_empty());
    let events = play(&mut game, draw());
    assert_eq!(
        events[0].event,
        Event::Passed {
            seat: (first + 1) % 3
        }
    );
    play(&mut game, skip());
    assert!(game.to_move().is_some());
    let events = play(&mut game, table("1X"));
    assert!(matches!(
        events.last().unwrap().event,
        Event::HandEnd { closer: None, .. }
    ));
    assert!(game.to_move().is_none());
    let outcome = game.outcome().unwrap();
    let points: Vec<i64> = game
        .hands
        .iter()
        .map(|h| crate::machiavelli::cards::hand_points(h))
        .collect();
    assert_eq!(outcome.scores, points);
}

#[test]
fn a_play_restarts_the_cycle() {
    let mut game = new(2, Options::default(), 11);
    game.stock.clear();
    let seat = game.to_play;
    play(&mut game, draw());
    game.hands[1 - seat].extend(cards("3C 4C 5C"));
    game.hands[1 - seat].sort_unstable();
    play(&mut game, table("3C 4C 5C"));
    play(&mut game, draw());
    assert!(game.to_move().is_some());
    play(&mut game, draw());
    assert!(game.to_move().is_none());
}

#[test]
fn the_lowest_total_wins_and_ties_share_the_best_rank() {
    let mut game = new(3, Options::default(), 2);
    let seat = game.to_play;
    game.hands[seat] = hand("3C 4C 5C");
    game.hands[(seat + 1) % 3] = hand("2C 3D");
    game.hands[(seat + 2) % 3] = hand("5S");
    play(&mut game, table("3C 4C 5C"));
    let outcome = game.outcome().unwrap();
    let mut ranks = vec![0; 3];
    ranks[seat] = 1;
    ranks[(seat + 1) % 3] = 2;
    ranks[(seat + 2) % 3] = 2;
    assert_eq!(outcome.ranks, ranks);
    assert!(game.check(&draw()).is_err());
}

#[test]
fn the_view_shows_the_seats_own_hand_and_the_public_rest() {
    let game = new(4, Options::default(), 13);
    for seat in 0..4 {
        let view = game.view(seat);
        assert_eq!((view.you, view.players), (seat, 4));
        assert_eq!(view.hand, game.hands[seat]);
        assert_eq!(view.hand_sizes, vec![13; 4]);
        assert_eq!(view.stock, 104 - 52);
        assert_eq!(view.hand_number, 1);
        assert_eq!(view.revealed, vec![Vec::new(); 4]);
        assert!(view.skip_available);
    }
    let json = serde_json::to_value(game.view(0)).unwrap();
    assert!(json.get("legal").is_none());
}

#[test]
fn resampling_keeps_what_the_seat_knows_and_redraws_the_rest() {
    let game = new(4, Options::default(), 17);
    let twin = game.resample_hidden(1, 99);
    assert_eq!(twin.view(1), game.view(1));
    assert_ne!(twin.hands[0], game.hands[0]);
    assert_eq!(all_cards(&twin), 104);
    let mut a: Vec<_> = game.hands.concat();
    a.extend(&game.stock);
    a.sort_unstable();
    let mut b: Vec<_> = twin.hands.concat();
    b.extend(&twin.stock);
    b.sort_unstable();
    assert_eq!(a, b);
}

#[test]
fn a_wrong_shape_is_told_apart_from_an_invalid_play() {
    let game = new(2, Options::default(), 1);
    for bad in [
        serde_json::json!({"draw": false}),
        serde_json::json!({"draw": true, "skip": true}),
        serde_json::json!({"play": "QC QD QH"}),
        serde_json::json!({"play": [["QC", 5]]}),
        serde_json::json!("draw"),
    ] {
        assert!(game.parse_action(&bad).is_err(), "{bad}");
    }
    let odd = serde_json::json!({"play": [["1X"], []]});
    assert!(game.parse_action(&odd).is_ok());
    assert!(game.check(&game.parse_action(&odd).unwrap()).is_ok());
}
