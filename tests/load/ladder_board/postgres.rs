//! A PostgreSQL database made for one ladder with Debian's `psql`, dropped with it.

use std::process::Command;

/// A database made for one ladder, dropped when this is.
pub(super) struct PgDatabase {
    admin: String,
    name: String,
    /// Its URL (with the admin's role).
    pub(super) url: String,
}

impl PgDatabase {
    /// Makes the database `ladder_board_PID` with `admin`'s role (a role that may create
    /// databases), dropping one a run of the same process id left first.
    pub(super) fn create(admin: &str) -> PgDatabase {
        let name = format!("ladder_board_{}", std::process::id());
        psql(
            admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        psql(admin, &format!("CREATE DATABASE {name}"));
        let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
        PgDatabase {
            admin: admin.to_owned(),
            url: format!("{base}/{name}"),
            name,
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

/// Runs `sql` with `psql` on `url`, which must succeed.
fn psql(url: &str, sql: &str) {
    let out = Command::new("psql")
        .args([url, "-qc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
