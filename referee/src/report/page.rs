//! The report's files: `OUT/index.html`, one self-contained page (its data, scripts and styles
//! inside, a Content-Security-Policy that lets nothing leave it; see [`crate::html::page`]),
//! `OUT/grades.csv`, the grade sheet ([`super::grades`]), and `OUT/replays/ID.html`, the replay
//! page of each match whose log the tournament kept.

use super::data::{ReportError, TournamentReport};
use super::grades::grade_sheet;
use super::replays::{ReplayChoice, Replays, write_replays};
use crate::html::Page;
use crate::safe_fs::{MadePrivate, Privacy, SafeDir};
use crate::tournament::results::ResultsError;
use std::path::{Path, PathBuf};

const BODY: &str = include_str!("../../assets/report/report.html");
const STYLE: &str = include_str!("../../assets/report/report.css");
/// The report's scripts, in order: the replay viewer's DOM helpers and chart (for its ticks),
/// then the report's own.
const SCRIPTS: [&str; 3] = [
    include_str!("../../assets/viewer/dom.js"),
    include_str!("../../assets/viewer/chart.js"),
    include_str!("../../assets/report/report.js"),
];

/// The report's page, in its directory.
const INDEX: &str = "index.html";

/// The grade sheet, beside the page ([`crate::report::grades`]).
pub const GRADES: &str = "grades.csv";

/// The id of the data block holding the [`TournamentReport`].
pub const DATA_BLOCK: &str = "report-data";
/// The id of the data block listing the replay pages written ([`Replays`]).
pub const REPLAYS_BLOCK: &str = "report-replays";

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The report's page.
    pub index: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The grade sheet, `grades.csv` beside it.
    pub grades: PathBuf,
    /// Its size in bytes.
    pub grades_bytes: u64,
    /// The replay pages written.
    pub replays: Replays,
    /// Whether the report is for the referee's user alone: the tournament is not finished,
    /// and the page shows its seed ([`privacy`]).
    pub private: bool,
    /// The report's directory, when other users could read it until it was made private.
    pub made_private: Option<MadePrivate>,
}

impl Written {
    /// The report's size in bytes: its page, its grade sheet, its replay pages and the
    /// viewer's files they share.
    pub fn total_bytes(&self) -> u64 {
        self.bytes + self.grades_bytes + self.replays.bytes
    }
}

/// Who may read a report of `report`: its user alone while the tournament is not finished (the
/// page shows the seed, the key to the deals still to come, and a replay page every hand of
/// its match), as the results directory; once every scheduled match is played, as the umask
/// says, to be published.
pub fn privacy(report: &TournamentReport) -> Privacy {
    if report.board.matches < report.board.scheduled {
        Privacy::Private
    } else {
        Privacy::Published
    }
}

/// Writes the report of `report`, read from the results directory `dir`, into the directory
/// `out` (made if needed, [private](Privacy::Private) while the tournament is not finished:
/// [`privacy`]): `index.html`, `grades.csv` (the grade sheet; one bot's report has its row
/// alone), and under `replays/` a page per match whose log is in
/// `dir/logs/` and that `choice` takes. Each file is written new and renamed into place
/// ([`SafeDir::replace_file`]): a link planted in `out` is replaced, never written through.
///
/// # Errors
/// [`ReportError::Write`] when a file cannot be written, or `out`, private, is another user's
/// or other users can write it; [`ReportError::Results`] when `dir` cannot be opened.
pub fn write(
    report: &TournamentReport,
    dir: &Path,
    out: &Path,
    choice: ReplayChoice,
) -> Result<Written, ReportError> {
    let dir = SafeDir::open(dir).map_err(ResultsError::from)?;
    let privacy = privacy(report);
    let out = SafeDir::create(out, privacy).map_err(ReportError::Write)?;
    let replays = write_replays(report, &dir, &out, choice)?;
    let grades = grade_sheet(&dir, &report.board, report.for_bot.as_deref());
    out.replace_file(GRADES, grades.as_bytes(), false)
        .map_err(ReportError::Write)?;
    let mut page = Page::new(format!("{} tournament — referee report", report.meta.game));
    page.set_body(BODY)
        .add_style(STYLE)
        .add_data(DATA_BLOCK, report)?
        .add_data(REPLAYS_BLOCK, &replays)?;
    for script in SCRIPTS {
        page.add_script(script);
    }
    let html = page.render();
    out.replace_file(INDEX, html.as_bytes(), false)
        .map_err(ReportError::Write)?;
    Ok(Written {
        index: out.path_of(INDEX),
        bytes: html.len() as u64,
        grades: out.path_of(GRADES),
        grades_bytes: grades.len() as u64,
        replays,
        private: privacy == Privacy::Private,
        made_private: out.made_private(),
    })
}
