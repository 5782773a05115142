//! The report's data, computed once from a results directory with the leaderboard's own code:
//! the leaderboard ([`crate::tournament::leaderboard`]) as text cells with their legend
//! ([`board_table`]), its head-to-head matrix, the ratings after each match
//! ([`ratings::history`]), the points of a format played in rounds round by round, and per bot its
//! matches, its faults with their messages and the stderr it wrote in each match it faulted in,
//! and its faults summed up by kind ([`super::fault_summary`]) ([`bot_report`], which `referee
//! leaderboard --bot` prints too). The page only draws it.

use super::fault_summary::{KindSummary, summarize};
use super::stderr_excerpt::{StderrExcerpt, excerpt};
use crate::safe_fs::SafeDir;
use crate::tournament::board_cells::RoundTotals;
use crate::tournament::board_table::{BoardTable, board_table};
use crate::tournament::legend;
use crate::tournament::ratings::{self, BotHistory};
use crate::tournament::results::{
    LOGS_DIR, MatchResult, ReadBack, ResultsError, STDERR_DIR, StderrRange, TournamentMeta,
    read_back,
};
use crate::tournament::{Leaderboard, leaderboard};
use engine::UnknownGame;
use protocol::FaultKind;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The most points of one bot's rating history the report keeps: more are thinned evenly,
/// the last always kept (a chart has no room for more).
pub const HISTORY_POINTS: usize = 500;

/// Why a report cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The directory cannot be read as a tournament's results.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The game is not one this referee has.
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// The output cannot be written (it is written only as new regular files of its
    /// directory: never through a link there).
    #[error("cannot write {0}")]
    Write(crate::safe_fs::FileError),
    /// The page could not be assembled.
    #[error(transparent)]
    Page(#[from] crate::html::PageError),
}

/// Everything the report shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentReport {
    /// The results directory, as given.
    pub dir: String,
    /// The tournament seed, as text: a 64-bit seed is above what a JavaScript number holds
    /// exactly.
    pub seed: String,
    /// What was played.
    pub meta: TournamentMeta,
    /// The leaderboard, with its numbers.
    pub board: Leaderboard,
    /// The leaderboard as text: columns with their legend, rows, the head-to-head cells.
    pub table: BoardTable,
    /// What the head-to-head matrix and the charts show.
    pub legends: Legends,
    /// Each bot's rating after each of its matches (at most [`HISTORY_POINTS`] each), in the
    /// order of the leaderboard.
    pub ratings: Vec<BotHistory>,
    /// The points of a format played in rounds added up round by round (a Nava tournament's
    /// Victory Points), in the order of the leaderboard.
    pub vp_rounds: Option<Vec<RoundTotals>>,
    /// Each bot's matches and faults, in the order of the leaderboard.
    pub bots: Vec<BotReport>,
    /// The bot whose report this is, when it is one bot's ([`super::one_bot`]): `bots` holds
    /// its part alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub for_bot: Option<String>,
}

/// The legend's texts for what is not a column of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Legends {
    /// The head-to-head matrix.
    pub head_to_head: String,
    /// The ratings chart.
    pub ratings: String,
    /// The Victory Points chart.
    pub vp_rounds: String,
}

/// One bot's part of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotReport {
    /// The bot.
    pub bot: String,
    /// Its command, as recorded.
    pub command: String,
    /// Its place on the leaderboard.
    pub rank: usize,
    /// Its matches, by id.
    pub matches: Vec<BotMatch>,
    /// Its faults summed up by kind ([`super::fault_summary`]), the kind with the most first.
    pub summary: Vec<KindSummary>,
    /// Its faults, in match order, then in the order they happened.
    pub faults: Vec<BotFault>,
}

