//! A tournament run from Rust instead of the command line: the four Python sample bots of
//! Vabanque, 24 matches, how the bots run, a line per match, the winner at the end. The bots run
//! as the default [`ProcessPolicy`](referee::policy::ProcessPolicy) has them, as the command
//! line does: in the sandbox where it works, as uids of their own when run as root, with the
//! default limits. Ctrl-C stops it; run it again to resume.
//!
//! `cargo run --example run_tournament -p referee -- [OUT_DIR]`

use referee::policy::BotProcesses;
use referee::seat::{BotSpec, Launch};
use referee::tournament::{self, MatchResult, Outcome, Reporter, ScheduleKind, Snapshot};

/// Prints how the bots run, then a line per finished match.
struct Log;

impl Reporter for Log {
    fn processes(&mut self, processes: &BotProcesses) {
        println!("{}", processes.sandbox());
        for notice in &processes.notices {
            println!("{}", notice.short());
        }
    }

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
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-bots/python");
    let bot = |name: &str, script: &str| {
        let script = samples.join(script).display().to_string();
        BotSpec::new(
            Some(name.into()),
            Launch::Command(vec!["python3".into(), script]),
        )
    };
    let config = tournament::TournamentConfig {
        game: engine::GameKind::Vabanque,
        options: serde_json::json!({}),
        bots: vec![
            bot("heuristic", "vabanque_heuristic.py")?,
            bot("random-1", "vabanque_random.py")?,
            bot("random-2", "vabanque_random.py")?,
            bot("random-3", "vabanque_random.py")?,
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
        process: Default::default(),
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
