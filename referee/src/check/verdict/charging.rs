//! Which item each fault is charged to: a crash or a lone timeout right after a probe to the
//! probe's item, a timeout after a wrong id to `id_echo`, every other fault by its kind; and how a
//! charged fault is told ("N faults; the first at WHERE: WHAT").

use super::super::facts::{Decision, Facts, MatchFacts, Probe};
use super::super::items::ItemId;
use crate::runner::{FaultRecord, Moment, When};
use crate::seat::Fault;
use crate::untrusted::quoted;
use protocol::FaultKind;

/// A fault with where it happened, for messages.
pub(super) struct Charged<'a> {
    pub(super) kind: FaultKind,
    pub(super) message: &'a str,
    /// The bot's line, when the fault is about one.
    pub(super) line: Option<&'a str>,
    /// Where, with its preposition ("at request 3 (chip, match 1)", "after goodbye").
    pub(super) at: String,
    /// The match and the index of the request in it, when at a request.
    pub(super) request: Option<(usize, usize)>,
}

impl<'a> Charged<'a> {
    fn of_record(f: &'a FaultRecord, at: String, request: Option<(usize, usize)>) -> Self {
        Charged {
            kind: f.fault,
            message: &f.message,
            line: f.line.as_deref(),
            at,
            request,
        }
    }

    fn of_fault(f: &'a Fault, at: String) -> Self {
        Charged {
            kind: f.fault,
            message: &f.message,
            line: f.line.as_deref(),
            at,
            request: None,
        }
    }
}

/// The item a fault of `kind` is charged to by its kind; `line` tells whether it is about a
/// line the bot wrote.
pub(super) fn item_of(kind: FaultKind, line: bool) -> ItemId {
    match kind {
        FaultKind::StaleId => ItemId::IdEcho,
        FaultKind::Timeout => ItemId::Time,
        FaultKind::IllegalAction => ItemId::LegalActions,
        // A wrong shape that is not about a line is about the action of a reply.
        FaultKind::WrongShape if !line => ItemId::LegalActions,
        FaultKind::Malformed | FaultKind::WrongShape | FaultKind::LineTooLong => ItemId::Stdout,
        FaultKind::SpawnFailed
        | FaultKind::StartupTimeout
        | FaultKind::ProtocolMismatch
        | FaultKind::Exited
        | FaultKind::WriteFailed
        | FaultKind::ResourceLimit => ItemId::Lifecycle,
    }
}

/// The item the faults at a request after `probe` are charged to.
pub(super) fn probe_item(probe: Probe) -> ItemId {
    match probe {
        Probe::Unknown { .. } => ItemId::ForwardCompat,
        Probe::Error => ItemId::ErrorMessage,
    }
}

/// The item a fault at request `d`, which `probe` came before (if any), is charged to.
///
/// Only a crash or a timeout right after a probe is the probe's doing, and a timeout only when
/// the bot times out nowhere else (`timeouts_elsewhere`): a slow bot is slow anyway. A timeout
/// at a request the bot answered with a reply written before it (a stray `stale_id`, ignored) is
/// that reply's doing: the real one never came. Every other fault is charged by its kind.
pub(super) fn owner(
    f: &FaultRecord,
    d: &Decision,
    probe: Option<Probe>,
    timeouts_elsewhere: bool,
) -> ItemId {
    let wrong_id = d.faults.iter().any(|x| x.fault == FaultKind::StaleId);
    match (f.fault, probe) {
        (FaultKind::Timeout, _) if wrong_id => ItemId::IdEcho,
        (FaultKind::Timeout, Some(p)) if !timeouts_elsewhere => probe_item(p),
        (FaultKind::Exited | FaultKind::WriteFailed | FaultKind::ResourceLimit, Some(p)) => {
            probe_item(p)
        }
        _ => item_of(f.fault, f.line.is_some()),
    }
}

/// Every fault of the check charged to `item`, in order: at requests, elsewhere in matches,
/// between matches, and after `goodbye`.
pub(super) fn charged(facts: &Facts, item: ItemId) -> Vec<Charged<'_>> {
    let timeouts_elsewhere = facts.matches.iter().any(|m| {
        m.decisions.iter().enumerate().any(|(i, d)| {
            m.probe_at(i).is_none() && d.faults.iter().any(|f| f.fault == FaultKind::Timeout)
        })
    });
    let mut out = Vec::new();
    for m in &facts.matches {
        for (i, d) in m.decisions.iter().enumerate() {
            let probe = m.probe_at(i);
            out.extend(
                d.faults
                    .iter()
                    .filter(|f| owner(f, d, probe, timeouts_elsewhere) == item)
                    .map(|f| {
                        let at = format!("at {}", decision_at(m, d));
                        Charged::of_record(f, at, Some((m.number, i)))
                    }),
            );
        }
        out.extend(
            m.other_faults
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| Charged::of_record(f, format!("in match {}", m.number), None)),
        );
        out.extend(
            m.after
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| {
                    let at = format!("after the bot's last request of match {}", m.number);
                    Charged::of_fault(f, at)
                }),
        );
    }
    if let Some(exit) = &facts.exit {
        out.extend(
            exit.stray
                .iter()
                .filter(|f| item_of(f.fault, f.line.is_some()) == item)
                .map(|f| Charged::of_fault(f, "after goodbye".into())),
        );
    }
    out
}

/// Where a decision was, as every moment is named ([`Moment`]): "match 1, its 1st turn (phase
/// chip; log decision 2; request id 0)" (docs/match-log.md#decision-numbers).
pub(super) fn decision_at(m: &MatchFacts, d: &Decision) -> String {
    let when = When::Turn {
        turn: Some(d.turn),
        phase: Some(d.phase.clone()),
        decision: d.n,
    };
    Moment::new(m.number, when).with_request(d.id).to_string()
}

/// "N faults; the first at WHERE: WHAT", showing the bot's own line when there is one.
pub(super) fn first_of(all: &[Charged], c: &Charged, item: ItemId) -> String {
    let what = match (c.line, item) {
        (Some(line), ItemId::Stdout) if c.kind == FaultKind::LineTooLong => {
            format!("the line {}… ({}: {})", quoted(line), c.kind, c.message)
        }
        (Some(line), ItemId::Stdout) => format!("the line {} ({})", quoted(line), c.kind),
        (Some(line), ItemId::IdEcho) => format!("{line} ({})", c.message),
        _ => format!("{}: {}", c.kind, c.message),
    };
    let count = match (all.len(), item) {
        (1, _) => String::new(),
        (n, ItemId::Stdout) => format!("{n} stray lines; the first "),
        (n, _) => format!("{n} faults; the first "),
    };
    // A reply written before its request leaves the request unanswered: the timeout that
    // follows is charged here too.
    let timed_out = if item == ItemId::IdEcho && all.iter().any(|c| c.kind == FaultKind::Timeout) {
        "; the request with the wrong id then timed out (counted here, not under time)"
    } else {
        ""
    };
    format!("{count}{}: {what}{timed_out}", c.at)
}
