//! The store of artifacts: sources, builds, logs and stderr, each a file named by the sha256 of
//! its bytes (lowercase hex) in one directory. A file is written under a temporary name and
//! renamed into place, so a reader sees it whole or not at all, and writing the same bytes
//! twice is writing them once. A worker that fetches an artifact checks its hash
//! ([`verify`]) and unpacks a built one into a cache directory named by it
//! ([`unpack_artifact`]), with the same checks as an upload: the bytes may be hostile.

use crate::config::BuildSettings;
use crate::upload::{Caps, UploadRefusal, unpack_tree};
use referee::safe_fs::{FileError, FileErrorKind, Privacy, SafeDir};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub use crate::upload::{PackError, pack_dir};

/// The most files and directories a built artifact may hold (a Rust build's `target/` has
/// hundreds).
pub const ARTIFACT_FILES: u64 = 20_000;

/// Numbers the temporary files of this process's writers.
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The largest artifact read back whole ([`ArtifactStore::read`]).
pub const READ_LIMIT: u64 = 1 << 30;

/// Why the store cannot do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    /// The name is not a sha256 in lowercase hex.
    #[error("{0:?} is not an artifact's name (64 lowercase hex digits)")]
    BadHash(String),
    /// No artifact of that name.
    #[error("no artifact {0}")]
    Missing(String),
    /// The bytes are not those the name says.
    #[error("the artifact fetched as {expected} has the sha256 {actual}")]
    Mismatch {
        /// The name it was fetched by.
        expected: String,
        /// The sha256 of its bytes.
        actual: String,
    },
    /// The store's directory or a file in it failed.
    #[error(transparent)]
    File(#[from] referee::safe_fs::FileError),
    /// The artifact cannot be unpacked: hostile, or over the caps.
    #[error("the artifact {hash} is refused: {refusal}")]
    Refused {
        /// Its name.
        hash: String,
        /// Why.
        #[source]
        refusal: UploadRefusal,
    },
}

