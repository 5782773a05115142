//! The physical limit: a request/response over pipes between this process and a child
//! (`referee bench-pong`, a built-in echo), with both pinned to one core or to two.

use crate::affinity;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Bytes of a request (a typical view is larger; this is the issue's reference size).
pub const REQUEST_BYTES: usize = 200;
/// Bytes of a reply.
pub const REPLY_BYTES: usize = 30;

/// Serves the other end: answers every line with a 30-byte line, until end of input.
pub fn pong() -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let reply = format!("{}\n", "r".repeat(REPLY_BYTES - 1));
    for line in stdin.lines() {
        line?;
        stdout.write_all(reply.as_bytes())?;
        stdout.flush()?;
    }
    Ok(())
}

/// The median time of one round trip in microseconds, over `runs` runs of `trips` trips, with
/// this thread on core `here` and the child on core `there` (`None`: left to the scheduler).
///
/// # Errors
/// When the child cannot be started or the pipes fail.
pub fn round_trip_us(
    here: Option<usize>,
    there: Option<usize>,
    runs: usize,
    trips: usize,
) -> std::io::Result<f64> {
    // On a thread of its own, so that pinning it leaves the caller's thread alone.
    std::thread::scope(|scope| {
        scope
            .spawn(|| measure(here, there, runs, trips))
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the measuring thread panicked")))
    })
}

fn measure(
    here: Option<usize>,
    there: Option<usize>,
    runs: usize,
    trips: usize,
) -> std::io::Result<f64> {
    if let Some(core) = here {
        affinity::pin_current_thread(core);
    }
    let mut child = Command::new(std::env::current_exe()?)
        .arg("bench-pong")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    if let Some(core) = there {
        affinity::pin_process(child.id() as i32, core);
    }
    let mut to = child.stdin.take().expect("piped");
    let mut from = BufReader::new(child.stdout.take().expect("piped"));
    let request = format!("{}\n", "q".repeat(REQUEST_BYTES - 1));
    let mut line = String::new();
    let mut trip = |to: &mut std::process::ChildStdin| -> std::io::Result<()> {
        to.write_all(request.as_bytes())?;
        to.flush()?;
        line.clear();
        from.read_line(&mut line)?;
        Ok(())
    };
    for _ in 0..1000 {
        trip(&mut to)?;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        for _ in 0..trips {
            trip(&mut to)?;
        }
        times.push(started.elapsed().as_secs_f64() * 1e6 / trips as f64);
    }
    drop(to);
    let _ = child.wait();
    Ok(super::median(&mut times))
}
