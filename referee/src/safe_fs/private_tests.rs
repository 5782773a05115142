//! Private directories: made 0700 with files 0600; an older directory open to other users made
//! private and said; one that other users can write refused before anything is written; and
//! never a mode changed through a link or a hard link.

use super::*;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_private_directory_is_made_0700_and_what_is_written_there_0600() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("a/b/results");
    let dir = SafeDir::create(&out, Privacy::Private).unwrap();
    assert_eq!(mode(&out), 0o700);
    assert!(
        dir.made_private().is_none(),
        "a new directory was open to no one"
    );
    let logs = dir.make_subdir("logs").unwrap();
    assert_eq!(mode(&out.join("logs")), 0o700);
    logs.create_file("1.jsonl")
        .unwrap()
        .write_all(b"x")
        .unwrap();
    dir.open_append("matches.jsonl").unwrap();
    dir.replace_file("tournament.json", b"{}", false).unwrap();
    for name in ["logs/1.jsonl", "matches.jsonl", "tournament.json"] {
        assert_eq!(mode(&out.join(name)), 0o600, "{name}");
    }
}

#[test]
fn a_published_directory_keeps_what_the_umask_gives() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    std::fs::create_dir(&out).unwrap();
    chmod(&out, 0o777);
    let dir = SafeDir::create(&out, Privacy::Published).unwrap();
    dir.replace_file("index.html", b"<p>", false).unwrap();
    assert_eq!(mode(&out), 0o777);
    // Whatever the umask, a published file is not made 0600 on purpose.
    let umask_file = tmp.path().join("umask");
    std::fs::write(&umask_file, b"").unwrap();
    assert_eq!(mode(&out.join("index.html")), mode(&umask_file));
}

#[test]
fn an_older_directory_open_to_others_is_made_private_and_said() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("older");
    std::fs::create_dir_all(out.join("stderr")).unwrap();
    for dir in [&out, &out.join("stderr")] {
        chmod(dir, 0o755);
    }
    for name in ["tournament.json", "stderr/a.w0.1.stderr"] {
        std::fs::write(out.join(name), b"x").unwrap();
        chmod(&out.join(name), 0o644);
    }
    let dir = SafeDir::create(&out, Privacy::Private).unwrap();
    assert_eq!(mode(&out), 0o700);
    let made = dir.made_private().unwrap();
    assert_eq!(made.mode & 0o7777, 0o755);
    let said = made.to_string();
    assert!(
        said.contains("was drwxr-xr-x (755), open to other users"),
        "{said}"
    );
    assert!(
        said.contains("made it private (700, its files 600)"),
        "{said}"
    );
    let stderr = dir.subdir("stderr").unwrap().unwrap();
    assert_eq!(mode(&out.join("stderr")), 0o700);
    stderr.check_entries().unwrap();
    dir.keep_private("tournament.json").unwrap();
    for name in ["tournament.json", "stderr/a.w0.1.stderr"] {
        assert_eq!(mode(&out.join(name)), 0o600, "{name}");
    }
}

#[test]
fn a_directory_others_can_write_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("shared");
    std::fs::create_dir(&out).unwrap();
    chmod(&out, 0o775);
    let refused = SafeDir::create(&out, Privacy::Private).unwrap_err();
    assert!(
        matches!(refused.kind, FileErrorKind::OthersCanWrite { .. }),
        "{refused}"
    );
    let said = refused.to_string();
    assert!(said.contains("is drwxrwxr-x (775, owner uid"), "{said}");
    assert!(
        said.contains(&format!("chmod go-w {}", out.display())),
        "{said}"
    );
    assert_eq!(mode(&out), 0o775);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    // A subdirectory too, in a private directory.
    chmod(&out, 0o700);
    std::fs::create_dir(out.join("logs")).unwrap();
    chmod(&out.join("logs"), 0o777);
    let dir = SafeDir::create(&out, Privacy::Private).unwrap();
    let logs = dir.make_subdir("logs").unwrap_err();
    assert!(
        matches!(logs.kind, FileErrorKind::OthersCanWrite { .. }),
        "{logs}"
    );
    assert_eq!(mode(&out.join("logs")), 0o777);
}

#[test]
fn no_mode_is_changed_through_a_link_or_a_hard_link() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::write(&outside, b"elsewhere").unwrap();
    chmod(&outside, 0o644);
    let out = tmp.path().join("results");
    std::fs::create_dir(&out).unwrap();
    symlink(&outside, out.join("tournament.json")).unwrap();
    std::fs::hard_link(&outside, out.join("matches.jsonl")).unwrap();
    let dir = SafeDir::create(&out, Privacy::Private).unwrap();
    dir.keep_private("tournament.json").unwrap();
    dir.keep_private("matches.jsonl").unwrap();
    assert!(
        dir.check_entries().is_err(),
        "both are refused by the check"
    );
    assert!(dir.open_append("matches.jsonl").is_err());
    assert_eq!(mode(&outside), 0o644);
}

#[test]
fn a_file_the_user_names_is_made_0600() {
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("new.jsonl");
    create_private_file(&new).unwrap();
    assert_eq!(mode(&new), 0o600);
    let older = tmp.path().join("older.jsonl");
    std::fs::write(&older, b"an earlier log").unwrap();
    chmod(&older, 0o644);
    create_private_file(&older)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    assert_eq!(mode(&older), 0o600);
    assert_eq!(std::fs::read(&older).unwrap(), b"x");
}
