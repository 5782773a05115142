//! How a command's bot processes are run, decided once before the first one starts: each bot's
//! workdir admitted ([`workdir_rule`]) and held open for the run ([`AdmittedWorkdir`]), marked
//! when this command line named it, the sandbox resolved, who each bot runs as (said once in
//! short lines, in full with `--verbose`), and what no sandboxed bot may see, as found now
//! ([`HiddenPath`]): the referee's outputs and every bot's workdir (a bot's own stays visible to
//! it).

use super::Failure;
use super::output::errln;
use referee::seat::workdir_marker::MarkedBot;
use referee::seat::workdir_rule::{self, Admitted, WorkdirOrigin};
use referee::seat::{BotSpec, HiddenPath, Launch, ProcessOptions, Workdirs};
use referee::tournament::rerun_trust::Untrusted;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Where a command's workdirs come from.
#[derive(Clone, Copy, Debug)]
pub(super) enum WorkdirSource<'a> {
    /// Its command line (its flags and the config file it names): each is named, and marked
    /// for its bots.
    CommandLine,
    /// A results directory (`rerun`): each must bear the referee's mark for its bot, but those
    /// of the bots in `named`, whose path the user typed (`--workdir NAME=DIR`). None is marked.
    Recorded {
        /// The bots whose workdir the command line names.
        named: &'a BTreeSet<String>,
    },
}

impl WorkdirSource<'_> {
    /// Where the workdir of the bot named `bot` comes from.
    pub(super) fn origin(self, bot: &str) -> WorkdirOrigin {
        match self {
            WorkdirSource::Recorded { named } if !named.contains(bot) => WorkdirOrigin::Recorded,
            _ => WorkdirOrigin::Named,
        }
    }
}

/// How the processes of `bots` are run (see the module documentation), with `outputs` hidden
/// from them and their workdirs from `source`.
///
/// # Errors
/// A usage failure, before anything is changed, when a workdir is refused, is inside a hidden
/// path or is over its quota already; and when `--sandbox bwrap` or `--bot-uids FIRST-LAST`
/// cannot be had here.
pub(super) fn process_options(
    refereeing: &super::match_config::Refereeing,
    outputs: Vec<PathBuf>,
    bots: &mut [BotSpec],
    source: WorkdirSource<'_>,
) -> Result<ProcessOptions, Failure> {
    let has_processes = bots.iter().any(|b| matches!(b.launch, Launch::Command(_)));
    let admitted = admit_workdirs(bots, source)?;
    // A bot's working directory inside a hidden path would be hidden from the bot itself.
    for (bot, workdir) in &admitted {
        let workdir = workdir.dir.path();
        for output in &outputs {
            // An output may not exist yet (the results directory is made later).
            let resolved = output
                .canonicalize()
                .or_else(|_| std::path::absolute(output));
            if resolved.is_ok_and(|o| workdir.starts_with(&o)) {
                return Err(Failure::usage(format!(
                    "bot '{}': its workdir {} is (inside) {}, which bots must not see; move one of them",
                    bot.name,
                    workdir.display(),
                    output.display()
                )));
            }
        }
    }
    let workdirs = Workdirs::new(
        admitted
            .iter()
            .map(|(bot, workdir)| (bot.name.clone(), workdir.dir.clone())),
    );
    super::workdir_check::refuse_over_quota(bots, &workdirs)?;
    // Only then is anything changed: each named workdir marked (never by a rerun), each bot's
    // group given its workdir.
    if matches!(source, WorkdirSource::CommandLine) {
        workdir_rule::mark(&admitted).map_err(Failure::usage)?;
    }
    let isolation = if has_processes {
        referee::seat::users::isolate(refereeing.sandbox, refereeing.bot_uids, bots, &workdirs)
            .map_err(Failure::usage)?
    } else {
        referee::seat::users::Isolation::default()
    };
    let mechanisms =
        has_processes.then(|| referee::seat::cgroup::describe(referee::seat::cgroup::mechanisms()));
    let notices = isolation
        .sandbox_warning
        .iter()
        .chain(&mechanisms)
        .chain(&isolation.notices);
    for notice in notices {
        for line in notice.lines(refereeing.verbose) {
            errln!("referee: {line}");
        }
    }
    let mut hidden: Vec<HiddenPath> = outputs.iter().map(|o| HiddenPath::find(o)).collect();
    for (_, workdir) in workdirs.iter() {
        hidden.push(HiddenPath::workdir(workdir).map_err(|e| {
            Failure::usage(format!(
                "cannot hold {} open to hide it: {e}",
                workdir.path().display()
            ))
        })?);
    }
    Ok(ProcessOptions {
        sandbox: isolation.sandbox,
        users: isolation.users,
        hidden,
        workdirs,
        ..ProcessOptions::default()
    })
}

/// Admits the workdir of each bot that runs as a process ([`workdir_rule::admit`], from the
/// current directory, from `source`) and makes the bot's path the directory's; returns each
/// with its bot.
///
/// # Errors
/// A usage failure naming the first workdir refused and why (with the flag that accepts it,
/// where one does).
fn admit_workdirs(
    bots: &mut [BotSpec],
    source: WorkdirSource<'_>,
) -> Result<Vec<(MarkedBot, Admitted)>, Failure> {
    let base = std::env::current_dir()
        .map_err(|e| Failure::usage(format!("cannot read the current directory: {e}")))?;
    let mut admitted = Vec::new();
    for bot in bots.iter_mut() {
        let Launch::Command(_) = &bot.launch else {
            continue;
        };
        let Some(workdir) = &bot.settings.workdir else {
            continue;
        };
        let marked = MarkedBot {
            name: bot.name.clone(),
            command: bot.describe(),
        };
        let dir = workdir_rule::admit(&marked, workdir, &base, source.origin(&bot.name))
            .map_err(|refusal| Failure::usage(Untrusted::Workdir { refusal }))?;
        bot.settings.workdir = Some(dir.dir.path().to_path_buf());
        admitted.push((marked, dir));
    }
    Ok(admitted)
}
