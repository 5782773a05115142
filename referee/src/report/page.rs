//! The report's files: `OUT/index.html`, one self-contained page (its data, scripts and styles
//! inside, a Content-Security-Policy that lets nothing leave it; see [`crate::html::page`]),
//! and `OUT/replays/ID.html`, the replay page of each match whose log the tournament kept.

use super::data::{ReportError, TournamentReport};
use super::replays::{ReplayChoice, Replays, write_replays};
use crate::html::Page;
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
    /// The replay pages written.
    pub replays: Replays,
}

/// Writes the report of `report`, read from the results directory `dir`, into the directory
/// `out` (made if needed): `index.html`, and under `replays/` a page per match whose log is in
/// `dir/logs/` and that `choice` takes.
///
/// # Errors
/// [`ReportError::Write`] when a file cannot be written.
pub fn write(
    report: &TournamentReport,
    dir: &Path,
    out: &Path,
    choice: ReplayChoice,
) -> Result<Written, ReportError> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(failed(out))?;
    let replays = write_replays(report, dir, out, choice)?;
    let mut page = Page::new(format!("{} tournament — referee report", report.meta.game));
    page.set_body(BODY)
        .add_style(STYLE)
        .add_data(DATA_BLOCK, report)?
        .add_data(REPLAYS_BLOCK, &replays)?;
    for script in SCRIPTS {
        page.add_script(script);
    }
    let html = page.render();
    let index = out.join("index.html");
    std::fs::write(&index, &html).map_err(failed(&index))?;
    Ok(Written {
        index,
        bytes: html.len() as u64,
        replays,
    })
}
