//! Files the referee reads back, and writes, in directories whose contents it does not trust:
//! a results directory, a report's directory, a `--stderr-dir`; and the files a user names
//! (a match log, a TOML file). The rule and its bounds are stated once in
//! [docs/security.md](../../../docs/security.md#files-the-referee-reads-back).
//!
//! A directory is opened once, by the name the user gave ([`SafeDir`]); everything in it is
//! opened relative to that descriptor, one plain name at a time, with `openat2` and
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` (and `O_NOFOLLOW`): a symbolic link anywhere, a `..`
//! or an absolute name is refused by the kernel, not by a check that a rename could race. A file
//! is opened non-blocking and looked at (`fstat`) before anything is read or written: a FIFO, a
//! device, a socket or a directory is refused without waiting for a writer, and a file the
//! referee writes to must have one name (no hard link to a file elsewhere). Files the referee
//! makes are new (`O_CREAT | O_EXCL`), written whole under a temporary name and renamed into
//! place, or appended to once checked. Every read is bounded ([`limits`]); what can be big is
//! read line by line ([`BoundedLines`]).
//!
//! A directory written for a competition is [private](Privacy::Private): checked to be the
//! referee's user's and writable by no one else before anything is written, then 0700, and the
//! files written in it 0600, whatever the umask ([`Privacy`], [`create_private_file`]).

mod dir;
mod error;
pub mod limits;
mod lines;
mod open;
mod private;
#[cfg(test)]
mod private_tests;
#[cfg(test)]
mod tests;

pub use dir::SafeDir;
pub use error::{FileError, FileErrorKind};
pub use lines::BoundedLines;
pub use open::{is_plain_name, open_named, read_named, read_to_limit};
pub use private::{MadePrivate, Privacy, create_private_file};
