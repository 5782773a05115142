//! The worker's cache of artifacts, each fetched once, checked against its hash and unpacked
//! into `cache/HASH/`; a seat gets a fresh copy of it as its workdir, so no match can change
//! what another one runs.

use crate::client::Client;
use std::path::{Path, PathBuf};

/// The unpacked artifact `hash`, fetched through `client` if the cache lacks it.
pub(super) async fn ensure(client: &Client, cache: &Path, hash: &str) -> Result<PathBuf, String> {
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
    let got = crate::artifacts::sha256(&bytes);
    if got != hash {
        return Err(format!("artifact {hash} arrived with the hash {got}"));
    }
    let partial = cache.join(format!(".{hash}.{}", crate::auth::new_lease()));
    crate::artifacts::unpack_artifact(&bytes, &partial)
        .map_err(|e| format!("cannot unpack artifact {hash}: {e}"))?;
    if std::fs::rename(&partial, &dir).is_err() {
        // Another slot unpacked it first.
        let _ = std::fs::remove_dir_all(&partial);
    }
    Ok(dir)
}

/// Copies the tree `from` to `to` (made), files with their permissions; nothing else is in an
/// unpacked artifact.
pub(super) fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
