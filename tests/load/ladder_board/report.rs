//! Everything a run measured ([`Report`]), as a Markdown table for people and as JSON.

use serde_json::{Value, json};

use super::http::Timing;
use super::paint::{Load, Loads};
use super::{PLAYERS, Plan};

pub use super::board_run::BoardRun;

/// Everything a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plan it followed.
    pub plan: Plan,
    /// Wall seconds `referee tournament` took to play the field's matches.
    pub tournament_s: f64,
    /// One per database.
    pub runs: Vec<BoardRun>,
    /// The machine's cores.
    pub cores: usize,
}

/// `n` with a comma every three digits.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A request's times: the first, and the median and 90th percentile of the others.
fn times(t: &Timing) -> String {
    format!(
        "{:.1} / {:.1} / {:.1} ms",
        t.first_ms,
        t.quantile(0.5),
        t.quantile(0.9)
    )
}

/// The median of `what` over `loads`, with its smallest and largest.
fn spread(loads: &[Load], what: fn(&Load) -> f64) -> String {
    let q = |q| Loads::quantile(loads, what, q);
    format!("{:.0} ms ({:.0}–{:.0})", q(0.5), q(0.0), q(1.0))
}

impl Report {
    /// The figures as a Markdown table for people.
    pub fn table(&self) -> String {
        let plan = &self.plan;
        let mut out = format!(
            "ladder board: {} bots, {} ranked matches of {PLAYERS} seats (played by `referee tournament` in {:.0} s), {} cores\n\n",
            plan.bots,
            grouped(plan.matches),
            self.tournament_s,
            self.cores
        );
        let mut row = |title: &str, cell: &dyn Fn(&BoardRun) -> String| {
            let cells: Vec<String> = self.runs.iter().map(cell).collect();
            out += &format!("| {title} | {} |\n", cells.join(" | "));
        };
        row("", &|r| {
            match r.db {
                "sqlite" => "SQLite",
                _ => "PostgreSQL",
            }
            .to_owned()
        });
        row("---", &|_| "---".to_owned());
        row("fill: matches recorded in", &|r| {
            format!(
                "{} in {:.0} s ({:.0}/s)",
                grouped(r.filled.matches),
                r.filled.seconds,
                r.filled.matches as f64 / r.filled.seconds
            )
        });
        row("database after the fill", &|r| {
            format!("{:.0} MiB", r.filled.db_bytes as f64 / (1024.0 * 1024.0))
        });
        row("board (`/`): HTML bytes", &|r| grouped(r.page.bytes as u64));
        row("board with its style and script, bytes", &|r| {
            grouped((r.page.bytes + r.assets_bytes) as u64)
        });
        row(
            &format!("`GET /`: first / p50 / p90 of {} more", plan.requests),
            &|r| times(&r.page),
        );
        row(
            &format!(
                "`GET /api/v1/standings` ({} rows): first / p50 / p90",
                plan.bots
            ),
            &|r| times(&r.standings),
        );
        row("`GET /api/v1/standings`: bytes", &|r| {
            grouped(r.standings.bytes as u64)
        });
        let chromium = |r: &BoardRun, f: &dyn Fn(&Loads) -> String| {
            r.loads.as_ref().map_or("no chromium".to_owned(), f)
        };
        row(
            &format!(
                "Chromium, cold ({} loads, each a new browser): first contentful paint, p50 (min–max)",
                plan.cold_loads
            ),
            &|r| chromium(r, &|l| spread(&l.cold, |l| l.fcp_ms)),
        );
        row(
            &format!(
                "Chromium, warm ({} loads, one browser): first contentful paint, p50 (min–max)",
                plan.warm_loads
            ),
            &|r| chromium(r, &|l| spread(&l.warm, |l| l.fcp_ms)),
        );
        row("Chromium, cold: HTML's last byte / load event, p50", &|r| {
            chromium(r, &|l| {
                format!(
                    "{:.0} / {:.0} ms",
                    Loads::quantile(&l.cold, |l| l.response_end_ms, 0.5),
                    Loads::quantile(&l.cold, |l| l.load_ms, 0.5)
                )
            })
        });
        row(
            "Chromium, cold: bytes over the wire, HTML + style and script",
            &|r| {
                chromium(r, &|l| {
                    l.cold.first().map_or(String::new(), |c| {
                        format!(
                            "{} + {}",
                            grouped(c.html_transfer),
                            grouped(c.assets_transfer)
                        )
                    })
                })
            },
        );
        out
    }

    /// The figures as JSON (for `target/ladder-board.json`).
    pub fn to_json(&self) -> Value {
        json!({
            "bots": self.plan.bots,
            "matches": self.plan.matches,
            "players": PLAYERS,
            "cores": self.cores,
            "tournament_s": self.tournament_s,
            "runs": self.runs.iter().map(BoardRun::to_json).collect::<Vec<_>>(),
        })
    }
}
