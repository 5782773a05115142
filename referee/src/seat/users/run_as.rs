//! Who each bot of a run runs as: decided once at start-up ([`plan`](super::plan)), looked up by
//! the bot's name each time one of its processes starts.

use super::credentials::ProcessUser;
use super::lease::{IdKind, IdLease, IdPool};
use super::workdir::SharedWorkdir;
use crate::seat::hidden_paths::Place;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Who a bot's processes run as.
#[derive(Clone, Debug, Default)]
pub enum RunAs {
    /// The referee's user: it is not root, `--bot-uids off`, or the bot cannot run as a user of
    /// its own (the referee said so at start-up).
    #[default]
    Referee,
    /// Each process a uid of its own, leased when it starts, in the bot's group.
    Own(Arc<BotGroup>),
    /// Not at all: it must run as a uid of its own (`--bot-uids FIRST-LAST`) and cannot; each
    /// start is a `spawn_failed` fault saying why.
    Refused(String),
}

/// A bot's group for the run, and where its processes' uids come from.
#[derive(Debug)]
pub struct BotGroup {
    pool: Arc<IdPool>,
    gid: IdLease,
    /// Its working directory, given to the group for the run.
    _workdir: Option<SharedWorkdir>,
}

impl BotGroup {
    /// The group leased as `gid`, its uids from `pool`, its working directory `workdir`.
    pub fn new(pool: Arc<IdPool>, gid: IdLease, workdir: Option<SharedWorkdir>) -> Self {
        BotGroup {
            pool,
            gid,
            _workdir: workdir,
        }
    }

    /// The group's id.
    pub fn gid(&self) -> u32 {
        self.gid.id()
    }
}

impl RunAs {
    /// The user of a new process of the bot: `None` for the referee's own.
    ///
    /// # Errors
    /// Why the process cannot start: the bot was refused, or every uid of the range is taken.
    pub fn lease(&self) -> Result<Option<ProcessUser>, String> {
        match self {
            RunAs::Referee => Ok(None),
            RunAs::Own(group) => {
                let lease = group.pool.lease(IdKind::User).map_err(|e| e.to_string())?;
                Ok(Some(ProcessUser::new(lease, group.gid())))
            }
            RunAs::Refused(why) => Err(why.clone()),
        }
    }

    /// Of `places` (the ones a sandbox hides), those a process of the bot can name: bubblewrap,
    /// run as the bot's user, cannot mount over a path it cannot reach (which is then hidden
    /// from the bot anyway).
    pub fn nameable(&self, mut places: Vec<Place>) -> Vec<Place> {
        if let RunAs::Own(group) = self {
            places.retain(|p| super::reach::can_name(&p.path, group.gid()));
        }
        places
    }
}

/// Who each bot of a run runs as, by name; a name it does not know runs as the referee's user.
#[derive(Clone, Debug, Default)]
pub struct BotUsers {
    bots: Arc<BTreeMap<String, RunAs>>,
}

impl BotUsers {
    /// Each named bot's [`RunAs`].
    pub fn new(bots: BTreeMap<String, RunAs>) -> Self {
        BotUsers {
            bots: Arc::new(bots),
        }
    }

    /// Who the bot named `name` runs as.
    pub fn run_as(&self, name: &str) -> RunAs {
        self.bots.get(name).cloned().unwrap_or_default()
    }
}
