-- 0013: optional accounts and Glicko-2 ratings (issue 26; protocol/PROTOCOL.md
-- "Accounts and ratings", docs/ACCOUNTS.md, docs/RATINGS.md).
--
-- An account is a claimed player identity: the players row keeps its id,
-- seats, matches and name; `accounts` adds the unique handle and the Argon2id
-- password hash. An account's tokens are its sessions (one per device); the
-- guest token that claimed it becomes its first session, and players.token_hash
-- is then replaced by an unusable value ('claimed:' || id), so every live token
-- of an account is a row of `sessions`. A hello's token is looked up in
-- `sessions` first, then in players.token_hash (guests).
CREATE TABLE accounts (
    player_id     TEXT PRIMARY KEY REFERENCES players(id),
    handle        TEXT NOT NULL,          -- as chosen (3..20 characters)
    handle_key    TEXT NOT NULL UNIQUE,   -- folded: case, accents, 0/o, 1/l, -/_ (docs/ACCOUNTS.md)
    pw_hash       TEXT NOT NULL,          -- crypto_pwhash_str (Argon2id, parameters inside)
    created_at    INTEGER NOT NULL,       -- Unix ms
    pw_changed_at INTEGER NOT NULL        -- Unix ms
);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,                 -- public id (the `account` message's sessions[].id)
    player_id   TEXT NOT NULL REFERENCES accounts(player_id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,             -- hex SHA-256 of the session's token
    device      TEXT NOT NULL DEFAULT '',         -- what the client said it is (free text, <= 64 chars)
    created_at  INTEGER NOT NULL,
    seen_at     INTEGER NOT NULL
);
CREATE INDEX sessions_player ON sessions(player_id, seen_at);

-- A rated match: every seat was an account when it started. rated_seq orders
-- the rated matches as their ratings were applied (1, 2, 3, ... with no gap):
-- rebuilding the ratings replays them in this order.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN rated_seq INTEGER;
CREATE UNIQUE INDEX matches_rated ON matches(rated_seq) WHERE rated_seq IS NOT NULL;
ALTER TABLE live_rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE live_after ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- The ratings now (derived: `quinteto ratings rebuild` writes them again from
-- the archive alone). Rows of deleted accounts are deleted with them; their
-- rated matches still count for their opponents (the rebuild recomputes them).
CREATE TABLE ratings (
    player_id  TEXT NOT NULL,
    game       TEXT NOT NULL,
    rating     REAL NOT NULL,    -- Glicko-2 on the Glicko scale (1500 ...)
    rd         REAL NOT NULL,    -- rating deviation
    vol        REAL NOT NULL,    -- volatility
    matches    INTEGER NOT NULL, -- rated matches counted
    last_at    INTEGER NOT NULL, -- ended_at of the last one, Unix ms
    PRIMARY KEY (player_id, game)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(game, rating DESC);

-- One row per account per rated match: the rating after it (the player page's graph).
CREATE TABLE rating_history (
    player_id  TEXT NOT NULL,
    game       TEXT NOT NULL,
    rated_seq  INTEGER NOT NULL,
    match_seq  INTEGER NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    vol        REAL NOT NULL,
    at         INTEGER NOT NULL, -- the match's ended_at
    PRIMARY KEY (player_id, game, rated_seq)
) WITHOUT ROWID;
