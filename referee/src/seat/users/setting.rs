//! The `bot_uids` setting: which uids bots run as when the referee is root.

use std::fmt;
use std::str::FromStr;

/// A range of numbers used as uids (one per bot process) and as gids (one per bot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UidRange {
    /// The first id of the range.
    pub first: u32,
    /// The last id of the range (included).
    pub last: u32,
}

impl UidRange {
    /// The default range, 60000-60999: the one isolate (the IOI sandbox) uses.
    pub const DEFAULT: UidRange = UidRange {
        first: 60_000,
        last: 60_999,
    };

    /// The ids of the range, in order.
    pub fn ids(self) -> std::ops::RangeInclusive<u32> {
        self.first..=self.last
    }

    /// Whether `id` is in the range.
    pub fn contains(self, id: u32) -> bool {
        self.ids().contains(&id)
    }
}

impl fmt::Display for UidRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first, self.last)
    }
}

/// Which uids bots run as when the referee runs as root (`--bot-uids`, `bot_uids = "..."`);
/// see `docs/security.md#bot-users`. Without root, bots always run as the referee's user.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BotUids {
    /// The default range where it can be done; where a bot cannot be run so (its files are
    /// out of an unprivileged user's reach, the machine does not allow it), it runs as the
    /// referee's user, with a warning.
    #[default]
    Auto,
    /// This range, or no run: given explicitly, a bot that cannot run as a uid of its own does
    /// not start (a `spawn_failed` fault), and a referee that is not root refuses to run.
    Required(UidRange),
    /// Bots run as the referee's user.
    Off,
}

impl BotUids {
    /// The range bots take their uids from, unless the setting is off.
    pub fn range(self) -> Option<UidRange> {
        match self {
            BotUids::Auto => Some(UidRange::DEFAULT),
            BotUids::Required(range) => Some(range),
            BotUids::Off => None,
        }
    }
}

/// A `bot_uids` value that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bot uids {0:?}: expected FIRST-LAST (e.g. 60000-60999, at least 2 uids, none below 1000), auto or off"
)]
pub struct BotUidsError(String);

/// The lowest id a range may start at: below it are the system's own users and groups.
const LOWEST: u32 = 1000;

impl FromStr for BotUids {
    type Err = BotUidsError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BotUidsError(text.to_string());
        match text.trim() {
            "auto" => return Ok(BotUids::Auto),
            "off" => return Ok(BotUids::Off),
            _ => {}
        }
        let (first, last) = text.trim().split_once('-').ok_or_else(bad)?;
        let parse = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
        let (first, last) = (parse(first)?, parse(last)?);
        // The lease files and the kernel take any u32 but -1 (which means "unchanged").
        if first < LOWEST || last <= first || last == u32::MAX {
            return Err(bad());
        }
        Ok(BotUids::Required(UidRange { first, last }))
    }
}

impl fmt::Display for BotUids {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotUids::Auto => f.write_str("auto"),
            BotUids::Required(range) => range.fmt(f),
            BotUids::Off => f.write_str("off"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for BotUids {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_auto_or_off_and_nothing_else() {
        assert_eq!("auto".parse(), Ok(BotUids::Auto));
        assert_eq!("off".parse(), Ok(BotUids::Off));
        let range = UidRange {
            first: 70_000,
            last: 70_009,
        };
        assert_eq!(" 70000 - 70009 ".parse(), Ok(BotUids::Required(range)));
        assert_eq!(BotUids::Required(range).to_string(), "70000-70009");
        assert_eq!(BotUids::Auto.range(), Some(UidRange::DEFAULT));
        assert_eq!(BotUids::Off.range(), None);
        for bad in [
            "",
            "on",
            "60000",
            "60000-",
            "-60000",
            "60000-60000",
            "60010-60000",
            "0-999",
            "999-2000",
            "1000-4294967295",
            "a-b",
            "60000-60999-61000",
        ] {
            let err = bad.parse::<BotUids>().unwrap_err();
            assert!(
                err.to_string().contains("expected FIRST-LAST"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn a_config_file_names_it_as_the_command_line_does() {
        #[derive(serde::Deserialize)]
        struct File {
            bot_uids: BotUids,
        }
        let file: File = toml::from_str("bot_uids = \"61000-61099\"").unwrap();
        assert_eq!(file.bot_uids, "61000-61099".parse().unwrap());
        let bad = toml::from_str::<File>("bot_uids = \"root\"").err().unwrap();
        assert!(bad.to_string().contains("expected FIRST-LAST"), "{bad}");
    }
}
