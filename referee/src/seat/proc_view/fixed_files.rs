//! The fixed copies of `/proc` a sandboxed bot gets: made once per run, each handed to
//! bubblewrap in a memfd of its own at every bot start.

use super::fixed_text::{fixed_meminfo, fixed_stat};
use std::io::{Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;
use std::sync::OnceLock;

/// The files of `/proc` a sandboxed bot gets as a fixed copy, each with what moves in it and
/// what the copy shows instead.
pub const FIXED_FILES: [(&str, &str); 3] = [
    (
        "stat",
        "every figure 0 (CPU times, interrupts, context switches, forks, running and blocked \
         processes) but the boot time; one line per CPU, as the machine has",
    ),
    (
        "meminfo",
        "the totals kept (memory, swap, huge pages, the commit limit); free and available \
         memory equal to the total, free swap and huge pages to theirs, every other figure 0",
    ),
    (
        "cpuinfo",
        "as read at the run's start (its only moving figure, `cpu MHz`, is the frequency then)",
    ),
];

/// The content of each of [`FIXED_FILES`], made once per run: `None` where the machine has no
/// such file or the referee cannot read it (the bot then gets `/dev/null` there).
fn fixed_contents() -> &'static [(&'static str, Option<String>); 3] {
    static CONTENTS: OnceLock<[(&str, Option<String>); 3]> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        let read = |name: &str| std::fs::read_to_string(format!("/proc/{name}")).ok();
        [
            ("stat", read("stat").map(|text| fixed_stat(&text))),
            ("meminfo", read("meminfo").map(|text| fixed_meminfo(&text))),
            ("cpuinfo", read("cpuinfo")),
        ]
    })
}

/// The fixed copies of `/proc` for one bot start, each in a memfd of its own that bubblewrap
/// reads (from its start: the descriptor is fresh) and closes.
#[derive(Debug, Default)]
pub struct FixedFiles {
    files: Vec<(OwnedFd, &'static str)>,
}

impl FixedFiles {
    /// The run's copies, in fresh memfds (close-on-exec in the referee; the bot's child keeps
    /// them open across its exec, [`FixedFiles::descriptors`]).
    ///
    /// # Errors
    /// When a memfd cannot be made or written (out of descriptors or memory).
    pub fn for_start() -> std::io::Result<FixedFiles> {
        let mut files = Vec::new();
        for (name, content) in fixed_contents() {
            if let Some(content) = content {
                files.push((memfd(name, content)?, *name));
            }
        }
        Ok(FixedFiles { files })
    }

    /// The bubblewrap arguments that bind each copy read-only over its file, and `/dev/null`
    /// over a fixed file the referee could not copy.
    pub fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for (name, content) in fixed_contents() {
            let path = format!("/proc/{name}");
            match self.files.iter().find(|(_, n)| n == name) {
                Some((fd, _)) => args.extend([
                    "--perms".into(),
                    "0444".into(),
                    "--ro-bind-data".into(),
                    fd.as_raw_fd().to_string(),
                    path,
                ]),
                None if content.is_none() && Path::new(&path).exists() => {
                    args.extend(["--ro-bind".into(), "/dev/null".into(), path]);
                }
                None => {}
            }
        }
        args
    }

    /// The descriptors the bot's child must keep open across its exec (bubblewrap reads them).
    pub fn descriptors(&self) -> Vec<RawFd> {
        self.files.iter().map(|(fd, _)| fd.as_raw_fd()).collect()
    }
}

/// A close-on-exec memfd holding `content`, read from its start.
fn memfd(name: &str, content: &str) -> std::io::Result<OwnedFd> {
    let name = std::ffi::CString::new(format!("referee-proc-{name}")).expect("no NUL");
    // SAFETY: memfd_create takes a NUL-terminated name and returns a new descriptor or -1.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fd is a new descriptor that nothing else owns.
    let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    file.write_all(content.as_bytes())?;
    file.rewind()?;
    Ok(file.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_gets_fresh_copies_read_from_their_start() {
        use std::io::Read;
        for _ in 0..2 {
            let fixed = FixedFiles::for_start().unwrap();
            assert_eq!(fixed.descriptors().len(), 3, "{fixed:?}");
            for (fd, name) in &fixed.files {
                let mut text = String::new();
                let mut file = std::fs::File::from(fd.try_clone().unwrap());
                file.read_to_string(&mut text).unwrap();
                assert!(!text.is_empty(), "{name}");
            }
            // Read to their ends above: the next start's copies are fresh.
        }
        let meminfo = &fixed_contents()[1].1;
        assert!(meminfo.as_deref().unwrap().starts_with("MemTotal:"));
    }
}
