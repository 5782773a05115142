//! A tournament run from Rust instead of the command line: four built-in Vabanque bots, 24
//! matches, a line per match, the winner at the end. Ctrl-C stops it; run it again to resume.
//!
//! `cargo run --example run_tournament -p referee -- [OUT_DIR]`

use referee::seat::{BotSpec, Launch, ProcessOptions};
use referee::tournament::{self, MatchResult, Outcome, Reporter, ScheduleKind, Snapshot};

/// Prints a line per finished match.
struct Log;

impl Reporter for Log {
    fn match_finished(&mut self, result: &MatchResult, standings: &Snapshot) {
        let leader = &standings.rows[0];
        println!(
            "match {:>2} done; {} leads with {} wins",
            result.id, leader.bot, leader.wins
        );
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or("tournament-example-out".into());
    let bot = |name: &str, builtin: &str| {
        BotSpec::new(Some(name.into()), Launch::Builtin(builtin.into()))
    };
    let config = tournament::TournamentConfig {
        game: engine::GameKind::Vabanque,
        options: serde_json::json!({}),
        bots: vec![
            bot("heuristic", "heuristic")?,
            bot("random-1", "random")?,
            bot("random-2", "random")?,
            bot("random-3", "random")?,
        ],
        players: Some(4),
        matches: Some(24),
        seed: 2026,
        format: ScheduleKind::RoundRobin.into(),
        candidate: 0,
        duplicate: true,
        shard: None,
        resume: true,
        out: out.into(),
        logs: false,
        jobs: 2,
        pin: false,
        max_faults: 3,
        policy: Default::default(),
        process: ProcessOptions::default(),
    };
    let stop = async {
        tokio::signal::ctrl_c().await.ok();
    };
    match tournament::run(&config, &mut Log, stop).await? {
        Outcome::Finished(board) => println!("{} is first", board.standings[0].bot),
        Outcome::Interrupted { written } => println!("stopped after {written} matches"),
    }
    Ok(())
}
