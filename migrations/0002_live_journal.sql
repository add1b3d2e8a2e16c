-- 0002: the live journal. Rooms that are not archived yet, their seats and
-- their accepted actions, so that a restart resumes every room and every seat
-- (protocol.md: a token resumes its seats, also after a server restart).
-- Archiving a match deletes its rows in the same transaction.

CREATE TABLE live_rooms (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,      -- JSON object, as wire_options_encode writes it
    server_seed TEXT NOT NULL,      -- hex; committed to players through its SHA-256
    created_at  INTEGER NOT NULL
);

CREATE TABLE live_seats (
    room_id     TEXT NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    player_id   TEXT,               -- NULL: a bot
    client_seed TEXT,               -- NULL: none sent
    PRIMARY KEY (room_id, seat)
) WITHOUT ROWID;

CREATE TABLE live_actions (
    room_id TEXT NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,
    outcome TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (room_id, ply)
) WITHOUT ROWID;
