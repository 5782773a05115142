//! Where what the drain reads from a bot's stderr goes: the tail, the file up to its cap (then
//! a line that says so, and what comes after is counted dropped), the counts and the budget.

use super::budget::StderrGate;
use super::count::StderrCount;
use super::tail::StderrTail;
use tokio::io::AsyncWriteExt;

/// The line written to a stderr file where its cap cuts it.
pub(super) const CAPPED: &[u8] = b"\n[referee: stderr capped here]\n";

/// The file a bot's stderr is saved to.
pub(super) enum Saved {
    /// None: nothing is saved, so nothing is dropped.
    Nowhere,
    /// Open, with the bytes written to it so far.
    Open(tokio::fs::File, u64),
    /// At its cap: what comes is dropped.
    Full,
}

/// Where what is read goes: the tail, the file up to its cap, the counts.
pub(super) struct Sink {
    pub(super) tail: StderrTail,
    pub(super) saved: Saved,
    pub(super) cap: u64,
    pub(super) count: StderrCount,
    pub(super) gate: StderrGate,
}

impl Sink {
    /// Takes `bytes` read from the pipe (counted read already): the tail and the file's
    /// position before the first wait.
    pub(super) async fn take(&mut self, bytes: &[u8]) {
        self.gate.spend(bytes.len() as u64);
        self.tail.push(bytes);
        let (f, written) = match &mut self.saved {
            Saved::Nowhere => return,
            Saved::Full => {
                self.gate.drop_bytes(bytes.len() as u64);
                return;
            }
            Saved::Open(f, written) => (f, written),
        };
        let room = self.cap.saturating_sub(*written) as usize;
        let take = room.min(bytes.len());
        let capped = *written + take as u64 >= self.cap;
        let added = take as u64 + if capped { CAPPED.len() as u64 } else { 0 };
        self.count.advance(added);
        if take > 0 {
            // Counted written whatever becomes of it, as the position was.
            let _ = f.write_all(&bytes[..take]).await;
            *written += take as u64;
        }
        if capped {
            let _ = f.write_all(CAPPED).await;
            let _ = f.flush().await;
            self.saved = Saved::Full;
            self.gate.drop_bytes((bytes.len() - take) as u64);
        }
    }
}