/// A match as one of its bots played it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotMatch {
    /// The match.
    pub id: u64,
    /// Its duplicate group.
    pub group: u64,
    /// Its seed, as text (a 64-bit seed is above what a JavaScript number holds exactly).
    pub seed: String,
    /// The bot's seat.
    pub seat: usize,
    /// The bot's rank (1 = best).
    pub rank: u32,
    /// The bot's score.
    pub score: i64,
    /// Every seat's bot, in seat order.
    pub players: Vec<String>,
    /// The bot's faults in it.
    pub faults: usize,
    /// Whether it forfeited it.
    pub forfeited: bool,
    /// Whether the match's log was kept (something is at `logs/ID.jsonl`), so that it has a
    /// replay.
    pub log: bool,
    /// Where the bot's stderr of this match is: its file in `stderr/` and the byte range, as
    /// `matches.jsonl` records it (`None` for a built-in bot, or results without ranges).
    pub stderr_range: Option<StderrRange>,
    /// In a match where the bot faulted: what it wrote to stderr during it, where that is
    /// recorded and the file can be read.
    pub stderr: Option<StderrExcerpt>,
    /// In a match where the bot faulted: why its stderr was not read, when the file is not a
    /// regular file of `stderr/` (a link, a FIFO) or the range is not in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr_unread: Option<String>,
}

/// One fault of a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BotFault {
    /// The match.
    pub id: u64,
    /// The log's decision number (0-based, every seat's) it happened at, `None` at start-up or
    /// the end.
    pub decision: Option<u64>,
    /// The bot's own turn it happened at, from 1 (`None` outside a decision, or in results
    /// written before the referee recorded it).
    pub turn: Option<u64>,
    /// The phase of the request.
    pub phase: Option<String>,
    /// When it happened, in words: "match 21, its 5th turn (phase turn; log decision 14)"
    /// ([`crate::runner::Moment`]).
    pub moment: String,
    /// Its kind.
    pub fault: FaultKind,
    /// What happened, as the referee told it.
    pub message: String,
}

/// Reads the results directory `dir` and gathers its report.
///
/// # Errors
/// [`ReportError`] for a directory that is not a tournament's (or holds foreign results), or a
/// game this referee does not have.
pub fn build(dir: &Path) -> Result<TournamentReport, ReportError> {
    let ReadBack { dir, meta, results } = read_back(dir)?;
    of_results(&dir, meta, &results)
}

/// The report of the tournament `meta` describes, from its `results`; stderr excerpts and logs
/// are looked for under `dir`.
///
/// # Errors
/// [`ReportError::Game`] for a game this referee does not have.
pub fn of_results(
    dir: &SafeDir,
    meta: TournamentMeta,
    results: &BTreeMap<u64, MatchResult>,
) -> Result<TournamentReport, ReportError> {
    let board = leaderboard(&meta, results)?;
    let names: Vec<String> = meta.bots.iter().map(|b| b.name.clone()).collect();
    let refs: Vec<&MatchResult> = results.values().collect();
    let mut histories: BTreeMap<String, BotHistory> = ratings::history(&names, &refs)
        .into_iter()
        .map(|h| (h.bot.clone(), h))
        .collect();
    let ratings = board
        .standings
        .iter()
        .filter_map(|s| histories.remove(&s.bot))
        .map(thinned)
        .collect();
    let vp_rounds = board.format.format().round_totals(&board);
    let bots = board
        .standings
        .iter()
        .filter_map(|s| bot_report(dir, &meta, &board, results, &s.bot))
        .collect();
    Ok(TournamentReport {
        dir: dir.path().display().to_string(),
        seed: meta.seed.to_string(),
        table: board_table(&board),
        legends: Legends {
            head_to_head: legend::HEAD_TO_HEAD.into(),
            ratings: legend::RATING_HISTORY.into(),
            vp_rounds: legend::VP_HISTORY.into(),
        },
        ratings,
        vp_rounds,
        bots,
        board,
        meta,
        for_bot: None,
    })
}

