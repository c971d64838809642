-- Version 1: settings, balances, the append-only ledger, games and their action logs.
-- Times are ISO 8601 UTC text ('2026-11-29T14:15:00.000000+00:00'), so they sort as text.

CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    starting_balance      INTEGER NOT NULL DEFAULT 1000,
    timezone              TEXT    NOT NULL DEFAULT 'UTC',
    leaderboard_channel   INTEGER,
    discard_timeout       INTEGER NOT NULL DEFAULT 30,
    claim_timeout         INTEGER NOT NULL DEFAULT 10,
    default_variant       TEXT    NOT NULL DEFAULT 'jiaxing',
    min_balance           INTEGER,
    hand_cap              INTEGER CHECK (hand_cap IS NULL OR hand_cap > 0),
    day_cap               INTEGER CHECK (day_cap IS NULL OR day_cap > 0),
    last_leaderboard_week TEXT,
    updated_at            TEXT
);

CREATE TABLE balances (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    balance    INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- One row per ledger operation (a settled hand, a penalty, an adjustment, an opening
-- balance). op_key makes an operation idempotent: 'hand:<game>:<hand>' for hands.
CREATE TABLE ledger_ops (
    op_id       INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment')),
    op_key      TEXT    UNIQUE,
    game_id     TEXT,
    hand_number INTEGER,
    stake       INTEGER,
    reason      TEXT    NOT NULL DEFAULT '',
    by_user     INTEGER,
    winner_user INTEGER,
    capped      INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL
);

-- One row per player per operation. points is what moved the balance; original_points
-- is units x stake before any cap. week_start and local_day are the guild's local Monday
-- and local date when the row was written (see data/store.py on time-zone changes).
CREATE TABLE ledger (
    id              INTEGER PRIMARY KEY,
    op_id           INTEGER NOT NULL REFERENCES ledger_ops (op_id),
    guild_id        INTEGER NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment')),
    game_id         TEXT,
    hand_number     INTEGER,
    seat            INTEGER,
    user_id         INTEGER,
    units           INTEGER NOT NULL DEFAULT 0,
    stake           INTEGER NOT NULL DEFAULT 0,
    points          INTEGER NOT NULL,
    original_points INTEGER NOT NULL,
    capped          INTEGER NOT NULL DEFAULT 0,
    is_winner       INTEGER NOT NULL DEFAULT 0,
    reason          TEXT    NOT NULL DEFAULT '',
    by_user         INTEGER,
    balance_after   INTEGER,
    created_at      TEXT    NOT NULL,
    week_start      TEXT    NOT NULL,
    local_day       TEXT    NOT NULL
);

-- The exactly-once guarantee at row level: a hand can hold one row per seat.
CREATE UNIQUE INDEX ledger_hand_seat ON ledger (game_id, hand_number, seat) WHERE kind = 'hand';
CREATE INDEX ledger_user_history ON ledger (guild_id, user_id, kind, id);
CREATE INDEX ledger_op ON ledger (op_id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_ops_no_update BEFORE UPDATE ON ledger_ops
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_ops_no_delete BEFORE DELETE ON ledger_ops
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TABLE games (
    game_id     TEXT    PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER,
    variant     TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',
    seats       TEXT    NOT NULL DEFAULT '[]',
    seed        INTEGER NOT NULL,
    settings    TEXT    NOT NULL DEFAULT '{}',
    meta        TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    finished_at TEXT
);
CREATE INDEX games_status ON games (status);
CREATE INDEX games_guild_finished ON games (guild_id, finished_at);

CREATE TABLE game_actions (
    game_id     TEXT    NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    hand_number INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
