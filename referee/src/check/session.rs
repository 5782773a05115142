//! Running the bot for a check: its hello, then matches against the game's built-in bots in one
//! process (the bot's seat moving each match) until it has been asked in every phase, with the
//! probes sent in the middle of the third match; then `goodbye`. Last, a second run of the bot
//! has its input closed after the handshake, with no `goodbye`, to see that it exits at the end
//! of its input too. The refereeing is the runner's own ([`play_match`]); this module only
//! arranges it and keeps what it saw as [`Facts`]. What it concludes must not depend on the load
//! of the machine, so it has no fixed window anywhere; it waits for the bot, with generous
//! bounds that only a bot that keeps busy reaches.
//!
//! # Between matches
//!
//! After each match the check reads what the bot writes in reaction to `match_end` — a stray
//! line, or an exit instead of waiting for `goodbye` — and must see it every time (a tournament
//! does not wait so). A fixed window cannot: on a busy machine a bot may not even have read
//! `match_end` 150 ms later. Nor is the next match's first request a fence: what the bot writes
//! in reaction to `match_end` does come before its reply to that request, but so does a debug
//! line it prints in reaction to the request, and the two cannot be told apart. So [`settle`] reads the
//! bot's output until
//!
//! - the bot is waiting for input with nothing left to do ([`ProcessBot::is_waiting`]): it has
//!   read all its input, `match_end` included, no thread of its processes can run (each is seen
//!   asleep twice in `/proc`, with no context switch between the looks), and nothing it wrote is
//!   unread. Whatever it wrote in reaction to `match_end` is then in hand, and an exit would
//!   have shown, as a running thread or as its end. A well-behaved bot is there within
//!   milliseconds, loaded machine or not. The look covers the bot's process, its descendants
//!   and its control group, so it sees through bubblewrap (`--sandbox bwrap`) too; or
//! - the bot is gone: its process has exited and nothing it wrote is unread, or its output has
//!   ended and its process then exits ([`ProcessBot::exits`], which waits for an exit under way
//!   and tells it from a bot that lives on with its stdout closed); or
//! - [`SETTLE_BOUND`] (10 s) passes, which only a bot that keeps busy after `match_end` reaches
//!   (or one whose processes `/proc` does not show).
//!
//! What a bot does later on a timer of its own (sleeping, then writing or exiting) is not seen
//! between the matches: a line then comes at the next match (charged there, to `stdout`), an
//! exit at the next match's first request (charged to `lifecycle`, with a hint).
//!
//! # After `goodbye`, and at the end of input
//!
//! The protocol gives a bot its exit grace ([`ProcessOptions::exit_grace`], one second) to exit
//! after `goodbye`, or after the end of its input. A bot that, at the end of it, waits instead
//! of exiting is stopped and fails `lifecycle`; one still at work then (on a loaded machine its
//! second may not have been its own) is given up to
//! [`ENDING_BOUND`](crate::seat::process::ENDING_BOUND) (10 s) to exit by itself, and fails
//! only if it has not by then ([`ProcessBot::close`]).

use super::facts::{Exit, Facts, Gone, Hello, MatchFacts, Probe};
use super::refusals::refusals;
use crate::check::sparring_partners;
use crate::runner::{
    FaultPolicy, MatchLog, MatchSettings, Player, RunError, is_usable, play_match,
    shutdown_players, start_players,
};
use crate::safe_fs::SafeDir;
use crate::seat::process::{FIRST_LOOK, LONGEST_LOOK};
use crate::seat::{BotSpec, Fault, ProcessBot, ProcessOptions, Seat, StderrFile};
use engine::Game;
use engine::seed;
use protocol::{ErrorMsg, FaultKind, Goodbye, ToBot};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The match (1-based) in which the probes are sent: the first two matches show that the bot
/// plays and starts a second match in the same process, so that a crash right after a probe is
/// the probe's doing.
pub const PROBE_MATCH: usize = 3;
/// The requests of [`PROBE_MATCH`] (0-based, among the bot's) that the probes come before: in
/// the middle of the match, away from its first request (which may have a time limit of its
/// own).
pub const PROBE_AT: [usize; 2] = [1, 2];
/// The most matches a check plays while a phase has not been asked of the bot yet.
pub const MAX_MATCHES: usize = 6;
/// The longest the check waits after a match (`match_end` written) for the bot to be waiting
/// for input again, or gone, before the next match starts: generous, since a bot that only
/// reads `match_end` is done within milliseconds even on a loaded machine; only a bot that
/// keeps busy reaches it. See the [module documentation](self).
pub const SETTLE_BOUND: Duration = Duration::from_secs(10);

