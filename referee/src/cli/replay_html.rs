//! `referee replay FILE --html OUT`: the checked log's replay page, written to a file.

use super::Failure;
use super::output::outln;
use crate::html::replay_page;
use crate::runner::LogRecord;
use std::path::Path;

/// Writes the replay page of the log at `log` (already checked) to `out`.
pub fn write(log: &Path, out: &Path) -> Result<(), Failure> {
    let text = std::fs::read_to_string(log)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", log.display())))?;
    let records = text
        .lines()
        .map(serde_json::from_str::<LogRecord>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Failure::usage(format!("{}: {e}", log.display())))?;
    let page =
        replay_page(&records).map_err(|e| Failure::usage(format!("{}: {e}", log.display())))?;
    std::fs::write(out, &page)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", out.display())))?;
    outln!(
        "replay page written to {} ({} KiB): open it in a browser",
        out.display(),
        page.len().div_ceil(1024)
    );
    Ok(())
}
