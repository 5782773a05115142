-- What the board shows of each version beside its rating: the ranked matches it finished first
-- (ties shared) and the faults it committed in them; and each seat's faults. Counted from the
-- matches recorded so far (a seat's faults from its match's record).
ALTER TABLE match_seats ADD COLUMN faults BIGINT NOT NULL DEFAULT 0;
ALTER TABLE versions ADD COLUMN ranked_wins BIGINT NOT NULL DEFAULT 0;
ALTER TABLE versions ADD COLUMN ranked_faults BIGINT NOT NULL DEFAULT 0;
UPDATE match_seats SET faults = (
    SELECT COUNT(*) FROM matches m,
        jsonb_array_elements(COALESCE(m.record::jsonb -> 'faults', '[]'::jsonb)) f
    WHERE m.id = match_seats.match_id AND (f ->> 'seat')::bigint = match_seats.seat
);
UPDATE versions SET
    ranked_wins = (
        SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
        WHERE s.version_id = versions.id AND m.ranked = 1 AND s.rank = 1
    ),
    ranked_faults = (
        SELECT COALESCE(SUM(s.faults), 0) FROM match_seats s JOIN matches m ON m.id = s.match_id
        WHERE s.version_id = versions.id AND m.ranked = 1
    );
