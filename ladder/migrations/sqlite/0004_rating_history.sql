-- A bot's rating over time (its page draws it): each seat of a ranked match keeps its version's
-- rating after the match. Matches recorded before this migration have none (NULL).
ALTER TABLE match_seats ADD COLUMN mu_after REAL;
ALTER TABLE match_seats ADD COLUMN sigma_after REAL;
