//! Criterion benchmarks of the referee's hot paths: a whole game in the engine, serializing a
//! request (view and legal actions) for a bot, and parsing a bot's reply.
//!
//! Run with `cargo bench -p referee`; `referee bench` measures the whole system.

use criterion::{Criterion, criterion_group, criterion_main};
use engine::Game;
use engine::vabanque::{Options, Vabanque};
use protocol::{Request, ToBot};
use std::hint::black_box;

/// A Vabanque game a few decisions in, for the view benchmarks.
fn midgame() -> Vabanque {
    let mut game = Vabanque::new(&Options::default(), 4, 7).unwrap();
    let mut events = Vec::new();
    for _ in 0..30 {
        let action = game.default_action();
        game.play(&action, &mut events).unwrap();
    }
    game
}

fn engine(c: &mut Criterion) {
    c.bench_function("vabanque: one game of 4, default actions", |b| {
        let mut seed = 0u64;
        let mut events = Vec::new();
        b.iter(|| {
            seed += 1;
            let mut game = Vabanque::new(&Options::default(), 4, seed).unwrap();
            while game.to_move().is_some() {
                let action = game.default_action();
                events.clear();
                game.play(&action, &mut events).unwrap();
            }
            black_box(game.outcome())
        });
    });
}

fn view(c: &mut Criterion) {
    let game = midgame();
    let seat = game.to_move().unwrap().seat;
    c.bench_function("vabanque: build the view and legal actions", |b| {
        b.iter(|| black_box((game.view(seat), game.legal_actions())))
    });
    c.bench_function("vabanque: serialize a request line", |b| {
        let view = game.view(seat);
        let legal = game.legal_actions();
        let mut buffer = Vec::with_capacity(2048);
        b.iter(|| {
            buffer.clear();
            let request = ToBot::<_, _, ()>::Request(Request {
                id: 41,
                phase: "chip".to_string(),
                view: &view,
                delta: false,
                legal: legal.as_ref().map(|l| l.iter().collect()),
                time_left_ms: 1000,
            });
            serde_json::to_writer(&mut buffer, &request).unwrap();
            black_box(buffer.len())
        });
    });
}

fn reply(c: &mut Criterion) {
    let game = midgame();
    let line = br#"{"type":"action","id":41,"action":{"table":3}}"#;
    c.bench_function("reply: parse a bot's action line", |b| {
        b.iter(|| black_box(referee::seat::reply::parse(black_box(line)).unwrap()))
    });
    c.bench_function("reply: parse the line and the game's action", |b| {
        b.iter(
            || match referee::seat::reply::parse(black_box(line)).unwrap() {
                protocol::FromBot::Action(a) => black_box(game.parse_action(&a.action).ok()),
                protocol::FromBot::Hello(_) => None,
            },
        )
    });
}

criterion_group!(benches, engine, view, reply);
criterion_main!(benches);
