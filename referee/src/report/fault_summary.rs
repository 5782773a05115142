//! One bot's faults summed up by kind, computed once for every place that shows them (the
//! report, `referee leaderboard --bot`, the lines at the end of `referee tournament`): per kind
//! the count, the matches it happened in out of the bot's, the first occurrence (its moment,
//! message and the stderr of that match), and the distinct messages grouped by their shape —
//! numbers, quoted values and bracketed lists collapsed, the cost's words left out — so that 495
//! "malformed" faults of one debug print are one group. A crash (`exited`) is named by the last
//! line of what the bot wrote to stderr in that match (a traceback's `KeyError: 'discard_pile'`),
//! grouped with its numbers collapsed only.

use super::data::{BotFault, BotMatch};
use super::stderr_excerpt::StderrExcerpt;
use crate::runner::COST_NOTES;
use crate::seat::reply::NOT_JSON;
use protocol::FaultKind;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The most groups of messages a kind's summary keeps (the biggest): a bot whose every message
/// differs has no more to learn from the 21st.
pub const MAX_GROUPS: usize = 20;

/// A bot's faults of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindSummary {
    /// The kind.
    pub fault: FaultKind,
    /// How many faults of it.
    pub count: usize,
    /// In how many matches.
    pub matches: usize,
    /// Out of how many matches the bot played.
    pub played: usize,
    /// The first of them.
    pub first: FirstFault,
    /// Its messages grouped by shape, the biggest group first (the earliest among equals); at
    /// most [`MAX_GROUPS`].
    pub groups: Vec<MessageGroup>,
    /// How many smaller groups are left out of [`KindSummary::groups`].
    pub other_groups: usize,
    /// The summary in one line: "exited ×165 in all 165 of its matches: KeyError:
    /// 'discard_pile'; first in match 3, its 5th turn (phase turn; log decision 14)".
    pub line: String,
}

/// The first fault of a kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstFault {
    /// The match.
    pub id: u64,
    /// The bot's seat in it.
    pub seat: usize,
    /// The log's decision number, `None` outside a decision (for a link to the replay).
    pub decision: Option<u64>,
    /// Its moment, in words ([`crate::runner::Moment`]).
    pub moment: String,
    /// Its message.
    pub message: String,
    /// What the bot wrote to stderr in that match, when it is kept and was read.
    pub stderr: Option<StderrExcerpt>,
    /// Why that stderr was not read, when it is recorded but could not be (a link, a FIFO).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr_unread: Option<String>,
}

/// The messages of one shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageGroup {
    /// The group's name: the first message of the shape (a crash's last stderr line), without
    /// the cost's words.
    pub name: String,
    /// The shape the messages share (numbers `#`, quoted values `'…'`, lists `[…]`).
    pub shape: String,
    /// How many faults have it.
    pub count: usize,
}

/// `faults` (one bot's, in match order) summed up by kind, the kind with the most faults first
/// (the earliest among equals), over the bot's `matches` (their stderr excerpts name crashes).
pub fn summarize(matches: &[BotMatch], faults: &[BotFault]) -> Vec<KindSummary> {
    let mut kinds: Vec<FaultKind> = Vec::new();
    for f in faults {
        if !kinds.contains(&f.fault) {
            kinds.push(f.fault);
        }
    }
    let by_id: BTreeMap<u64, &BotMatch> = matches.iter().map(|m| (m.id, m)).collect();
    let mut out: Vec<KindSummary> = kinds
        .into_iter()
        .map(|kind| of_kind(&by_id, faults, kind))
        .collect();
    // Stable: equal counts keep the order of their first fault.
    out.sort_by_key(|s| std::cmp::Reverse(s.count));
    out
}

