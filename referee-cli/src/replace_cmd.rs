//! `referee tournament DIR --replace NAME=COMMAND [--out NEW]`: the library plans and plays
//! the replacement ([`referee::tournament::replace`]); this module reads the flags, says what
//! it will run (the other bots come from the results directory, as for `referee rerun`, and
//! what of them would widen a bot's reach is refused unless accepted), how many matches it
//! plays again, and prints the new leaderboard.

use super::Failure;
use super::args::{BoardFormat, TournamentArgs};
use super::board_render::Legend;
use super::output::errln;
use super::run_plan::RunPlan;
use super::tournament_cmd::{Progress, finish};
use protocol::ExitCode;
use referee::policy::{ProcessPolicy, WorkdirSource};
use referee::tournament::replace::{self, ReplacePlan, ReplaceRun};
use referee::tournament::rerun_trust::Trust;
use referee::untrusted::shown;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Runs `referee tournament DIR --replace NAME=COMMAND`.
pub fn run(args: TournamentArgs) -> Result<ExitCode, Failure> {
    let dir = args.config.clone().ok_or_else(|| {
        Failure::usage(
            "--replace NAME=COMMAND needs the finished tournament's results directory: referee tournament DIR --replace NAME=COMMAND",
        )
    })?;
    let pairs = args
        .replace
        .iter()
        .map(|r| match r.split_once('=') {
            Some((name, command)) if !name.is_empty() && !command.trim().is_empty() => {
                Ok((name.to_string(), command.to_string()))
            }
            _ => Err(Failure::usage(format!(
                "--replace {r}: expected NAME=COMMAND, the bot's name in the tournament and its new command"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| replace::default_out(&dir, &names));
    let mut plan = replace::plan(&dir, &pairs, &out).map_err(Failure::from)?;
    let here = std::env::current_dir()
        .map_err(|e| Failure::usage(format!("cannot read the current directory: {e}")))?;
    let trust = Trust::new(args.trust_recorded.iter().copied());
    let sandbox_given = args.refereeing.sandbox.is_some();
    let review = plan.review(&trust, sandbox_given, &here);
    let mut hide = plan
        .run
        .as_ref()
        .map(|r| r.hidden.clone())
        .unwrap_or_default();
    hide.extend(args.refereeing.hide.iter().cloned());
    let policy = ProcessPolicy {
        sandbox: args
            .refereeing
            .sandbox
            .or(plan.run.as_ref().map(|r| r.sandbox))
            .unwrap_or_default(),
        bot_uids: args.refereeing.bot_uids.unwrap_or_default(),
        hide,
        workdirs: WorkdirSource::Recorded {
            named: BTreeSet::new(),
        },
        from: plan.from.dir.clone(),
    };
    let said = announce(&plan, &policy, &dir);
    let verbose = args.refereeing.verbose;
    if let Some(end) = super::rerun_cmd::gate(&said, &review, args.dry_run, &plan.from, verbose) {
        return end;
    }
    plan.check().map_err(Failure::from)?;
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let outputs: Vec<PathBuf> = vec![absolute(&out), absolute(&dir)];
    let processes = plan.resolve(&policy, &outputs).map_err(Failure::from)?;
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let jobs = args.jobs.unwrap_or(cores).max(1);
    let how = ReplaceRun {
        jobs,
        pin: args.pin.unwrap_or(jobs <= cores),
        logs: args.logs,
        resume: args.resume,
    };
    let mut view = Progress::new(args.quiet, args.refereeing.verbose);
    referee::tournament::Reporter::processes(&mut view, &processes);
    let runtime = super::runtime()?;
    let replaced = runtime.block_on(async {
        let mut interrupt = super::match_cmd::Interrupt::catch();
        plan.play(&processes.options, &how, &mut view, interrupt.wait())
            .await
    });
    drop(runtime);
    referee::seat::cgroup::cleanup();
    view.clear();
    let replaced = replaced.map_err(Failure::from)?;
    if let Some(first) = replaced.skipped.first() {
        errln!(
            "referee: note: {} left out, and their matches were kept without them (the first: {})",
            super::output::files_were(replaced.skipped.len(), &format!("of {}", dir.display())),
            shown(&format!("{}: {}", first.path.display(), first.why))
        );
    }
    let board = args.format.unwrap_or(BoardFormat::Table);
    finish(
        replaced.outcome,
        board,
        Legend::unless(args.no_legend),
        &out,
    )
}

/// What the replacement will run and play, said before anything runs: each bot's command (the
/// replaced ones from the command line, the others as the directory records them), and how
/// many matches are played again and kept.
fn announce(plan: &ReplacePlan, policy: &ProcessPolicy, dir: &Path) -> String {
    let replaced: Vec<String> = plan
        .replaced
        .iter()
        .map(|n| format!("'{}'", shown(n)))
        .collect();
    let mut notes = vec![format!(
        "plays again the {} matches {} played, keeps the other {}, and writes all {} to {} ({} is left as it is)",
        plan.replay.len(),
        replaced.join(" and "),
        plan.kept.len(),
        plan.replay.len() + plan.kept.len(),
        plan.out.display(),
        dir.display()
    )];
    match &plan.run {
        Some(run) => notes.push(format!("from {} (run.json's cwd)", run.cwd.display())),
        None => notes.push(
            "the directory has no run.json: bots run from here, without workdirs or environments"
                .into(),
        ),
    }
    RunPlan {
        heading: format!(
            "replacing {} in {} with the command given; the other bots as its tournament.json and run.json record them (their commands are run as written; --dry-run stops here):",
            replaced.join(" and "),
            dir.display()
        ),
        bots: &plan.bots,
        sandbox: policy.sandbox,
        bot_uids: policy.bot_uids,
        workdir_notes: Vec::new(),
        notes,
    }
    .render()
}
