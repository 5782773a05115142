//! A ladder's home directory: `ladder.json` (which database), `artifacts/`, `scratch/`, the
//! SQLite file when it is the database, and the admin's and local workers' tokens, each
//! readable by the owner only.

use super::{Ladder, ServiceError, now_ms};
use crate::artifacts::ArtifactStore;
use crate::config::LadderConfig;
use crate::store::{Role, Store};
use serde::{Deserialize, Serialize};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The file in a ladder's home that says where its database is.
pub const HOME_FILE: &str = "ladder.json";
/// The admin's token, written once at init.
pub const ADMIN_TOKEN_FILE: &str = "admin.token";
/// The token of the server's own workers.
pub const LOCAL_WORKER_TOKEN_FILE: &str = "local-worker.token";

/// What `ladder.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Home {
    /// The database's URL (`sqlite:PATH` or `postgres://…`).
    pub db: String,
}

/// What init made: the tokens to hand out, shown this once.
#[derive(Clone, Debug)]
pub struct Initialized {
    /// The admin's token (also in `admin.token`).
    pub admin_token: String,
    /// Where the home is.
    pub home: PathBuf,
}

/// The SQLite database's file in the home.
const SQLITE_FILE: &str = "ladder.sqlite";

/// Makes the ladder's home its owner's alone (mode 700: no other user, and so no bot running
/// as a uid of its own, passes through it), and its SQLite files (which hold the ladder's seed
/// and every match's) readable by their owner only; a home made before is made so too.
fn keep_private(home: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700))?;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let file = home.join(format!("{SQLITE_FILE}{suffix}"));
        match std::fs::symlink_metadata(&file) {
            Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o077 != 0 => {
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())
}

impl Ladder {
    /// Makes a new ladder in `home` (which must not hold one) with `config`, on the database
    /// `db` (`None`: SQLite, `home/ladder.sqlite`). Makes the admin (`admin`) and the
    /// server's own worker account.
    ///
    /// # Errors
    /// [`ServiceError::Conflict`] when `home` holds a ladder, [`ServiceError::Io`],
    /// [`ServiceError::Store`].
    pub async fn init(
        home: &Path,
        config: &LadderConfig,
        db: Option<&str>,
    ) -> Result<Initialized, ServiceError> {
        if home.join(HOME_FILE).exists() {
            return Err(ServiceError::Conflict(format!(
                "{} holds a ladder already",
                home.display()
            )));
        }
        std::fs::create_dir_all(home)?;
        let home = home.canonicalize()?;
        let db = match db {
            Some(url) => url.to_owned(),
            None => {
                // Made for its owner alone before SQLite opens it (SQLite gives its journal
                // files the database file's mode).
                let file = home.join(SQLITE_FILE);
                if !file.exists() {
                    std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(0o600)
                        .open(&file)?;
                }
                format!("sqlite:{}", file.display())
            }
        };
        keep_private(&home)?;
        let store = Store::open(&db).await?;
        if store.setting("config").await?.is_some() {
            return Err(ServiceError::Conflict(format!(
                "the database {} holds a ladder already",
                crate::store::redacted(&db)
            )));
        }
        let json = serde_json::to_string(config).map_err(std::io::Error::other)?;
        store.set_setting("config", &json).await?;
        let admin_token = crate::auth::new_token();
        let now = now_ms();
        store
            .add_account(
                "admin",
                Role::Admin,
                &crate::auth::token_hash(&admin_token),
                now,
            )
            .await?;
        let worker_token = crate::auth::new_token();
        store
            .add_account(
                "local-worker",
                Role::Worker,
                &crate::auth::token_hash(&worker_token),
                now,
            )
            .await?;
        store.close().await;
        write_private(&home.join(ADMIN_TOKEN_FILE), &admin_token)?;
        write_private(&home.join(LOCAL_WORKER_TOKEN_FILE), &worker_token)?;
        let file = serde_json::to_string_pretty(&Home { db }).map_err(std::io::Error::other)?;
        write_private(&home.join(HOME_FILE), &file)?;
        Ok(Initialized { admin_token, home })
    }

    /// Opens the ladder in `home`.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] when `home` holds none, [`ServiceError::Io`],
    /// [`ServiceError::Store`].
    pub async fn open(home: &Path) -> Result<Ladder, ServiceError> {
        let text = std::fs::read_to_string(home.join(HOME_FILE)).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                ServiceError::NotFound(format!(
                    "{} holds no ladder (make one with `referee ladder init`)",
                    home.display()
                ))
            } else {
                e.into()
            }
        })?;
        let found: Home = serde_json::from_str(&text).map_err(|e| {
            ServiceError::BadRequest(format!("{}: {e}", home.join(HOME_FILE).display()))
        })?;
        keep_private(home)?;
        let store = Store::open(&found.db).await?;
        let config = store.setting("config").await?.ok_or_else(|| {
            ServiceError::NotFound(format!(
                "the database {} holds no ladder",
                crate::store::redacted(&found.db)
            ))
        })?;
        let config: LadderConfig = serde_json::from_str(&config).map_err(|e| {
            ServiceError::Store(crate::store::StoreError::Corrupt(format!(
                "a config the ladder cannot read ({e})"
            )))
        })?;
        let scratch = home.join("scratch");
        std::fs::create_dir_all(&scratch)?;
        Ok(Ladder {
            store,
            artifacts: std::sync::Arc::new(ArtifactStore::open(&home.join("artifacts"))?),
            config,
            scratch,
            recorded: std::sync::Arc::default(),
        })
    }

    /// The token of the server's own workers, from `home`.
    ///
    /// # Errors
    /// [`ServiceError::Io`].
    pub fn local_worker_token(home: &Path) -> Result<String, ServiceError> {
        Ok(std::fs::read_to_string(home.join(LOCAL_WORKER_TOKEN_FILE))?
            .trim()
            .to_owned())
    }
}
