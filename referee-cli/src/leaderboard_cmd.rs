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
use referee::safe_fs::{Privacy, SafeDir};
use referee::tournament::Leaderboard;
use referee::tournament::results::{
    MatchResult, ReadBack, ResultsFile, TournamentMeta, difference, made_private, read_back,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

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
    };
    out!("{}", bot_render::render(&report, &view, args.format));
    Ok(ExitCode::Success)
}

/// Runs `referee merge`.
pub fn run_merge(args: MergeArgs) -> Result<ExitCode, Failure> {
    let mut merged: BTreeMap<u64, MatchResult> = BTreeMap::new();
    let mut first: Option<(PathBuf, TournamentMeta)> = None;
    for dir in &args.dirs {
        let ReadBack { meta, results, .. } = read_back(dir).map_err(Failure::usage)?;
        if let Some((first_dir, first_meta)) = &first
            && let Some(what) = difference(first_meta, &meta)
        {
            return Err(Failure::usage(format!(
                "{} and {} are not shards of one tournament ({what} differs)",
                first_dir.display(),
                dir.display()
            )));
        }
        for (id, result) in results {
            merged.entry(id).or_insert(result);
        }
        first.get_or_insert((dir.clone(), meta));
    }
    let (_, meta) = first.expect("clap requires at least one directory");
    if let Some(dir) = &args.out {
        let dir = SafeDir::create(dir, Privacy::Private).map_err(Failure::usage)?;
        if let Some(made) = made_private(&dir).map_err(Failure::usage)? {
            super::private_dir::note(&made);
        }
        let (mut file, existing) = ResultsFile::open(&dir, &meta, true).map_err(Failure::usage)?;
        for (id, result) in &merged {
            if !existing.contains_key(id) {
                file.append(result).map_err(Failure::usage)?;
            }
        }
    }
    let missing = meta.matches - merged.len() as u64;
    if missing > 0 {
        errln!(
            "referee: note: {missing} of the {} scheduled matches are in none of these directories",
            meta.matches
        );
    }
    out!(
        "{}",
        board_render::render(
            &leaderboard(&meta, &merged)?,
            args.format,
            Legend::unless(args.no_legend)
        )
    );
    Ok(ExitCode::Success)
}
