-- The ladder's store on SQLite. Keep in step with ../postgres/0001_ladder.sql: the same tables,
-- columns and meanings; only the types and the id columns are written each backend's way.
-- Times are milliseconds since the Unix epoch; flags are 0 or 1; JSON is text.

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);

CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL UNIQUE,
    lang TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    number INTEGER NOT NULL,
    source_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    artifact_hash TEXT,
    run_command TEXT,
    build_log_hash TEXT,
    check_report TEXT,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ranked_matches INTEGER NOT NULL DEFAULT 0,
    last_played INTEGER,
    last_seated INTEGER,
    created_ms INTEGER NOT NULL,
    UNIQUE (bot_id, number),
    UNIQUE (bot_id, source_hash)
);

CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    worker_id INTEGER REFERENCES accounts (id),
    lease_token TEXT,
    lease_expires_ms INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    requested_by INTEGER REFERENCES accounts (id),
    deal INTEGER,
    created_ms INTEGER NOT NULL,
    finished_ms INTEGER,
    error TEXT
);
CREATE INDEX jobs_queue ON jobs (state, priority DESC, id);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL UNIQUE REFERENCES jobs (id),
    ranked INTEGER NOT NULL,
    spec TEXT NOT NULL,
    record TEXT NOT NULL,
    log_hash TEXT NOT NULL,
    stderr_hashes TEXT NOT NULL,
    worker_id INTEGER REFERENCES accounts (id),
    finished_ms INTEGER NOT NULL
);
CREATE INDEX matches_finished ON matches (finished_ms);

CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id),
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_version ON match_seats (version_id, match_id);
