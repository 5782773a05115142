//! What a submission sends: a file as it is, a directory packed, a built-in bot's name.

use crate::Failure;
use std::path::Path;

/// The bytes to submit for `path` (found from `base`) in `lang`.
///
/// # Errors
/// A usage failure for a path that cannot be read.
pub fn bytes_of(lang: &str, path: &str, base: &Path) -> Result<Vec<u8>, Failure> {
    if lang == ladder::service::BUILTIN {
        return Ok(path.as_bytes().to_vec());
    }
    let full = base.join(path);
    if full.is_dir() {
        // Packed here as the server stores sources: the same files give the same hash.
        return ladder::artifacts::pack_dir(&full)
            .map_err(|e| Failure::usage(format!("{}: {e}", full.display())));
    }
    std::fs::read(&full).map_err(|e| Failure::usage(format!("{}: {e}", full.display())))
}
