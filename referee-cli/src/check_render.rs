//! Rendering a check's [`Report`]: a checklist table with each failure (and each detail too long
//! for the table) spelled out below it, or JSON. Both show the same report; nothing is decided
//! here. The bot's own text in a detail (its name, a line it wrote, its stderr) was escaped where
//! the check quoted it; every text is escaped again here ([`referee::untrusted::line`]), the
//! guard that holds whatever a detail quotes.

use referee::check::{Report, StderrLines, Verdict};
use referee::untrusted::{line, shown};
use std::path::Path;
use tabled::builder::Builder;
use tabled::settings::Style;

/// The widest detail shown in the table; the failures below it are shown whole.
const DETAIL_WIDTH: usize = 80;

/// The checklist as a table, each failure with what was expected, what came, the bot's last
/// stderr lines up to it and where the rule is, each required item not run with why, any other
/// detail the table cut in full, then the one-line summary and, with `--stderr-dir`, the file
/// that holds the bot's whole stderr (`stderr_file`).
pub fn table(report: &Report, game: &str, stderr_file: Option<&Path>) -> String {
    let played = match report.matches.len() {
        0 => "no match played".to_string(),
        1 => "1 match".to_string(),
        n => format!("{n} matches in one process"),
    };
    let mut text = format!(
        "referee check: {} at {game}; {played} against the built-in bots {} (--seed {})\n",
        shown(&report.command),
        shown(&report.opponents.join(" and ")),
        report.seed
    );
    let mut builder = Builder::default();
    builder.push_record(["item", "verdict", "detail"]);
    for item in &report.items {
        builder.push_record([
            item.item.as_str().to_string(),
            item.verdict.as_str().to_string(),
            shorten(&line(&item.detail), DETAIL_WIDTH),
        ]);
    }
    let mut table = builder.build();
    table.with(Style::rounded());
    text.push_str(&table.to_string());
    text.push('\n');
    for item in &report.items {
        match item.verdict {
            Verdict::Fail => {
                text.push_str(&format!(
                    "\n{}: FAIL — {}\n",
                    item.item.as_str(),
                    item.title
                ));
                if let Some(expected) = &item.expected {
                    text.push_str(&format!("  expected: {}\n", shown(expected)));
                }
                text.push_str(&format!("  got:      {}\n", shown(&item.detail)));
                if let Some(stderr) = &item.stderr {
                    text.push_str(&stderr_lines(stderr));
                }
            }
            Verdict::NotRun if item.required => {
                text.push_str(&format!(
                    "\n{}: not run — {}\n",
                    item.item.as_str(),
                    item.title
                ));
                text.push_str(&format!("  why:      {}\n", shown(&item.detail)));
            }
            // A detail the table cut is shown whole.
            _ if line(&item.detail).chars().count() > DETAIL_WIDTH => {
                text.push_str(&format!(
                    "\n{}: {} — {}\n  detail:   {}\n",
                    item.item.as_str(),
                    item.verdict.as_str(),
                    item.title,
                    shown(&item.detail)
                ));
                continue;
            }
            _ => continue,
        }
        text.push_str(&format!("  rule:     {}\n", item.doc));
    }
    text.push('\n');
    text.push_str(&line(&report.summary));
    text.push('\n');
    if let Some(file) = stderr_file {
        text.push_str(&format!(
            "the bot's stderr: {}\n",
            line(&file.display().to_string())
        ));
    }
    text
}

/// A failure's stderr: up to when, then each line marked as the bot's (`| `), escaped again
/// (the library escaped them for a terminal already).
fn stderr_lines(stderr: &StderrLines) -> String {
    let earlier = if stderr.earlier {
        "its last lines"
    } else {
        "all it wrote"
    };
    let mut text = format!("  stderr:   {earlier} up to {}:\n", shown(&stderr.until));
    for l in &stderr.lines {
        text.push_str(&format!("            | {}\n", line(l)));
    }
    text
}

/// The report as pretty JSON.
pub fn json(report: &Report) -> String {
    referee::untrusted::json::to_string_pretty(report).expect("reports serialize")
}

/// `text` cut to `width` characters, with an ellipsis when cut.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn shortens_by_characters() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("éééé", 3), "éé…");
    }
}
