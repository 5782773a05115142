//! Starting and stopping the players of a match: bot processes are spawned and greeted
//! concurrently, built-in bots are created; a bot that fails to start keeps its seat with the
//! fault recorded, and the referee plays for it.

use crate::seat::{BotSpec, Fault, Launch, ProcessBot, ProcessOptions, Seat, Talk, TimeControl};
use engine::Game;
use protocol::{FaultKind, Goodbye, Hello, PROTOCOL_VERSION, ToBot, ViewMode};
use std::time::Duration;

/// One seat's player for the matches to come; its bot, when it speaks the protocol, is a `B`
/// (a [`ProcessBot`] but in the runner's tests).
pub struct Player<G: Game, B = ProcessBot> {
    /// The name in results.
    pub name: String,
    /// The command line or `builtin:NAME`.
    pub bot: String,
    /// What plays.
    pub seat: Seat<G, B>,
    /// Its time control.
    pub time: TimeControl,
    /// The name the bot gave in its hello.
    pub hello_name: Option<String>,
    /// Whether the bot wants `event` messages (it may say `"events": false` in its hello).
    pub wants_events: bool,
    /// Whether the bot takes its view as changes (it may say `"view": "delta"` in its hello).
    pub wants_delta: bool,
    /// A fault from start-up, reported in the next match.
    pub startup_fault: Option<Fault>,
    /// Lines written to the bot process before some of its requests in its next match, after
    /// the events queued for it: `(k, lines)` goes before its request `k` of that match (0 for
    /// its first). `referee check` probes a bot with messages it must survive this way. The
    /// next match takes them.
    pub probes: Vec<(u64, Vec<u8>)>,
    /// The next request id (ids never repeat within one process).
    pub(crate) next_id: u64,
}

impl<G: Game, B> Player<G, B> {
    /// A player that has not faulted, with request ids starting at 0.
    pub fn new(name: impl Into<String>, bot: impl Into<String>, seat: Seat<G, B>) -> Self {
        Player {
            name: name.into(),
            bot: bot.into(),
            seat,
            time: TimeControl::default(),
            hello_name: None,
            wants_events: true,
            wants_delta: false,
            startup_fault: None,
            probes: Vec::new(),
            next_id: 0,
        }
    }
}

/// A serialized protocol line.
pub(crate) fn line<V: serde::Serialize, A: serde::Serialize, E: serde::Serialize>(
    message: &ToBot<V, A, E>,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    append_line(&mut bytes, message);
    bytes
}

/// Appends a serialized protocol line to `buffer` (no intermediate allocation).
pub(crate) fn append_line<V: serde::Serialize, A: serde::Serialize, E: serde::Serialize>(
    buffer: &mut Vec<u8>,
    message: &ToBot<V, A, E>,
) {
    serde_json::to_writer(&mut *buffer, message).expect("protocol messages serialize");
    buffer.push(b'\n');
}

/// Starts every player: spawns the processes (each with its own settings from its spec), sends
/// `hello` to all at once and waits (up to each one's start-up limit) for their replies. Specs
/// must have been resolved already. `stderr_file` names the file each bot process's stderr is
/// saved to, if any.
///
/// # Panics
/// If a spec names a built-in the game does not have (check with [`Builtins::builtin`] first).
pub async fn start_players<G: Game>(
    specs: &[BotSpec],
    options: &G::Options,
    process: &ProcessOptions,
    stderr_file: &dyn Fn(&BotSpec) -> Option<crate::seat::StderrFile>,
) -> Vec<Player<G>> {
    let options = serde_json::to_value(options).expect("options serialize");
    let mut players = Vec::with_capacity(specs.len());
    for spec in specs {
        let (seat, startup_fault) = match &spec.launch {
            Launch::Builtin(name) => (
                Seat::Builtin(
                    engine::strategy::builtin::<G>(name)
                        .expect("built-in names are checked before start"),
                ),
                None,
            ),
            Launch::Command(words) => {
                let mut opts = process.clone();
                opts.stderr_file = stderr_file(spec);
                opts.limits = spec.settings.limits;
                opts.workdir = process.workdirs.get(&spec.name).cloned();
                opts.env = spec.settings.env.clone();
                opts.run_as = process.users.run_as(&spec.name);
                let started = match (&spec.settings.workdir, &opts.workdir) {
                    (Some(dir), None) => Err(Fault::new(
                        FaultKind::SpawnFailed,
                        format!(
                            "its workdir {} was not admitted when the run started (workdir_rule::admit)",
                            dir.display()
                        ),
                    )),
                    _ => ProcessBot::spawn(words, &opts).await,
                };
                match started {
                    Ok(bot) => (Seat::Process(Box::new(bot)), None),
                    Err(fault) => (Seat::Absent, Some(fault)),
                }
            }
        };
        let mut player = Player::new(spec.name.clone(), spec.describe(), seat);
        player.time = spec.settings.time;
        player.startup_fault = startup_fault;
        players.push(player);
    }
    let handshakes = players.iter_mut().map(|player| {
        let limits = player.time.limits;
        let hello = line(&ToBot::<(), (), ()>::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            game: G::NAME.to_string(),
            options: options.clone(),
            limits,
        }));
        async move {
            if let Seat::Process(bot) = &mut player.seat {
                let startup = Duration::from_millis(limits.startup_ms);
                match bot.handshake(&hello, startup).await {
                    Ok(reply) => {
                        player.hello_name = Some(reply.name);
                        player.wants_events = reply.events != Some(false);
                        player.wants_delta = reply.view == Some(ViewMode::Delta);
                    }
                    Err(fault) => {
                        bot.kill().await;
                        player.startup_fault = Some(fault);
                    }
                }
            }
        }
    });
    futures::future::join_all(handshakes).await;
    players
}

/// Whether the player can be asked for decisions (a process that started, or a built-in).
pub fn is_usable<G: Game, B: Talk>(player: &Player<G, B>) -> bool {
    player.startup_fault.is_none()
        && match &player.seat {
            Seat::Process(bot) => bot.is_alive(),
            Seat::Builtin(_) => true,
            Seat::Absent => false,
        }
}

/// Sends `goodbye` to every process, closes their input, gives them `grace` to exit, then kills
/// what remains of their process groups. All at once.
pub async fn shutdown_players<G: Game, B: Talk>(players: &mut [Player<G, B>], grace: Duration) {
    let goodbye = line(&ToBot::<(), (), ()>::Goodbye(Goodbye {}));
    let goodbye = &goodbye;
    let stops = players
        .iter_mut()
        .filter_map(|p| p.seat.talker())
        .map(|bot| async move { bot.shutdown(Some(goodbye), grace).await });
    futures::future::join_all(stops).await;
}
