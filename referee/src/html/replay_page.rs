//! The replay viewer (`referee replay FILE --html OUT`): one page holding a match's checked log
//! and the viewer's scripts, which draw the match in the browser.
//!
//! The page computes nothing the log does not say: a generic player (`assets/viewer/player.js`)
//! cuts the records into steps and shows the timeline, the seats' times, faults and stderr, and
//! the scores over time; one module per game (`assets/viewer/GAME.js`) folds the records into
//! its board and draws it. Only the module of the match's game is included. What the page shows
//! and its keys are in `docs/replay-viewer.md`.
//!
//! A report's replay pages ([`linked_replay_page`]) are the same viewer split in two so that a
//! class tournament's hundreds of them stay small: the viewer's code and style written once
//! beside them ([`VIEWER_SCRIPT_FILE`], [`VIEWER_STYLE_FILE`]: [`viewer_script`], every game's
//! module in it), each page its markup and its log compressed, which a loader decodes before
//! the player starts.

use super::page::{Page, PageError};
use crate::runner::LogRecord;

const STYLE: &str = include_str!("../../assets/viewer/viewer.css");
const BODY: &str = include_str!("../../assets/viewer/viewer.html");
/// The scripts every page holds, before the game's module: DOM helpers, playing cards, the
/// scores chart, and the board of a game with no module of its own.
const SHARED_SCRIPTS: [&str; 4] = [
    include_str!("../../assets/viewer/dom.js"),
    include_str!("../../assets/viewer/cards.js"),
    include_str!("../../assets/viewer/chart.js"),
    include_str!("../../assets/viewer/generic.js"),
];
const PLAYER: &str = include_str!("../../assets/viewer/player.js");

/// The drawing module of each game, by the game's name in the registry.
pub const GAME_MODULES: &[(&str, &str)] = &[
    ("vabanque", include_str!("../../assets/viewer/vabanque.js")),
    (
        "bouillabaisse",
        include_str!("../../assets/viewer/bouillabaisse.js"),
    ),
    (
        "machiavelli",
        include_str!("../../assets/viewer/machiavelli.js"),
    ),
];

/// The id of the data block holding the log's records.
pub const LOG_BLOCK: &str = "match-log";

/// The id of the data block holding the match seed as a string: a seed is a 64-bit integer,
/// which JavaScript's numbers (in the log's block) round above 2^53.
pub const SEED_BLOCK: &str = "match-seed";

/// The file name of the shared viewer script, beside a report's replay pages.
pub const VIEWER_SCRIPT_FILE: &str = "viewer.js";
/// The file name of the shared viewer style sheet, beside a report's replay pages.
pub const VIEWER_STYLE_FILE: &str = "viewer.css";

/// The body of a page that links the viewer: the loader puts the viewer's markup in it.
const LINKED_BODY: &str = "<noscript>The replay viewer needs JavaScript.</noscript>";

/// The loader of [`viewer_script`]: decodes a compressed log block, then starts the player.
const LOADER: &str = include_str!("../../assets/viewer/loader.js");

/// The viewer's style sheet, as written to [`VIEWER_STYLE_FILE`].
pub fn viewer_style() -> &'static str {
    STYLE
}

/// The viewer's code for pages that link it ([`VIEWER_SCRIPT_FILE`]): the shared scripts,
/// every game's module, the viewer's markup (`Referee.skeleton`, which each page would
/// otherwise repeat), the player wrapped as `Referee.startPlayer` (its own file unchanged),
/// and the loader that puts the markup in the page and starts the player once the page's log
/// is decoded.
pub fn viewer_script() -> String {
    let mut js = String::new();
    for part in SHARED_SCRIPTS
        .iter()
        .chain(GAME_MODULES.iter().map(|(_, module)| module))
    {
        js.push_str(part);
        js.push_str("\n;\n");
    }
    js.push_str("Referee.skeleton = ");
    js.push_str(&serde_json::Value::from(BODY).to_string());
    js.push_str(";\n");
    js.push_str("Referee.startPlayer = function () {\n");
    js.push_str(PLAYER);
    js.push_str("\n};\n");
    js.push_str(LOADER);
    js
}

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReplayPageError {
    /// The records do not begin with a header and a start record (a version 3 log).
    #[error("the viewer needs a log that begins with its header and start records (log version 3)")]
    NotVersion3,
    /// The records do not serialize.
    #[error(transparent)]
    Page(#[from] PageError),
}

/// The replay page of a match, from its checked records (header first, as
/// [`crate::runner::LogRecord`]s of a version 3 log).
///
/// # Errors
/// [`ReplayPageError::NotVersion3`] when the records do not begin with a header and a start.
pub fn replay_page(records: &[LogRecord]) -> Result<String, ReplayPageError> {
    let game = titled_page(records, |page, records| {
        page.add_data(LOG_BLOCK, records).map(|_| ())
    })?;
    let (mut page, game) = game;
    page.add_style(STYLE);
    for script in SHARED_SCRIPTS {
        page.add_script(script);
    }
    if let Some((_, module)) = GAME_MODULES.iter().find(|(name, _)| *name == game) {
        page.add_script(module);
    }
    page.add_script(PLAYER);
    Ok(page.render())
}

/// The replay page of a match for a report's `replays/` directory: the records compressed ([`Page::add_compressed_data`]), and links to [`VIEWER_STYLE_FILE`] and
/// [`VIEWER_SCRIPT_FILE`], which the caller writes once beside it.
///
/// # Errors
/// As [`replay_page`].
pub fn linked_replay_page(records: &[LogRecord]) -> Result<String, ReplayPageError> {
    let (mut page, _) = titled_page(records, |page, records| {
        page.add_compressed_data(LOG_BLOCK, records).map(|_| ())
    })?;
    page.set_body(LINKED_BODY);
    page.link_style(VIEWER_STYLE_FILE)
        .link_script(VIEWER_SCRIPT_FILE);
    Ok(page.render())
}

/// A replay page's title, markup and data blocks (the log's by `add_log`), and the game's name.
fn titled_page(
    records: &[LogRecord],
    add_log: impl FnOnce(&mut Page, &[LogRecord]) -> Result<(), PageError>,
) -> Result<(Page, String), ReplayPageError> {
    let (
        Some(LogRecord::Header {
            game,
            match_id,
            seed,
            ..
        }),
        Some(LogRecord::Start { .. }),
    ) = (records.first(), records.get(1))
    else {
        return Err(ReplayPageError::NotVersion3);
    };
    let mut page = Page::new(format!("{game} match {match_id} — referee replay"));
    page.set_body(BODY);
    add_log(&mut page, records)?;
    page.add_data(SEED_BLOCK, &seed.to_string())?;
    Ok((page, game.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::GameKind;

    #[test]
    fn every_registered_game_has_a_drawing_module() {
        for kind in GameKind::ALL {
            assert!(
                GAME_MODULES.iter().any(|(name, _)| *name == kind.name()),
                "no assets/viewer module for {}",
                kind.name()
            );
        }
    }

    #[test]
    fn a_log_without_a_start_record_is_refused() {
        let header = LogRecord::Header {
            log_version: 2,
            game: "vabanque".into(),
            match_id: "0".into(),
            seed: 1,
            options: serde_json::json!({}),
            players: Vec::new(),
            max_faults: 3,
            policy: crate::runner::FaultPolicy::default(),
            score_name: String::new(),
            higher_is_better: false,
        };
        assert!(matches!(
            replay_page(&[header]),
            Err(ReplayPageError::NotVersion3)
        ));
    }
}
