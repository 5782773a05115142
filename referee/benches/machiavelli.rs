//! Criterion benchmarks of Machiavelli's hot paths: checking a submitted table (the check runs
//! at every play of every bot; the largest tables are the worst case) and the heuristic bot's
//! decision.
//!
//! Run with `cargo bench -p referee --bench machiavelli`.

use criterion::{Criterion, criterion_group, criterion_main};
use engine::Game;
use engine::machiavelli::bots::Heuristic;
use engine::machiavelli::cards::Card;
use engine::machiavelli::table::check_table;
use engine::machiavelli::{Machiavelli, Options};
use protocol::machiavelli::Suit;
use std::hint::black_box;

const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

fn suited(ranks: &[&str], suit: char) -> Vec<String> {
    ranks.iter().map(|r| format!("{r}{suit}")).collect()
}

/// All 108 cards in 12 long runs: per suit, A..6 with a joker (standing for the 7), 7..K, and
/// A..K. Every run is checked in full, the jokers placed.
fn long_runs() -> Vec<Vec<String>> {
    let mut table = Vec::new();
    for suit in ['C', 'D', 'H', 'S'] {
        let mut low = suited(&RANKS[..6], suit);
        low.push("JK".into());
        table.push(low);
        table.push(suited(&RANKS[6..], suit));
        table.push(suited(&RANKS, suit));
    }
    table
}

/// All 108 cards in 32 short runs: per suit and copy A-2-3, 4-5-6, 7-8-9, 10-J-Q-K, a joker
/// (standing for the high ace) after four of the last.
fn short_runs() -> Vec<Vec<String>> {
    let mut table = Vec::new();
    for suit in ['C', 'D', 'H', 'S'] {
        for copy in 0..2 {
            for chunk in [&RANKS[..3], &RANKS[3..6], &RANKS[6..9], &RANKS[9..]] {
                table.push(suited(chunk, suit));
            }
            if copy == 0 {
                table.last_mut().expect("a run").push("JK".into());
            }
        }
    }
    table
}

/// The table before the play that completes `table`: every card but the king of spades, which
/// is in the hand (the last meld, a whole run of spades, is then A..Q).
fn before(table: &[Vec<String>]) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut old: Vec<Vec<Card>> = table
        .iter()
        .map(|m| m.iter().map(|c| Card::parse(c).expect("a card")).collect())
        .collect();
    let king = Card::new(13, Suit::Spades);
    let last = old
        .iter_mut()
        .rev()
        .find(|m| m.len() > 3 && m.last() == Some(&king))
        .expect("a run ending with the king of spades");
    last.pop();
    (old, vec![king])
}

fn check(c: &mut Criterion) {
    for (name, table) in [
        ("12 long runs", long_runs()),
        ("32 short runs", short_runs()),
    ] {
        let (old, hand) = before(&table);
        assert!(check_table(&table, &old, &hand, 1).is_ok());
        c.bench_function(
            &format!("machiavelli: check a table of 108 cards in {name}, valid"),
            |b| b.iter(|| black_box(check_table(black_box(&table), &old, &hand, 1)).is_ok()),
        );
    }
    // The same cards, the spades' joker and a five swapped, the meld with two fives last.
    let mut table = long_runs();
    table[9][6] = "5S".into();
    table[11][4] = "JK".into();
    let broken = table.remove(9);
    table.push(broken);
    let (old, hand) = before(&long_runs());
    let refused = check_table(&table, &old, &hand, 1);
    assert!(refused.is_err_and(|m| m.starts_with("meld 12")));
    c.bench_function(
        "machiavelli: check a table of 108 cards, its last meld refused",
        |b| b.iter(|| black_box(check_table(black_box(&table), &old, &hand, 1)).is_err()),
    );
}

/// A 4-player match with jokers, `turns` decisions in, every seat played by the heuristic.
fn midgame(turns: usize) -> Machiavelli {
    let options = Options {
        jokers: true,
        ..Options::default()
    };
    let mut game = Machiavelli::new(&options, 4, 3).expect("a valid setup");
    let mut events = Vec::new();
    for _ in 0..turns {
        let Some(turn) = game.to_move() else { break };
        let action = Heuristic::choose(&game.view(turn.seat));
        game.play(&action, &mut events)
            .expect("every action is legal");
    }
    game
}

fn heuristic(c: &mut Criterion) {
    let game = midgame(24);
    let view = game.view(game.to_move().expect("the match goes on").seat);
    c.bench_function(
        &format!(
            "machiavelli: a heuristic decision, {} cards on the table, {} in hand",
            view.table.iter().map(Vec::len).sum::<usize>(),
            view.hand.len()
        ),
        |b| b.iter(|| black_box(Heuristic::choose(black_box(&view)))),
    );
}

criterion_group!(benches, check, heuristic);
criterion_main!(benches);
