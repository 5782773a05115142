-- The web board's sessions: an account signed in from a browser (with its token, once). The
-- cookie's value is never stored, only its SHA-256; each session has its CSRF token, which every
-- form of its pages carries. Ended by signing out, by expiry, or by a new token for the account.
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    csrf TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
