-- Version 7: leaderboards per rule set (Store.variant_leaderboard). A server where Jiaxing
-- and Taizhou players meet wants a board for each: their points come in different sizes.
--
-- A week's or a month's board for one rule set sums the per-day rows /stats reads, and
-- the penalties charged at that rule set's tables; these two indexes let it read only
-- that rule set's days (without them: 330 ms a week over a million ledger rows and 5,000
-- players, most of it scanning; with them 7 ms).
CREATE INDEX player_day_stats_board
    ON player_day_stats (guild_id, variant, local_day, user_id, net, hands, wins, biggest);
CREATE INDEX ledger_penalties ON ledger (guild_id, local_day) WHERE kind = 'penalty';

-- All time, a sum over every day is too slow for a big server (530 ms), so it is kept
-- like player_stats, one row per player and rule set: hands by the outcome's rule set
-- (else the game's), penalties by the game's (one outside any game: '').
CREATE TABLE variant_stats (
    guild_id INTEGER NOT NULL,
    variant  TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    net      INTEGER NOT NULL DEFAULT 0,
    hands    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    biggest  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, variant, user_id)
);

-- Backfill (the same statement as data.ledger._REBUILD_DETAIL_SQL).
INSERT INTO variant_stats (guild_id, variant, user_id, net, hands, wins, biggest)
SELECT l.guild_id, COALESCE(o.variant, g.variant, ''), l.user_id, SUM(l.points),
       SUM(CASE WHEN l.kind = 'hand' THEN 1 ELSE 0 END),
       SUM(CASE WHEN l.kind = 'hand' AND l.is_winner = 1 THEN 1 ELSE 0 END),
       MAX(CASE WHEN l.kind = 'hand' AND l.points > 0 THEN l.points ELSE 0 END)
FROM ledger AS l
LEFT JOIN hand_outcomes AS o ON o.op_id = l.op_id
LEFT JOIN games AS g ON g.game_id = l.game_id
WHERE l.user_id IS NOT NULL AND l.kind IN ('hand', 'penalty')
GROUP BY l.guild_id, COALESCE(o.variant, g.variant, ''), l.user_id;
