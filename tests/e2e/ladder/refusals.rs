//! What a token may not do, and results the server refuses: each with its status and
//! message, and nothing counted.

use super::harness::{BUILTINS, Server, block_on, config, databases};
use crate::util::temp_dir;
use base64::Engine;
use ladder::api::wire::MatchResultBody;
use ladder::client::{Client, ClientError};
use ladder::service::ClaimedJob;
use ladder::spec::JobSpec;
use std::io::Write;
use std::time::Duration;

fn status<T: std::fmt::Debug>(result: Result<T, ClientError>) -> (u16, String) {
    match result {
        Err(ClientError::Refused { status, message }) => (status, message),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Plays claimed match job `job` here, as a worker would (its seats are built-in bots), and
/// returns its report.
async fn played(job: &ClaimedJob) -> MatchResultBody {
    let JobSpec::Match(spec) = &job.spec else {
        panic!("a match job")
    };
    let dir = tempfile_dir(job.id);
    let log_path = dir.join("log.jsonl");
    let mut log = referee::runner::MatchLog::create(&log_path).unwrap();
    let config = referee::runner::MatchConfig {
        game: engine::GameKind::from_name(&spec.game).unwrap(),
        options: spec.options.clone(),
        bots: spec
            .seats
            .iter()
            .map(|s| s.bot.spec(None).unwrap())
            .collect(),
        seed: spec.seed,
        match_id: format!("job-{}", job.id),
        max_faults: spec.max_faults,
        policy: spec.policy,
        process: referee::policy::ProcessPolicy::default(),
        outputs: vec![dir.clone()],
    };
    let record = referee::runner::run_match(&config, None, &mut log, &mut ())
        .await
        .unwrap();
    log.flush().unwrap();
    drop(log);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&std::fs::read(&log_path).unwrap()).unwrap();
    MatchResultBody {
        lease: job.lease.clone(),
        record: serde_json::to_value(&record).unwrap(),
        log_gz: base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap()),
        stderr: vec![],
    }
}

fn tempfile_dir(job: i64) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    temp_dir(&format!("ladder-refusals-job-{job}-{n}"))
}

