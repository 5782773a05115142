//! Submissions: a new version of a bot. Its source is kept as an artifact named by its hash
//! and a build job is queued; a built-in bot (the admin's, for a field to measure against)
//! needs no build and is ready at once.

use super::{Ladder, ServiceError, now_ms, require, valid_name};
use crate::spec::{BuildSpec, JobSpec, seat_name};
use crate::store::{Account, BuildResult, JobKind, NewJob, Role, Version, VersionState};
use serde::{Deserialize, Serialize};

/// The language of a built-in bot: its upload is its name (`builtin:NAME`).
pub const BUILTIN: &str = "builtin";

/// A build job goes before match jobs.
const BUILD_PRIORITY: i64 = 10;

/// What a submission made.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Submitted {
    /// The bot.
    pub bot: String,
    /// The version's number.
    pub number: i64,
    /// Its seat name (`BOT.vN`).
    pub name: String,
    /// The sha256 of its source.
    pub source: String,
    /// Where it is: `building`, `ready`, …
    pub state: String,
    /// Whether it is new (`false`: the same source was submitted before, and this is it).
    pub new: bool,
}

/// The language named `name` (one of `new-bot`'s six).
pub fn language(name: &str) -> Option<referee::starters::Language> {
    referee::starters::Language::ALL
        .into_iter()
        .find(|l| l.name() == name)
}

impl Ladder {
    /// Owner `caller` submits `upload` as a new version of its bot `bot` in language `lang`
    /// (the bot is made on its first version).
    ///
    /// # Errors
    /// [`ServiceError::BadRequest`] for a bad name, language or upload,
    /// [`ServiceError::Forbidden`] for another owner's bot or a built-in bot by anyone but the
    /// admin.
    pub async fn submit(
        &self,
        caller: &Account,
        bot: &str,
        lang: &str,
        upload: &[u8],
    ) -> Result<Submitted, ServiceError> {
        require(caller, Role::Owner)?;
        if self.frozen().await? {
            return Err(ServiceError::Conflict(
                "the ladder is frozen: it takes no new version".into(),
            ));
        }
        if let Some(deadline) = self.deadline().await?
            && now_ms() >= deadline
            && caller.role != Role::Admin
        {
            return Err(ServiceError::Conflict(format!(
                "submissions closed at {}",
                crate::utc::show(deadline)
            )));
        }
        if !valid_name(bot) {
            return Err(ServiceError::BadRequest(format!(
                "a bot's name is 1 to 48 letters, digits, '-' or '_'; not {:?}",
                bot.chars().take(60).collect::<String>()
            )));
        }
        let builtin = lang == BUILTIN;
        if builtin && caller.role != Role::Admin {
            return Err(ServiceError::Forbidden(
                "only the admin adds built-in bots".into(),
            ));
        }
        if !builtin && language(lang).is_none() {
            return Err(ServiceError::BadRequest(format!(
                "unknown language {:?}: one of {}, or builtin",
                lang.chars().take(40).collect::<String>(),
                referee::starters::Language::ALL
                    .map(|l| l.name())
                    .join(", ")
            )));
        }
        let source = if builtin {
            self.builtin_source(upload)?
        } else {
            self.source_of(lang, upload)?
        };
        let now = now_ms();
        let found = match self.store.bot(bot).await? {
            Some(found) if found.owner_id != caller.id => {
                return Err(ServiceError::Forbidden(format!(
                    "the bot '{bot}' is another owner's"
                )));
            }
            Some(found) if found.lang != lang => {
                return Err(ServiceError::BadRequest(format!(
                    "the bot '{bot}' is in {}, not {lang}",
                    found.lang
                )));
            }
            Some(found) => found,
            None => self.store.add_bot(caller.id, bot, lang, now).await?,
        };
        let source_hash = self.artifacts.put(&source)?;
        let (version, new) = self
            .store
            .add_version(
                &found,
                &source_hash,
                referee::tournament::ratings::initial(),
                now,
            )
            .await?;
        if new {
            self.start_build(&version, &source, builtin, now).await?;
        }
        let version = self.store.version(version.id).await?.unwrap_or(version);
        Ok(Submitted {
            bot: bot.to_owned(),
            number: version.number,
            name: version.seat_name(),
            source: source_hash,
            state: version.state.as_str().to_owned(),
            new,
        })
    }