/// How a bot is checked.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The bot: a command, with its time control and resource limits.
    pub bot: BotSpec,
    /// How its process is run (sandbox, hidden paths).
    pub process: ProcessOptions,
    /// The seed the matches' seeds are derived from.
    pub seed: u64,
    /// Faults after which the referee stops the bot for the rest of a match.
    pub max_faults: u32,
    /// What each class of fault costs (it changes ranks, not verdicts).
    pub policy: FaultPolicy,
    /// Where the bot's stderr is kept, as `NAME.stderr` (made by the caller, private:
    /// [`SafeDir::create`](crate::safe_fs::SafeDir::create)); both its runs append to it.
    pub stderr_dir: Option<Arc<SafeDir>>,
}

/// Runs the bot through the check's exchanges and returns what it did. Bot misbehaviour is in
/// the facts, never an error.
///
/// # Errors
/// [`RunError`] when the referee itself fails (the game refuses the options).
pub async fn gather<G: Game>(
    config: &CheckConfig,
    options: &G::Options,
) -> Result<Facts, RunError> {
    let opponents = sparring_partners::<G>(crate::check::trial_players::<G>() - 1);
    let mut specs = vec![config.bot.clone()];
    specs.extend(opponents.iter().cloned());
    let started = Instant::now();
    let mut players =
        start_players::<G>(&specs, options, &config.process, &stderr_file(config)).await;
    let hello_ms = millis(started.elapsed());
    let hello = match &players[0].startup_fault {
        Some(fault) => Err(fault.clone()),
        None => Ok(Hello {
            name: players[0].hello_name.clone().unwrap_or_default(),
            events: players[0].wants_events,
        }),
    };
    let mut facts = Facts {
        game: G::NAME,
        command: config.bot.describe(),
        seed: config.seed,
        opponents: opponents.into_iter().map(|spec| spec.name).collect(),
        phases: G::phases(),
        lists_actions: G::LISTS_ACTIONS,
        limits: config.bot.settings.time.limits,
        hello,
        hello_ms,
        matches: Vec::new(),
        gone: None,
        exit: None,
        eof_exit: None,
        peak_memory: None,
        stderr_end: String::new(),
    };
    let events = match &facts.hello {
        Ok(hello) => hello.events,
        Err(_) => {
            if let Seat::Process(bot) = &players[0].seat {
                facts.peak_memory = Some(bot.peak_memory());
                facts.stderr_end = bot.stderr_end().await;
            }
            shutdown_players(&mut players, config.process.exit_grace).await;
            return Ok(facts);
        }
    };
    let mut seat = 0;
    for number in 1..=MAX_MATCHES {
        if (number > PROBE_MATCH && every_phase_asked::<G>(&facts)) || !is_usable(&players[seat]) {
            break;
        }
        // What it wrote since its last request (at its start, or after the previous match):
        // the match's log drops it, as no decision's.
        let before = match players[seat].seat.talker() {
            Some(bot) => bot.take_stderr().await.map(|recent| recent.text),
            None => None,
        };
        let (mut played, gone) =
            play_check_match(config, options, &mut players, seat, number, events).await?;
        played.before = before;
        facts.matches.push(played);
        if gone.is_some() {
            facts.gone = gone;
            break;
        }
        // The bot takes the next seat in the next match.
        players.rotate_right(1);
        seat = (seat + 1) % players.len();
    }
    if let Seat::Process(bot) = &mut players[seat].seat {
        facts.peak_memory = Some(bot.peak_memory());
        if facts.gone.is_none() {
            facts.exit = say_goodbye(bot).await;
        }
        facts.stderr_end = bot.stderr_end().await;
    }
    shutdown_players(&mut players, config.process.exit_grace).await;
    facts.eof_exit = exit_at_eof::<G>(config, options).await;
    Ok(facts)
}

/// Whether the bot has been asked in every phase of the game in the matches so far.
fn every_phase_asked<G: Game>(facts: &Facts) -> bool {
    G::phases().iter().all(|phase| {
        facts
            .matches
            .iter()
            .flat_map(|m| &m.decisions)
            .any(|d| d.phase == *phase)
    })
}

/// Plays check match `number` (1-based) with the bot at `seat` — the probes come in
/// [`PROBE_MATCH`] — then reads what the bot does after `match_end`: what it played and wrote,
/// and how it went if it is gone by then.
async fn play_check_match<G: Game>(
    config: &CheckConfig,
    options: &G::Options,
    players: &mut [Player<G>],
    seat: usize,
    number: usize,
    events: bool,
) -> Result<(MatchFacts, Option<Gone>), RunError> {
    let probes = if number == PROBE_MATCH {
        vec![
            (PROBE_AT[0], Probe::Unknown { event: events }),
            (PROBE_AT[1], Probe::Error),
        ]
    } else {
        Vec::new()
    };
    players[seat].probes = probes
        .iter()
        .map(|&(at, probe)| (at as u64, probe_lines(probe)))
        .collect();
    let settings = MatchSettings {
        match_id: format!("check-{number}"),
        seed: seed::derive(config.seed, "check", number as u64),
        max_faults: config.max_faults,
        policy: config.policy,
    };
    let first_id = players[seat].next_id;
    let mut log = MatchLog::memory();
    let record = play_match(&settings, options, players, &mut log).await?;
    let refused = refusals::<G>(options, players.len(), settings.seed, log.records(), seat);
    let mut played = MatchFacts::from_match(
        number,
        seat,
        first_id,
        &record,
        log.records(),
        &refused,
        probes,
    );
    let mut gone = None;
    if let (Seat::Process(bot), false) = (&mut players[seat].seat, played.stopped) {
        let (stray, exited) = settle(bot).await;
        played.after = stray;
        let what = format!("gone before goodbye, after match_end of match {number}");
        if exited {
            if let Some(how) = bot.exit_fault(&what).await {
                gone = Some(Gone {
                    after_match: number,
                    how,
                });
            }
        }
    }
    Ok((played, gone))
}

