//! The heuristic bots beat the random ones clearly.

use engine::vabanque::{Options, Vabanque};
use referee::runner::{MatchLog, MatchSettings, Player, play_match};
use referee::seat::Seat;

fn builtin(name: &str, seat: &str) -> Player<Vabanque> {
    Player::new(
        seat,
        format!("builtin:{name}"),
        Seat::Builtin(engine::strategy::builtin::<Vabanque>(name).unwrap()),
    )
}

#[test]
fn the_builtin_heuristic_beats_three_random_bots_over_300_matches() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut wins, mut rank_sum) = (0.0, 0.0);
    let matches = 300;
    for m in 0..matches {
        // Rotate the heuristic through the seats.
        let seat = m % 4;
        let mut players: Vec<Player<Vabanque>> = (0..4)
            .map(|s| {
                builtin(
                    if s == seat { "heuristic" } else { "random" },
                    &format!("p{s}"),
                )
            })
            .collect();
        let settings = MatchSettings {
            match_id: m.to_string(),
            seed: m as u64,
            max_faults: 3,
            policy: Default::default(),
        };
        let record = runtime
            .block_on(play_match(
                &settings,
                &Options::default(),
                &mut players,
                &mut MatchLog::none(),
            ))
            .unwrap();
        let rank = record.ranks[seat];
        rank_sum += f64::from(rank);
        if rank == 1 {
            wins += 1.0 / record.ranks.iter().filter(|&&r| r == 1).count() as f64;
        }
    }
    let (win_rate, mean_rank) = (wins / matches as f64, rank_sum / matches as f64);
    eprintln!("heuristic vs 3 random: win rate {win_rate:.3}, mean rank {mean_rank:.2}");
    assert!(win_rate > 0.5, "win rate {win_rate}");
    assert!(mean_rank < 1.8, "mean rank {mean_rank}");
}
