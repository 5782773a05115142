//! The databases a ladder runs on (PostgreSQL's made and dropped for each ladder), and the
//! bytes of the database, of its tables and of the files under a directory.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::cpu::process_cpu;

use crate::databases::psql;
pub use crate::databases::{Database, PgDatabase};

impl PgDatabase {
    /// The CPU seconds so far of each backend serving this database (but the caller's).
    pub(super) fn backends(&self) -> BTreeMap<u32, f64> {
        psql(
            &self.url,
            "SELECT pid FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .map(|pid| (pid, process_cpu(pid).total()))
        .collect()
    }

    /// Its `pg_database_size`.
    fn size(&self) -> u64 {
        psql(&self.url, "SELECT pg_database_size(current_database())")
            .trim()
            .parse()
            .expect("pg_database_size is a number")
    }
}

/// The bytes of every file under `path` (a file: its own).
pub(super) fn bytes_under(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if meta.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| bytes_under(&e.unwrap().path()))
            .sum()
    } else {
        meta.len()
    }
}

/// The database's bytes: SQLite's pages (`page_count` × `page_size`, read through the WAL:
/// what the file holds once checkpointed; the `-wal` file itself stays at its largest size
/// whatever it holds), or PostgreSQL's `pg_database_size`.
pub(super) fn db_bytes(home: &Path, pg: Option<&PgDatabase>) -> u64 {
    match pg {
        Some(pg) => pg.size(),
        None => sqlite(
            &home.join("ladder.sqlite"),
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
        )
        .trim()
        .parse()
        .expect("a number of bytes"),
    }
}

/// SQLite's files on disk: the database and its `-wal`.
pub(super) fn sqlite_files(home: &Path) -> u64 {
    bytes_under(&home.join("ladder.sqlite")) + bytes_under(&home.join("ladder.sqlite-wal"))
}

/// The bytes of each table of the database, with its indexes (and PostgreSQL's TOAST).
pub(super) fn table_bytes(home: &Path, pg: Option<&PgDatabase>) -> BTreeMap<String, u64> {
    let text = match pg {
        Some(pg) => psql(
            &pg.url,
            "SELECT c.relname || '|' || pg_total_relation_size(c.oid) FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() AND c.relkind = 'r'",
        ),
        None => sqlite(
            &home.join("ladder.sqlite"),
            "SELECT s.tbl_name || '|' || SUM(d.pgsize) FROM dbstat d \
             JOIN sqlite_schema s ON s.name = d.name GROUP BY s.tbl_name",
        ),
    };
    text.lines()
        .filter_map(|line| {
            let (name, bytes) = line.split_once('|')?;
            Some((name.to_owned(), bytes.trim().parse().ok()?))
        })
        .collect()
}

/// Runs `sql` on the SQLite database `file` with the `sqlite3` shell, read-only.
fn sqlite(file: &Path, sql: &str) -> String {
    let out = Command::new("sqlite3")
        .arg("-readonly")
        .arg(file)
        .arg(sql)
        .output()
        .expect("sqlite3 runs");
    assert!(
        out.status.success(),
        "sqlite3 {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
