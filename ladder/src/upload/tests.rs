//! Uploads, hostile ones first: each refused with its reason, nothing left in the destination
//! and nothing written outside it (a sibling sentinel directory stays as it was).

use super::test_archives::{self as make, Entry, file, special};
use super::*;
use referee::starters::Language;
use std::path::PathBuf;
use tar::EntryType;

/// A scratch directory with a sentinel beside the destination.
struct Scratch {
    _dir: tempfile::TempDir,
    dest: PathBuf,
    sentinel: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let sentinel = dir.path().join("sentinel");
        std::fs::create_dir(&sentinel).unwrap();
        std::fs::write(sentinel.join("keep"), "kept").unwrap();
        Scratch {
            dest: dir.path().join("dest"),
            sentinel,
            _dir: dir,
        }
    }

    /// What is under the scratch directory but in the destination: the sentinel, untouched.
    fn assert_untouched(&self) {
        let root = self.sentinel.parent().unwrap();
        let mut names: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n != "dest")
            .collect();
        names.sort();
        assert_eq!(names, ["sentinel"]);
        let kept: Vec<_> = std::fs::read_dir(&self.sentinel).unwrap().collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            std::fs::read_to_string(self.sentinel.join("keep")).unwrap(),
            "kept"
        );
    }

    fn unpack(&self, bytes: &[u8], lang: &str) -> Result<Unpacked, UploadRefusal> {
        self.unpack_with(bytes, lang, &BuildSettings::default())
    }

    fn unpack_with(
        &self,
        bytes: &[u8],
        lang: &str,
        settings: &BuildSettings,
    ) -> Result<Unpacked, UploadRefusal> {
        let result = unpack(bytes, lang, settings, &self.dest);
        if result.is_err() {
            assert!(!self.dest.exists(), "a refused upload leaves nothing");
        }
        self.assert_untouched();
        result
    }

    /// Unpacks `bytes` as Python; the refusal.
    fn refused(&self, bytes: &[u8]) -> UploadRefusal {
        self.unpack(bytes, "python").unwrap_err()
    }
}

const BOT: &[u8] = b"print('hello')\n";

#[test]
fn a_python_file_a_tar_a_tar_gz_and_a_zip_of_it_are_the_same_source() {
    let tar = make::tar(&[file(b"bot.py", BOT)]);
    let forms = [
        (BOT.to_vec(), UploadFormat::File),
        (tar.clone(), UploadFormat::Tar),
        (make::gzip(&tar), UploadFormat::TarGz),
        (make::zip(&[("bot.py", BOT)]), UploadFormat::Zip),
    ];
    let mut hashes = Vec::new();
    for (bytes, format) in forms {
        let scratch = Scratch::new();
        let unpacked = scratch.unpack(&bytes, "python").unwrap();
        assert_eq!(unpacked.format, format);
        assert_eq!(unpacked.run_command, "python3 bot.py");
        assert_eq!(std::fs::read(scratch.dest.join("bot.py")).unwrap(), BOT);
        assert_eq!(
            unpacked.sha256,
            crate::artifacts::sha256_hex(&unpacked.source)
        );
        hashes.push(unpacked.sha256);
    }
    hashes.dedup();
    assert_eq!(hashes.len(), 1, "one source whatever the archive");
}

#[test]
fn one_directory_at_the_top_is_lifted_and_a_lone_script_is_the_program() {
    let scratch = Scratch::new();
    let tar = make::tar(&[
        special(b"mybot/", EntryType::Directory, b""),
        file(b"mybot/vabanque_random.py", BOT),
        file(b"mybot/lib/util.txt", b"x"),
    ]);
    let unpacked = scratch.unpack(&tar, "python").unwrap();
    assert_eq!(unpacked.run_command, "python3 vabanque_random.py");
    assert!(scratch.dest.join("lib/util.txt").is_file());
    assert!(!scratch.dest.join("mybot").exists());
}

