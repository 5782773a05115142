//! The ladder's service: what the HTTP API does, with no HTTP and no SQL. A [`Ladder`] holds
//! the store, the artifacts and the settings; its methods take the caller's [`Account`] and
//! check what it may do, so every entry point (the API, a test) gets the same answers.

mod bot_view;
mod challenge;
mod class;
mod error;
mod export_window;
mod final_tournament;
mod home;
mod jobs;
mod matches_view;
mod queue_view;
mod replay_spoiled;
mod report;
mod schedule;
mod sessions;
mod submit;
mod views;

pub use bot_view::{BotView, FaultKindView, MeetingsView, RatingPointView};
pub use challenge::{CHALLENGE_MATCHES, ChallengeQueued, ChallengeRequest, ChallengesView};
pub use class::{
    CLASS_ROWS, ClassImport, ClassMember, Handed, Handout, LINK_MS, TokenReset, read_class_csv,
};
pub use error::ServiceError;
pub use final_tournament::{FINAL_MATCHES, FinalRequest, FinalStanding, FinalStarted, FinalView};
pub use home::{HOME_FILE, Home, Initialized};
pub use jobs::ClaimedJob;
pub use matches_view::{MatchView, SeatView, SeenMatch};
pub use queue_view::{LeasedView, QueueView, TroubleView, WorkerView};
pub use report::{BuildReport, MatchReport};
pub use sessions::{NewSession, SESSION_MS, Session};
pub use submit::{BUILTIN, Submitted};
pub use views::{StandingRow, VersionStatus, groups, in_group};

use crate::artifacts::ArtifactStore;
use crate::config::LadderConfig;
use crate::store::{Account, Role, Store};
use std::path::PathBuf;

/// A ladder as its server runs it.
#[derive(Clone, Debug)]
pub struct Ladder {
    store: Store,
    artifacts: std::sync::Arc<ArtifactStore>,
    config: LadderConfig,
    /// Where the server writes what it checks (logs being replayed).
    scratch: PathBuf,
    /// Told when a match is recorded: the matchmaker fills the queue again at once, rather
    /// than at its next tick.
    recorded: std::sync::Arc<tokio::sync::Notify>,
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Ladder {
    /// Its store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Waits until a match is recorded (one that was recorded since the last wait counts).
    pub async fn match_recorded(&self) {
        self.recorded.notified().await;
    }

    /// Its settings.
    pub fn config(&self) -> &LadderConfig {
        &self.config
    }

    /// Its artifacts.
    pub fn artifacts(&self) -> &ArtifactStore {
        &self.artifacts
    }

    /// The account whose token is `token`, if it is enabled.
    ///
    /// # Errors
    /// [`ServiceError::Unauthorized`] for an unknown or disabled token.
    pub async fn authenticate(&self, token: &str) -> Result<Account, ServiceError> {
        match self
            .store
            .account_by_token(&crate::auth::token_hash(token))
            .await?
        {
            Some(account) if !account.disabled => Ok(account),
            _ => Err(ServiceError::Unauthorized),
        }
    }

    /// Makes an account of `role` named `name` (the admin only) and returns its token, shown
    /// this once.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::BadRequest`] for
    /// a name no account may have, [`ServiceError::Conflict`] for a name taken.
    pub async fn add_account(
        &self,
        caller: &Account,
        name: &str,
        role: Role,
    ) -> Result<String, ServiceError> {
        require(caller, Role::Admin)?;
        if !valid_name(name) {
            return Err(ServiceError::BadRequest(format!(
                "an account's name is 1 to 48 letters, digits, '-' or '_'; not {name:?}"
            )));
        }
        let token = crate::auth::new_token();
        self.store
            .add_account(name, role, &crate::auth::token_hash(&token), now_ms())
            .await?;
        Ok(token)
    }

    /// Pauses or resumes the matchmaker (the admin only): no new ranked match is queued while
    /// paused; those queued are played.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin.
    pub async fn set_paused(&self, caller: &Account, paused: bool) -> Result<(), ServiceError> {
        require(caller, Role::Admin)?;
        self.store
            .set_setting("paused", if paused { "1" } else { "0" })
            .await?;
        Ok(())
    }

    /// Freezes the ladder (the admin only) — the end of an event: no submission is taken and
    /// no ranked match is queued, so the standings stay as they are (those queued are
    /// played); or thaws it.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin.
    pub async fn set_frozen(&self, caller: &Account, frozen: bool) -> Result<(), ServiceError> {
        require(caller, Role::Admin)?;
        self.store
            .set_setting("frozen", if frozen { "1" } else { "0" })
            .await?;
        Ok(())
    }

    /// Whether the ladder is frozen.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn frozen(&self) -> Result<bool, ServiceError> {
        Ok(self.store.setting("frozen").await?.as_deref() == Some("1"))
    }

    /// Whether the matchmaker is paused.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn paused(&self) -> Result<bool, ServiceError> {
        Ok(self.store.setting("paused").await?.as_deref() == Some("1"))
    }

    /// Sets the time submissions close (ms since the epoch; the admin only), or lifts it.
    /// After it, owners' submissions are refused; the admin's are still taken.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin.
    pub async fn set_deadline(
        &self,
        caller: &Account,
        deadline: Option<i64>,
    ) -> Result<(), ServiceError> {
        require(caller, Role::Admin)?;
        let value = deadline.map_or_else(String::new, |ms| ms.to_string());
        self.store.set_setting("deadline_ms", &value).await?;
        Ok(())
    }

    /// When submissions close, if the admin set a time.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn deadline(&self) -> Result<Option<i64>, ServiceError> {
        Ok(self
            .store
            .setting("deadline_ms")
            .await?
            .and_then(|v| v.parse().ok()))
    }

    /// Removes version `number` of bot `bot` from play (the admin only): its bot plays its
    /// previous ready version; its history stays.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::NotFound`].
    pub async fn remove_version(
        &self,
        caller: &Account,
        bot: &str,
        number: i64,
    ) -> Result<(), ServiceError> {
        require(caller, Role::Admin)?;
        if self.store.set_version_removed(bot, number, true).await? {
            Ok(())
        } else {
            Err(ServiceError::NotFound(format!(
                "no version {bot}.v{number}"
            )))
        }
    }

    /// Removes bot `name` from play (the admin only); its history stays.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::NotFound`].
    pub async fn remove_bot(&self, caller: &Account, name: &str) -> Result<(), ServiceError> {
        require(caller, Role::Admin)?;
        if self.store.set_removed(name, true).await? {
            Ok(())
        } else {
            Err(ServiceError::NotFound(format!("no bot '{name}'")))
        }
    }
}

/// Whether `name` may name an account or a bot: 1 to 48 ASCII letters, digits, `-` or `_`
/// (no `.`, so that `BOT.vN` is unambiguous; nothing a page or a terminal would read as markup
/// or control).
pub fn valid_name(name: &str) -> bool {
    (1..=48).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn who(role: Role) -> &'static str {
    match role {
        Role::Owner => "an owner",
        Role::Admin => "the admin",
        Role::Worker => "a worker",
    }
}

/// Refuses a caller whose role is not `role` (the admin may do what an owner may).
fn require(caller: &Account, role: Role) -> Result<(), ServiceError> {
    let allowed = caller.role == role || (role == Role::Owner && caller.role == Role::Admin);
    if allowed {
        Ok(())
    } else {
        Err(ServiceError::Forbidden(format!(
            "this needs {}'s token, not {}'s",
            who(role),
            who(caller.role)
        )))
    }
}
