//! The two backends' migrations hold the same tables and columns.

use std::collections::BTreeSet;

fn columns(sql: &str) -> BTreeSet<String> {
    let mut table = String::new();
    let mut out = BTreeSet::new();
    for line in sql.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("ALTER TABLE ") {
            let mut words = rest.split_whitespace();
            if let (Some(t), Some("ADD"), Some("COLUMN"), Some(c)) =
                (words.next(), words.next(), words.next(), words.next())
            {
                out.insert(format!("{t}.{c}"));
            }
        } else if let Some(rest) = line.strip_prefix("CREATE TABLE ") {
            table = rest.trim_end_matches(" (").to_owned();
        } else if let Some(name) = line.split_whitespace().next()
            && !table.is_empty()
            && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && !line.starts_with("--")
        {
            out.insert(format!("{table}.{name}"));
        } else if line.starts_with(");") {
            table.clear();
        }
    }
    out
}

#[test]
fn sqlite_and_postgres_have_the_same_tables_and_columns() {
    let sqlite = [
        include_str!("../../../migrations/sqlite/0001_ladder.sql"),
        include_str!("../../../migrations/sqlite/0002_board_counts.sql"),
    ];
    let postgres = [
        include_str!("../../../migrations/postgres/0001_ladder.sql"),
        include_str!("../../../migrations/postgres/0002_board_counts.sql"),
    ];
    let (s, p) = (columns(&sqlite.concat()), columns(&postgres.concat()));
    assert!(s.len() > 40, "{s:?}");
    for added in [
        "versions.ranked_wins",
        "versions.ranked_faults",
        "match_seats.faults",
    ] {
        assert!(s.contains(added), "{added}: {s:?}");
    }
    assert_eq!(s, p);
}
