//! Why an upload (or an artifact a worker fetched) is refused: each reason typed, with a message
//! that says what to change.

use schemars::JsonSchema;
use serde::Serialize;

/// Why an upload or an artifact is refused. Names from the archive are shown escaped (control
/// bytes and anything outside printable ASCII as `\u{..}` escapes), never as they came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema, thiserror::Error)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum UploadRefusal {
    /// The upload, as sent, is over its cap.
    #[error("the upload is {bytes} bytes, over the cap of {cap} bytes")]
    TooBig {
        /// Its size.
        bytes: u64,
        /// The cap (`upload_bytes`).
        cap: u64,
    },
    /// Its files together unpack to more than the cap (counted as they are written: a bomb
    /// stops there).
    #[error("the upload unpacks to more than the cap of {cap} bytes (stopped at {name})")]
    UnpacksTooBig {
        /// The cap (`unpacked_bytes`).
        cap: u64,
        /// The file being written when the cap was reached.
        name: String,
    },
    /// It holds more files (and directories) than the cap.
    #[error("the upload holds more than {cap} files")]
    TooManyFiles {
        /// The cap (`files`).
        cap: u64,
    },
    /// An entry's name would lead outside the upload: an absolute path or a `..`.
    #[error("the entry {name} leads outside the upload (an absolute path or '..')")]
    Escapes {
        /// Its name, escaped.
        name: String,
    },
    /// An entry is a symbolic or a hard link.
    #[error("the entry {name} is a link; an upload holds only files and directories")]
    Link {
        /// Its name, escaped.
        name: String,
    },
    /// An entry is a device, a FIFO, a socket or another special file.
    #[error("the entry {name} is {kind}; an upload holds only files and directories")]
    Special {
        /// Its name, escaped.
        name: String,
        /// What it is.
        kind: String,
    },
    /// An entry's name has a character outside the safe set, or is too long or too deep.
    #[error("the entry {name} has a name that is refused: {why}")]
    BadName {
        /// Its name, escaped.
        name: String,
        /// What is wrong with it.
        why: String,
    },
    /// Two entries have the same name, or one is both a file and a directory.
    #[error("the entry {name} is in the upload twice (or is both a file and a directory)")]
    Duplicate {
        /// Its name, escaped.
        name: String,
    },
    /// The language is not one of the six.
    #[error("no language is called {0:?} (python, rust, javascript, java, cpp, go)")]
    UnknownLanguage(String),
    /// Nothing in the upload is what the language's recipe needs.
    #[error("this is not a {lang} bot: {needs}")]
    WrongLanguage {
        /// The language asked for.
        lang: String,
        /// What its recipe needs at the top of the upload.
        needs: String,
    },
    /// The archive cannot be read (truncated, corrupt, not the format it starts like).
    #[error("the {format} archive cannot be read: {error}")]
    Corrupt {
        /// The format it looked like.
        format: String,
        /// What its reader said.
        error: String,
    },
    /// Writing the unpacked files failed (a fault of the platform, not of the upload).
    #[error("the upload could not be unpacked here: {0}")]
    Io(String),
}

impl UploadRefusal {
    /// Whether the refusal is the machine's fault rather than the upload's.
    pub fn is_platform(&self) -> bool {
        matches!(self, UploadRefusal::Io(_))
    }
}

/// `bytes` (a name as the archive holds it) shown safely: printable ASCII as it is, everything
/// else (control bytes, markup is kept but quoted) escaped, in double quotes, at most 120
/// characters.
pub(crate) fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .take(120)
        .flat_map(char::escape_default)
        .collect();
    if text.chars().count() > 120 {
        out.push('…');
    }
    format!("\"{out}\"")
}
