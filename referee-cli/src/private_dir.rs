//! The private directories a command writes (a tournament's results, `merge --out`, a
//! `--stderr-dir`): the library makes and checks them ([`SafeDir::create`]); this module says
//! once when one was open to other users until then.

use super::Failure;
use super::output::errln;
use referee::safe_fs::{MadePrivate, Privacy, SafeDir};
use std::path::Path;

/// Makes (or checks) the private directory `path`, and says so if it was made private.
///
/// # Errors
/// [`Failure::usage`] for a directory of another user, one that other users can write, or one
/// that cannot be made.
pub fn create(path: &Path) -> Result<SafeDir, Failure> {
    let dir = SafeDir::create(path, Privacy::Private).map_err(Failure::usage)?;
    if let Some(made) = dir.made_private() {
        note(&made);
    }
    Ok(dir)
}

/// Says that `made` was open to other users and is private now.
pub fn note(made: &MadePrivate) {
    errln!("referee: note: {made}");
}
