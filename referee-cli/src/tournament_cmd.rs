//! `referee tournament`: the library plays it ([`referee::tournament::run`]); this module renders
//! its events — the summary line, a progress bar with the leaders' wins, the leaderboard — and
//! tells how to resume an interrupted run; with `--check`, each bot's `referee check` verdict
//! first.

use super::Failure;
use super::args::{BoardFormat, TournamentArgs};
use super::board_render;
use super::output::{errln, out, outln};
use super::tournament_config;
use indicatif::{ProgressBar, ProgressStyle};
use protocol::ExitCode;
use referee::tournament::{self, MatchResult, Outcome, Reporter, Snapshot, Started};
use referee::untrusted::{line, shown};
use std::io::IsTerminal;

/// Runs `referee tournament` (with `--replace`, [`super::replace_cmd`]).
pub fn run(args: TournamentArgs) -> Result<ExitCode, Failure> {
    if !args.replace.is_empty() {
        return super::replace_cmd::run(args);
    }
    let settings = tournament_config::from_args(args)?;
    let config = &settings.config;
    let mut view = Progress::new(settings.quiet, settings.verbose);
    view.seed_drawn = settings.seed_drawn.then(|| seed_drawn(config));
    let runtime = super::runtime()?;
    let checks = if settings.check {
        runtime.block_on(check_bots(config))?
    } else {
        Vec::new()
    };
    let outcome = runtime.block_on(async {
        let mut interrupt = super::match_cmd::Interrupt::catch();
        tournament::run(config, &mut view, interrupt.wait()).await
    });
    drop(runtime);
    referee::seat::cgroup::cleanup();
    view.clear();
    let outcome = outcome.map_err(Failure::from)?;
    // The verdicts go into the results directory once the run has it as its own.
    if !checks.is_empty() {
        let dir =
            referee::safe_fs::SafeDir::create(&config.out, referee::safe_fs::Privacy::Private)
                .map_err(Failure::usage)?;
        referee::report::bot_checks::keep(&dir, &checks).map_err(Failure::usage)?;
    }
    finish(outcome, settings.board, settings.legend, &config.out)
}

/// Prints how a run ended: the leaderboard and where the results are (`out`), or how to
/// resume.
pub(super) fn finish(
    outcome: Outcome,
    board_format: BoardFormat,
    legend: board_render::Legend,
    out: &std::path::Path,
) -> Result<ExitCode, Failure> {
    match outcome {
        Outcome::Interrupted { written } => {
            let mut resume: Vec<String> = std::env::args().collect();
            if !resume.iter().any(|a| a == "--resume") {
                resume.push("--resume".into());
            }
            let line = shlex::try_join(resume.iter().map(String::as_str))
                .unwrap_or_else(|_| resume.join(" "));
            errln!(
                "referee: interrupted after {written} new matches; every result written is kept and every bot process was stopped"
            );
            errln!("referee: resume with: {line}");
            Ok(ExitCode::Interrupted)
        }
        Outcome::Finished(board) => {
            out!("{}", board_render::render(&board, board_format, legend));
            if board_format == BoardFormat::Table {
                out!("{}", fault_lines(out));
                outln!("results: {}", out.display());
            }
            if let Some(kib) = referee::bench::peak_rss_kib() {
                errln!(
                    "referee: peak memory of the referee (RSS): {:.1} MiB",
                    kib as f64 / 1024.0
                );
            }
            Ok(ExitCode::Success)
        }
    }
}

/// The faults of the tournament in `dir`, one line per bot and kind ([`KindSummary::line`]),
/// and where each bot's are listed; nothing when no bot faulted.
fn fault_lines(dir: &std::path::Path) -> String {
    let report = match referee::report::build(dir) {
        Ok(report) => report,
        Err(e) => return format!("(the faults are not summed up: {e})\n"),
    };
    let faulty: Vec<_> = report
        .bots
        .iter()
        .filter(|b| !b.summary.is_empty())
        .collect();
    if faulty.is_empty() {
        return String::new();
    }
    let dir = shlex::try_quote(&dir.to_string_lossy())
        .map(|q| q.into_owned())
        .unwrap_or_else(|_| dir.display().to_string());
    let mut text = format!(
        "\nFaults, by bot and kind (each bot's in full: referee leaderboard {dir} --bot NAME --all-faults):\n"
    );
    for bot in faulty {
        for kind in &bot.summary {
            text += &format!("  {}: {}\n", line(&bot.bot), line(&kind.line));
        }
    }
    text
}

