//! `referee leaderboard DIR` and `referee merge DIR...`: the leaderboard from results on disk;
//! `referee leaderboard DIR --bot NAME`: one bot's faults and matches;
//! `referee leaderboard DIR --format csv --grades`: the grade sheet.

use super::Failure;
use super::args::{BoardFormat, LeaderboardArgs, MergeArgs};
use super::board_render::{self, Legend};
use super::bot_render::{self, BotView};
use super::output::{errln, out};
use protocol::ExitCode;
use referee::report::data::bot_report;
use referee::tournament::Leaderboard;
use referee::tournament::merge::merge;
use referee::tournament::results::{MatchResult, ReadBack, TournamentMeta, read_back};
use referee::untrusted::shown;
use std::collections::BTreeMap;

fn leaderboard(
    meta: &TournamentMeta,
    results: &BTreeMap<u64, MatchResult>,
) -> Result<Leaderboard, Failure> {
    referee::tournament::leaderboard(meta, results).map_err(Failure::usage)
}

/// Runs `referee leaderboard`: the leaderboard, or with `--bot` that bot's part.
pub fn run_leaderboard(args: LeaderboardArgs) -> Result<ExitCode, Failure> {
    let ReadBack { dir, meta, results } = read_back(&args.dir).map_err(Failure::usage)?;
    let board = leaderboard(&meta, &results)?;
    if args.grades {
        if args.format != BoardFormat::Csv {
            return Err(Failure::usage(
                "--grades: the grade sheet is CSV; add --format csv",
            ));
        }
        out!(
            "{}",
            referee::report::grades::grade_sheet(&dir, &board, None)
        );
        return Ok(ExitCode::Success);
    }
    let Some(name) = &args.bot else {
        out!(
            "{}",
            board_render::render(&board, args.format, Legend::unless(args.no_legend))
        );
        return Ok(ExitCode::Success);
    };
    let report = bot_report(&dir, &meta, &board, &results, name).ok_or_else(|| {
        let names: Vec<&str> = meta.bots.iter().map(|b| b.name.as_str()).collect();
        Failure::usage(format!(
            "--bot {name}: no bot of that name in {}; its bots: {}",
            args.dir.display(),
            names.join(", ")
        ))
    })?;
    let view = BotView {
        dir: &args.dir,
        score_name: &board.score_name,
        bots: board.standings.len(),
        limit: args.limit,
        all_faults: args.all_faults,
    };
    out!("{}", bot_render::render(&report, &view, args.format));
    Ok(ExitCode::Success)
}

/// Runs `referee merge`: the library merges ([`referee::tournament::merge`]); this prints
/// what it wrote and the leaderboard.
pub fn run_merge(args: MergeArgs) -> Result<ExitCode, Failure> {
    let merged = merge(&args.dirs, args.out.as_deref()).map_err(Failure::usage)?;
    if let Some(written) = &merged.written {
        if let Some(made) = &written.made_private {
            super::private_dir::note(made);
        }
        if let Some(first) = written.skipped.first() {
            errln!(
                "referee: note: {} left out, and their matches were merged without them (the first: {})",
                super::output::files_were(written.skipped.len(), "of the shards"),
                shown(&format!("{}: {}", first.path.display(), first.why))
            );
        }
    }
    let missing = merged.missing();
    if missing > 0 {
        errln!(
            "referee: note: {missing} of the {} scheduled matches are in none of these directories",
            merged.meta.matches
        );
    }
    out!(
        "{}",
        board_render::render(
            &leaderboard(&merged.meta, &merged.results)?,
            args.format,
            Legend::unless(args.no_legend)
        )
    );
    Ok(ExitCode::Success)
}
