//! `referee rerun DIR ID`: the library reads the match and plays it again
//! ([`referee::tournament::rerun`]); this module says what it will run, refuses what the directory
//! records that would widen a bot's reach unless the command line accepts it
//! ([`referee::tournament::rerun_trust`]), sets up the bots' surroundings as the tournament had
//! them and prints the result beside the recorded one.

use super::Failure;
use super::args::{Format, RerunArgs};
use super::match_cmd::until_interrupted;
use super::match_config::Refereeing;
use super::output::{grouped, out, outln};
use super::run_plan::RunPlan;
use super::standings;
use protocol::ExitCode;
use referee::policy::{ProcessPolicy, WorkdirSource};
use referee::runner::{MatchLog, MatchRecord};
use referee::tournament::rerun::{self, Rerun, RerunPlan};
use referee::tournament::rerun_diff::LogComparison;
use referee::tournament::rerun_trust::{Review, Trust};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Runs `referee rerun`.
pub fn run(args: RerunArgs) -> Result<ExitCode, Failure> {
    let mut plan = rerun::plan(&args.dir, args.match_id).map_err(Failure::usage)?;
    // The paths given are the caller's; the bots run from where the tournament ran.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = absolute(&args.dir);
    let log = args.log.as_deref().map(absolute);
    let stderr_dir = args.stderr_dir.as_deref().map(absolute);
    let trust = Trust::new(args.trust_recorded.iter().copied());
    let here = std::env::current_dir()
        .map_err(|e| Failure::usage(format!("cannot read the current directory: {e}")))?;
    let typed = type_workdirs(&mut plan, &args.workdirs)?;
    let review = plan.review(&trust, args.sandbox.is_some(), &typed, &here);
    let hidden = plan
        .run
        .as_ref()
        .map(|r| r.hidden.clone())
        .unwrap_or_default();
    let refereeing = Refereeing {
        max_faults: plan.meta.max_faults,
        policy: plan.meta.policy,
        process: ProcessPolicy {
            sandbox: args
                .sandbox
                .or(plan.run.as_ref().map(|r| r.sandbox))
                .unwrap_or_default(),
            bot_uids: args.bot_uids.unwrap_or_default(),
            hide: hidden,
            workdirs: WorkdirSource::Recorded {
                named: typed.clone(),
            },
            from: plan.from.dir.clone(),
        },
        verbose: args.verbose,
    };
    let said = announce(&plan, &review, &refereeing, &dir);
    if let Some(end) = gate(&said, &review, args.dry_run, &plan.from, args.verbose) {
        return end;
    }
    plan.check().map_err(Failure::usage)?;
    // Checked before anything changes: another user's directory is refused.
    let stderr_dir = match &stderr_dir {
        Some(dir) => Some(Arc::new(super::private_dir::create(dir)?)),
        None => None,
    };
    let outputs: Vec<PathBuf> = [Some(dir.clone()), log.clone()]
        .into_iter()
        .flatten()
        .chain(stderr_dir.as_ref().map(|d| d.path().to_path_buf()))
        .collect();
    let process = plan.resolve(&refereeing.process, &outputs)?;
    super::output::notices(&process.notices, refereeing.verbose);
    let process = process.options;
    let create = |path: &Path| {
        MatchLog::create(path)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", path.display())))
    };
    // With the recorded log kept, the match is played into memory to be compared with it,
    // and written to --log afterwards.
    let mut match_log = match &log {
        _ if plan.log.is_kept() => MatchLog::memory(),
        Some(path) => create(path)?,
        None => MatchLog::none(),
    };
    let rerun = until_interrupted(plan.play(&process, stderr_dir.as_ref(), &mut match_log))?;
    if let (Some(path), true) = (&log, plan.log.is_kept()) {
        let mut file = create(path)?;
        match_log
            .records()
            .iter()
            .try_for_each(|r| file.write(r))
            .and_then(|()| file.flush())
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    match args.format {
        Format::Table => out!("{}", render(&plan, &rerun, &dir, log.as_deref())),
        Format::Json => outln!(
            "{}",
            referee::untrusted::json::to_string_pretty(&RerunJson {
                id: plan.recorded.id,
                group: plan.recorded.group,
                seed: plan.recorded.record.seed,
                same: rerun.same(),
                comparison: rerun.comparison,
                first_difference: &rerun.log,
                recorded: &plan.recorded.record,
                rerun: &rerun.record,
            })
            .expect("records serialize")
        ),
    }
    Ok(if rerun.same() {
        ExitCode::Success
    } else {
        ExitCode::RerunDiffers
    })
}

/// Gives each bot of `typed` (`--workdir NAME=DIR`) its directory, instead of the one recorded;
/// returns their names.
///
/// # Errors
/// A usage failure for a name that is not one of the match's bot processes, or given twice.
fn type_workdirs(
    plan: &mut RerunPlan,
    typed: &[(String, PathBuf)],
) -> Result<BTreeSet<String>, Failure> {
    let mut names = BTreeSet::new();
    for (name, dir) in typed {
        let processes: Vec<String> = plan
            .bots
            .iter()
            .filter(|b| matches!(b.launch, referee::seat::Launch::Command(_)))
            .map(|b| b.name.clone())
            .collect();
        if !processes.contains(name) || !names.insert(name.clone()) {
            return Err(Failure::usage(format!(
                "--workdir {name}=...: match {} has no bot process '{name}', or it is named twice (its bot processes: {}; one --workdir each)",
                plan.recorded.id,
                processes.join(", ")
            )));
        }
        // The caller's path, from the caller's directory (the bots run from the tournament's).
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        for bot in plan.bots.iter_mut().filter(|b| b.name == *name) {
            bot.settings.workdir = Some(dir.clone());
        }
    }
    Ok(names)
}

/// What the rerun will run, as the directory records it, said before anything runs: each
/// bot's command, sandbox, users, workdir (and what vouches for it), environment's names and
/// limits, where it runs from and what is hidden.
fn announce(plan: &RerunPlan, review: &Review, refereeing: &Refereeing, dir: &Path) -> String {
    let workdir_notes = review
        .workdirs
        .iter()
        .map(|w| {
            w.as_ref().map(|w| {
                if w.marked {
                    "the referee's mark for this bot"
                } else {
                    "typed with --workdir"
                }
            })
        })
        .collect();
    let mut notes = Vec::new();
    match &plan.run {
        Some(run) => {
            notes.push(format!("from {} (run.json's cwd)", run.cwd.display()));
            if !run.hidden.is_empty() {
                let hidden: Vec<String> =
                    run.hidden.iter().map(|p| p.display().to_string()).collect();
                notes.push(format!("hidden from the bots: {}", hidden.join(", ")));
            }
        }
        None => notes.push(
            "the directory has no run.json (written by `referee merge`, or an older referee): bots run from here, without workdirs or environments".into(),
        ),
    }
    RunPlan {
        heading: format!(
            "rerun runs match {} of {} with these bots, as its tournament.json and run.json record them (the commands are run as written; --dry-run stops here):",
            plan.recorded.id,
            dir.display()
        ),
        bots: &plan.bots,
        sandbox: refereeing.process.sandbox,
        bot_uids: refereeing.process.bot_uids,
        workdir_notes,
        notes,
    }
    .render()
}

/// `referee rerun --format json`: the match, whether it gave the recorded result, and both
/// results.
#[derive(serde::Serialize)]
struct RerunJson<'a> {
    id: u64,
    group: u64,
    seed: u64,
    same: bool,
    comparison: rerun::Comparison,
    /// Where the match first differs from its recorded log (`log`: `not_kept`, `unreadable`,
    /// `same` or `differs`).
    first_difference: &'a LogComparison,
    recorded: &'a MatchRecord,
    rerun: &'a MatchRecord,
}

