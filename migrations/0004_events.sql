-- 0004: resignations and forfeits become ordered events. A match is its seeds,
-- options, actions and events merged by ply (an event at ply p comes after
-- action p-1 and before action p), so a seat can leave play mid-match and
-- play go on (Quinteto's hunters). Replaces live_rooms.resigned_seat, which
-- could hold one resignation only and was re-applied after every action.
-- The runner applies this with foreign keys off, so rebuilding live_rooms does
-- not cascade into its children, and checks every reference before commit.

CREATE TABLE live_events (
    room_id TEXT NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,   -- actions before it
    seat    INTEGER NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('resign', 'forfeit')),
    at      INTEGER NOT NULL,   -- Unix ms
    UNIQUE (room_id, ply, seat)  -- a seat leaves play once; rowid orders events of one ply
);

-- Carry every journalled resignation over: 0003 applied it after the last
-- action, so its ply is the room's action count. resign_reason is an
-- enum rules_reason (RESIGN = 2, FORFEIT = 3).
INSERT INTO live_events(room_id, ply, seat, kind, at)
SELECT r.id,
       (SELECT count(*) FROM live_actions a WHERE a.room_id = r.id),
       r.resigned_seat,
       CASE r.resign_reason WHEN 3 THEN 'forfeit' ELSE 'resign' END,
       COALESCE(r.ended_at, (SELECT max(a.at) FROM live_actions a WHERE a.room_id = r.id), r.created_at)
FROM live_rooms r
WHERE r.resigned_seat IS NOT NULL;

-- Drop resigned_seat, resign_reason and ended_at (the event's time) by the
-- rebuild SQLite documents: new table, copy, drop, rename.
CREATE TABLE live_rooms_new (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,      -- JSON object, as wire_options_encode writes it
    server_seed TEXT NOT NULL,      -- hex; committed to players through its SHA-256
    created_at  INTEGER NOT NULL,
    started_at  INTEGER             -- NULL: not started
);
INSERT INTO live_rooms_new(id, game, options, server_seed, created_at, started_at)
SELECT id, game, options, server_seed, created_at, started_at FROM live_rooms;
DROP TABLE live_rooms;
ALTER TABLE live_rooms_new RENAME TO live_rooms;

CREATE TABLE match_events (
    match_seq INTEGER NOT NULL REFERENCES matches(seq) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('resign', 'forfeit')),
    at        INTEGER NOT NULL,
    UNIQUE (match_seq, ply, seat)
);
