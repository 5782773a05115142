//! The artifact store: files named by their SHA-256 under the ladder's `artifacts/`
//! (sources, builds, logs, stderr). Interim version; the uploads part replaces it.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Files named by their SHA-256.
#[derive(Clone, Debug)]
pub struct ArtifactStore {
    dir: PathBuf,
}

/// Whether `hash` is a SHA-256 as the store names files: 64 lowercase hex digits.
pub fn is_hash(hash: &str) -> bool {
    hash.len() == 64
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The SHA-256 of `bytes` in hex.
pub fn sha256(bytes: &[u8]) -> String {
    crate::auth::hex(&Sha256::digest(bytes))
}

impl ArtifactStore {
    /// The store in `dir`, made if missing.
    ///
    /// # Errors
    /// When `dir` cannot be made.
    pub fn open(dir: &Path) -> std::io::Result<ArtifactStore> {
        std::fs::create_dir_all(dir)?;
        Ok(ArtifactStore {
            dir: dir.to_path_buf(),
        })
    }

    /// Keeps `bytes` and returns their hash (writing nothing when they are kept already).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn put(&self, bytes: &[u8]) -> std::io::Result<String> {
        let hash = sha256(bytes);
        let path = self.dir.join(&hash);
        if !path.exists() {
            let tmp = self
                .dir
                .join(format!(".{hash}.{}", crate::auth::new_lease()));
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            std::fs::rename(&tmp, &path)?;
        }
        Ok(hash)
    }

    /// The bytes named `hash`, or `None` when there are none (or `hash` is no hash).
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn read(&self, hash: &str) -> std::io::Result<Option<Vec<u8>>> {
        if !is_hash(hash) {
            return Ok(None);
        }
        match std::fs::read(self.dir.join(hash)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Unpacks a built artifact into `dest` (interim: the uploads part gives the real one).
///
/// # Errors
/// Always, for now.
pub fn unpack_artifact(_bytes: &[u8], _dest: &Path) -> Result<(), String> {
    Err("unpacking artifacts is not built yet".into())
}
