//! The server's own time for a page: `GET` over a new connection of the loopback (as a
//! browser's first request makes one), timed from the connect to the answer's last byte, by a
//! client that does nothing else (no parsing beyond the head, no rendering).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// An answer, and how long it took.
pub(super) struct Answer {
    /// Its status code.
    pub(super) status: u16,
    /// Its body, as sent (no compression is asked for).
    pub(super) body: Vec<u8>,
    /// Milliseconds from the connect to the last byte.
    pub(super) ms: f64,
}

/// `GET path` from the server at `url` (`http://ADDRESS`), on a new connection.
pub(super) fn get(url: &str, path: &str) -> Answer {
    let address = url.trim_start_matches("http://");
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_nodelay(true).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer's head");
    let head = String::from_utf8_lossy(&bytes[..split]).to_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let body = &bytes[split + 4..];
    let body = if head.contains("transfer-encoding: chunked") {
        unchunked(body)
    } else {
        body.to_vec()
    };
    Answer { status, body, ms }
}

/// The data of a chunked body.
fn unchunked(mut body: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    loop {
        let end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk's size line");
        let line = String::from_utf8_lossy(&body[..end]);
        let size = usize::from_str_radix(line.split(';').next().unwrap().trim(), 16)
            .expect("a chunk's size");
        if size == 0 {
            return data;
        }
        data.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
}

/// One endpoint's times.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// The first request's milliseconds (the first since the server started).
    pub first_ms: f64,
    /// The milliseconds of each request after it, in the order sent.
    pub samples_ms: Vec<f64>,
    /// The body's bytes (the first answer's).
    pub bytes: usize,
}

impl Timing {
    /// The `q`-quantile of the samples (nearest rank), 0 without samples.
    pub fn quantile(&self, q: f64) -> f64 {
        quantile(&self.samples_ms, q)
    }
}

/// The `q`-quantile of `values` (nearest rank), 0 when there are none.
pub(super) fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// `GET path` once and then `requests` times more, one after another; every answer must be
/// a 200. The first answer's body is returned too.
pub(super) fn time(url: &str, path: &str, requests: usize) -> (Timing, Vec<u8>) {
    let answer = |n: usize| {
        let answer = get(url, path);
        assert_eq!(answer.status, 200, "GET {path} (request {n})");
        answer
    };
    let first = answer(0);
    let samples_ms = (1..=requests).map(|n| answer(n).ms).collect();
    let timing = Timing {
        first_ms: first.ms,
        samples_ms,
        bytes: first.body.len(),
    };
    (timing, first.body)
}
