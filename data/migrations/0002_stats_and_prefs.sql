-- Version 2: aggregates maintained inside each settlement transaction, so leaderboards
-- and day caps read a few thousand rows instead of scanning the ledger; DM preferences.
-- The aggregates are derived data: Store.rebuild_stats() recomputes them from the ledger
-- with the same queries as the backfill below.

-- Net counts hands and penalties (not openings or admin adjustments); hands, wins and
-- biggest (largest single-hand win, 0 if none) count hands only. AI seats are not listed.
CREATE TABLE weekly_stats (
    guild_id   INTEGER NOT NULL,
    week_start TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    net        INTEGER NOT NULL DEFAULT 0,
    hands      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    biggest    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, week_start, user_id)
) WITHOUT ROWID;

CREATE TABLE player_stats (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    net      INTEGER NOT NULL DEFAULT 0,
    hands    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    biggest  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Net of settled hands per local day: what the per-day cap is measured against.
CREATE TABLE daily_stats (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    local_day TEXT    NOT NULL,
    net       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, local_day)
) WITHOUT ROWID;

CREATE TABLE user_prefs (
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;

INSERT INTO weekly_stats (guild_id, week_start, user_id, net, hands, wins, biggest)
SELECT guild_id, week_start, user_id, SUM(points), SUM(kind = 'hand'),
       SUM(kind = 'hand' AND is_winner), MAX(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
FROM ledger
WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty')
GROUP BY guild_id, week_start, user_id;

INSERT INTO player_stats (guild_id, user_id, net, hands, wins, biggest)
SELECT guild_id, user_id, SUM(points), SUM(kind = 'hand'),
       SUM(kind = 'hand' AND is_winner), MAX(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
FROM ledger
WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty')
GROUP BY guild_id, user_id;

INSERT INTO daily_stats (guild_id, user_id, local_day, net)
SELECT guild_id, user_id, local_day, SUM(points)
FROM ledger
WHERE user_id IS NOT NULL AND kind = 'hand'
GROUP BY guild_id, user_id, local_day;