/// The summary of the faults of `kind`, over the bot's matches by id.
fn of_kind(
    matches: &BTreeMap<u64, &BotMatch>,
    faults: &[BotFault],
    kind: FaultKind,
) -> KindSummary {
    let own: Vec<&BotFault> = faults.iter().filter(|f| f.fault == kind).collect();
    let match_of = |id: u64| matches.get(&id).copied();
    let mut groups: Vec<MessageGroup> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for f in &own {
        let name = name_of(f, match_of(f.id));
        // A crash's quoted values tell bugs apart (`KeyError: 'hand'` is not `'discard_pile'`).
        let shape = match kind {
            FaultKind::Exited => numbers_collapsed(&name),
            _ => shape(&line_head(&name)),
        };
        match index.get(&shape) {
            Some(&k) => groups[k].count += 1,
            None => {
                index.insert(shape.clone(), groups.len());
                groups.push(MessageGroup {
                    name,
                    shape,
                    count: 1,
                });
            }
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    let other_groups = groups.len().saturating_sub(MAX_GROUPS);
    let first = own[0];
    let first_match = match_of(first.id);
    let first = FirstFault {
        id: first.id,
        seat: first_match.map_or(0, |m| m.seat),
        decision: first.decision,
        moment: first.moment.clone(),
        message: first.message.clone(),
        stderr: first_match.and_then(|m| m.stderr.clone()),
        stderr_unread: first_match.and_then(|m| m.stderr_unread.clone()),
    };
    let affected = own.iter().map(|f| f.id).collect::<BTreeSet<_>>().len();
    let line = line(kind, own.len(), affected, matches.len(), &groups, &first);
    groups.truncate(MAX_GROUPS);
    KindSummary {
        fault: kind,
        count: own.len(),
        matches: affected,
        played: matches.len(),
        first,
        groups,
        other_groups,
        line,
    }
}

/// The one line of a kind's summary.
fn line(
    kind: FaultKind,
    count: usize,
    affected: usize,
    played: usize,
    groups: &[MessageGroup],
    first: &FirstFault,
) -> String {
    let within = if affected == played {
        match played {
            1 => "in its only match".to_string(),
            n => format!("in all {n} of its matches"),
        }
    } else {
        format!("in {affected} of its {played} matches")
    };
    let others = match groups.len() {
        1 => String::new(),
        2 => " (and 1 other message)".to_string(),
        n => format!(" (and {} other messages)", n - 1),
    };
    format!(
        "{kind} ×{count} {within}: {}{others}; first in {}",
        groups[0].name, first.moment
    )
}

/// What names a fault's group: a crash's last line of stderr in its match (from the match's
/// excerpt, else from the message's quote of the last lines), else its message; without the
/// words of what the fault cost.
fn name_of(f: &BotFault, m: Option<&BotMatch>) -> String {
    let message = without_cost(&f.message);
    if f.fault != FaultKind::Exited {
        return message;
    }
    let last_line = m
        .and_then(|m| m.stderr.as_ref())
        .and_then(|e| e.text.lines().rev().find(|l| !l.trim().is_empty()))
        .map(|l| l.trim().to_string());
    last_line
        .or_else(|| quoted_last_line(&message))
        .unwrap_or(message)
}

/// The last of the stderr lines an `exited` message quotes ("…; its last stderr lines: A | B").
fn quoted_last_line(message: &str) -> Option<String> {
    let (_, quoted) = message.rsplit_once("its last stderr lines: ")?;
    let quoted = quoted.split(" (the last lines the referee read").next()?;
    let last = quoted.rsplit(" | ").next()?.trim();
    (!last.is_empty()).then(|| last.to_string())
}

/// `message` without the words saying what the fault cost ([`COST_NOTES`]).
fn without_cost(message: &str) -> String {
    let mut out = message.to_string();
    for note in COST_NOTES {
        out = out.replace(note, "");
    }
    out
}

/// The shape of a message: runs of digits `#`, quoted values `'…'` / `"…"` and bracketed lists
/// `[…]` / `{…}` collapsed, so that messages differing in those only are one group.
pub fn shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => {
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
                out.push('#');
            }
            '\'' | '"' if closes(chars.clone(), c) => {
                skip_quoted(&mut chars, c);
                out.extend([c, '…', c]);
            }
            '[' | '{' => {
                let close = if c == '[' { ']' } else { '}' };
                if skip_bracketed(&mut chars, c, close) {
                    out.extend([c, '…', close]);
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// How many words of a line that is not JSON name its group: a debug print's first words say
/// what it is (`turn 3: my hand is`), the words after them are its data.
const LINE_HEAD_WORDS: usize = 5;

/// `message`, and when it quotes a line the bot wrote that is not JSON ("not valid JSON (WHY):
/// LINE", [`NOT_JSON`]), with that line cut to its first [`LINE_HEAD_WORDS`] words.
fn line_head(message: &str) -> String {
    let Some((why, line)) = message
        .strip_prefix(NOT_JSON)
        .and_then(|rest| rest.strip_prefix(" ("))
        .and_then(|rest| rest.split_once("): "))
    else {
        return message.to_string();
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() <= LINE_HEAD_WORDS {
        return message.to_string();
    }
    format!(
        "{NOT_JSON} ({why}): {} …",
        words[..LINE_HEAD_WORDS].join(" ")
    )
}

/// `text` with its runs of digits `#`.
fn numbers_collapsed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// Whether the quote `q` just read is closed later on the same line.
fn closes(rest: std::iter::Peekable<std::str::Chars<'_>>, q: char) -> bool {
    let mut escaped = false;
    for c in rest {
        match c {
            '\n' => return false,
            '\\' if !escaped => escaped = true,
            c if c == q && !escaped => return true,
            _ => escaped = false,
        }
    }
    false
}

/// Skips past the closing quote `q` (which [`closes`] found).
fn skip_quoted(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, q: char) {
    let mut escaped = false;
    for c in chars.by_ref() {
        match c {
            '\\' if !escaped => escaped = true,
            c if c == q && !escaped => return,
            _ => escaped = false,
        }
    }
}

/// Skips past the bracket closing `open` when there is one (nested brackets counted), and says
/// whether there was; else consumes nothing.
fn skip_bracketed(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    open: char,
    close: char,
) -> bool {
    let mut depth = 1;
    for (taken, c) in chars.clone().enumerate() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                chars.nth(taken);
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
#[path = "fault_summary_tests.rs"]
mod tests;
