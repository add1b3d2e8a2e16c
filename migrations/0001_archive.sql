-- 0001: player identities and the match archive.
-- Applied once, inside a transaction, and recorded in schema_migrations.

CREATE TABLE players (
    id          TEXT PRIMARY KEY,          -- public player id (welcome.player)
    token_hash  TEXT NOT NULL UNIQUE,      -- hex SHA-256 of the secret token; the token is never stored
    name        TEXT NOT NULL,             -- latest display name
    created_at  INTEGER NOT NULL           -- Unix ms
);

CREATE TABLE matches (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,  -- archive order; the list cursor
    id             TEXT NOT NULL UNIQUE,               -- the room id
    game           TEXT NOT NULL,
    options        TEXT NOT NULL,                      -- JSON object
    commit_hex     TEXT NOT NULL,                      -- hex SHA-256(server_seed)
    server_seed    TEXT NOT NULL,                      -- hex
    client_seeds   TEXT NOT NULL,                      -- JSON array of strings, seat order
    result         TEXT NOT NULL,                      -- JSON object
    server_version TEXT NOT NULL,
    started_at     INTEGER NOT NULL,
    ended_at       INTEGER NOT NULL
);
CREATE INDEX matches_game ON matches(game, seq);

CREATE TABLE match_seats (
    match_seq   INTEGER NOT NULL REFERENCES matches(seq) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    role        TEXT NOT NULL,
    name        TEXT NOT NULL,
    bot         INTEGER NOT NULL,
    player_id   TEXT,                                  -- NULL for bots
    client_seed TEXT NOT NULL,                         -- '' when none was sent
    PRIMARY KEY (match_seq, seat)
) WITHOUT ROWID;
CREATE INDEX match_seats_player ON match_seats(player_id, match_seq);

CREATE TABLE match_actions (
    match_seq INTEGER NOT NULL REFERENCES matches(seq) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    action    TEXT NOT NULL,                           -- JSON, as on the wire
    outcome   TEXT NOT NULL,                           -- JSON, as on the wire
    at        INTEGER NOT NULL,                        -- Unix ms
    PRIMARY KEY (match_seq, ply)
) WITHOUT ROWID;
