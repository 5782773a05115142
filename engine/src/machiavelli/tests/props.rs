//! Property tests: whole matches with plays valid and invalid, checking after every turn that
//! every card is somewhere exactly once, that the table holds only valid melds in canonical
//! order, and that a refused play changes nothing but the penalty; and one meld's check against
//! the order of its cards.

use crate::Game;
use crate::machiavelli::bots::{Baseline, Heuristic};
use crate::machiavelli::cards::{Card, deck};
use crate::machiavelli::meld::check_meld;
use crate::machiavelli::{Machiavelli, Options};
use proptest::prelude::*;
use protocol::machiavelli::{Action, Event, True};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A play, valid or not, made from the table and the hand of the seat to move.
fn random_play(game: &Machiavelli, rng: &mut ChaCha8Rng) -> Action {
    let seat = game.to_play;
    let hand = &game.hands[seat];
    let mut table: Vec<Vec<String>> = game
        .table
        .iter()
        .map(|m| m.iter().map(Card::to_string).collect())
        .collect();
    match rng.random_range(0..6) {
        // Hand cards slipped into melds (an attachment, valid or not) or laid alone.
        0 | 1 if !hand.is_empty() => {
            for _ in 0..rng.random_range(1..=3) {
                let card = hand.choose(rng).expect("a card").to_string();
                if table.is_empty() || rng.random_bool(0.3) {
                    table.push(vec![card]);
                } else {
                    let at = rng.random_range(0..table.len());
                    table[at].push(card);
                }
            }
        }
        // A card of the table left out.
        2 if !table.is_empty() => {
            let at = rng.random_range(0..table.len());
            table[at].pop();
        }
        // A card that may not be in the hand.
        3 => {
            let card = deck(true).choose(rng).expect("a card").to_string();
            table.push(vec![card.clone(), card.clone(), card]);
        }
        // Not a card.
        4 => table.push(vec!["1X".into(), "QS".into(), "KS".into()]),
        _ => {
            table.shuffle(rng);
        }
    }
    Action::Play(table)
}

/// The action of a random kind for the seat to move.
fn random_action(game: &Machiavelli, rng: &mut ChaCha8Rng) -> Action {
    let view = game.view(game.to_play);
    match rng.random_range(0..10) {
        0..=2 => Action::Draw(True),
        3 => Action::Skip(True),
        4 | 5 => Heuristic::choose(&view),
        6 => Baseline::choose(&view),
        _ => random_play(game, rng),
    }
}

/// Every card of the game is in a hand, on the table or in the stock, once.
fn conserved(game: &Machiavelli) -> Result<(), TestCaseError> {
    let mut all: Vec<Card> = game.hands.concat();
    all.extend(game.table.iter().flatten());
    all.extend(&game.stock);
    all.sort_unstable();
    prop_assert_eq!(all, deck(game.options.jokers));
    Ok(())
}

/// Every meld on the table is valid and canonical, the melds sorted; every hand sorted.
fn table_holds(game: &Machiavelli) -> Result<(), TestCaseError> {
    let limit = game.options.jokers_per_meld as usize;
    for meld in &game.table {
        prop_assert_eq!(check_meld(meld, limit), Ok(meld.clone()));
    }
    prop_assert!(game.table.is_sorted());
    prop_assert!(game.hands.iter().all(|h| h.is_sorted()));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_matches_conserve_cards_and_keep_the_table_valid(
        players in 2usize..=6,
        jokers in any::<bool>(),
        cards in 10u32..=13,
        hands in 1u32..=2,
        jokers_per_meld in 1u32..=2,
        seed in any::<u64>(),
        play_seed in any::<u64>(),
    ) {
        let options = Options { jokers, cards, hands, jokers_per_meld };
        let mut game = Machiavelli::new(&options, players, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(play_seed);
        conserved(&game)?;
        let mut turns = 0;
        while game.to_move().is_some() {
            turns += 1;
            prop_assert!(turns < 10_000, "the match does not end");
            let action = random_action(&game, &mut rng);
            let before = game.clone();
            let mut events = Vec::new();
            game.play(&action, &mut events).unwrap();
            conserved(&game)?;
            table_holds(&game)?;
            let refused = events.iter().any(|e| matches!(e.event, Event::PlayRefused { .. }));
            if refused {
                // Nothing changes but the penalty: the same state as after any refused play.
                let mut other = before.clone();
                other.play(&Action::Play(vec![vec!["1X".into()]]), &mut Vec::new()).unwrap();
                prop_assert_eq!(&game, &other);
                if game.hand_number == before.hand_number {
                    prop_assert_eq!(&game.table, &before.table);
                }
            }
        }
        prop_assert!(game.outcome().is_some());
    }

    #[test]
    fn a_melds_check_does_not_depend_on_the_order_of_its_cards(
        indices in proptest::collection::vec(0usize..53, 0..16),
        limit in 1usize..=3,
        seed in any::<u64>(),
    ) {
        let meld: Vec<Card> = indices.iter().map(|&i| Card::from_index(i).unwrap()).collect();
        let mut shuffled = meld.clone();
        shuffled.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let first = check_meld(&meld, limit);
        let second = check_meld(&shuffled, limit);
        prop_assert_eq!(first.is_ok(), second.is_ok());
        if let (Ok(a), Ok(b)) = (first, second) {
            prop_assert_eq!(&a, &b);
            // The canonical order is the same cards, and is itself valid and canonical.
            let (mut x, mut y) = (a.clone(), meld.clone());
            x.sort_unstable();
            y.sort_unstable();
            prop_assert_eq!(x, y);
            prop_assert_eq!(check_meld(&a, limit), Ok(a.clone()));
        }
    }

    #[test]
    fn valid_runs_and_sets_are_accepted(
        suit in 0usize..4,
        lo in 1u8..=12,
        len in 3u8..=13,
        jokers in 0usize..=2,
        seed in any::<u64>(),
    ) {
        let suit = protocol::machiavelli::Suit::ALL[suit];
        let hi = (lo + len - 1).min(14);
        prop_assume!(hi - lo + 1 >= 3);
        let mut run: Vec<Card> = (lo..=hi)
            .map(|r| Card::new(if r == 14 { 1 } else { r }, suit))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..jokers.min(run.len() - 1) {
            let at = rng.random_range(0..run.len());
            run[at] = Card::JOKER;
        }
        run.shuffle(&mut rng);
        prop_assert!(check_meld(&run, 2).is_ok(), "{:?}", run);
    }
}