#[test]
fn a_rust_crate_runs_its_binary() {
    let scratch = Scratch::new();
    let manifest = b"[package]\nname = \"my-bot\"\nversion = \"0.1.0\"\n";
    let tar = make::tar(&[file(b"Cargo.toml", manifest), file(b"src/main.rs", b"")]);
    let unpacked = scratch.unpack(&make::gzip(&tar), "rust").unwrap();
    assert_eq!(unpacked.run_command, "target/release/my-bot");
}

#[test]
fn entries_that_lead_outside_are_refused() {
    for name in [
        &b"../escaped.py"[..],
        b"/tmp/escaped.py",
        b"ok/../../escaped.py",
    ] {
        let scratch = Scratch::new();
        let refusal = scratch.refused(&make::tar(&[file(b"bot.py", BOT), file(name, BOT)]));
        assert!(
            matches!(refusal, UploadRefusal::Escapes { .. }),
            "{refusal}"
        );
        let name = std::str::from_utf8(name).unwrap();
        let refusal = scratch.refused(&make::zip(&[("bot.py", BOT), (name, BOT)]));
        assert!(
            matches!(refusal, UploadRefusal::Escapes { .. }),
            "zip: {refusal}"
        );
    }
}

#[test]
fn links_devices_and_fifos_are_refused() {
    let cases: [(Entry, &str); 5] = [
        (special(b"link", EntryType::Symlink, b"../sentinel"), "link"),
        (
            special(b"hard", EntryType::Link, b"../sentinel/keep"),
            "link",
        ),
        (special(b"tty", EntryType::Char, b""), "character device"),
        (special(b"disk", EntryType::Block, b""), "block device"),
        (special(b"pipe", EntryType::Fifo, b""), "FIFO"),
    ];
    for (entry, said) in cases {
        let scratch = Scratch::new();
        // The link first, then a file through it: the link alone is refused already.
        let refusal = scratch.refused(&make::tar(&[
            file(b"bot.py", BOT),
            entry,
            file(b"link/keep", b"overwritten"),
        ]));
        assert!(
            matches!(
                refusal,
                UploadRefusal::Link { .. } | UploadRefusal::Special { .. }
            ),
            "{refusal}"
        );
        assert!(refusal.to_string().contains(said), "{refusal}");
    }
    let scratch = Scratch::new();
    let refusal = scratch.refused(&make::zip_with_link("bot.py", "../sentinel/keep"));
    assert!(matches!(refusal, UploadRefusal::Link { .. }), "{refusal}");
}

#[test]
fn a_gzip_bomb_stops_at_the_cap() {
    let scratch = Scratch::new();
    let bomb = make::gzip_bomb(4 << 10);
    assert!(bomb.len() < 8 << 20, "{} bytes expand to 4 GiB", bomb.len());
    let settings = BuildSettings {
        unpacked_bytes: 8 << 20,
        ..BuildSettings::default()
    };
    let refusal = scratch.unpack_with(&bomb, "python", &settings).unwrap_err();
    assert!(
        matches!(refusal, UploadRefusal::UnpacksTooBig { cap, .. } if cap == 8 << 20),
        "{refusal}"
    );
}

#[test]
fn a_zip_bomb_stops_at_the_cap() {
    let scratch = Scratch::new();
    let bomb = make::zip_bomb(4 << 10);
    let settings = BuildSettings {
        unpacked_bytes: 8 << 20,
        ..BuildSettings::default()
    };
    let refusal = scratch.unpack_with(&bomb, "python", &settings).unwrap_err();
    assert!(
        matches!(refusal, UploadRefusal::UnpacksTooBig { .. }),
        "{refusal}"
    );
}

#[test]
fn too_many_files_and_too_big_an_upload_are_refused() {
    let names: Vec<String> = (0..11).map(|i| format!("f{i}.py")).collect();
    let entries: Vec<Entry> = names.iter().map(|n| file(n.as_bytes(), BOT)).collect();
    let settings = BuildSettings {
        files: 10,
        ..BuildSettings::default()
    };
    let scratch = Scratch::new();
    let refusal = scratch
        .unpack_with(&make::tar(&entries), "python", &settings)
        .unwrap_err();
    assert_eq!(refusal, UploadRefusal::TooManyFiles { cap: 10 });
    let settings = BuildSettings {
        upload_bytes: 100,
        ..BuildSettings::default()
    };
    let refusal = scratch
        .unpack_with(&[b'#'; 101], "python", &settings)
        .unwrap_err();
    assert_eq!(
        refusal,
        UploadRefusal::TooBig {
            bytes: 101,
            cap: 100
        }
    );
}

