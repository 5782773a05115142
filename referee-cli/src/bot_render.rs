//! Rendering one bot's part of a tournament (`referee leaderboard DIR --bot NAME`): its faults
//! summed up by kind, with `--all-faults` each fault with its message and where its stderr of
//! each faulty match is, then its matches as a table; or all of it as JSON, or its matches as
//! CSV. The data is the report's
//! ([`referee::report::data::bot_report`]); this file only lays it out.

use super::args::BoardFormat;
use super::board_render::{escaped, table};
use super::output::grouped;
use referee::report::data::{BotMatch, BotReport};
use referee::report::fault_summary::KindSummary;
use referee::tournament::results::StderrRange;
use referee::untrusted;
use std::path::Path;

/// The most lines of a faulty match's stderr shown under its faults (its end).
const STDERR_LINES: usize = 5;

/// What to show of the bot's part, and from where.
pub struct BotView<'a> {
    /// The results directory, as given (stderr files are under its `stderr/`).
    pub dir: &'a Path,
    /// What the game's score is called.
    pub score_name: &'a str,
    /// How many bots the leaderboard ranks.
    pub bots: usize,
    /// At most this many matches in the table, and the faults of at most this many matches
    /// (0: all). JSON and CSV are whole.
    pub limit: usize,
    /// Whether every fault is listed, match by match, after the summary by kind.
    pub all_faults: bool,
}

/// `report` in `format`.
pub fn render(report: &BotReport, view: &BotView<'_>, format: BoardFormat) -> String {
    match format {
        BoardFormat::Json => {
            untrusted::json::to_string_pretty(report).expect("bot reports serialize") + "\n"
        }
        BoardFormat::Csv => csv(report),
        BoardFormat::Table | BoardFormat::Markdown => {
            text(report, view, format == BoardFormat::Markdown)
        }
    }
}

/// The summary, the faults by match and the matches table.
fn text(report: &BotReport, view: &BotView<'_>, markdown: bool) -> String {
    let faulty: Vec<&BotMatch> = report.matches.iter().filter(|m| m.faults > 0).collect();
    let forfeits = report.matches.iter().filter(|m| m.forfeited).count();
    let mut out = format!(
        "{}: rank {} of {} on the leaderboard; {} matches, {} faults in {} of them{}\ncommand: {}\nstderr files: {}\n",
        escaped(&report.bot, markdown),
        report.rank,
        view.bots,
        report.matches.len(),
        report.faults.len(),
        faulty.len(),
        if forfeits > 0 {
            format!(", {forfeits} forfeited")
        } else {
            String::new()
        },
        escaped(&report.command, markdown),
        view.dir.join("stderr").display()
    );
    let shown = |n: usize| {
        if view.limit == 0 {
            n
        } else {
            n.min(view.limit)
        }
    };
    if !report.summary.is_empty() {
        out += "\nFaults by kind:\n";
        for kind in &report.summary {
            out += &summary_of(kind, markdown);
        }
        if !view.all_faults {
            out += "(--all-faults lists every fault, match by match)\n";
        }
    }
    if !faulty.is_empty() && view.all_faults {
        out += "\nFaults, by match:\n";
        for m in &faulty[..shown(faulty.len())] {
            out += &faults_of(report, m, view, markdown);
        }
        out += &cut_note(faulty.len(), shown(faulty.len()), "matches with faults");
    }
    let n = shown(report.matches.len());
    out += &format!(
        "\nMatches (rank 1 is first; stderr: the file in {} and the bytes of this match):\n\n",
        view.dir.join("stderr").display()
    );
    let mut rows = vec![
        [
            "match",
            "seed",
            "seat",
            "bots by seat",
            "rank",
            view.score_name,
            "faults",
            "stderr",
        ]
        .map(String::from)
        .to_vec(),
    ];
    rows.extend(report.matches[..n].iter().map(match_row));
    out += &table(rows, markdown);
    out.push('\n');
    out += &cut_note(report.matches.len(), n, "matches");
    out
}

/// A kind's summary: its line, its messages grouped (when more than one), and the last lines of
/// the bot's stderr in the match of its first fault.
fn summary_of(kind: &KindSummary, markdown: bool) -> String {
    let mut out = format!("\n- {}\n", escaped(&kind.line, markdown));
    if kind.groups.len() > 1 {
        for group in &kind.groups {
            out += &format!("    ×{} {}\n", group.count, escaped(&group.name, markdown));
        }
        if kind.other_groups > 0 {
            out += &format!("    … and {} rarer messages\n", kind.other_groups);
        }
    }
    match &kind.first.stderr {
        Some(excerpt) if !excerpt.text.trim().is_empty() => {
            out += &format!("    its stderr in match {}, the end:\n", kind.first.id);
            out += &stderr_tail(&excerpt.text, "    | ", markdown);
        }
        Some(_) => out += &format!("    (nothing on its stderr in match {})\n", kind.first.id),
        None => {
            if let Some(why) = &kind.first.stderr_unread {
                let why = escaped(why, markdown);
                out += &format!(
                    "    its stderr in match {} not read: {why}\n",
                    kind.first.id
                );
            }
        }
    }
    out
}

