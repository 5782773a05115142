//! The seats' working directories of a reproduction: made afresh each time, so that what a
//! bot wrote in one reproduction is not there in the next, and an artifact copied into its
//! seat's (the bundle's own copy is never handed to a bot to write in).

use super::error::ReproduceError;
use std::path::Path;

/// Makes `path` an empty directory (removing what was there).
///
/// # Errors
/// [`ReproduceError::Workdir`] when it cannot be removed or made.
pub fn fresh_dir(path: &Path) -> Result<(), ReproduceError> {
    let failed = |error| ReproduceError::Workdir {
        path: path.to_path_buf(),
        error,
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).map_err(failed)?,
        Ok(_) => std::fs::remove_file(path).map_err(failed)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(e)),
    }
    std::fs::create_dir_all(path).map_err(failed)
}

/// Copies the directory `from` (an unpacked artifact) to `to`, made afresh: directories and
/// regular files (with their permissions) only.
///
/// # Errors
/// [`ReproduceError::BadFile`] for a symbolic link or another kind of file in it (an artifact
/// holds none); [`ReproduceError::Workdir`] when reading or writing fails.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), ReproduceError> {
    fresh_dir(to)?;
    copy_entries(from, to)
}

fn copy_entries(from: &Path, to: &Path) -> Result<(), ReproduceError> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |error| ReproduceError::Workdir { path, error }
    };
    for entry in std::fs::read_dir(from).map_err(failed(from))? {
        let entry = entry.map_err(failed(from))?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        let kind = std::fs::symlink_metadata(&source)
            .map_err(failed(&source))?
            .file_type();
        if kind.is_dir() {
            std::fs::create_dir(&target).map_err(failed(&target))?;
            copy_entries(&source, &target)?;
        } else if kind.is_file() {
            std::fs::copy(&source, &target).map_err(failed(&target))?;
        } else {
            return Err(ReproduceError::BadFile {
                path: source,
                why: "is not a regular file or a directory: an artifact holds no link or special file".into(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_artifact_is_copied_with_its_modes_and_a_link_in_it_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        let from = temp.path().join("artifact");
        std::fs::create_dir_all(from.join("lib")).unwrap();
        std::fs::write(from.join("bot"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(from.join("bot"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(from.join("lib/data"), "x").unwrap();
        let to = temp.path().join("run/seat");
        std::fs::create_dir_all(&to).unwrap();
        std::fs::write(to.join("left-over"), "from the last run").unwrap();
        copy_tree(&from, &to).unwrap();
        assert!(!to.join("left-over").exists());
        assert_eq!(std::fs::read_to_string(to.join("lib/data")).unwrap(), "x");
        let mode = std::fs::metadata(to.join("bot"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        std::os::unix::fs::symlink("/etc/passwd", from.join("lib/link")).unwrap();
        let error = copy_tree(&from, &to).unwrap_err();
        assert!(matches!(error, ReproduceError::BadFile { .. }), "{error}");
    }
}
