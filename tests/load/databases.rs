//! The databases a benchmarked ladder runs on: SQLite in its home, or a PostgreSQL database
//! made for it with Debian's `psql` and dropped with it. Shared by the ladder's benches
//! (`ladder_load`, `ladder_board`) and their e2e smoke tests.

use std::process::Command;

/// A database a ladder runs on.
#[derive(Clone, Debug)]
pub enum Database {
    /// SQLite, in the ladder's home.
    Sqlite,
    /// A fresh PostgreSQL database made with this URL's role (one that may create databases,
    /// as `REFEREE_TEST_POSTGRES`'s) and dropped after the run.
    Postgres(String),
}

impl Database {
    /// Its name in the results.
    pub fn label(&self) -> &'static str {
        match self {
            Database::Sqlite => "sqlite",
            Database::Postgres(_) => "postgresql",
        }
    }
}

/// A PostgreSQL database made for one ladder, dropped when this is.
pub struct PgDatabase {
    admin: String,
    name: String,
    /// Its URL (with the admin's role).
    pub url: String,
}

impl PgDatabase {
    /// Makes the database `name` with `admin`'s role (a role that may create databases),
    /// dropping one of that name a run of the same process id left first.
    pub fn create(admin: &str, name: &str) -> PgDatabase {
        psql(
            admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        psql(admin, &format!("CREATE DATABASE {name}"));
        let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
        PgDatabase {
            admin: admin.to_owned(),
            url: format!("{base}/{name}"),
            name: name.to_owned(),
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let _ = Command::new("psql")
            .args([
                &self.admin,
                "-qc",
                &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            ])
            .output();
    }
}

/// Runs `sql` with `psql` on `url`, which must succeed; its output, unaligned and without
/// headers.
pub fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-qAtc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
