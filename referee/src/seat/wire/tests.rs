//! The wire's waits for a reply, over a pipe and over in-memory streams.

use super::{ReplyWait, Wire};
use crate::seat::lines::REQUEST_BURST;
use crate::seat::pace::GAP;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::io::duplex;
use tokio::time::Instant;

#[tokio::test]
async fn a_bot_that_writes_outside_a_decision_has_its_pipe_watched_only_during_waits() {
    use std::io::Write;
    let (pipe, bot) = crate::seat::pipe::Pipe::pair();
    let mut wire = Wire::new(pipe, tokio::io::sink(), 1 << 20);
    let reply = |id: u64| format!("{{\"type\":\"action\",\"id\":{id},\"action\":1}}\n");
    let wait = |id| ReplyWait {
        id,
        deadline: Instant::now() + Duration::from_secs(600),
        limit: &"a test's",
        max_noise: 8,
    };
    // Writes `bytes` once the referee waits.
    let later = |mut bot: std::fs::File, bytes: String| {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            bot.write_all(bytes.as_bytes()).unwrap();
            bot
        })
    };
    // An honest bot: its pipe stays watched between decisions.
    assert!(wire.read_before_request(1, 8).is_empty());
    let writer = later(bot, reply(1));
    assert!(wire.read_reply(&wait(1), &mut Vec::new()).await.is_ok());
    assert!(wire.lines.get_ref().is_watched());
    let mut bot = writer.join().unwrap();
    // Bytes written between decisions: a fault, and the pipe watched only during waits.
    bot.write_all(b"\n\n").unwrap();
    bot.write_all(b"{}\n").unwrap();
    assert_eq!(wire.read_before_request(2, 8).len(), 1);
    assert!(!wire.lines.get_ref().is_watched());
    let writer = later(bot, reply(2));
    assert!(wire.read_reply(&wait(2), &mut Vec::new()).await.is_ok());
    assert!(!wire.lines.get_ref().is_watched(), "off after its wait");
    drop(writer.join().unwrap());
}

#[tokio::test(start_paused = true)]
async fn a_reply_that_ends_in_the_pace_pause_is_read_at_its_deadline_not_timed_out() {
    let (mut bot, from_bot) = duplex(64 << 10);
    let (to_bot, _bot_reads) = duplex(64 << 10);
    let mut wire = Wire::new(from_bot, to_bot, 1 << 20);
    assert!(wire.read_before_request(1, 8).is_empty());
    let started = Instant::now();
    // The burst's small reads, a space a millisecond; the last begins the pause…
    let writer = tokio::spawn(async move {
        for _ in 0..REQUEST_BURST {
            bot.write_all(b" ").await.unwrap();
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        // …in which the reply ends.
        tokio::time::sleep(Duration::from_millis(4)).await;
        let reply = b"{\"type\":\"action\",\"id\":1,\"action\":7}\n";
        bot.write_all(reply).await.unwrap();
        bot
    });
    let pause_from = started + Duration::from_millis((REQUEST_BURST - 1).into());
    let deadline = pause_from + Duration::from_millis(10);
    assert!(
        deadline < pause_from + GAP,
        "the deadline falls in the pause"
    );
    let wait = ReplyWait {
        id: 1,
        deadline,
        limit: &"a test's",
        max_noise: 8,
    };
    let reply = wire.read_reply(&wait, &mut Vec::new()).await;
    assert_eq!(
        reply.ok(),
        Some(serde_json::json!(7)),
        "read at the deadline"
    );
    assert_eq!(Instant::now(), deadline);
    let _bot = writer.await.unwrap();
}
