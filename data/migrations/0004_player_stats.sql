-- Version 4: what a hand's outcome was (how it was won, who dealt in, the winning items)
-- beside its ledger rows, and the aggregates /stats and the monthly seasons read.
--
-- The ledger says who won and what moved; /stats also needs how a hand was won (self-draw
-- or on a discard, and whose), its rule set and its winning items. hand_outcomes holds
-- that, one row per settled hand, written in the settlement transaction with the ledger
-- rows. The player_day_* and monthly_stats tables are derived data like weekly_stats:
-- maintained in the same transaction, recomputed from the ledger by Store.rebuild_stats()
-- with the same statements as the backfill below. Portable SQL only (INTEGER/TEXT,
-- ON CONFLICT, CASE, SUBSTR, ||): the same file runs on PostgreSQL.

CREATE TABLE hand_outcomes (
    op_id         INTEGER PRIMARY KEY REFERENCES ledger_ops (op_id),
    guild_id      INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    win_by        TEXT,              -- 'self_draw', 'discard', 'rob_kong'; NULL for a draw
    winner_seat   INTEGER,
    dealt_in_seat INTEGER,           -- whose discard (or robbed kong) was won on, if anyone's
    items         TEXT    NOT NULL DEFAULT '[]'  -- the winner's score items (JSON), for display
);

-- The winning types of a hand (one row per type key), so counts are plain GROUP BYs.
CREATE TABLE hand_win_types (
    op_id    INTEGER NOT NULL REFERENCES ledger_ops (op_id),
    win_type TEXT    NOT NULL,
    PRIMARY KEY (op_id, win_type)
);

-- One row per player, local day and rule set with play. Any period (a week, a month, a
-- season, all time) is a sum over at most a few hundred rows per player.
CREATE TABLE player_day_stats (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    local_day  TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    hands      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    self_draws INTEGER NOT NULL DEFAULT 0,
    deal_ins   INTEGER NOT NULL DEFAULT 0,
    net        INTEGER NOT NULL DEFAULT 0,
    biggest    INTEGER NOT NULL DEFAULT 0,
    biggest_op INTEGER,
    PRIMARY KEY (guild_id, user_id, local_day, variant)
);

CREATE TABLE player_day_types (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    local_day TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    win_type  TEXT    NOT NULL,
    wins      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, local_day, variant, win_type)
);

-- The balance at the end of each local day with a ledger row: the trend line.
CREATE TABLE player_day_balance (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    local_day TEXT    NOT NULL,
    balance   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, local_day)
);

-- Monthly seasons, counted exactly like weekly_stats; month_start is 'YYYY-MM-01' (local).
CREATE TABLE monthly_stats (
    guild_id    INTEGER NOT NULL,
    month_start TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    net         INTEGER NOT NULL DEFAULT 0,
    hands       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    biggest     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, month_start, user_id)
);

-- Backfill (the same statements as data.ledger._REBUILD_DETAIL_SQL). biggest_op is the
-- first op (lowest id) with the day's biggest win, as the settlement upsert keeps it. Hands settled before
-- this version have no outcome row: their rule set comes from the game, and how they were
-- won is unknown (they count as hands and wins, not as self-draws or deal-ins).
INSERT INTO player_day_stats
    (guild_id, user_id, local_day, variant, hands, wins, self_draws, deal_ins, net, biggest,
     biggest_op)
SELECT guild_id, user_id, local_day, variant, COUNT(*),
       SUM(CASE WHEN is_winner = 1 THEN 1 ELSE 0 END),
       SUM(CASE WHEN is_winner = 1 AND win_by = 'self_draw' THEN 1 ELSE 0 END),
       SUM(CASE WHEN dealt_in_seat = seat THEN 1 ELSE 0 END),
       SUM(points),
       MAX(CASE WHEN points > 0 THEN points ELSE 0 END),
       MIN(CASE WHEN points > 0 AND day_rank = 1 THEN op_id END)
FROM (SELECT l.guild_id, l.user_id, l.local_day, l.seat, l.points, l.is_winner, l.op_id,
             o.win_by, o.dealt_in_seat, COALESCE(o.variant, g.variant, '') AS variant,
             ROW_NUMBER() OVER (
                 PARTITION BY l.guild_id, l.user_id, l.local_day, COALESCE(o.variant, g.variant, '')
                 ORDER BY l.points DESC, l.op_id) AS day_rank
      FROM ledger AS l
      LEFT JOIN hand_outcomes AS o ON o.op_id = l.op_id
      LEFT JOIN games AS g ON g.game_id = l.game_id
      WHERE l.kind = 'hand' AND l.user_id IS NOT NULL) AS hand_rows
GROUP BY guild_id, user_id, local_day, variant;

INSERT INTO player_day_types (guild_id, user_id, local_day, variant, win_type, wins)
SELECT l.guild_id, l.user_id, l.local_day, o.variant, t.win_type, COUNT(*)
FROM ledger AS l
JOIN hand_outcomes AS o ON o.op_id = l.op_id
JOIN hand_win_types AS t ON t.op_id = l.op_id
WHERE l.kind = 'hand' AND l.user_id IS NOT NULL AND l.is_winner = 1
GROUP BY l.guild_id, l.user_id, l.local_day, o.variant, t.win_type;

INSERT INTO player_day_balance (guild_id, user_id, local_day, balance)
SELECT l.guild_id, l.user_id, l.local_day, l.balance_after
FROM ledger AS l
JOIN (SELECT MAX(id) AS last_id FROM ledger
      WHERE user_id IS NOT NULL AND balance_after IS NOT NULL
      GROUP BY guild_id, user_id, local_day) AS last ON last.last_id = l.id;

INSERT INTO monthly_stats (guild_id, month_start, user_id, net, hands, wins, biggest)
SELECT guild_id, SUBSTR(local_day, 1, 8) || '01', user_id, SUM(points),
       SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
       SUM(CASE WHEN kind = 'hand' AND is_winner = 1 THEN 1 ELSE 0 END),
       MAX(CASE WHEN kind = 'hand' AND points > 0 THEN points ELSE 0 END)
FROM ledger
WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty')
GROUP BY guild_id, SUBSTR(local_day, 1, 8) || '01', user_id;

-- A server's own default for a rule option (/mjadmin rules): a new table of that rule set
-- starts with it unless the host changes it. value is JSON (true, 50, "two_x").
CREATE TABLE guild_rule_defaults (
    guild_id INTEGER NOT NULL,
    variant  TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, variant, name)
);
