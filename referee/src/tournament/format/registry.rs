//! The one list of formats: each [`ScheduleKind`] and the [`Format`] that plays it, with its
//! settings. A new format is a module of its own, a [`ScheduleKind`] and an arm here.

use super::spec::{FormatSettings, FormatSpec, ScheduleKind};
use super::{Format, Gauntlet, Ladder, RoundRobin, Sampled};
use crate::tournament::nava::format::Nava;
use crate::tournament::out_of_bounds::{OutOfBounds, out};

impl FormatSpec {
    /// The format to play: settings its format does not take are left out, and a format
    /// given none takes its defaults.
    pub fn format(&self) -> Box<dyn Format> {
        match (self.kind, self.settings) {
            (ScheduleKind::RoundRobin, _) => Box::new(RoundRobin),
            (ScheduleKind::Sampled, _) => Box::new(Sampled),
            (ScheduleKind::Gauntlet, _) => Box::new(Gauntlet),
            (ScheduleKind::Ladder, _) => Box::new(Ladder),
            (ScheduleKind::Nava, Some(FormatSettings::Nava(nava))) => Box::new(Nava(nava)),
            (ScheduleKind::Nava, None) => Box::new(Nava::default()),
        }
    }

    /// The format a results directory's identity records, with exactly the settings it takes.
    ///
    /// # Errors
    /// [`OutOfBounds`] for settings missing from a format that takes them, or present in
    /// one that does not.
    pub fn checked(&self) -> Result<Box<dyn Format>, OutOfBounds> {
        match (self.kind, self.settings) {
            (ScheduleKind::Nava, None) => Err(out("nava", "missing from a Nava tournament")),
            (ScheduleKind::Nava, Some(_)) | (_, None) => Ok(self.format()),
            (_, Some(settings)) => Err(out(
                settings.key(),
                "present in a tournament of another schedule",
            )),
        }
    }

    /// The spec as played and recorded: the format's own settings, its defaults filled in.
    pub fn played(&self) -> FormatSpec {
        FormatSpec {
            kind: self.kind,
            settings: self.format().settings(),
        }
    }
}
