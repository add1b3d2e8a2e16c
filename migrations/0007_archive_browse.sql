-- 0007: the archive as something to browse (GET /api/matches filters,
-- GET /api/players/{name}, `quinteto matches`). Every game's result has
-- `winner` (a seat, or null) and `reason`, so they are read out of the result
-- JSON as virtual columns (no bytes stored twice) and indexed with the archive
-- order, so that every filter pages newest first without scanning the archive.
-- `plies` (the match's length) is stored: counting its actions per listed row
-- would read them all.
ALTER TABLE matches ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET plies = (SELECT count(*) FROM match_actions a WHERE a.match_seq = matches.seq);
ALTER TABLE matches ADD COLUMN winner INTEGER GENERATED ALWAYS AS (json_extract(result, '$.winner')) VIRTUAL;
ALTER TABLE matches ADD COLUMN reason TEXT GENERATED ALWAYS AS (json_extract(result, '$.reason')) VIRTUAL;
CREATE INDEX matches_reason ON matches(reason, seq);
CREATE INDEX matches_draw ON matches(seq) WHERE winner IS NULL;
-- players are looked up by the name they played under (a name identifies
-- nobody, but it is what people remember and what the archive shows)
CREATE INDEX match_seats_name ON match_seats(name, match_seq);
