//! Opening a store: the backend from the URL's scheme, the connection settings, the migrations.

use super::{Store, StoreError};
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use std::fmt;

static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// The database behind a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite, embedded: one file.
    Sqlite,
    /// PostgreSQL, a server.
    Postgres,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        })
    }
}

impl Backend {
    /// The backend a URL names: `sqlite:…` or `postgres://…` (`postgresql://…`).
    ///
    /// # Errors
    /// [`StoreError::Url`] for any other.
    pub fn of(url: &str) -> Result<Backend, StoreError> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::Url(redacted(url)))
        }
    }
}

/// A database URL with its password hidden, to print or log.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}{path}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

impl Store {
    /// Opens the store at `url` (`sqlite:PATH`, made if missing, or `postgres://…`) and brings
    /// its tables up to date.
    ///
    /// # Errors
    /// [`StoreError::Url`] for a URL of another database, [`StoreError::Database`] when it
    /// cannot be reached, [`StoreError::Migrate`] when its tables cannot be brought up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(url)?;
        let url = match backend {
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_owned(),
        };
        let options = AnyPoolOptions::new().after_connect(move |conn, _| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    // Readers go on while one writer writes; a writer waits its turn.
                    for pragma in [
                        "PRAGMA journal_mode = WAL",
                        "PRAGMA synchronous = NORMAL",
                        "PRAGMA foreign_keys = ON",
                        "PRAGMA busy_timeout = 30000",
                    ] {
                        sqlx::query(pragma).execute(&mut *conn).await?;
                    }
                }
                Ok(())
            })
        });
        let options = match backend {
            Backend::Sqlite => options.max_connections(4),
            Backend::Postgres => options.max_connections(16),
        };
        let pool = options.connect(&url).await?;
        match backend {
            Backend::Sqlite => SQLITE.run(&pool).await?,
            Backend::Postgres => POSTGRES.run(&pool).await?,
        }
        Ok(Store { pool, backend })
    }

    /// The database behind it.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The database's size on disk, in bytes.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn size_bytes(&self) -> Result<i64, StoreError> {
        let sql = match self.backend {
            Backend::Sqlite => {
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
            }
            Backend::Postgres => "SELECT pg_database_size(current_database())",
        };
        let (size,): (i64,) = sqlx::query_as(sql).fetch_one(&self.pool).await?;
        Ok(size)
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Starts a transaction that writes: on SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`), so two writers never deadlock upgrading a read.
    pub(super) async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            redacted("postgres://ladder:s3cret@db.example:5432/ladder"),
            "postgres://ladder:***@db.example:5432/ladder"
        );
        assert_eq!(redacted("sqlite:/tmp/x.sqlite"), "sqlite:/tmp/x.sqlite");
        assert!(matches!(Backend::of("mysql://x"), Err(StoreError::Url(_))));
    }
}
