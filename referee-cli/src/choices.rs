//! The command line's names for the library's settings that take one of a few values: each a
//! clap value enum (its help text per value) mapped onto the library type, so that the library
//! knows nothing of clap.

use clap::ValueEnum;
use clap::builder::{EnumValueParser, PossibleValue, TypedValueParser};
use referee::runner::Penalty;
use referee::seat::{SandboxMode, TimeBasis};
use referee::tournament::rerun_trust::RecordedSetting;
use std::ffi::OsStr;

/// What a class of fault costs the bot, as the command line names it ([`Penalty`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PenaltyChoice {
    /// The referee plays the default action for the decision and the match goes on; the fault
    /// counts toward the fault limit.
    Substitute,
    /// The bot is out of the match: stopped, its remaining decisions substituted, and ranked
    /// below every bot that did not forfeit.
    Forfeit,
}

impl From<PenaltyChoice> for Penalty {
    fn from(choice: PenaltyChoice) -> Self {
        match choice {
            PenaltyChoice::Substitute => Penalty::Substitute,
            PenaltyChoice::Forfeit => Penalty::Forfeit,
        }
    }
}

/// How the referee was asked to run bots, as the command line names it ([`SandboxMode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SandboxChoice {
    /// bubblewrap where it is installed and works, otherwise none (with a warning).
    Auto,
    /// bubblewrap, or refuse to run.
    Bwrap,
    /// No sandbox: bots run as ordinary child processes.
    None,
}

impl From<SandboxChoice> for SandboxMode {
    fn from(choice: SandboxChoice) -> Self {
        match choice {
            SandboxChoice::Auto => SandboxMode::Auto,
            SandboxChoice::Bwrap => SandboxMode::Bwrap,
            SandboxChoice::None => SandboxMode::None,
        }
    }
}

/// What a decision's time limit is charged on, as the command line names it ([`TimeBasis`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TimeBasisChoice {
    /// Wall time from the request written to the reply read.
    Wall,
    /// The CPU time all of the bot's processes used meanwhile (from its control group), with a
    /// wall-clock cap of 3 times the limit for a bot that blocks.
    Cpu,
}

impl From<TimeBasisChoice> for TimeBasis {
    fn from(choice: TimeBasisChoice) -> Self {
        match choice {
            TimeBasisChoice::Wall => TimeBasis::Wall,
            TimeBasisChoice::Cpu => TimeBasis::Cpu,
        }
    }
}

/// A recorded setting `referee rerun` may use although it widens what a bot may reach, as the
/// command line names it ([`RecordedSetting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TrustChoice {
    /// run.json's sandbox "none": run the bots without a sandbox.
    Sandbox,
    /// run.json's environment variables, passed to the bots.
    Env,
    /// tournament.json's resource limits that are off or above this referee's defaults.
    Limits,
    /// run.json's cwd: run the bots from the tournament's directory.
    Cwd,
}

impl From<TrustChoice> for RecordedSetting {
    fn from(choice: TrustChoice) -> Self {
        match choice {
            TrustChoice::Sandbox => RecordedSetting::Sandbox,
            TrustChoice::Env => RecordedSetting::Env,
            TrustChoice::Limits => RecordedSetting::Limits,
            TrustChoice::Cwd => RecordedSetting::Cwd,
        }
    }
}

/// The parser of a `--trust-recorded` value: `sandbox`, `env`, `limits` or `cwd`; `workdir`,
/// which earlier referees took, is refused with the flag that replaces it.
pub(super) fn recorded_setting() -> impl TypedValueParser<Value = RecordedSetting> {
    TrustParser
}

/// [`recorded_setting`]'s parser.
#[derive(Clone, Copy, Debug)]
struct TrustParser;

impl TypedValueParser for TrustParser {
    type Value = RecordedSetting;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<RecordedSetting, clap::Error> {
        if value == "workdir" {
            let valid: Vec<String> = self
                .possible_values()
                .into_iter()
                .flatten()
                .map(|v| v.get_name().to_string())
                .collect();
            return Err(cmd.clone().error(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "invalid value 'workdir' for '--trust-recorded': a recorded workdir without the referee's mark is given to its bot only when you type its path, --workdir NAME=DIR (rerun's refusal shows the exact path)\n  [possible values: {}]",
                    valid.join(", ")
                ),
            ));
        }
        EnumValueParser::<TrustChoice>::new()
            .map(RecordedSetting::from)
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            TrustChoice::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// The parser of a `--on-*` flag's value: `substitute` or `forfeit`.
pub(super) fn penalty() -> impl TypedValueParser<Value = Penalty> {
    EnumValueParser::<PenaltyChoice>::new().map(Penalty::from)
}

/// The parser of `--sandbox`'s value: `auto`, `bwrap` or `none`.
pub(super) fn sandbox_mode() -> impl TypedValueParser<Value = SandboxMode> {
    EnumValueParser::<SandboxChoice>::new().map(SandboxMode::from)
}

/// The parser of `--time-basis`'s value: `wall` or `cpu`.
pub(super) fn time_basis() -> impl TypedValueParser<Value = TimeBasis> {
    EnumValueParser::<TimeBasisChoice>::new().map(TimeBasis::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of the library types has its name on the command line, the same as in
    /// config files (serde's).
    #[test]
    fn each_choice_is_named_as_in_config_files() {
        for choice in PenaltyChoice::value_variants() {
            let name = choice.to_possible_value().unwrap().get_name().to_string();
            let from_file: Penalty = serde_json::from_value(name.clone().into()).unwrap();
            assert_eq!(Penalty::from(*choice), from_file, "{name}");
        }
        for choice in TrustChoice::value_variants() {
            let name = choice.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(RecordedSetting::from(*choice).name(), name);
        }
        for choice in SandboxChoice::value_variants() {
            let name = choice.to_possible_value().unwrap().get_name().to_string();
            let from_file: SandboxMode = serde_json::from_value(name.clone().into()).unwrap();
            assert_eq!(SandboxMode::from(*choice), from_file, "{name}");
        }
        for choice in TimeBasisChoice::value_variants() {
            let name = choice.to_possible_value().unwrap().get_name().to_string();
            let from_file: TimeBasis = serde_json::from_value(name.clone().into()).unwrap();
            assert_eq!(TimeBasis::from(*choice), from_file, "{name}");
        }
    }
}
