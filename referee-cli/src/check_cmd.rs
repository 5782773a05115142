//! `referee check`: one bot through the protocol checklist; exit code 0 only if every required
//! item passes, [`ExitCode::CheckFailed`] otherwise.

use super::Failure;
use super::args::{CheckArgs, Format};
use super::match_cmd::until_interrupted;
use super::match_config::{Refereeing, RefereeingFile, game_kind};
use super::output::out;
use engine::Game;
use engine::GameKind;
use protocol::ExitCode;
use referee::check::sparring_partners;
use referee::check::{CheckConfig, Report, check};
use referee::seat::{BotSpec, Launch, StderrFile};
use std::path::PathBuf;
use std::sync::Arc;

/// The seed a check's matches come from when none is given: checks are repeatable.
const DEFAULT_SEED: u64 = 1;

/// Runs `referee check`.
pub fn run(args: CheckArgs) -> Result<ExitCode, Failure> {
    let kind = game_kind(Some(args.game.clone()), None)?;
    engine::with_game!(kind, G => run_game::<G>(kind, args))
}

/// The bot's spec: one argument is split like a shell would, several are the words.
fn bot_spec<G: Game>(args: &CheckArgs) -> Result<BotSpec, Failure> {
    let words = match args.command.as_slice() {
        [line] => shlex::split(line)
            .ok_or_else(|| Failure::usage(format!("cannot split the command {line:?}")))?,
        words => words.to_vec(),
    };
    let launch = Launch::Command(words);
    // Its name is only a label in the others' `players`: the command's, unless that is not a
    // valid name or is an opponent's.
    let partners = sparring_partners::<G>(G::player_counts().end() - 1);
    match BotSpec::new(None, launch.clone()) {
        Ok(spec) if partners.iter().all(|p| p.name != spec.name) => Ok(spec),
        _ => BotSpec::new(Some("bot".into()), launch).map_err(Failure::usage),
    }
}

fn run_game<G: Game>(kind: GameKind, args: CheckArgs) -> Result<ExitCode, Failure> {
    let (refereeing, _) =
        Refereeing::from(&args.refereeing, RefereeingFile::default(), None, "check")?;
    let mut bot = bot_spec::<G>(&args)?;
    bot.settings = args.refereeing.settings.resolve(None);
    bot.check::<G>().map_err(Failure::usage)?;
    let options = super::match_config::game_options(toml::Table::new(), &args.refereeing.options)?;
    let options = engine::shared_rules::options_from_json::<G>(&options).map_err(Failure::usage)?;
    let outputs: Vec<PathBuf> = args.stderr_dir.iter().cloned().collect();
    let process = refereeing
        .process
        .resolve(std::slice::from_mut(&mut bot), &outputs)
        .map_err(Failure::usage)?;
    super::output::notices(&process.notices, refereeing.verbose);
    let process = process.options;
    let stderr_dir = match &args.stderr_dir {
        Some(dir) => Some(Arc::new(super::private_dir::create(dir)?)),
        None => None,
    };
    // The file the bot's stderr is kept in, as the table names it: refused now if something
    // there cannot be appended to (a link, a FIFO), which would keep none of it.
    let stderr_file = match &stderr_dir {
        Some(dir) => {
            let name = StderrFile::of_bot(dir, &bot.name).name;
            dir.check_file(&name).map_err(Failure::usage)?;
            Some(dir.path_of(&name))
        }
        None => None,
    };
    let config = CheckConfig {
        bot,
        process,
        seed: args.seed.unwrap_or(DEFAULT_SEED),
        max_faults: refereeing.max_faults,
        policy: refereeing.policy,
        stderr_dir,
    };
    let report: Report = until_interrupted(check::<G>(&config, &options))?;
    match args.format {
        Format::Table => out!(
            "{}",
            super::check_render::table(&report, kind.name(), stderr_file.as_deref())
        ),
        Format::Json => out!("{}\n", super::check_render::json(&report)),
    }
    Ok(if report.passed {
        ExitCode::Success
    } else {
        ExitCode::CheckFailed
    })
}
