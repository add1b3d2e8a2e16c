-- 0008: identities expire. A player that holds no seat, created no live room
-- and played no archived match is deleted once it has not said hello for the
-- server's --player-ttl-s (a tokenless hello must not make a permanent row).
-- `seen_at` is the last hello; identities are looked up by token hash on
-- demand (players.token_hash is UNIQUE, so indexed) instead of all at start.
ALTER TABLE players ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
UPDATE players SET seen_at = created_at;
CREATE INDEX players_seen ON players(seen_at);
CREATE INDEX live_seats_player ON live_seats(player_id) WHERE player_id IS NOT NULL;
CREATE INDEX live_rooms_creator ON live_rooms(creator_id) WHERE creator_id IS NOT NULL;
