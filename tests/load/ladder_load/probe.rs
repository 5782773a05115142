//! The probe of a ladder's API while it runs: the endpoints' latencies, and the window over
//! which the ladder's rate, CPU and growth are measured.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use super::cpu::{Meter, load_average, machine_cpu_s};
use super::process::Guard;
use super::{Cpu, Plan};

/// Latencies of one endpoint, in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Latency {
    /// Every request's, in the order sent.
    pub samples: Vec<f64>,
    /// Requests that failed.
    pub errors: usize,
}

impl Latency {
    /// The `q`-quantile (nearest rank), 0 without samples.
    pub fn quantile(&self, q: f64) -> f64 {
        let mut sorted = self.samples.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.is_empty() {
            return 0.0;
        }
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    /// The figures as JSON (for `target/ladder-load.json`).
    pub(super) fn to_json(&self) -> Value {
        json!({
            "requests": self.samples.len(),
            "errors": self.errors,
            "p50_ms": self.quantile(0.50),
            "p99_ms": self.quantile(0.99),
            "max_ms": self.quantile(1.0),
        })
    }
}

/// What the probe saw of a ladder's run.
pub(super) struct Window {
    pub(super) builds_s: f64,
    pub(super) matches: (u64, u64),
    pub(super) seconds: f64,
    pub(super) server_cpu: Cpu,
    pub(super) machine_cpu_s: f64,
    pub(super) load: (f64, f64),
    pub(super) info: Latency,
    pub(super) standings: Latency,
    /// The database and the artifact store when it opened and when it closed.
    pub(super) sizes: (Stores, Stores),
}

/// The database and the artifact store at one moment.
#[derive(Clone, Debug, Default)]
pub(super) struct Stores {
    pub(super) db_bytes: u64,
    pub(super) artifact_bytes: u64,
    /// The CPU seconds of each PostgreSQL backend serving the ladder's database, by pid.
    pub(super) backends: BTreeMap<u32, f64>,
}

impl Stores {
    /// The CPU seconds the PostgreSQL backends seen in `self` spent since `before`.
    pub(super) fn backend_cpu_since(&self, before: &Stores) -> f64 {
        self.backends
            .iter()
            .map(|(pid, cpu)| cpu - before.backends.get(pid).copied().unwrap_or(0.0))
            .sum()
    }
}

/// A ladder's server as the probe watches it.
pub(super) struct Running<'a> {
    pub(super) server: &'a mut Guard,
    pub(super) meter: &'a Meter<'a>,
    /// Where its stderr goes (named when it fails).
    pub(super) stderr: &'a Path,
    /// When it was started.
    pub(super) started: Instant,
}

/// A reading taken when the window opens or closes.
struct Mark {
    at: Instant,
    matches: u64,
    server_cpu: Cpu,
    machine_cpu_s: f64,
    load: f64,
    sizes: Stores,
}

/// Probes the ladder at `url` every `plan.probe_every` (the info endpoint, then the public
/// standings); the window opens at the first answer that shows every version built and at
/// least `plan.window_from` matches, and closes once `plan.matches - plan.window_from` more
/// are recorded. Latencies are kept from the window only.
pub(super) fn probe(
    url: &str,
    plan: &Plan,
    bots: usize,
    running: Running<'_>,
    sizes: &dyn Fn() -> Stores,
) -> Window {
    let Running {
        server,
        meter,
        stderr,
        started,
    } = running;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = ladder::client::Client::new(url, None);
    let deadline = Instant::now() + plan.timeout;
    let mut builds_s = None;
    let mut open: Option<Mark> = None;
    let mut info = Latency::default();
    let mut standings = Latency::default();
    let mark = |at: Instant, matches: u64| Mark {
        at,
        matches,
        server_cpu: meter.read(),
        machine_cpu_s: machine_cpu_s(),
        load: load_average(),
        sizes: sizes(),
    };
    loop {
        let tick = Instant::now();
        let (answer, info_ms) = runtime.block_on(async {
            let sent = Instant::now();
            let answer = client.info().await;
            (answer, sent.elapsed().as_secs_f64() * 1000.0)
        });
        let answered = Instant::now();
        let (rows, standings_ms) = runtime.block_on(async {
            let sent = Instant::now();
            let rows = client.standings().await;
            (rows, sent.elapsed().as_secs_f64() * 1000.0)
        });
        let matches = answer.as_ref().ok().map(|i| i.matches.max(0) as u64);
        if open.is_some() {
            match matches {
                Some(_) => info.samples.push(info_ms),
                None => info.errors += 1,
            }
            match &rows {
                Ok(_) => standings.samples.push(standings_ms),
                Err(_) => standings.errors += 1,
            }
        }
        let built = rows.as_ref().is_ok_and(|r| r.len() == bots);
        if built && builds_s.is_none() {
            builds_s = Some(started.elapsed().as_secs_f64());
        }
        if let Some(matches) = matches {
            if let Some(first) = &open {
                if matches >= first.matches + plan.matches.saturating_sub(plan.window_from) {
                    let last = mark(answered, matches);
                    return Window {
                        builds_s: builds_s.unwrap_or(f64::NAN),
                        matches: (first.matches, last.matches),
                        seconds: (last.at - first.at).as_secs_f64(),
                        server_cpu: last.server_cpu.minus(first.server_cpu),
                        machine_cpu_s: last.machine_cpu_s - first.machine_cpu_s,
                        load: (first.load, last.load),
                        info,
                        standings,
                        sizes: (first.sizes.clone(), last.sizes),
                    };
                }
            } else if builds_s.is_some() && matches >= plan.window_from {
                open = Some(mark(answered, matches));
            }
        }
        if let Some((status, _)) = server.wait(Duration::ZERO) {
            panic!("the server ended with {status} (see {})", stderr.display());
        }
        assert!(
            Instant::now() < deadline,
            "the ladder recorded {matches:?} of {} matches within {:?} (see {})",
            plan.matches,
            plan.timeout,
            stderr.display()
        );
        std::thread::sleep((tick + plan.probe_every).saturating_duration_since(Instant::now()));
    }
}
