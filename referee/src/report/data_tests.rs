//! The report's data against the leaderboard it comes from: real tournaments of built-in bots
//! (round-robin and Nava), and faults and stderr ranges added to their results.

use super::*;
use crate::report::test_tournaments::{FIELD, played};
use crate::runner::FaultRecord;
use crate::tournament::results::StderrRange;
use crate::tournament::results::read_back;
use crate::tournament::{FormatStandings, ScheduleKind};
use engine::GameKind;

#[test]
fn the_last_rating_of_each_bot_is_the_leaderboards_and_the_matrix_is_its_own() {
    let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, false);
    let dir = tmp.path().to_path_buf();
    let report = build(&dir).unwrap();
    let ReadBack { meta, results, .. } = read_back(&dir).unwrap();
    let board = leaderboard(&meta, &results).unwrap();
    assert_eq!(report.board, board);
    assert_eq!(report.board.head_to_head, board.head_to_head);
    assert_eq!(report.table, board_table(&board));
    assert_eq!(report.ratings.len(), board.standings.len());
    for (history, standing) in report.ratings.iter().zip(&board.standings) {
        assert_eq!(history.bot, standing.bot, "in the leaderboard's order");
        assert_eq!(history.points.len() as u64, standing.matches);
        let last = history.points.last().unwrap();
        assert_eq!((last.mu, last.sigma), (standing.mu, standing.sigma));
        assert!(history.points.windows(2).all(|w| w[0].after < w[1].after));
    }
    let last = report
        .ratings
        .iter()
        .map(|h| h.points.last().unwrap().after);
    assert_eq!(last.max(), Some(24), "the last match is the 24th applied");
    for (bot, standing) in report.bots.iter().zip(&board.standings) {
        assert_eq!(
            (bot.bot.as_str(), bot.rank),
            (standing.bot.as_str(), standing.rank)
        );
        assert_eq!(bot.matches.len() as u64, standing.matches);
        assert!(bot.matches.windows(2).all(|w| w[0].id < w[1].id));
        assert!(bot.faults.is_empty() && bot.matches.iter().all(|m| !m.log));
    }
    assert_eq!(report.vp_rounds, None);
}

#[test]
fn faults_per_bot_carry_their_messages_and_the_stderr_of_their_match() {
    let tmp = played(GameKind::Vabanque, &FIELD, ScheduleKind::RoundRobin, false);
    let dir = tmp.path().to_path_buf();
    let ReadBack {
        dir: opened,
        meta,
        mut results,
    } = read_back(&dir).unwrap();
    // r2 times out in two matches; its stderr file holds three matches, one range each.
    let stderr = dir.join("stderr");
    std::fs::write(
        stderr.join("r2.w0.1.stderr"),
        "first match\nsecond match\nthird\n",
    )
    .unwrap();
    let faulty: Vec<u64> = results
        .values()
        .filter(|r| r.record.players.iter().any(|p| p == "r2"))
        .map(|r| r.id)
        .take(3)
        .collect();
    let spans = [(0, 12), (12, 25), (25, 31)];
    for (k, (&id, (from, to))) in faulty.iter().zip(spans).enumerate() {
        let result = results.get_mut(&id).unwrap();
        let seat = result
            .record
            .players
            .iter()
            .position(|p| p == "r2")
            .unwrap();
        let mut ranges = vec![None; result.record.players.len()];
        ranges[seat] = Some(StderrRange {
            file: "r2.w0.1.stderr".into(),
            from,
            to,
        });
        result.stderr = ranges;
        if k < 2 {
            result.record.faults.push(FaultRecord {
                seat,
                decision: Some(k as u64),
                turn: None,
                phase: None,
                outside: None,
                fault: FaultKind::Timeout,
                message: format!("no reply in match {id}"),
                line: None,
            });
        }
    }
    let report = of_results(&opened, meta.clone(), &results).unwrap();
    let board = leaderboard(&meta, &results).unwrap();
    for (bot, standing) in report.bots.iter().zip(&board.standings) {
        assert_eq!(
            bot.faults.len() as u64,
            standing.fault_total(),
            "{}",
            bot.bot
        );
    }
    let r2 = report.bots.iter().find(|b| b.bot == "r2").unwrap();
    let messages: Vec<&str> = r2.faults.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            format!("no reply in match {}", faulty[0]),
            format!("no reply in match {}", faulty[1])
        ]
    );
    let excerpts: Vec<Option<&str>> = faulty
        .iter()
        .map(|id| {
            let m = r2.matches.iter().find(|m| m.id == *id).unwrap();
            m.stderr.as_ref().map(|e| e.text.as_str())
        })
        .collect();
    assert_eq!(
        excerpts,
        [Some("first match\n"), Some("second match\n"), None],
        "each faulty match its own range; none where the bot did not fault"
    );
}

#[test]
fn a_nava_report_adds_up_victory_points_round_by_round() {
    let bots: Vec<(String, &str)> = (1..=9)
        .map(|i| {
            (
                format!("b{i}"),
                if i % 3 == 0 { "heuristic" } else { "baseline" },
            )
        })
        .collect();
    let field: Vec<(&str, &str)> = bots.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let tmp = played(GameKind::Machiavelli, &field, ScheduleKind::Nava, false);
    let dir = tmp.path().to_path_buf();
    let report = build(&dir).unwrap();
    let Some(FormatStandings::Nava(nava)) = &report.board.format_standings else {
        panic!("a Nava tournament's leaderboard has its Victory Points");
    };
    let vp = report.vp_rounds.as_ref().unwrap();
    assert_eq!(vp.len(), 9);
    for (history, row) in vp.iter().zip(&nava.rows) {
        assert_eq!(history.bot, row.bot);
        assert_eq!(history.totals.len(), 3);
        assert_eq!(*history.totals.last().unwrap(), row.vp);
    }
    assert_eq!(report.table.columns[2].title, "VP");
    assert!(report.table.columns[4].legend.contains("lower is better"));
    for (history, standing) in report.ratings.iter().zip(&report.board.standings) {
        assert_eq!(history.bot, standing.bot);
        let last = history.points.last().unwrap();
        assert_eq!((last.mu, last.sigma), (standing.mu, standing.sigma));
    }
}

#[test]
fn a_long_history_is_thinned_to_its_bound_keeping_its_last_point() {
    let points = (0..2000)
        .map(|k| ratings::RatingPoint {
            after: k + 1,
            id: k,
            mu: k as f64,
            sigma: 1.0,
        })
        .collect();
    let thin = thinned(BotHistory {
        bot: "a".into(),
        points,
    });
    assert_eq!(thin.points.len(), HISTORY_POINTS);
    assert_eq!(thin.points.last().unwrap().after, 2000);
    assert_eq!(thin.points[0].after, 1);
    assert!(thin.points.windows(2).all(|w| w[0].after < w[1].after));
}
