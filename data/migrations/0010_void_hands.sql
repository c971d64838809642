-- Version 10: a hand voided by an admin (/mjadmin void): its points reversed by ledger rows
-- of a new kind, 'void', and the hand counted nowhere any more (boards, stats, day caps).
--
-- The ledger's kinds are a CHECK on ledger and ledger_ops, which SQLite cannot alter: both
-- tables are rebuilt with 'void' allowed, their rows copied as they are (ids kept). Foreign
-- keys are on, so ledger_ops cannot simply be dropped while hand_outcomes, hand_win_types
-- and ledger point at it: the new tables point at ledger_ops_new, the old ones go, and the
-- rename of ledger_ops_new rewrites those references (SQLite 3.26+). Indexes and the
-- append-only triggers are made again as migrations 1, 7 and 9 made them.

CREATE TABLE ledger_ops_new (
    op_id       INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL
                CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment', 'void')),
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
INSERT INTO ledger_ops_new SELECT * FROM ledger_ops;

CREATE TABLE ledger_new (
    id              INTEGER PRIMARY KEY,
    op_id           INTEGER NOT NULL REFERENCES ledger_ops_new (op_id),
    guild_id        INTEGER NOT NULL,
    kind            TEXT    NOT NULL
                    CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment', 'void')),
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
INSERT INTO ledger_new SELECT * FROM ledger;

CREATE TABLE hand_outcomes_new (
    op_id         INTEGER PRIMARY KEY REFERENCES ledger_ops_new (op_id),
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    win_by        TEXT,              -- 'self_draw', 'discard', 'rob_kong'; NULL for a draw
    winner_seat   INTEGER,
    dealt_in_seat INTEGER,           -- whose discard (or robbed kong) was won on, if anyone's
    items         TEXT    NOT NULL DEFAULT '[]'  -- the winner's score items (JSON), for display
);
INSERT INTO hand_outcomes_new SELECT * FROM hand_outcomes;

CREATE TABLE hand_win_types_new (
    op_id    INTEGER NOT NULL REFERENCES ledger_ops_new (op_id),
    win_type TEXT    NOT NULL,
    PRIMARY KEY (op_id, win_type)
);
INSERT INTO hand_win_types_new SELECT * FROM hand_win_types;

DROP TABLE hand_win_types;
DROP TABLE hand_outcomes;
DROP TABLE ledger;
DROP TABLE ledger_ops;
ALTER TABLE ledger_ops_new RENAME TO ledger_ops;
ALTER TABLE ledger_new RENAME TO ledger;
ALTER TABLE hand_outcomes_new RENAME TO hand_outcomes;
ALTER TABLE hand_win_types_new RENAME TO hand_win_types;

CREATE UNIQUE INDEX ledger_hand_seat ON ledger (game_id, hand_number, seat) WHERE kind = 'hand';
CREATE INDEX ledger_user_history ON ledger (guild_id, user_id, kind, id);
CREATE INDEX ledger_op ON ledger (op_id);
CREATE INDEX ledger_penalties ON ledger (guild_id, local_day) WHERE kind = 'penalty';
CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind, id) WHERE user_id IS NOT NULL;

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

-- Which hands are void: the hand's operation and the void's. The primary key is the
-- "once" (with the void's op_key, 'void:<game>:<hand>'); the aggregates' rebuild leaves
-- out the ledger rows of the hands listed here.
CREATE TABLE voided_hands (
    op_id      INTEGER PRIMARY KEY REFERENCES ledger_ops (op_id),
    void_op_id INTEGER NOT NULL REFERENCES ledger_ops (op_id)
);
