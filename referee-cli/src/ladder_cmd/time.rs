//! A time on the command line, as the ladder reads one ([`ladder::utc::parse`]).

use crate::Failure;

/// `text` as milliseconds since the epoch.
///
/// # Errors
/// A usage failure naming the forms accepted.
pub fn parse(text: &str) -> Result<i64, Failure> {
    ladder::utc::parse(text).map_err(|e| Failure::usage(e.to_string()))
}
