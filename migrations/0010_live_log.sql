-- 0010: the live journal's actions become an append-only log. live_actions was
-- keyed by (room_id TEXT, ply) with a cascading foreign key, so a commit
-- wrote one B-tree leaf (a 4 KiB WAL frame) per room that acted, and at 2,000
-- rooms every action cost its own page (docs/BENCHMARKS.md, issue 6, fourth
-- pass). live_log is keyed by `seq`, the rowid: a new row takes the largest
-- seq plus one, so a batch appends to the rightmost leaf and writes one or two
-- pages however many rooms acted. A room is its integer `key` there, not its
-- text id, and no foreign key is checked per row.
-- A room's rows are reachable only while its live_rooms row exists: archiving
-- or dropping a room deletes that row (in the archive's transaction), and its
-- log rows become garbage that the writer sweeps from the log's old end, a
-- few rows with each batch (store_journal.c), copying forward the rows of
-- rooms still live. Restore reads the log joined with live_rooms in room, ply
-- order (a sort at start-up; no index by room, which would scatter writes
-- again). Room keys are AUTOINCREMENT: never reused, so garbage can never be
-- read as another room's.
-- The runner applies this with foreign keys off (live_seats and live_events
-- keep referring to live_rooms(id), unique in the rebuilt table).

CREATE TABLE live_rooms_new (
    key         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the room in live_log
    id          TEXT NOT NULL UNIQUE,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,      -- JSON object, as wire_options_encode writes it
    server_seed TEXT NOT NULL,      -- hex; committed to players through its SHA-256
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,            -- NULL: not started
    creator_id  TEXT
);
INSERT INTO live_rooms_new(id, game, options, server_seed, created_at, started_at, creator_id)
SELECT id, game, options, server_seed, created_at, started_at, creator_id FROM live_rooms
ORDER BY created_at, id;

CREATE TABLE live_log (
    seq      INTEGER PRIMARY KEY,   -- append order
    room     INTEGER NOT NULL,      -- live_rooms.key (no foreign key: see above)
    ply      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT NOT NULL,         -- JSON, as on the wire
    outcome  TEXT NOT NULL,         -- JSON, as on the wire
    at       INTEGER NOT NULL,      -- Unix ms
    stand_in INTEGER NOT NULL DEFAULT 0
);
INSERT INTO live_log(room, ply, seat, action, outcome, at, stand_in)
SELECT r.key, a.ply, a.seat, a.action, a.outcome, a.at, a.stand_in
FROM live_actions a JOIN live_rooms_new r ON r.id = a.room_id
ORDER BY r.key, a.ply;

DROP TABLE live_actions;
DROP TABLE live_rooms;
ALTER TABLE live_rooms_new RENAME TO live_rooms;
CREATE INDEX live_rooms_creator ON live_rooms(creator_id) WHERE creator_id IS NOT NULL;

-- The live actions as they were, for people and tests reading the database.
CREATE VIEW live_actions AS
SELECT r.id AS room_id, l.ply, l.seat, l.action, l.outcome, l.at, l.stand_in
FROM live_log l JOIN live_rooms r ON r.key = l.room;
