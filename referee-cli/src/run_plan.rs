//! What a run will run, said on standard error before anything runs (`referee rerun`, whose
//! bots come from a results directory, and `tournament --resume`): each bot's command, its
//! sandbox and users, its workdir, the names of its environment's variables — never their
//! values, which may be credentials — and the limits it is held to where they are not the
//! defaults. Whatever comes from a file is shown escaped ([`referee::untrusted::line`]), so that a
//! crafted name or command cannot write to the reader's terminal.

use super::bot_settings::SettingsArgs;
use referee::seat::{BotSpec, BotUids, Launch, SandboxMode};
use referee::untrusted::line as shown;
use std::fmt::Write;

/// One run's bots and how they are to run.
pub(super) struct RunPlan<'a> {
    /// The first line: what runs them, and where their settings come from.
    pub heading: String,
    /// The bots, in order.
    pub bots: &'a [BotSpec],
    /// The sandbox asked for.
    pub sandbox: SandboxMode,
    /// The bot users asked for.
    pub bot_uids: BotUids,
    /// For each bot, what vouches for its workdir (`None`: nothing said).
    pub workdir_notes: Vec<Option<&'static str>>,
    /// Lines about the run as a whole (where it runs from, what is hidden).
    pub notes: Vec<String>,
}

impl RunPlan<'_> {
    /// The plan as lines for standard error, `referee: ` first: the run-wide settings once,
    /// then a line per bot with its command, and a second line with what it has beyond the
    /// defaults (a workdir, an environment, other limits), if anything.
    pub(super) fn render(&self) -> String {
        let mut text = format!("referee: {}\n", self.heading);
        let _ = writeln!(
            text,
            "  every bot: sandbox {}, bot uids {}; no workdir, no env and the default limits unless its line says",
            sandbox_name(self.sandbox),
            uids_name(self.bot_uids)
        );
        let defaults = SettingsArgs::default().resolve(None);
        for (i, bot) in self.bots.iter().enumerate() {
            let name = shown(&bot.name);
            let Launch::Command(_) = &bot.launch else {
                let _ = writeln!(
                    text,
                    "  bot '{name}': {} (inside the referee)",
                    shown(&bot.describe())
                );
                continue;
            };
            let _ = writeln!(text, "  bot '{name}': {}", shown(&bot.describe()));
            let settings = &bot.settings;
            let mut own = Vec::new();
            if let Some(dir) = &settings.workdir {
                let note = self.workdir_notes.get(i).copied().flatten();
                let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
                own.push(format!(
                    "workdir {}{note}",
                    shown(&dir.display().to_string())
                ));
            }
            if !settings.env.is_empty() {
                let names: Vec<String> =
                    settings.env.keys().map(|k| shown(k).into_owned()).collect();
                own.push(format!("env {} (values not shown)", names.join(", ")));
            }
            let limits = differences(bot, &defaults);
            if !limits.is_empty() {
                own.push(format!("limits {}", limits.join(", ")));
            }
            if !own.is_empty() {
                let _ = writeln!(text, "    {}", own.join("; "));
            }
        }
        for note in &self.notes {
            let _ = writeln!(text, "  {}", shown(note));
        }
        text
    }
}

/// The bot's time control and resource limits that are not `defaults`', `key value (default
/// D)`.
fn differences(bot: &BotSpec, defaults: &referee::seat::BotSettings) -> Vec<String> {
    let (time, usual) = (&bot.settings.time, &defaults.time);
    let (set, by_default) = (&time.limits, &usual.limits);
    let decision = set.decision_ms;
    // Each as a number, `None` for none.
    let numbers = [
        (
            "time_limit_ms",
            Some(decision),
            Some(by_default.decision_ms),
        ),
        (
            "startup_limit_ms",
            Some(set.startup_ms),
            Some(by_default.startup_ms),
        ),
        (
            "first_decision_ms",
            set.first_decision_ms,
            by_default.first_decision_ms,
        ),
        ("bank_ms", set.bank_ms, by_default.bank_ms),
        ("increment_ms", set.increment_ms, by_default.increment_ms),
        (
            "overruns",
            Some(time.overruns.into()),
            Some(usual.overruns.into()),
        ),
        ("overrun_ms", Some(time.overrun_ms), Some(decision / 10)),
    ];
    let limits = bot
        .settings
        .limits
        .by_key()
        .into_iter()
        .filter_map(|(key, value, default)| {
            // A limit left to its default is not shown; `0` is none.
            value.map(|v| (key, (v > 0).then_some(v), default))
        });
    let shown = |v: Option<u64>| v.map_or("none".to_string(), |v| v.to_string());
    let mut out: Vec<String> = numbers
        .into_iter()
        .chain(limits)
        .filter(|(_, value, default)| value != default)
        .map(|(key, value, default)| format!("{key} {} (default {})", shown(value), shown(default)))
        .collect();
    let words = [
        (
            "time_basis",
            format!("{:?}", time.basis),
            format!("{:?}", usual.basis),
        ),
        (
            "turn_isolation",
            time.isolate.to_string(),
            usual.isolate.to_string(),
        ),
    ];
    for (key, value, default) in words.into_iter().filter(|(_, v, d)| v != d) {
        out.push(format!(
            "{key} {} (default {})",
            value.to_lowercase(),
            default.to_lowercase()
        ));
    }
    out
}

/// The command line's name of a sandbox mode.
fn sandbox_name(mode: SandboxMode) -> &'static str {
    match mode {
        SandboxMode::Auto => "auto",
        SandboxMode::Bwrap => "bwrap",
        SandboxMode::None => "none",
    }
}

/// The command line's name of a bot-uids setting.
fn uids_name(uids: BotUids) -> String {
    match uids {
        BotUids::Auto => "auto".into(),
        BotUids::Required(range) => range.to_string(),
        BotUids::Off => "off".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_names_each_setting_and_no_value_of_the_environment() {
        let mut bot = BotSpec::parse("a=python3 a.py").unwrap();
        bot.settings = SettingsArgs::default().resolve(Some("/srv/w".into()));
        bot.settings.env.insert("TOKEN".into(), "s3cret".into());
        bot.settings.limits.memory_mb = Some(0);
        bot.settings.time.limits.decision_ms = 5000;
        bot.settings.time.overrun_ms = 500;
        let bots = [bot, BotSpec::parse("b=builtin:random").unwrap()];
        let text = RunPlan {
            heading: "rerun runs:".into(),
            bots: &bots,
            sandbox: SandboxMode::Auto,
            bot_uids: BotUids::Auto,
            workdir_notes: vec![Some("marked"), None],
            notes: vec!["from /x\u{1b}[2J".into()],
        }
        .render();
        assert_eq!(
            text,
            "referee: rerun runs:\n  every bot: sandbox auto, bot uids auto; no workdir, no env and the default limits unless its line says\n  bot 'a': python3 a.py\n    workdir /srv/w (marked); env TOKEN (values not shown); limits time_limit_ms 5000 (default 1000), memory_mb none (default 2048)\n  bot 'b': builtin:random (inside the referee)\n  from /x\\u{1b}[2J\n"
        );
        assert!(!text.contains("s3cret"));
    }
}
