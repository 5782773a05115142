//! `tournament.json`: what a tournament plays, every setting that changes results (its
//! identity), and how two identities differ.

use super::format::spec::FormatSpec;
use serde::{Deserialize, Serialize};

/// A bot as the tournament knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaBot {
    /// Its name.
    pub name: String,
    /// Its command, or `builtin:NAME`.
    pub command: String,
    /// The time limits it is held to.
    pub limits: protocol::Limits,
    /// Late replies per match accepted as soft overruns.
    pub overruns: u32,
    /// How late a soft overrun may be, in milliseconds.
    pub overrun_ms: u64,
    /// Its resource limits as configured.
    pub resources: crate::seat::ResourceLimits,
    /// What its time limit is charged on (absent: wall time).
    #[serde(default, skip_serializing_if = "is_wall")]
    pub time_basis: crate::seat::TimeBasis,
    /// Whether its processes are frozen while it is not on move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn_isolation: bool,
}

impl MetaBot {
    /// The bot as a spec to start it by, with its time control, resource limits and, from a
    /// [run record](super::run_record::RunBot), its working directory and environment.
    ///
    /// # Errors
    /// [`BotSpecError`](crate::seat::BotSpecError) for a command that cannot be split again, or
    /// a name no bot can have (an edited `tournament.json`: `x/../y` would be read as part of
    /// the command, and the bot started under another name).
    pub fn spec(
        &self,
        run: Option<&super::run_record::RunBot>,
    ) -> Result<crate::seat::BotSpec, crate::seat::BotSpecError> {
        let mut spec = crate::seat::BotSpec::parse(&format!("{}={}", self.name, self.command))?;
        if spec.name != self.name {
            return Err(crate::seat::BotSpecError::BadName(self.name.clone()));
        }
        spec.settings = crate::seat::BotSettings {
            time: crate::seat::TimeControl {
                limits: self.limits,
                overruns: self.overruns,
                overrun_ms: self.overrun_ms,
                basis: self.time_basis,
                isolate: self.turn_isolation,
            },
            limits: self.resources,
            workdir: run.and_then(|r| r.workdir.clone()),
            env: run.map(|r| r.env.clone()).unwrap_or_default(),
        };
        Ok(spec)
    }
}

fn is_wall(basis: &crate::seat::TimeBasis) -> bool {
    *basis == crate::seat::TimeBasis::Wall
}

/// What a tournament plays: every setting that changes results. Resume and merge refuse
/// directories whose identities differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentMeta {
    /// The game.
    pub game: String,
    /// The game options.
    pub options: serde_json::Value,
    /// The bots, in order.
    pub bots: Vec<MetaBot>,
    /// Players per match.
    pub players: usize,
    /// The format: its name (`schedule` in the file; an older referee wrote `format`, which is
    /// refused naming this key) and its own settings, under the format's key.
    #[serde(flatten)]
    pub format: FormatSpec,
    /// The gauntlet's candidate (none for other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate: Option<String>,
    /// Matches in the whole schedule.
    pub matches: u64,
    /// The tournament seed.
    pub seed: u64,
    /// Whether duplicate groups share their seed.
    pub duplicate: bool,
    /// Fault limit per bot and match.
    pub max_faults: u32,
    /// What each class of fault costs.
    pub policy: crate::runner::FaultPolicy,
}

/// Which setting differs between two identities, if any.
pub fn difference(a: &TournamentMeta, b: &TournamentMeta) -> Option<&'static str> {
    let settings_key = (a.format.settings.or(b.format.settings)).map_or("settings", |s| s.key());
    let checks: [(&'static str, bool); 12] = [
        ("game", a.game == b.game),
        ("options", a.options == b.options),
        ("bots", a.bots == b.bots),
        ("players", a.players == b.players),
        ("schedule", a.format.kind == b.format.kind),
        ("candidate", a.candidate == b.candidate),
        (settings_key, a.format.settings == b.format.settings),
        ("matches", a.matches == b.matches),
        ("seed", a.seed == b.seed),
        ("duplicate", a.duplicate == b.duplicate),
        ("max_faults", a.max_faults == b.max_faults),
        ("policy", a.policy == b.policy),
    ];
    checks
        .into_iter()
        .find(|(_, same)| !same)
        .map(|(what, _)| what)
}

#[cfg(test)]
mod tests {
    use super::MetaBot;
    use crate::seat::BotSpecError;

    #[test]
    fn a_recorded_name_no_bot_can_have_is_refused_not_read_as_the_command() {
        let bot = |name: &str| MetaBot {
            name: name.into(),
            command: "builtin:random".into(),
            limits: serde_json::from_str(r#"{"startup_ms": 10000, "decision_ms": 1000}"#).unwrap(),
            overruns: 0,
            overrun_ms: 100,
            resources: Default::default(),
            time_basis: Default::default(),
            turn_isolation: false,
        };
        assert_eq!(bot("r1").spec(None).unwrap().name, "r1");
        for bad in ["x/../../evil", "", "a b"] {
            assert!(
                matches!(bot(bad).spec(None), Err(BotSpecError::BadName(n)) if n == bad),
                "{bad:?}"
            );
        }
    }
}
