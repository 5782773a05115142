//! Doing a job: a match played exactly as `referee tournament` plays one (the same
//! `run_match`, the sandbox and limits of its spec), its log and each seat's stderr read back
//! for the report; a build (the uploads part).

use super::Report;
use super::cache::{copy_tree, ensure};
use super::dirs::Dirs;
use super::kept::{Kept, Live};
use crate::api::wire::MatchResultBody;
use crate::bot_users;
use crate::client::Client;
use crate::service::ClaimedJob;
use crate::spec::{JobSpec, MatchSpec, SeatSpec};
use base64::Engine;
use engine::shared_rules::options_from_json;
use engine::{Game, PlayerCounts};
use referee::policy::ProcessPolicy;
use referee::runner::{MatchLog, MatchSettings, Player, play_match, start_players};
use referee::safe_fs::{Privacy, SafeDir};
use referee::seat::{BotSpec, HiddenPath, RunAs, Seat, StderrFile};
use std::io::Write;
use std::path::Path;

/// The most of one seat's stderr of one match sent to the server.
const STDERR_BYTES: u64 = 1 << 20;

/// Does job `job`, with the processes `kept` between matches; an error is the platform's (the
/// job is given back).
pub(super) async fn perform(
    client: &Client,
    dirs: &Dirs,
    kept: &mut Kept,
    job: &ClaimedJob,
) -> Result<Report, String> {
    match &job.spec {
        JobSpec::Match(spec) => {
            let game = engine::GameKind::from_name(&spec.game).map_err(|e| e.to_string())?;
            let scratch = dirs
                .jobs
                .join(format!("{}-{}", job.id, crate::auth::new_lease()));
            let at = Job {
                client,
                dirs,
                scratch: &scratch,
                claimed: job,
                spec,
            };
            let report = engine::with_game!(game, G => play::<G>(&at, kept).await);
            let _ = std::fs::remove_dir_all(&scratch);
            report.map(Report::Match)
        }
        JobSpec::Build(spec) => super::build::build(client, dirs, job, spec)
            .await
            .map(Report::Build),
    }
}

/// What a kept process must have been started for to sit at `seat` of `spec`: the same seat
/// (version, artifact, command, limits) in the same game, options and sandbox.
fn key(spec: &MatchSpec, seat: &SeatSpec) -> String {
    serde_json::to_string(&(seat, &spec.game, &spec.options, spec.sandbox))
        .expect("a spec serializes")
}

/// A match job being played: where, and what.
struct Job<'a> {
    client: &'a Client,
    dirs: &'a Dirs,
    /// The job's own directory (its log), hidden from bots.
    scratch: &'a Path,
    claimed: &'a ClaimedJob,
    spec: &'a MatchSpec,
}

/// Plays match job `job` of game `G` with the seats' processes kept from earlier matches where
/// they may play it, started otherwise.
async fn play<G: Game>(job: &Job<'_>, kept: &mut Kept) -> Result<MatchResultBody, String> {
    let Job {
        scratch,
        claimed,
        spec,
        ..
    } = *job;
    let counts = PlayerCounts::of::<G>();
    if !counts.contains(spec.seats.len()) {
        return Err(format!("{counts}; the job seats {}", spec.seats.len()));
    }
    let options = options_from_json::<G>(&spec.options).map_err(|e| e.to_string())?;
    let out = SafeDir::create(scratch, Privacy::Private).map_err(|e| e.to_string())?;
    let keys: Vec<String> = spec.seats.iter().map(|seat| key(spec, seat)).collect();
    let mut seated: Vec<Option<Live<G>>> = Vec::with_capacity(keys.len());
    for k in &keys {
        seated.push(kept.of::<G>().take(k, spec.seed));
    }
    let missing: Vec<usize> = (0..keys.len()).filter(|&i| seated[i].is_none()).collect();
    if !missing.is_empty() {
        let started = start::<G>(job, kept, &keys, &missing, &options).await?;
        for (i, live) in missing.into_iter().zip(started) {
            seated[i] = Some(live);
        }
    }
    let mut lives: Vec<Live<G>> = seated
        .into_iter()
        .map(|l| l.expect("seated above"))
        .collect();
    let mut players: Vec<Player<G>> = lives
        .iter_mut()
        .map(|l| l.player.take().expect("a live player"))
        .collect();
    let log_path = scratch.join("log.jsonl");
    let mut log = MatchLog::create(&log_path).map_err(|e| e.to_string())?;
    let settings = MatchSettings {
        match_id: format!("job-{}", claimed.id),
        seed: spec.seed,
        max_faults: spec.max_faults,
        policy: spec.policy,
    };
    let record = play_match(&settings, &options, &mut players, &mut log).await;
    let mut stderr = Vec::with_capacity(players.len());
    for player in &mut players {
        stderr.push(stderr_of(player).await);
    }
    for (live, player) in lives.iter_mut().zip(players) {
        live.player = Some(player);
    }
    let cap = kept.cap;
    kept.of::<G>().keep(lives, spec.seed, cap).await;
    let record = record.map_err(|e| format!("the referee could not play the match: {e}"))?;
    log.flush().map_err(|e| e.to_string())?;
    drop(log);
    drop(out);
    let text = std::fs::read(&log_path).map_err(|e| e.to_string())?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).map_err(|e| e.to_string())?;
    let log_gz = gz.finish().map_err(|e| e.to_string())?;
    let b64 = base64::engine::general_purpose::STANDARD;
    Ok(MatchResultBody {
        lease: claimed.lease.clone(),
        record: serde_json::to_value(&record).map_err(|e| e.to_string())?,
        log_gz: b64.encode(log_gz),
        stderr: stderr
            .into_iter()
            .map(|bytes| bytes.filter(|b| !b.is_empty()).map(|b| b64.encode(b)))
            .collect(),
    })
}

