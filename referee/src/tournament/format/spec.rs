//! A format as a tournament is set up with and `tournament.json` records it: its name
//! ([`ScheduleKind`]) and its own settings ([`FormatSettings`]). Data only: what each format
//! does is its [`Format`](super::Format), which [`FormatSpec::format`] gives.

use crate::tournament::nava::spec::NavaSpec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How bots are put together: the name of a format, as written in `tournament.json`, the TOML
/// file and on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleKind {
    /// Every P-subset of the bots, in turn, each rotated through the seats
    /// ([`RoundRobin`](super::RoundRobin)).
    #[default]
    RoundRobin,
    /// Balanced random P-subsets ([`Sampled`](super::Sampled)).
    Sampled,
    /// One candidate against every (P−1)-subset of the others, in turn
    /// ([`Gauntlet`](super::Gauntlet)).
    Gauntlet,
    /// Tables of 4 and 3, rounds of hands, the Nava movement between rounds
    /// ([`Nava`](crate::tournament::nava::Nava)), scored in Victory Points.
    Nava,
    /// The matches a ladder's matchmaker chose, exported by `referee ladder`
    /// ([`Ladder`](super::Ladder)): read back, never played as a tournament.
    Ladder,
}

/// A format and its settings: what the coordinator, the results file and the leaderboard hold
/// and hand to the format without looking in. In `tournament.json` it is two keys of the
/// identity: `schedule` (the name) and, for a format with settings of its own, those settings
/// under that format's key (a Nava tournament's rounds and hands are `nava`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormatSpec {
    /// Which format.
    #[serde(rename = "schedule")]
    pub kind: ScheduleKind,
    /// Its own settings (none for a format without any, or to take its defaults).
    #[serde(rename = "nava", default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<FormatSettings>,
}

impl From<ScheduleKind> for FormatSpec {
    /// The format `kind` with its default settings.
    fn from(kind: ScheduleKind) -> Self {
        FormatSpec {
            kind,
            settings: None,
        }
    }
}

/// The settings of a format that has some of its own, written as the format's own type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatSettings {
    /// A Nava tournament's rounds and hands.
    Nava(NavaSpec),
}

impl FormatSettings {
    /// The key the settings are written under in `tournament.json` (and named by in its
    /// messages).
    pub fn key(&self) -> &'static str {
        match self {
            FormatSettings::Nava(_) => "nava",
        }
    }
}

impl Serialize for FormatSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FormatSettings::Nava(nava) => nava.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for FormatSettings {
    /// The settings under the only key a format's settings have today (`nava`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        NavaSpec::deserialize(deserializer).map(FormatSettings::Nava)
    }
}
