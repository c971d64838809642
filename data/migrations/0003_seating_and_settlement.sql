-- Version 3: seating rules the database itself enforces, and the settlement check mark.
--
-- One open table per channel and one open seat per user were only checked in memory,
-- with awaits in between (two /table create at once made two tables in one channel).
-- The database now refuses them too, so they hold across processes.

-- Older code could leave two open tables in one channel: keep the newest, abandon the rest.
UPDATE games
   SET status = 'abandoned', finished_at = COALESCE(finished_at, updated_at)
 WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL
   AND game_id NOT IN (
       SELECT game_id FROM (
           SELECT game_id, ROW_NUMBER() OVER (
               PARTITION BY channel_id ORDER BY created_at DESC, game_id DESC) AS rank
             FROM games
            WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL)
        WHERE rank = 1);

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL;

-- Who sits at an open (lobby or running) table: at most one row per user. Rows go when
-- the player leaves or the game is finished or abandoned (Store.set_game_status).
CREATE TABLE seated_users (
    user_id  INTEGER PRIMARY KEY,
    game_id  TEXT    NOT NULL REFERENCES games (game_id) ON DELETE CASCADE
);
CREATE INDEX seated_users_game ON seated_users (game_id);

-- Backfill the human seats of running games (lobbies are abandoned at start-up anyway).
INSERT OR IGNORE INTO seated_users (user_id, game_id)
SELECT CAST(json_extract(seat.value, '$.user_id') AS INTEGER), g.game_id
  FROM games AS g, json_each(json_extract(g.meta, '$.seats')) AS seat
 WHERE g.status = 'running'
   AND json_extract(seat.value, '$.user_id') IS NOT NULL
   AND NOT COALESCE(json_extract(seat.value, '$.is_ai'), 0)
 ORDER BY g.created_at DESC;

-- 1 once start-up has replayed a finished or abandoned game and found every hand that
-- ended in its action log settled: it is never replayed for that again.
ALTER TABLE games ADD COLUMN settlement_checked INTEGER NOT NULL DEFAULT 0;
