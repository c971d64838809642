-- Version 2 for PostgreSQL (data/schema.py explains the rule): 0002_stats_and_prefs.sql with
-- BIGINT and "C" text, the backfill's boolean sums and scalar MAX written with CASE, and
-- two indexes in leaderboard order (schema.POSTGRES_ONLY_INDEXES says why only here).

CREATE TABLE weekly_stats (
    guild_id   BIGINT NOT NULL,
    week_start TEXT COLLATE "C" NOT NULL,
    user_id    BIGINT NOT NULL,
    net        BIGINT NOT NULL DEFAULT 0,
    hands      BIGINT NOT NULL DEFAULT 0,
    wins       BIGINT NOT NULL DEFAULT 0,
    biggest    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, week_start, user_id)
);

-- A week's board reads its top rows from this index instead of sorting ~5,000 rows: 3 ms
-- instead of 20 at 1M ledger rows on a busy machine (benchmarks/bench_storage.py --db).
CREATE INDEX weekly_stats_board ON weekly_stats (guild_id, week_start, net DESC, wins DESC, user_id);

CREATE TABLE player_stats (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    net      BIGINT NOT NULL DEFAULT 0,
    hands    BIGINT NOT NULL DEFAULT 0,
    wins     BIGINT NOT NULL DEFAULT 0,
    biggest  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX player_stats_board ON player_stats (guild_id, net DESC, wins DESC, user_id);

CREATE TABLE daily_stats (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    local_day TEXT COLLATE "C" NOT NULL,
    net       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, local_day)
);

CREATE TABLE user_prefs (
    user_id BIGINT NOT NULL,
    key     TEXT COLLATE "C" NOT NULL,
    value   TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, key)
);

INSERT INTO weekly_stats (guild_id, week_start, user_id, net, hands, wins, biggest)
SELECT guild_id, week_start, user_id, SUM(points),
       SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
       SUM(CASE WHEN kind = 'hand' AND is_winner <> 0 THEN 1 ELSE 0 END),
       GREATEST(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
FROM ledger
WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty')
GROUP BY guild_id, week_start, user_id;

INSERT INTO player_stats (guild_id, user_id, net, hands, wins, biggest)
SELECT guild_id, user_id, SUM(points),
       SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
       SUM(CASE WHEN kind = 'hand' AND is_winner <> 0 THEN 1 ELSE 0 END),
       GREATEST(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
FROM ledger
WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty')
GROUP BY guild_id, user_id;

INSERT INTO daily_stats (guild_id, user_id, local_day, net)
SELECT guild_id, user_id, local_day, SUM(points)
FROM ledger
WHERE user_id IS NOT NULL AND kind = 'hand'
GROUP BY guild_id, user_id, local_day;
