//! The worker's cache of artifacts, each fetched once, checked against its hash and unpacked
//! into `cache/HASH/` ([`unpack_cached`](crate::artifacts::unpack_cached)); a seat or a build
//! gets a fresh copy of it, so no job can change what another one runs.

use crate::client::Client;
use crate::config::BuildSettings;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// The unpacked artifact `hash`, fetched through `client` if the cache lacks it.
pub(super) async fn ensure(
    client: &Client,
    cache: &Path,
    hash: &str,
    caps: &BuildSettings,
) -> Result<PathBuf, String> {
    if !crate::artifacts::is_hash(hash) {
        return Err(format!(
            "the job names an artifact {hash:.80} that is no sha256"
        ));
    }
    let dir = cache.join(hash);
    if dir.is_dir() {
        return Ok(dir);
    }
    let bytes = client
        .artifact(hash)
        .await
        .map_err(|e| format!("cannot fetch artifact {hash}: {e}"))?;
    crate::artifacts::unpack_cached(cache, hash, &bytes, caps).map_err(|e| e.to_string())
}

/// Copies the tree `from` to `to` (made, open to the worker's user alone until it is given to
/// a bot's group: it is in a directory bots' uids may pass through), files with their
/// permissions; nothing else is in an unpacked artifact.
pub(super) fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(to)?;
    copy_entries(from, to)
}

/// Copies what is in the directory `from` into the directory `to`.
fn copy_entries(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_entries(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
