//! The names an upload may hold: each entry's path checked component by component, before
//! anything is written.
//!
//! The safe set: every component is 1 to 255 bytes of ASCII letters, digits, `.`, `_`, `-` and
//! `+`, is not `.` or `..` and does not start with `-`; a path has at most [`MAX_DEPTH`]
//! components and [`MAX_PATH`] bytes. No space, no control byte, no markup (`<>&"'`), no shell
//! or glob character (`$*?;|` and the like), no backslash, no colon, no non-ASCII letter: a name
//! is shown on the board, typed on a command line and written on any file system as it is.
//!
//! A built artifact's names may also hold `$ @ = , ~` ([`NameSet::Artifact`]): what compilers
//! name their outputs with (`javac`'s `Bot$Inner.class`).

use super::refusal::{UploadRefusal, shown};

/// The most components a path may have.
pub const MAX_DEPTH: usize = 32;
/// The most bytes a path may have.
pub const MAX_PATH: usize = 1024;

/// Which names a tree may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameSet {
    /// An upload's: `A-Z a-z 0-9 . _ - +`.
    Upload,
    /// A built artifact's: an upload's, and `$ @ = , ~`.
    Artifact,
}

impl NameSet {
    /// Whether `b` may be in a name.
    fn allows(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || matches!(b, b'.' | b'_' | b'-' | b'+')
            || (self == NameSet::Artifact && matches!(b, b'$' | b'@' | b'=' | b',' | b'~'))
    }

    /// The bytes it allows, in words.
    fn shown(self) -> &'static str {
        match self {
            NameSet::Upload => "A-Z a-z 0-9 . _ - +",
            NameSet::Artifact => "A-Z a-z 0-9 . _ - + $ @ = , ~",
        }
    }
}

/// The components of the entry named `raw` (a `/`-separated path as the archive holds it; a
/// trailing `/` and `./` components are dropped), each checked against `set`; empty for the
/// archive's root (`./`).
///
/// # Errors
/// [`UploadRefusal::Escapes`] for an absolute path or a `..`; [`UploadRefusal::BadName`] for a
/// character outside the safe set, a component or a path too long, or a path too deep.
pub fn checked_path(raw: &[u8], set: NameSet) -> Result<Vec<String>, UploadRefusal> {
    let bad = |why: &str| UploadRefusal::BadName {
        name: shown(raw),
        why: why.to_string(),
    };
    if raw.first() == Some(&b'/') {
        return Err(UploadRefusal::Escapes { name: shown(raw) });
    }
    if raw.len() > MAX_PATH {
        return Err(bad(&format!("longer than {MAX_PATH} bytes")));
    }
    let mut parts = Vec::new();
    for part in raw.split(|&b| b == b'/') {
        match part {
            b"" | b"." => continue,
            b".." => return Err(UploadRefusal::Escapes { name: shown(raw) }),
            _ => {}
        }
        if let Some(&b) = part.iter().find(|&&b| !set.allows(b)) {
            return Err(bad(&format!(
                "the byte {} is not allowed (names use {} only)",
                shown(&[b]),
                set.shown()
            )));
        }
        if part[0] == b'-' {
            return Err(bad("a name may not start with '-'"));
        }
        if part.len() > 255 {
            return Err(bad("a component is longer than 255 bytes"));
        }
        parts.push(String::from_utf8(part.to_vec()).expect("ASCII"));
    }
    if parts.len() > MAX_DEPTH {
        return Err(bad(&format!("deeper than {MAX_DEPTH} directories")));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_pass_and_others_are_refused_with_their_reason() {
        assert_eq!(
            checked_path(b"./src/main.rs", NameSet::Upload).unwrap(),
            ["src", "main.rs"]
        );
        assert_eq!(checked_path(b"dir/", NameSet::Upload).unwrap(), ["dir"]);
        assert!(checked_path(b"./", NameSet::Upload).unwrap().is_empty());
        for escaping in [&b"/etc/passwd"[..], b"../x", b"a/../../x"] {
            assert!(matches!(
                checked_path(escaping, NameSet::Upload),
                Err(UploadRefusal::Escapes { .. })
            ));
        }
        for bad in [
            &b"a\nb"[..],
            b"<script>.py",
            b"a b",
            b"-rf",
            b"caf\xc3\xa9",
            b"a\\b",
        ] {
            assert!(
                matches!(
                    checked_path(bad, NameSet::Upload),
                    Err(UploadRefusal::BadName { .. })
                ),
                "{bad:?}"
            );
        }
        assert!(checked_path(b"Bot$1.class", NameSet::Upload).is_err());
        assert_eq!(
            checked_path(b"build/Bot$1.class", NameSet::Artifact).unwrap(),
            ["build", "Bot$1.class"]
        );
        let deep = "d/".repeat(MAX_DEPTH + 1);
        assert!(matches!(
            checked_path(deep.as_bytes(), NameSet::Upload),
            Err(UploadRefusal::BadName { .. })
        ));
    }

    #[test]
    fn a_refused_name_is_shown_escaped() {
        let Err(refusal) = checked_path(b"x\x1b[31m<b>", NameSet::Upload) else {
            panic!()
        };
        let message = refusal.to_string();
        assert!(!message.contains('\x1b'), "{message}");
        assert!(message.contains("\\u{1b}"), "{message}");
    }
}
