-- A class ladder (docs/ladder.md, "A class ladder"). Keep in step with ../postgres/0005_class.sql.
--
-- Each account's class group and contact (an email or a student id), as the admin's CSV gives
-- them; NULL when none.
ALTER TABLE accounts ADD COLUMN grp TEXT;
ALTER TABLE accounts ADD COLUMN contact TEXT;
-- One-time links: opening one (and pressing its button) gives the account a new token, shown
-- once, and signs it in. Only the code's SHA-256 is stored; a code is used once.
CREATE TABLE invites (
    code_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
-- A version the admin removed plays no more (its bot plays its previous ready version).
ALTER TABLE versions ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
-- Each version's decision times over its matches, a TimeHistogram as JSON (the board's p99);
-- NULL until its first match after this migration.
ALTER TABLE versions ADD COLUMN times TEXT;
-- Final tournaments among the last versions, played by the ladder's workers: the spec is the
-- schedule and the field; the standings, as JSON, once the last match is in.
CREATE TABLE finals (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    standings TEXT
);
-- A final's match jobs: the final and the match's id in its schedule.
ALTER TABLE jobs ADD COLUMN final_id INTEGER REFERENCES finals (id);
ALTER TABLE jobs ADD COLUMN final_index INTEGER;
CREATE INDEX jobs_final ON jobs (final_id, final_index);
