//! What can go wrong in the store.

/// An error of the store: the database's, or a row the store cannot read back.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no database the ladder can use.
    #[error("the database URL {0} is neither sqlite:PATH nor postgres://…")]
    Url(String),
    /// The database refused or failed.
    #[error("the database: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("the database's migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A name is already taken (an account's or a bot's).
    #[error("the name '{0}' is taken")]
    Taken(String),
    /// A row holds what the store never writes (an edited database).
    #[error("the database holds {0}, which the ladder never writes")]
    Corrupt(String),
}

impl StoreError {
    /// `error`, or [`StoreError::Taken`] when the database refused `name` as a duplicate.
    pub(super) fn or_taken(error: sqlx::Error, name: &str) -> StoreError {
        if Self::is_unique_violation(&error) {
            StoreError::Taken(name.to_owned())
        } else {
            error.into()
        }
    }

    /// Whether the database refused a row because a unique column already holds its value.
    pub(super) fn is_unique_violation(error: &sqlx::Error) -> bool {
        matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
    }
}
