//! `referee replay FILE --html OUT`: the checked log's replay page, written to a file.

use super::Failure;
use super::output::outln;
use referee::html::replay_page;
use referee::runner::LogRecord;
use std::path::Path;

/// Writes the replay page of a checked log's records to `out`.
pub fn write(records: &[LogRecord], out: &Path) -> Result<(), Failure> {
    let page = replay_page(records).map_err(Failure::usage)?;
    std::fs::write(out, &page)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", out.display())))?;
    outln!(
        "replay page written to {} ({} KiB): open it in a browser",
        out.display(),
        page.len().div_ceil(1024)
    );
    Ok(())
}