/// The sha256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `hash` is a sha256 in lowercase hex (an artifact's name).
pub fn is_hash(hash: &str) -> bool {
    hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Checks that `bytes` are the artifact named `hash`.
///
/// # Errors
/// [`ArtifactError::BadHash`] for a name that is no hash, [`ArtifactError::Mismatch`] for
/// other bytes.
pub fn verify(hash: &str, bytes: &[u8]) -> Result<(), ArtifactError> {
    checked(hash)?;
    let actual = sha256_hex(bytes);
    if actual == hash {
        Ok(())
    } else {
        Err(ArtifactError::Mismatch {
            expected: hash.into(),
            actual,
        })
    }
}

fn checked(hash: &str) -> Result<&str, ArtifactError> {
    if is_hash(hash) {
        Ok(hash)
    } else {
        Err(ArtifactError::BadHash(hash.chars().take(80).collect()))
    }
}

/// The caps a built artifact is unpacked under: what a build's directory may hold.
pub fn artifact_caps(settings: &BuildSettings) -> Caps {
    let disk = settings.disk_mb << 20;
    Caps {
        packed_bytes: disk,
        unpacked_bytes: disk,
        files: ARTIFACT_FILES,
    }
}

/// Unpacks the artifact `bytes` (a `.tar.gz`, as [`pack_dir`] makes) into `dest` (made if
/// missing; it must be empty), under [`artifact_caps`], with an upload's checks.
///
/// # Errors
/// [`UploadRefusal`]: a link, a special file, a bad name, a cap passed; the partial tree is
/// removed (a `dest` that was not empty is refused and left as it was).
pub fn unpack_artifact(
    bytes: &[u8],
    dest: &Path,
    settings: &BuildSettings,
) -> Result<(), UploadRefusal> {
    unpack_tree(bytes, None, artifact_caps(settings), dest, |_, _| Ok(()))
}

/// Unpacks an exported results directory (`GET /api/v1/admin/export`, packed by
/// [`pack_dir`]) into `dest` (new or empty), with an upload's checks and caps of its own: a
/// window of a ladder holds far more files than a bot (a log and each seat's stderr per match).
///
/// # Errors
/// As [`unpack_artifact`].
pub fn unpack_results(bytes: &[u8], dest: &Path) -> Result<(), UploadRefusal> {
    let caps = Caps {
        packed_bytes: 64 << 30,
        unpacked_bytes: 256 << 30,
        files: 50_000_000,
    };
    unpack_tree(bytes, None, caps, dest, |_, _| Ok(()))
}

/// The directory of the built artifact `hash` in the cache directory `cache`: `cache/HASH`,
/// unpacked from `bytes` (checked against `hash` first) if it is not there yet. It is unpacked
/// under a temporary name of its own and renamed into place, so that workers sharing the cache
/// never see half of one, and the first to finish wins.
///
/// # Errors
/// [`ArtifactError::BadHash`], [`ArtifactError::Mismatch`], [`ArtifactError::Refused`] (the
/// artifact is hostile or over the caps).
pub fn unpack_cached(
    cache: &Path,
    hash: &str,
    bytes: &[u8],
    settings: &BuildSettings,
) -> Result<PathBuf, ArtifactError> {
    verify(hash, bytes)?;
    let place = cache.join(hash);
    if place.is_dir() {
        return Ok(place);
    }
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // Not a hash: never mistaken for an artifact's directory.
    let temporary = cache.join(format!("{hash}.{}.{unique}.tmp", std::process::id()));
    let refused = |refusal| ArtifactError::Refused {
        hash: hash.into(),
        refusal,
    };
    unpack_artifact(bytes, &temporary, settings).map_err(refused)?;
    if std::fs::rename(&temporary, &place).is_err() {
        // Another worker's is there already (a rename onto a directory that is not empty
        // fails): keep it.
        let _ = std::fs::remove_dir_all(&temporary);
        if !place.is_dir() {
            return Err(refused(UploadRefusal::Io(format!(
                "cannot put it at {}",
                place.display()
            ))));
        }
    }
    Ok(place)
}

/// A directory of artifacts named by their sha256.
#[derive(Debug)]
pub struct ArtifactStore {
    dir: SafeDir,
}

impl ArtifactStore {
    /// The store at `dir`, made (private: the referee's user's alone) if missing.
    ///
    /// # Errors
    /// [`ArtifactError::File`] when it cannot be made or is another user's.
    pub fn open(dir: &Path) -> Result<ArtifactStore, ArtifactError> {
        Ok(ArtifactStore {
            dir: SafeDir::create(dir, Privacy::Private)?,
        })
    }

    /// Stores `bytes`, returning their sha256 (their name); storing them again changes
    /// nothing.
    ///
    /// # Errors
    /// [`ArtifactError::File`] when they cannot be written.
    pub fn put(&self, bytes: &[u8]) -> Result<String, ArtifactError> {
        let hash = sha256_hex(bytes);
        if self.dir.holds(&hash)? {
            return Ok(hash);
        }
        // A temporary name of this writer's own, so that two writers of the same bytes never
        // write into one file; the rename is atomic, and either one's is the same.
        let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temporary = format!("{hash}.{}.{unique}.tmp", std::process::id());
        let written = self.dir.create_file(&temporary).and_then(|mut file| {
            use std::io::Write;
            file.write_all(bytes)
                .and_then(|()| file.sync_all())
                .map_err(|e| FileError::new(&self.dir.path_of(&temporary), FileErrorKind::Io(e)))
        });
        let renamed = written.and_then(|()| {
            std::fs::rename(self.dir.path_of(&temporary), self.dir.path_of(&hash))
                .map_err(|e| FileError::new(&self.dir.path_of(&hash), FileErrorKind::Io(e)))
        });
        if renamed.is_err() {
            let _ = self.dir.remove_file(&temporary);
        }
        renamed?;
        Ok(hash)
    }

    /// Whether the artifact `hash` is stored.
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`], or a failure to look.
    pub fn has(&self, hash: &str) -> Result<bool, ArtifactError> {
        Ok(self.dir.holds(checked(hash)?)?)
    }

    /// Where the artifact `hash` is (whether it is there or not).
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`].
    pub fn path(&self, hash: &str) -> Result<PathBuf, ArtifactError> {
        Ok(self.dir.path_of(checked(hash)?))
    }

    /// The bytes of the artifact `hash` (at most [`READ_LIMIT`]).
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`], [`ArtifactError::Missing`], or a failure to read it.
    pub fn read(&self, hash: &str) -> Result<Vec<u8>, ArtifactError> {
        self.dir
            .read(checked(hash)?, READ_LIMIT)?
            .ok_or_else(|| ArtifactError::Missing(hash.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_is_idempotent_and_read_refuses_what_is_no_hash() {
        let dir = tempfile::tempdir().unwrap();
        let store = ArtifactStore::open(&dir.path().join("artifacts")).unwrap();
        let hash = store.put(b"bytes").unwrap();
        assert_eq!(store.put(b"bytes").unwrap(), hash);
        assert_eq!(store.read(&hash).unwrap(), b"bytes");
        assert!(store.has(&hash).unwrap());
        verify(&hash, b"bytes").unwrap();
        assert!(matches!(
            verify(&hash, b"other"),
            Err(ArtifactError::Mismatch { .. })
        ));
        for bad in ["../x", &hash.to_uppercase(), &hash[1..], ""] {
            assert!(matches!(store.read(bad), Err(ArtifactError::BadHash(_))));
            assert!(matches!(store.path(bad), Err(ArtifactError::BadHash(_))));
        }
        let missing = sha256_hex(b"missing");
        assert!(matches!(
            store.read(&missing),
            Err(ArtifactError::Missing(_))
        ));
        let names: Vec<_> = std::fs::read_dir(dir.path().join("artifacts"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [hash.as_str()], "no temporary file is left");
    }

    #[test]
    fn a_packed_tree_unpacks_the_same_and_packs_to_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir_all(tree.join("a/b")).unwrap();
        std::fs::write(tree.join("a/b/c.txt"), "c").unwrap();
        std::fs::write(tree.join("run"), "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tree.join("run"), std::fs::Permissions::from_mode(0o700)).unwrap();
        let packed = pack_dir(&tree).unwrap();
        let copy = dir.path().join("copy");
        unpack_artifact(&packed, &copy, &BuildSettings::default()).unwrap();
        assert_eq!(
            std::fs::read_to_string(copy.join("a/b/c.txt")).unwrap(),
            "c"
        );
        let mode = std::fs::metadata(copy.join("run"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(pack_dir(&copy).unwrap(), packed);
    }

    #[test]
    fn a_cached_artifact_is_unpacked_once_under_its_hash() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir(&tree).unwrap();
        std::fs::write(tree.join("bot"), "built").unwrap();
        let packed = pack_dir(&tree).unwrap();
        let hash = sha256_hex(&packed);
        let cache = dir.path().join("cache");
        std::fs::create_dir(&cache).unwrap();
        let settings = BuildSettings::default();
        let place = unpack_cached(&cache, &hash, &packed, &settings).unwrap();
        assert_eq!(place, cache.join(&hash));
        assert_eq!(std::fs::read_to_string(place.join("bot")).unwrap(), "built");
        assert_eq!(
            unpack_cached(&cache, &hash, &packed, &settings).unwrap(),
            place
        );
        assert!(matches!(
            unpack_cached(&cache, &sha256_hex(b"other"), &packed, &settings),
            Err(ArtifactError::Mismatch { .. })
        ));
        let names: Vec<_> = std::fs::read_dir(&cache).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary directory is left");
    }

    #[test]
    fn a_tree_with_a_link_is_not_packed_and_a_hostile_artifact_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir(&tree).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", tree.join("leak")).unwrap();
        assert!(matches!(pack_dir(&tree), Err(PackError::NotPlain(_))));
        std::fs::remove_file(tree.join("leak")).unwrap();
        std::fs::write(tree.join("a <b>"), "").unwrap();
        assert!(matches!(pack_dir(&tree), Err(PackError::BadName(_))));
        let settings = BuildSettings::default();
        let dest = dir.path().join("dest");
        for hostile in [
            &b"print(1)"[..],
            b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        ] {
            assert!(unpack_artifact(hostile, &dest, &settings).is_err());
            assert!(!dest.exists());
        }
        // A destination that is not empty is refused, and left as it was.
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("kept"), "").unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &[0; 1024]).unwrap();
        let refusal = unpack_artifact(&gz.finish().unwrap(), &dest, &settings).unwrap_err();
        assert!(refusal.is_platform(), "{refusal}");
        assert!(dest.join("kept").exists());
    }
}