/// Starts the seats `missing` of `spec` (each an artifact's fresh copy in a workdir of its own
/// under `seats/`, its stderr to a file of its own), in the sandbox of the spec with the
/// worker's directories hidden and `seats/` sealed (see [`super::kept`]).
async fn start<G: Game>(
    job: &Job<'_>,
    kept: &mut Kept,
    keys: &[String],
    missing: &[usize],
    options: &G::Options,
) -> Result<Vec<Live<G>>, String> {
    let Job {
        client,
        dirs,
        scratch,
        claimed,
        spec,
    } = *job;
    let mut bots = Vec::with_capacity(missing.len());
    let mut workdirs = Vec::with_capacity(missing.len());
    let mut names = Vec::with_capacity(missing.len());
    for &i in missing {
        let seat = &spec.seats[i];
        let mut bot = seat.bot.spec(None).map_err(|e| e.to_string())?;
        bot_users::runnable_program(&mut bot, kept.root);
        kept.started += 1;
        let tag = format!("p{}-{}", kept.started, crate::auth::new_lease());
        let workdir = match &seat.artifact {
            Some(hash) => {
                let unpacked = ensure(client, &dirs.cache, hash, &claimed.build).await?;
                let workdir = dirs.seats.join(&tag);
                copy_tree(&unpacked, &workdir)
                    .map_err(|e| format!("cannot copy artifact {hash} for seat {i}: {e}"))?;
                bot.settings.workdir = Some(workdir.clone());
                Some(workdir)
            }
            None => None,
        };
        workdirs.push(workdir);
        names.push((bot.name.clone(), format!("{tag}.stderr")));
        bots.push(bot);
    }
    let bot_uids = bot_users::bot_uids(kept.root);
    let policy = kept.policy(spec.sandbox, || ProcessPolicy {
        sandbox: spec.sandbox,
        bot_uids,
        hide: [&dirs.cache, &dirs.jobs, &dirs.builds]
            .into_iter()
            .chain(&dirs.outside)
            .cloned()
            .collect(),
        ..ProcessPolicy::default()
    });
    let outcome = policy.resolve(&mut bots, &[scratch.to_path_buf()]);
    let mut processes = match outcome {
        Ok(processes) => processes,
        Err(error) => {
            for dir in workdirs.iter().flatten() {
                let _ = std::fs::remove_dir_all(dir);
            }
            return Err(error.to_string());
        }
    };
    // As root each seat runs as a uid of its own or not at all (`bot_uids` required): one
    // that cannot is the platform's failure, not the bot's, and not a bot run as root.
    let refused = bots
        .iter()
        .find_map(|bot| match processes.options.users.run_as(&bot.name) {
            RunAs::Refused(why) => Some(format!("{}: {why}", bot.name)),
            _ => None,
        });
    if let Some(why) = refused {
        for dir in workdirs.iter().flatten() {
            let _ = std::fs::remove_dir_all(dir);
        }
        return Err(why);
    }
    // Sealed: a process sees its own workdir there, and not those made after it started.
    processes.options.hidden.push(HiddenPath::find(&dirs.seats));
    let stderr_dir = kept.stderr.clone();
    let stderr_file = |bot: &BotSpec| {
        names
            .iter()
            .find(|(name, _)| *name == bot.name)
            .map(|(_, file)| StderrFile {
                dir: stderr_dir.clone(),
                name: file.clone(),
            })
    };
    let players = start_players::<G>(&bots, options, &processes.options, &stderr_file).await;
    Ok(players
        .into_iter()
        .zip(workdirs)
        .zip(missing.iter().zip(&names))
        .map(|((player, workdir), (&i, (_, file)))| {
            Live::new(
                keys[i].clone(),
                player,
                workdir,
                Some(kept.stderr_path.join(file)),
            )
        })
        .collect())
}

/// What `player` wrote to its stderr during the match just played (at most
/// [`STDERR_BYTES`]), if it is a process whose stderr is saved.
async fn stderr_of<G: Game>(player: &mut Player<G>) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let Seat::Process(bot) = &mut player.seat else {
        return None;
    };
    let span = bot.stderr_span().await?;
    let mut file = std::fs::File::open(&span.file).ok()?;
    file.seek(SeekFrom::Start(span.from)).ok()?;
    let mut bytes = Vec::new();
    file.take(span.to.saturating_sub(span.from).min(STDERR_BYTES))
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}