/// `referee check` on each process bot of `config`, each verdict said on stderr as it comes.
async fn check_bots(
    config: &referee::tournament::TournamentConfig,
) -> Result<Vec<(String, referee::check::Report)>, Failure> {
    engine::with_game!(config.game, G => {
        let options = engine::shared_rules::options_from_json::<G>(&config.options)
            .map_err(Failure::usage)?;
        errln!("referee: checking each bot that is a program (referee check) before the first match");
        referee::report::bot_checks::check_bots::<G>(config, &options, |bot, report| {
            errln!("referee: check {}: {}", shown(bot), shown(&report.summary));
        })
        .await
        .map_err(Failure::usage)
    })
}

/// The line that says the seed was drawn, and how to keep it.
fn seed_drawn(config: &referee::tournament::TournamentConfig) -> String {
    format!(
        "referee: no seed given: drew seed {} (kept in {}; --resume reuses it, --seed {} repeats the tournament)",
        config.seed,
        config.out.display(),
        config.seed
    )
}

/// The terminal's view of a running tournament: how its bots run, a line on stderr when it
/// starts, then a progress bar (only on a terminal, and not with `--quiet`).
pub(super) struct Progress {
    show_bar: bool,
    bar: Option<ProgressBar>,
    /// Whether notices are said in full.
    verbose: bool,
    /// The line that says the seed was drawn, said after how the bots run.
    seed_drawn: Option<String>,
}

impl Progress {
    /// A view with a bar unless `quiet` or standard error is no terminal; notices in full
    /// when `verbose`.
    pub(super) fn new(quiet: bool, verbose: bool) -> Self {
        Progress {
            show_bar: !quiet && std::io::stderr().is_terminal(),
            bar: None,
            verbose,
            seed_drawn: None,
        }
    }

    /// Takes the bar off the terminal.
    pub(super) fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Reporter for Progress {
    fn processes(&mut self, processes: &referee::policy::BotProcesses) {
        super::output::notices(&processes.notices, self.verbose);
        if let Some(line) = self.seed_drawn.take() {
            errln!("{line}");
        }
    }

    fn started(&mut self, s: &Started) {
        if let Some(made) = &s.made_private {
            super::private_dir::note(made);
        }
        if let Some(unit) = s.unbalanced {
            errln!(
                "referee: note: {} matches is not a whole number of cycles ({unit} each): seats are not exactly balanced",
                s.matches
            );
        }
        errln!(
            "referee: {} — {} bots, {}, {} matches{} ({} already done), -j {}, seed {}, results in {}",
            s.game,
            s.bots,
            s.seating,
            s.share,
            s.shard
                .map(|(k, n)| format!(" in shard {}/{n}", k + 1))
                .unwrap_or_default(),
            s.done,
            s.jobs,
            s.seed,
            s.out.display()
        );
        if self.show_bar {
            let bar = ProgressBar::new(s.share);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} matches · {per_sec} · ETA {eta} · {msg}",
                )
                .expect("a valid template"),
            );
            bar.set_position(s.done);
            self.bar = Some(bar);
        }
    }

    fn match_finished(&mut self, _result: &MatchResult, standings: &Snapshot) {
        if let Some(bar) = &self.bar {
            let leaders: Vec<String> = standings
                .rows
                .iter()
                .take(3)
                .map(|row| format!("{} {:.0}", shown(&row.bot), row.wins))
                .collect();
            bar.set_message(format!("wins: {}", leaders.join(", ")));
            bar.inc(1);
        }
    }
}
