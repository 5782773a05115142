//! The safe opening, attacked as a hostile directory would: links at the name and on the way,
//! `..` and absolute names, a FIFO, a directory, a hard link, files and lines over their bound.

use super::open::open_one_part;
use super::*;
use rustix::fs::{Mode, OFlags};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::Path;

/// A results directory `results/` and, beside it, a secret file (mode 0600) that nothing done in
/// `results/` may read or change.
struct Scene {
    _tmp: tempfile::TempDir,
    dir: SafeDir,
    secret: std::path::PathBuf,
}

const SECRET: &str = "root:secret-hash:19000::::::\n";

fn scene() -> Scene {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let secret = tmp.path().join("secret");
    std::fs::write(&secret, SECRET).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    Scene {
        dir: SafeDir::open(&results).unwrap(),
        _tmp: tmp,
        secret,
    }
}

impl Scene {
    fn results(&self) -> &Path {
        self.dir.path()
    }

    fn untouched(&self) {
        assert_eq!(std::fs::read_to_string(&self.secret).unwrap(), SECRET);
        let meta = std::fs::metadata(&self.secret).unwrap();
        assert_eq!(meta.mode() & 0o7777, 0o600);
    }

    fn fifo(&self, name: &str) {
        let path = std::ffi::CString::new(self.results().join(name).to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }
}

#[test]
fn a_link_at_the_name_is_never_followed_to_read_append_or_check() {
    let s = scene();
    symlink(&s.secret, s.results().join("run.json")).unwrap();
    let read = s.dir.read("run.json", 1 << 20).unwrap_err();
    assert!(matches!(read.kind, FileErrorKind::Link), "{read}");
    assert!(
        read.to_string()
            .contains("results/run.json: is a symbolic link"),
        "{read}"
    );
    let append = s.dir.open_append("run.json").unwrap_err();
    assert!(matches!(append.kind, FileErrorKind::Link), "{append}");
    assert!(s.dir.check_file("run.json").is_err());
    assert!(s.dir.holds("run.json").unwrap());
    let entries = s.dir.check_entries().unwrap_err();
    assert!(matches!(entries.kind, FileErrorKind::Link), "{entries}");
    // A dangling link is not created through either.
    symlink(
        s.secret.with_file_name("made"),
        s.results().join("dangling"),
    )
    .unwrap();
    assert!(s.dir.open_append("dangling").is_err());
    assert!(!s.secret.with_file_name("made").exists());
    s.untouched();
}

#[test]
fn a_link_is_replaced_not_written_through_by_create_and_replace() {
    let s = scene();
    symlink(&s.secret, s.results().join("1.jsonl")).unwrap();
    symlink(&s.secret, s.results().join("run.json")).unwrap();
    symlink(&s.secret, s.results().join("index.html.tmp")).unwrap();
    std::io::Write::write_all(&mut s.dir.create_file("1.jsonl").unwrap(), b"log\n").unwrap();
    s.dir.replace_file("run.json", b"{}\n", false).unwrap();
    s.dir.replace_file("index.html", b"<p>", true).unwrap();
    for (name, text) in [
        ("1.jsonl", "log\n"),
        ("run.json", "{}\n"),
        ("index.html", "<p>"),
    ] {
        assert!(
            s.dir.holds(name).unwrap() && s.dir.check_file(name).is_ok(),
            "{name}"
        );
        assert_eq!(
            std::fs::read_to_string(s.results().join(name)).unwrap(),
            text
        );
    }
    assert!(!s.dir.holds("index.html.tmp").unwrap());
    s.untouched();
}

#[test]
fn a_link_on_the_way_to_a_subdirectory_is_refused() {
    let s = scene();
    let outside = s.secret.parent().unwrap().join("outside");
    std::fs::create_dir(&outside).unwrap();
    symlink(&outside, s.results().join("stderr")).unwrap();
    let made = s.dir.make_subdir("stderr").unwrap_err();
    assert!(matches!(made.kind, FileErrorKind::Link), "{made}");
    assert!(matches!(
        s.dir.subdir("stderr").unwrap_err().kind,
        FileErrorKind::Link
    ));
    // Nor a longer name through the kernel's own resolution (what openat2 refuses for every
    // part of it).
    std::fs::create_dir(s.results().join("logs")).unwrap();
    symlink(&outside, s.results().join("logs").join("inner")).unwrap();
    let results = std::fs::File::open(s.results()).unwrap();
    let via = open::open_beneath(
        results.as_fd(),
        "logs/inner/x",
        OFlags::WRONLY | OFlags::CREATE,
        Mode::from_raw_mode(0o600),
    );
    assert_eq!(via.unwrap_err(), rustix::io::Errno::LOOP);
    assert!(!outside.join("x").exists());
    let regular = s.results().join("plain");
    std::fs::create_dir(&regular).unwrap();
    assert!(
        s.dir.make_subdir("plain").is_ok(),
        "an existing directory is used"
    );
}

#[test]
fn the_fallback_without_openat2_refuses_a_link_too() {
    let s = scene();
    symlink(&s.secret, s.results().join("run.json")).unwrap();
    let dir = std::fs::File::open(s.results()).unwrap();
    let opened = open_one_part(dir.as_fd(), "run.json", OFlags::RDONLY, Mode::empty());
    assert_eq!(opened.unwrap_err(), rustix::io::Errno::LOOP);
    s.untouched();
}

#[test]
fn dot_dot_absolute_and_empty_names_are_refused() {
    let s = scene();
    let absolute = s.secret.to_str().unwrap().to_string();
    for name in ["..", ".", "", "../secret", "a/b", absolute.as_str(), "a\0b"] {
        let read = s.dir.open_read(name).unwrap_err();
        assert!(
            matches!(read.kind, FileErrorKind::BadName(_)),
            "{name:?}: {read}"
        );
        assert!(s.dir.open_append(name).is_err(), "{name:?}");
        assert!(s.dir.create_file(name).is_err(), "{name:?}");
        assert!(s.dir.make_subdir(name).is_err(), "{name:?}");
    }
    // `..` through the kernel: openat2 refuses to leave the directory.
    let dir = std::fs::File::open(s.results()).unwrap();
    let up = open::open_beneath(dir.as_fd(), "../secret", OFlags::RDONLY, Mode::empty());
    assert_eq!(up.unwrap_err(), rustix::io::Errno::XDEV);
    s.untouched();
}

#[test]
fn a_fifo_is_refused_at_once_to_read_append_or_name() {
    let s = scene();
    s.fifo("matches.jsonl");
    let started = std::time::Instant::now();
    let read = s.dir.open_read("matches.jsonl").unwrap_err();
    assert!(
        read.to_string().ends_with("is a FIFO, not a regular file"),
        "{read}"
    );
    let append = s.dir.open_append("matches.jsonl").unwrap_err();
    assert!(
        append
            .to_string()
            .ends_with("is a FIFO, not a regular file"),
        "{append}"
    );
    let named = read_named(&s.results().join("matches.jsonl"), 100).unwrap_err();
    assert!(
        named.to_string().ends_with("is a FIFO, not a regular file"),
        "{named}"
    );
    let entries = s.dir.check_entries().unwrap_err();
    assert!(entries.to_string().contains("a FIFO"), "{entries}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "no wait for a writer"
    );
}

#[test]
fn a_directory_or_a_device_is_not_a_file() {
    let s = scene();
    std::fs::create_dir(s.results().join("logs")).unwrap();
    let read = s.dir.open_read("logs").unwrap_err();
    assert!(
        read.to_string()
            .ends_with("is a directory, not a regular file"),
        "{read}"
    );
    assert!(s.dir.open_append("logs").is_err());
    let create = s.dir.create_file("logs").unwrap_err();
    assert!(create.to_string().contains("is a directory"), "{create}");
    let null = read_named(Path::new("/dev/null"), 100).unwrap_err();
    assert!(
        null.to_string()
            .ends_with("is a character device, not a regular file"),
        "{null}"
    );
    std::fs::write(s.results().join("file"), "x").unwrap();
    let sub = s.dir.subdir("file").unwrap_err();
    assert!(
        sub.to_string()
            .ends_with("is a regular file, not a directory"),
        "{sub}"
    );
    assert!(s.dir.subdir("missing").unwrap().is_none());
}

#[test]
fn a_hard_link_is_not_appended_to() {
    let s = scene();
    std::fs::hard_link(&s.secret, s.results().join("a.stderr")).unwrap();
    let append = s.dir.open_append("a.stderr").unwrap_err();
    assert!(
        matches!(append.kind, FileErrorKind::HardLinked(2)),
        "{append}"
    );
    assert!(s.dir.check_entries().is_err());
    s.untouched();
}

#[test]
fn files_and_lines_over_their_bound_are_refused_without_reading_them_whole() {
    let s = scene();
    std::fs::write(s.results().join("tournament.json"), vec![b' '; 1001]).unwrap();
    let big = s.dir.read("tournament.json", 1000).unwrap_err();
    assert!(
        big.to_string()
            .ends_with("is larger than 1000 bytes, the most the referee reads of such a file"),
        "{big}"
    );
    assert_eq!(
        s.dir.read("tournament.json", 1001).unwrap().unwrap().len(),
        1001
    );
    assert!(s.dir.read("missing", 10).unwrap().is_none());
    let named = read_named(&s.results().join("tournament.json"), 4 << 20);
    assert_eq!(named.unwrap().len(), 1001);
    let text = format!("short\n{}\nafter\n", "x".repeat(100));
    let mut lines = BoundedLines::new(text.as_bytes(), 50);
    assert_eq!(lines.next().unwrap().unwrap(), b"short");
    let long = lines.next().unwrap().unwrap_err();
    assert!(
        matches!(long, FileErrorKind::LineTooLong { line: 2, limit: 50 }),
        "{long}"
    );
    let exact = BoundedLines::new("1234\n12345".as_bytes(), 5);
    let all: Vec<Vec<u8>> = exact.map(Result::unwrap).collect();
    assert_eq!(all, [b"1234".to_vec(), b"12345".to_vec()]);
}

#[test]
fn a_named_file_may_be_reached_through_a_link_the_user_named() {
    let s = scene();
    let config = s.secret.with_file_name("config.toml");
    std::fs::write(&config, "game = \"vabanque\"\n").unwrap();
    let link = s.secret.with_file_name("link.toml");
    symlink(&config, &link).unwrap();
    assert_eq!(read_named(&link, 100).unwrap(), b"game = \"vabanque\"\n");
    assert!(
        read_named(&s.secret.with_file_name("none"), 100)
            .unwrap_err()
            .is_missing()
    );
}

#[test]
fn a_file_opened_as_a_directory_is_said_to_be_something_else_once() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let err = SafeDir::open(&file).unwrap_err().to_string();
    assert!(
        err.ends_with("afile: is something else (or a path through a file), not a directory"),
        "{err}"
    );
}
