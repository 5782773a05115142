//! The commands a document shows, run as they stand: its `sh` blocks under a heading, and a
//! ladder's server started from one of them as a person starts it (on a free port rather than
//! the document's 8640), in a fresh directory that holds the checkout's `sample-bots/`, the
//! `examples/` files named and a `target/release/` (the test's own build of the binaries).

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::{Arc, Mutex};

/// The sh blocks of section `heading` (up to the next `## `) of the file `doc` (from the
/// repository's root), in order, each as its text.
pub fn sh_blocks(doc: &str, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let section = text
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("{doc} has no {heading:?}"))
        .1;
    let section = section.split("\n## ").next().unwrap();
    section
        .split("```sh\n")
        .skip(1)
        .map(|rest| rest.split_once("\n```").unwrap().0.to_string())
        .collect()
}

/// A fresh directory `name` as a checkout looks to a person who built it: `sample-bots/`,
/// `examples/` with the files `examples` (copied), and `target/release/`.
pub fn checkout(name: &str, examples: &[&str]) -> PathBuf {
    let dir = temp_dir(name);
    std::os::unix::fs::symlink(root().join("sample-bots"), dir.join("sample-bots")).unwrap();
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    for file in examples {
        std::fs::copy(
            root().join("examples").join(file),
            dir.join("examples").join(file),
        )
        .unwrap();
    }
    std::fs::create_dir(dir.join("target")).unwrap();
    let binaries = bin("referee").parent().unwrap().to_path_buf();
    std::os::unix::fs::symlink(&binaries, dir.join("target/release")).unwrap();
    writable_by_bots(&dir);
    dir
}

/// A ladder's server started with the command `serve` in `dir`, on a free port.
pub struct Served {
    /// The process.
    pub child: Child,
    /// The command (for its mark).
    pub command: std::process::Command,
    /// Where it listens.
    pub url: String,
    printed: Arc<Mutex<String>>,
}

impl Served {
    /// Runs `serve` (a `referee ladder serve …` line) in `dir` with `--listen 127.0.0.1:0 -j 2`
    /// and waits until it says where it listens.
    pub fn start(serve: &str, dir: &Path) -> Served {
        let mut command = shell(&format!("exec {serve} --listen 127.0.0.1:0 -j 2"), dir);
        let mut child = command
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let printed = Arc::new(Mutex::new(String::new()));
        {
            use std::io::BufRead;
            let (printed, pipe) = (printed.clone(), child.stdout.take().unwrap());
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
                    let mut all = printed.lock().unwrap();
                    all.push_str(&line);
                    all.push('\n');
                }
            });
        }
        let url = loop {
            let text = printed.lock().unwrap().clone();
            if let Some(rest) = text.split("ladder: serving on ").nth(1) {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "the server ended: {text}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        Served {
            child,
            command,
            url,
            printed,
        }
    }

    /// What it printed so far.
    pub fn printed(&self) -> String {
        self.printed.lock().unwrap().clone()
    }

    /// Stops it with SIGTERM, as Ctrl-C does, and checks it left no process behind.
    pub fn stop(mut self) {
        // SAFETY: a signal to the server we started.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        assert!(self.child.wait().unwrap().success());
        assert_no_marked_survivors(&self.command);
    }
}
