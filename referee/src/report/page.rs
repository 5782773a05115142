//! The report's files: `OUT/index.html`, one self-contained page (its data, scripts and styles
//! inside, a Content-Security-Policy that lets nothing leave it; see [`crate::html::page`]),
//! and `OUT/replays/ID.html`, the replay page of each match whose log the tournament kept.

use super::data::{ReportError, TournamentReport};
use crate::html::Page;
use serde::Serialize;
use std::path::{Path, PathBuf};

const BODY: &str = include_str!("../../assets/report/report.html");
const STYLE: &str = include_str!("../../assets/report/report.css");
const SCRIPT: &str = include_str!("../../assets/report/report.js");

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

/// The replay pages of a report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Replays {
    /// The matches that have one, `replays/ID.html`.
    pub pages: Vec<u64>,
    /// Why the logs kept have no page, when some have none.
    pub note: Option<String>,
    /// Their size in bytes, all together.
    pub bytes: u64,
}

/// Writes the report of `report` into the directory `out` (made if needed): `index.html`, and
/// under `replays/` a page per match whose log is in the results directory's `logs/`.
///
/// # Errors
/// [`ReportError::Write`] when a file cannot be written.
pub fn write(report: &TournamentReport, out: &Path) -> Result<Written, ReportError> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(failed(out))?;
    let logged = report.bots.iter().flat_map(|b| &b.matches).any(|m| m.log);
    let replays = Replays {
        pages: Vec::new(),
        note: logged
            .then(|| "no replay page: the replay viewer is not part of this referee yet".into()),
        bytes: 0,
    };
    let mut page = Page::new(format!("{} tournament — referee report", report.meta.game));
    page.set_body(BODY)
        .add_style(STYLE)
        .add_data(DATA_BLOCK, report)?
        .add_data(REPLAYS_BLOCK, &replays)?
        .add_script(SCRIPT);
    let html = page.render();
    let index = out.join("index.html");
    std::fs::write(&index, &html).map_err(failed(&index))?;
    Ok(Written {
        index,
        bytes: html.len() as u64,
        replays,
    })
}