/// Scores and ranks by seat, `a · b · c`.
pub(super) fn by_seat<T>(values: &[T], show: impl Fn(&T) -> String) -> String {
    values.iter().map(show).collect::<Vec<_>>().join(" · ")
}

/// Faults in order, `seat 2 exited (its 5th turn (phase chip; log decision 21))`, or `none`;
/// the moment in its one wording ([`referee::runner::Moment`]).
fn faults(record: &MatchRecord) -> String {
    if record.faults.is_empty() {
        return "none".into();
    }
    record
        .faults
        .iter()
        .map(|f| format!("seat {} {} ({})", f.seat, f.fault, f.when()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn render(plan: &RerunPlan, rerun: &Rerun, dir: &Path, log: Option<&Path>) -> String {
    use engine::Game;
    let recorded = &plan.recorded.record;
    let score_name = engine::GameKind::from_name(&plan.meta.game)
        .map(|kind| engine::with_game!(kind, G => G::SCORE_NAME))
        .unwrap_or("score");
    let mut text = format!(
        "match {} of {}: {}, group {}, seed {}; played again with the recorded bots in their seats\n",
        plan.recorded.id,
        dir.display(),
        referee::untrusted::shown(&plan.meta.game),
        plan.recorded.group,
        recorded.seed
    );
    text += &standings::render(&rerun.record, score_name);
    let c = rerun.comparison;
    let lines = [
        (
            c.scores,
            format!("{score_name} by seat"),
            by_seat(&recorded.scores, |s| grouped(*s)),
            by_seat(&rerun.record.scores, |s| grouped(*s)),
        ),
        (
            c.ranks,
            "ranks by seat".into(),
            by_seat(&recorded.ranks, u32::to_string),
            by_seat(&rerun.record.ranks, u32::to_string),
        ),
        (
            c.faults,
            "faults".into(),
            faults(recorded),
            faults(&rerun.record),
        ),
    ];
    if c.same() {
        text += &format!(
            "the recorded result: the same {score_name}, ranks and faults (timings aside)\n"
        );
        if !c.messages {
            text += "(some fault messages differ: they can quote times or the bot's stderr)\n";
        }
    } else {
        text += "not the recorded result:\n";
        for (_, what, was, now) in lines.iter().filter(|l| !l.0) {
            text += &format!("  {what}: recorded {was}; now {now}\n");
        }
    }
    text += &super::rerun_difference::log_lines(&rerun.log, plan.recorded.id, c.same());
    if !rerun.same() {
        text += "(a bot that is not deterministic: its random numbers do not all come from the seed in match_start, it carries state over from earlier matches, or it times out only under load)\n";
    }
    if let Some(path) = log {
        text += &format!(
            "log: {} (check it with: referee replay {})\n",
            path.display(),
            path.display()
        );
    }
    text
}

/// What `rerun` and `tournament --replace` do before any bot runs: say what will run
/// (`announce`), refuse what `review` refused, stop there with `--dry-run`, and say where the
/// bots run from (`from`'s notice). `Some(how it ends)` when the command ends here.
pub(super) fn gate(
    announce: &str,
    review: &referee::tournament::rerun_trust::Review,
    dry_run: bool,
    from: &referee::tournament::rerun_from::RunFrom,
    verbose: bool,
) -> Option<Result<ExitCode, Failure>> {
    super::output::emit_err(announce);
    if !review.refusals.is_empty() {
        let lines: Vec<String> = review.refusals.iter().map(|r| r.to_string()).collect();
        return Some(Err(Failure::usage(lines.join("\nreferee: "))));
    }
    if dry_run {
        return Some(Ok(ExitCode::Success));
    }
    if let Some(notice) = &from.notice {
        super::output::notices(std::slice::from_ref(notice), verbose);
    }
    None
}