/// Writes `goodbye` to the bot and closes its input: how it ended, and how long after.
async fn say_goodbye(bot: &mut ProcessBot) -> Option<Exit> {
    let asked = Instant::now();
    let goodbye = json_line(&ToBot::<(), (), ()>::Goodbye(Goodbye {}));
    let closing = bot.close(Some(&goodbye)).await;
    closing.map(|c| Exit::from_closing(c, millis(asked.elapsed())))
}

/// Reads what the bot writes after a match (`match_end` written) until it is waiting for input
/// again or gone, at most [`SETTLE_BOUND`]; returns the lines that are faults and whether the
/// bot is gone. See the [module documentation](self).
async fn settle(bot: &mut ProcessBot) -> (Vec<Fault>, bool) {
    let deadline = Instant::now() + SETTLE_BOUND;
    let mut stray = Vec::new();
    let mut pause = FIRST_LOOK;
    let gone = loop {
        // Seen waiting, then the exit looked at: an exit just before the look shows.
        let waiting = bot.is_waiting();
        if bot.has_exited() {
            // Once nothing it wrote is unread in the pipe, every line it wrote has been read.
            if !bot.output_unread() || Instant::now() >= deadline {
                break true;
            }
        } else if waiting || Instant::now() >= deadline {
            break false;
        }
        let (lines, closed) = bot
            .wire()
            .read_unasked((Instant::now() + pause).min(deadline))
            .await;
        stray.extend(lines);
        if closed {
            // It exits, or lives on with its output closed (the next match records that).
            break bot.exits().await;
        }
        pause = (pause * 2).min(LONGEST_LOOK);
    };
    // Lines read from the pipe but not yet taken.
    stray.extend(bot.wire().take_read_lines().0);
    (stray, gone)
}

/// Starts the bot again and closes its input after the handshake, without `goodbye`: how it
/// ends. `None` when it does not get past its hello this time.
async fn exit_at_eof<G: Game>(config: &CheckConfig, options: &G::Options) -> Option<Exit> {
    let mut players = start_players::<G>(
        std::slice::from_ref(&config.bot),
        options,
        &config.process,
        &stderr_file(config),
    )
    .await;
    let mut exit = None;
    let usable = is_usable(&players[0]);
    if let (Seat::Process(bot), true) = (&mut players[0].seat, usable) {
        let closed = Instant::now();
        exit = bot
            .close(None)
            .await
            .map(|closing| Exit::from_closing(closing, millis(closed.elapsed())));
    }
    shutdown_players(&mut players, config.process.exit_grace).await;
    exit
}

/// The file the checked bot's stderr is kept in, if the config says where (its sparring
/// partners are built-ins: they write none).
fn stderr_file(config: &CheckConfig) -> impl Fn(&BotSpec) -> Option<StderrFile> + '_ {
    |spec: &BotSpec| {
        config
            .stderr_dir
            .as_ref()
            .filter(|_| spec.name == config.bot.name)
            .map(|dir| StderrFile::of_bot(dir, &spec.name))
    }
}

/// The lines of a probe.
fn probe_lines(probe: Probe) -> Vec<u8> {
    match probe {
        Probe::Unknown { event } => {
            let mut lines = Vec::new();
            if event {
                lines.extend(json_line(&serde_json::json!({
                    "type": "event",
                    "event": {
                        "kind": "referee_check_unknown",
                        "note": "an event kind from a later version of the game: ignore it"
                    }
                })));
            }
            lines.extend(json_line(&serde_json::json!({
                "type": "referee_check_unknown",
                "note": "a message type from a later version of the protocol: ignore it"
            })));
            lines
        }
        Probe::Error => json_line(&ToBot::<(), (), ()>::Error(ErrorMsg {
            id: None,
            fault: FaultKind::Malformed,
            message: "referee check: a test of error messages; nothing was wrong, play on"
                .to_string(),
            substituted: None,
        })),
    }
}

fn json_line(value: &impl serde::Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).expect("messages serialize");
    bytes.push(b'\n');
    bytes
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}