#[test]
fn tokens_are_checked_and_results_that_do_not_hold_are_refused() {
    for (i, db) in databases("ladder refusals").into_iter().enumerate() {
        let dir = temp_dir(&format!("ladder-refusals-{i}"));
        let file = config(
            &dir,
            "[lease]\nseconds = 6\nheartbeat_s = 1\n[matchmaking]\nqueue = 6\n",
            BUILTINS,
        );
        // No local worker: the test is the worker.
        let server = Server::start(&file, &dir.join("home"), db.url.as_deref(), 0);
        let admin = server.client(Some(&server.admin_token()));
        let alice = block_on(admin.add_account("alice", "owner")).unwrap().token;
        let box1 = block_on(admin.add_account("box-1", "worker"))
            .unwrap()
            .token;
        let nobody = server.client(None);
        let wrong = server.client(Some("rl_not-a-token"));
        let owner = server.client(Some(&alice));
        let worker = server.client(Some(&box1));
        block_on(async {
            // Who may do what.
            let (code, message) = status(nobody.claim().await);
            assert_eq!(code, 401);
            assert!(message.contains("Bearer"), "{message}");
            assert_eq!(status(wrong.claim().await).0, 401);
            let (code, message) = status(owner.claim().await);
            assert_eq!(code, 403);
            assert!(message.contains("a worker's token"), "{message}");
            assert_eq!(
                status(worker.submit("w-bot", "python", b"x".to_vec()).await).0,
                403
            );
            assert_eq!(status(owner.set_paused(true).await).0, 403);
            assert_eq!(status(worker.add_account("eve", "admin").await).0, 403);
            let (code, message) = status(owner.submit("mine", "builtin", b"random".to_vec()).await);
            assert_eq!(code, 403);
            assert!(message.contains("admin"), "{message}");
            // Another owner's bot; a name with markup; a language nobody knows.
            assert_eq!(
                status(owner.submit("rand-a", "builtin", b"random".to_vec()).await).0,
                403
            );
            let (code, message) = status(owner.submit("<b>x</b>", "python", b"x".to_vec()).await);
            assert_eq!(code, 400);
            assert!(message.contains("letters, digits"), "{message}");
            assert_eq!(
                status(owner.submit("ok", "cobol", b"x".to_vec()).await).0,
                400
            );
            // Uploads: over the cap (the HTTP layer's 413), an archive that leads outside
            // itself, one file for a language whose bots are archives.
            assert_eq!(oversized(&server.url, &alice), 413);
            let (code, message) = status(owner.submit("evil", "python", escaping_tar()).await);
            assert_eq!(code, 400);
            assert!(message.contains("leads outside the upload"), "{message}");
            let (code, message) = status(
                owner
                    .submit("notrust", "rust", b"fn main() {}\n".to_vec())
                    .await,
            );
            assert_eq!(code, 400);
            assert!(message.contains("a rust bot is an archive"), "{message}");
            // Another owner's artifact is not found, whatever exists.
            assert_eq!(status(owner.artifact(&"a".repeat(64)).await).0, 404);

            // A doctored record: refused, and the job goes back in the queue.
            let first = wait_claim(&worker).await;
            let mut doctored = played(&first).await;
            doctored.record["scores"][0] = serde_json::json!(999_999);
            let (code, message) = status(worker.match_result(first.id, &doctored).await);
            assert_eq!(code, 422, "{message}");
            assert!(message.contains("replays to"), "{message}");
            // The job is claimed again under a new lease; the old lease is refused.
            let again = wait_claim_id(&worker, first.id).await;
            let honest = played(&again).await;
            let stale = MatchResultBody {
                lease: first.lease.clone(),
                ..honest.clone()
            };
            assert_eq!(status(worker.match_result(again.id, &stale).await).0, 409);
            let accepted = worker.match_result(again.id, &honest).await.unwrap();
            // Twice is once.
            let twice = worker.match_result(again.id, &honest).await.unwrap();
            assert_eq!(accepted.match_id, twice.match_id);
            assert_eq!(nobody.info().await.unwrap().matches, 1);

            // A log of another match.
            let a = wait_claim(&worker).await;
            let b = wait_claim(&worker).await;
            let of_b = MatchResultBody {
                lease: a.lease.clone(),
                ..played(&b).await
            };
            let (code, message) = status(worker.match_result(a.id, &of_b).await);
            assert_eq!(code, 422);
            assert!(message.contains("another match"), "{message}");

            // A lease that expired: its heartbeat and its result are refused.
            let late = wait_claim(&worker).await;
            let report = played(&late).await;
            tokio::time::sleep(Duration::from_secs(8)).await;
            assert_eq!(status(worker.heartbeat(late.id, &late.lease).await).0, 409);
            let (code, message) = status(worker.match_result(late.id, &report).await);
            assert_eq!(code, 409);
            assert!(message.contains("lease"), "{message}");
            assert_eq!(nobody.info().await.unwrap().matches, 1);

            // Only the admin freezes; a frozen ladder takes no version.
            assert_eq!(status(owner.set_frozen(true).await).0, 403);
            admin.set_frozen(true).await.unwrap();
            assert!(nobody.info().await.unwrap().frozen);
            let (code, message) = status(admin.submit("late", "builtin", b"random".to_vec()).await);
            assert_eq!(code, 409);
            assert!(message.contains("frozen"), "{message}");
            admin.set_frozen(false).await.unwrap();
            assert!(
                admin
                    .submit("late", "builtin", b"random".to_vec())
                    .await
                    .is_ok()
            );
        });
        server.stop();
    }
}

/// The status of an upload of 17 MiB (over the default cap of 16), sent as any client would.
fn oversized(url: &str, token: &str) -> u16 {
    use std::io::{Read, Write};
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /api/v1/bots/big/versions?lang=python HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        17 << 20
    )
    .unwrap();
    // The body, beside: the server reads up to its cap, then answers.
    let mut writer = stream.try_clone().unwrap();
    let body = std::thread::spawn(move || {
        let chunk = [b'#'; 1 << 16];
        for _ in 0..(17 << 20) / chunk.len() {
            if writer.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    // Only the status line: the server need not close the connection first.
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
        answer.push(byte[0]);
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = body.join();
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"))
}

/// A tar archive whose one entry is `../evil.py` (made by Python's tarfile).
fn escaping_tar() -> Vec<u8> {
    let script = "import io, sys, tarfile\n\
        buf = io.BytesIO()\n\
        with tarfile.open(fileobj=buf, mode='w') as t:\n\
        \x20   data = b'print(1)\\n'\n\
        \x20   info = tarfile.TarInfo('../evil.py'); info.size = len(data)\n\
        \x20   t.addfile(info, io.BytesIO(data))\n\
        sys.stdout.buffer.write(buf.getvalue())\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Claims the next job, waiting for the matchmaker to queue one.
async fn wait_claim(worker: &Client) -> ClaimedJob {
    for _ in 0..600 {
        if let Some(job) = worker.claim().await.unwrap() {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no job was queued within a minute")
}

/// Claims until job `id` comes back.
async fn wait_claim_id(worker: &Client, id: i64) -> ClaimedJob {
    for _ in 0..100 {
        let job = wait_claim(worker).await;
        if job.id == id {
            return job;
        }
    }
    panic!("job {id} did not come back")
}