#[test]
fn names_with_markup_or_control_bytes_are_refused_and_shown_escaped() {
    for name in [
        &b"<img src=x onerror=alert(1)>.py"[..],
        b"bot\x1b[2J.py",
        b"a\nb.py",
    ] {
        let scratch = Scratch::new();
        let refusal = scratch.refused(&make::tar(&[file(b"bot.py", BOT), file(name, BOT)]));
        assert!(
            matches!(refusal, UploadRefusal::BadName { .. }),
            "{refusal}"
        );
        assert!(!refusal.to_string().contains(['\x1b', '\n']), "{refusal}");
    }
}

#[test]
fn a_duplicate_entry_is_refused() {
    let scratch = Scratch::new();
    let refusal = scratch.refused(&make::tar(&[file(b"bot.py", BOT), file(b"./bot.py", BOT)]));
    assert!(
        matches!(refusal, UploadRefusal::Duplicate { .. }),
        "{refusal}"
    );
}

#[test]
fn the_wrong_language_is_refused_saying_what_it_needs() {
    let cases = [
        ("python", make::tar(&[file(b"main.go", b"package main")])),
        ("rust", make::tar(&[file(b"bot.py", BOT)])),
        ("rust", BOT.to_vec()),
        ("go", make::tar(&[file(b"bot.cpp", b"int main(){}")])),
        ("cpp", make::zip(&[("bot.py", BOT)])),
        ("java", make::tar(&[file(b"Main.java", b"class Main {}")])),
        ("java", make::tar(&[file(b"Bot.java", b"class Bot {}")])),
        ("java", b"class Bot {}".to_vec()),
    ];
    for (lang, bytes) in cases {
        let scratch = Scratch::new();
        let refusal = scratch.unpack(&bytes, lang).unwrap_err();
        assert!(
            matches!(&refusal, UploadRefusal::WrongLanguage { lang: l, .. } if l == lang),
            "{lang}: {refusal}"
        );
    }
    let scratch = Scratch::new();
    assert_eq!(
        scratch.unpack(BOT, "cobol").unwrap_err(),
        UploadRefusal::UnknownLanguage("cobol".into())
    );
}

#[test]
fn a_corrupt_archive_is_refused() {
    let scratch = Scratch::new();
    let mut gz = make::gzip(&make::tar(&[file(b"bot.py", BOT)]));
    gz.truncate(gz.len() / 2);
    let refusal = scratch.refused(&gz);
    assert!(
        matches!(refusal, UploadRefusal::Corrupt { .. }),
        "{refusal}"
    );
}

#[test]
fn the_recipes_table_of_the_docs_is_the_code() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/ladder.md"))
            .unwrap();
    for language in Language::ALL {
        let recipe = language.recipe();
        let named = program::named_by_build(&recipe);
        let single = match language {
            Language::Rust | Language::Java => "(an archive only)".to_string(),
            _ => format!("`{}`", recipe.main),
        };
        let row = format!(
            "| `{}` | {} | {single} | {} | `{}` |",
            language.name(),
            match language {
                Language::Python | Language::JavaScript => {
                    format!("`{}`, or a single `*.{}`", recipe.main, recipe.extension)
                }
                Language::Go => format!("`{}`, or another `*.{}`", recipe.main, recipe.extension),
                _ if named.len() == 2 => format!("`{}` and `{}`", named[0], named[1]),
                _ => format!("`{}`", recipe.main),
            },
            recipe.build.map_or("—".to_string(), |b| format!("`{b}`")),
            recipe.run,
        );
        assert!(docs.contains(&row), "docs/ladder.md has no row\n{row}");
    }
}
