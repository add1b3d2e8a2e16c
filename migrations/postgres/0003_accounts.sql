-- PostgreSQL 0003: SQLite's 0013 (optional accounts and Glicko-2 ratings) in
-- PostgreSQL's words; the comments there say what each table is for.
-- rating_clock is PostgreSQL's own: one row that every transaction applying a
-- rated match updates first (UPDATE ... RETURNING n), so nodes apply rated
-- matches one at a time, in rated_seq order, each reading the ratings the
-- previous one wrote (what a rebuild replays).
CREATE TABLE accounts (
    player_id     TEXT PRIMARY KEY REFERENCES players(id),
    handle        TEXT NOT NULL,
    handle_key    TEXT NOT NULL UNIQUE,
    pw_hash       TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    pw_changed_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL REFERENCES accounts(player_id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    device      TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL
);
CREATE INDEX sessions_player ON sessions(player_id, seen_at);

ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN rated_seq BIGINT;
CREATE UNIQUE INDEX matches_rated ON matches(rated_seq) WHERE rated_seq IS NOT NULL;
ALTER TABLE live_rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE live_after ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    player_id  TEXT NOT NULL,
    game       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    vol        DOUBLE PRECISION NOT NULL,
    matches    INTEGER NOT NULL,
    last_at    BIGINT NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_board ON ratings(game, rating DESC);

CREATE TABLE rating_history (
    player_id  TEXT NOT NULL,
    game       TEXT NOT NULL,
    rated_seq  BIGINT NOT NULL,
    match_seq  BIGINT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    vol        DOUBLE PRECISION NOT NULL,
    at         BIGINT NOT NULL,
    PRIMARY KEY (player_id, game, rated_seq)
);

CREATE TABLE rating_clock (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    n   BIGINT NOT NULL
);
INSERT INTO rating_clock VALUES (1, 0);
