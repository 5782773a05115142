-- The ranked matches each version finished first (ties shared), for the board's win rate,
-- counted from the matches recorded so far.
ALTER TABLE versions ADD COLUMN ranked_wins INTEGER NOT NULL DEFAULT 0;
UPDATE versions SET ranked_wins = (
    SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
    WHERE s.version_id = versions.id AND m.ranked = 1 AND s.rank = 1
);