    /// A built-in bot's source: its `builtin:NAME`, which the game must have.
    fn builtin_source(&self, upload: &[u8]) -> Result<Vec<u8>, ServiceError> {
        let text = std::str::from_utf8(upload).unwrap_or_default().trim();
        let name = text.strip_prefix("builtin:").unwrap_or(text);
        let known = engine::GameKind::from_name(&self.config.game)
            .map(|game| {
                engine::with_game!(game, G => engine::strategy::builtin_names::<G>().contains(&name))
            })
            .unwrap_or(false);
        if known {
            Ok(format!("builtin:{name}").into_bytes())
        } else {
            Err(ServiceError::BadRequest(format!(
                "{} has no built-in bot {:?}",
                self.config.game,
                name.chars().take(40).collect::<String>()
            )))
        }
    }

    /// A process bot's source artifact: the upload unpacked, checked and packed again the
    /// same way whatever its form (so the same files give the same hash).
    fn source_of(&self, lang: &str, upload: &[u8]) -> Result<Vec<u8>, ServiceError> {
        let dest = self
            .scratch
            .join(format!("upload-{}", crate::auth::new_lease()));
        let unpacked = crate::upload::unpack(upload, lang, &self.config.build, &dest);
        let _ = std::fs::remove_dir_all(&dest);
        Ok(unpacked.map_err(ServiceError::Upload)?.source)
    }

    async fn start_build(
        &self,
        version: &Version,
        source: &[u8],
        builtin: bool,
        now: i64,
    ) -> Result<(), ServiceError> {
        if builtin {
            let command = String::from_utf8_lossy(source).into_owned();
            let result = BuildResult {
                state: VersionState::Ready,
                artifact_hash: None,
                run_command: Some(command),
                build_log_hash: None,
                check_report: None,
            };
            self.store.set_version_build(version.id, &result).await?;
            return Ok(());
        }
        let name = seat_name(&version.bot.name, version.number);
        let spec = JobSpec::Build(Box::new(BuildSpec {
            version: version.id,
            bot: self.config.seat.bot(&name, ""),
            name,
            lang: version.bot.lang.clone(),
            source: version.source_hash.clone(),
            game: self.config.game.clone(),
            options: self.config.options.clone(),
            sandbox: self.config.sandbox,
        }));
        let json = serde_json::to_string(&spec).map_err(std::io::Error::other)?;
        self.store
            .enqueue(
                &NewJob {
                    priority: BUILD_PRIORITY,
                    requested_by: Some(version.bot.owner_id),
                    ..NewJob::new(JobKind::Build, &json)
                },
                now,
            )
            .await?;
        Ok(())
    }
}

impl Ladder {
    /// The admin submits `upload` as bot `bot` of owner `owner` (made, with a token nobody
    /// is shown, when missing): the bots a ladder starts with (its config's `[[bot]]`).
    ///
    /// # Errors
    /// As [`Ladder::submit`], and [`ServiceError::Forbidden`] for anyone but the admin.
    pub async fn submit_for(
        &self,
        caller: &Account,
        owner: &str,
        bot: &str,
        lang: &str,
        upload: &[u8],
    ) -> Result<Submitted, ServiceError> {
        require(caller, Role::Admin)?;
        let account = match self.store.account_by_name(owner).await? {
            Some(account) => account,
            None => {
                self.add_account(caller, owner, Role::Owner).await?;
                self.store
                    .account_by_name(owner)
                    .await?
                    .ok_or_else(|| ServiceError::NotFound(format!("no account '{owner}'")))?
            }
        };
        if builtin_lang(lang) {
            // A built-in bot is the admin's to add; its owner is still `owner`.
            let as_admin = Account {
                role: Role::Admin,
                ..account
            };
            return self.submit(&as_admin, bot, lang, upload).await;
        }
        self.submit(&account, bot, lang, upload).await
    }

    /// The admin's account.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] when the ladder has none (an edited database).
    pub async fn admin(&self) -> Result<Account, ServiceError> {
        self.store
            .account_by_name("admin")
            .await?
            .filter(|a| a.role == Role::Admin)
            .ok_or_else(|| ServiceError::NotFound("the ladder has no admin account".into()))
    }
}

fn builtin_lang(lang: &str) -> bool {
    lang == BUILTIN
}