/// At most [`HISTORY_POINTS`] of `history`, evenly spread, the last always among them.
fn thinned(mut history: BotHistory) -> BotHistory {
    let n = history.points.len();
    if n > HISTORY_POINTS {
        let last = history.points[n - 1];
        let step = n as f64 / (HISTORY_POINTS - 1) as f64;
        let mut kept: Vec<_> = (0..HISTORY_POINTS - 1)
            .map(|i| history.points[(i as f64 * step) as usize])
            .collect();
        kept.push(last);
        history.points = kept;
    }
    history
}

/// Bot `bot`'s part of the tournament `meta` describes: its place on `board`, its matches and
/// faults in `results`, and where its stderr of each match is (excerpts read from `dir`'s
/// `stderr/` for the matches it faulted in). `None` when the tournament has no bot of that
/// name (`referee leaderboard --bot` lists them).
pub fn bot_report(
    dir: &SafeDir,
    meta: &TournamentMeta,
    board: &Leaderboard,
    results: &BTreeMap<u64, MatchResult>,
    bot: &str,
) -> Option<BotReport> {
    let command = meta.bots.iter().find(|b| b.name == bot)?.command.clone();
    let rank = board.standings.iter().find(|s| s.bot == bot)?.rank;
    // A link or a FIFO at `stderr/` or `logs/`: no excerpt is read, and each faulty match
    // says why; no log is taken as kept.
    let stderr_dir = dir.subdir(STDERR_DIR).map_err(|e| e.to_string());
    let logs_dir = dir.subdir(LOGS_DIR).ok().flatten();
    let mut matches = Vec::new();
    let mut faults = Vec::new();
    for result in results.values() {
        let r = &result.record;
        let Some(seat) = r.players.iter().position(|p| p == bot) else {
            continue;
        };
        let own: Vec<BotFault> = r
            .faults
            .iter()
            .filter(|f| f.seat == seat)
            .map(|f| BotFault {
                id: result.id,
                decision: f.decision,
                turn: f.turn,
                phase: f.phase.clone(),
                moment: f.moment(result.id).to_string(),
                fault: f.fault,
                message: f.message.clone(),
            })
            .collect();
        let range = result.stderr.get(seat).and_then(Option::as_ref);
        let (stderr, stderr_unread) = match range {
            Some(range) if !own.is_empty() => faulty_stderr(&stderr_dir, range),
            _ => (None, None),
        };
        matches.push(BotMatch {
            id: result.id,
            group: result.group,
            seed: r.seed.to_string(),
            seat,
            rank: r.ranks[seat],
            score: r.scores[seat],
            players: r.players.clone(),
            faults: own.len(),
            forfeited: r.stats[seat].forfeited,
            // Anything at the name: a log that is not a regular file gets no replay page, and
            // the report's note says why.
            log: logs_dir
                .as_ref()
                .is_some_and(|logs| logs.holds(&format!("{}.jsonl", result.id)).unwrap_or(false)),
            stderr_range: range.cloned(),
            stderr,
            stderr_unread,
        });
        faults.extend(own);
    }
    Some(BotReport {
        bot: bot.to_string(),
        command,
        rank,
        summary: summarize(&matches, &faults),
        matches,
        faults,
    })
}

/// The excerpt of a faulty match's stderr `range` from `stderr_dir` (the results directory's
/// `stderr/`, or why it cannot be opened), or why it is not read.
fn faulty_stderr(
    stderr_dir: &Result<Option<SafeDir>, String>,
    range: &StderrRange,
) -> (Option<StderrExcerpt>, Option<String>) {
    let read = match stderr_dir {
        Ok(Some(dir)) => excerpt(dir, range).map_err(|e| e.to_string()),
        Ok(None) => Ok(None),
        Err(why) => Err(why.clone()),
    };
    match read {
        Ok(excerpt) => (excerpt, None),
        Err(why) => (None, Some(why)),
    }
}

#[cfg(test)]
#[path = "data_tests.rs"]
mod tests;
