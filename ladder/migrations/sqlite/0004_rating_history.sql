-- A bot's rating over time (its page draws it): each seat of a ranked match keeps its version's
-- rating after the match. Matches recorded before this migration have none (NULL).
ALTER TABLE match_seats ADD COLUMN mu_after REAL;
ALTER TABLE match_seats ADD COLUMN sigma_after REAL;
-- The queue's page counts each worker's matches of the last hour.
CREATE INDEX matches_worker ON matches (worker_id, finished_ms);