/// The last [`STDERR_LINES`] lines of a bot's `text`, each marked `prefix`: its own line breaks
/// make no line of the referee's.
fn stderr_tail(text: &str, prefix: &str, markdown: bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(STDERR_LINES)..]
        .iter()
        .map(|line| format!("{prefix}{}\n", escaped(line, markdown)))
        .collect()
}

/// `… 12 more matches (--limit 0 shows all)` when `shown` of `total` were shown.
fn cut_note(total: usize, shown: usize, what: &str) -> String {
    if shown < total {
        format!("… {} more {what} (--limit 0 shows all)\n", total - shown)
    } else {
        String::new()
    }
}

/// A match's faults with their messages, then where the bot's stderr of the match is and its
/// last lines.
fn faults_of(report: &BotReport, m: &BotMatch, view: &BotView<'_>, markdown: bool) -> String {
    let mut out = format!(
        "\nmatch {} (seed {}, seat {}, rank {}{}):\n",
        m.id,
        m.seed,
        m.seat,
        m.rank,
        if m.forfeited { ", forfeited" } else { "" }
    );
    for f in report.faults.iter().filter(|f| f.id == m.id) {
        out += &format!(
            "  {}: {}: {}\n",
            escaped(&f.moment, markdown),
            f.fault,
            escaped(&f.message, markdown)
        );
    }
    out += &format!(
        "  stderr: {}\n",
        escaped(&stderr_place(m.stderr_range.as_ref(), view), markdown)
    );
    if let Some(why) = &m.stderr_unread {
        out += &format!("  stderr not read: {}\n", escaped(why, markdown));
    }
    if let Some(excerpt) = &m.stderr {
        out += &stderr_tail(&excerpt.text, "  | ", markdown);
    }
    out
}

/// Where a match's stderr is, in words and as a command that prints it.
fn stderr_place(range: Option<&StderrRange>, view: &BotView<'_>) -> String {
    match range {
        None => "none recorded (a built-in bot, or results without stderr ranges)".into(),
        Some(r) if r.from == r.to => format!("nothing written in this match ({})", r.file),
        Some(r) => {
            let path = view.dir.join("stderr").join(&r.file);
            let quoted = shlex::try_quote(&path.to_string_lossy())
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| path.display().to_string());
            format!(
                "bytes {} to {} of {} ({} bytes): tail -c +{} {quoted} | head -c {}",
                r.from,
                r.to,
                r.file,
                r.to - r.from,
                r.from + 1,
                r.to - r.from
            )
        }
    }
}

/// A row of the matches table.
fn match_row(m: &BotMatch) -> Vec<String> {
    vec![
        m.id.to_string(),
        m.seed.clone(),
        m.seat.to_string(),
        m.players.join(", "),
        m.rank.to_string(),
        grouped(m.score),
        if m.forfeited {
            format!("{} (forfeit)", m.faults)
        } else {
            m.faults.to_string()
        },
        m.stderr_range
            .as_ref()
            .map(|r| match r.to - r.from {
                0 => format!("{} (nothing)", r.file),
                _ => format!("{} {}-{}", r.file, r.from, r.to),
            })
            .unwrap_or_else(|| "-".into()),
    ]
}

/// The matches as CSV, one line each, full data.
fn csv(report: &BotReport) -> String {
    let header = "match,group,seed,seat,players,rank,score,faults,forfeited,stderr_file,stderr_from,stderr_to";
    let mut rows = vec![header.split(',').map(String::from).collect::<Vec<_>>()];
    for m in &report.matches {
        let (file, from, to) = match &m.stderr_range {
            Some(r) => (
                untrusted::csv::text(&r.file),
                r.from.to_string(),
                r.to.to_string(),
            ),
            None => Default::default(),
        };
        rows.push(vec![
            m.id.to_string(),
            m.group.to_string(),
            m.seed.clone(),
            m.seat.to_string(),
            untrusted::csv::text(&m.players.join(";")),
            m.rank.to_string(),
            m.score.to_string(),
            m.faults.to_string(),
            m.forfeited.to_string(),
            file,
            from,
            to,
        ]);
    }
    untrusted::csv::table(rows)
}
