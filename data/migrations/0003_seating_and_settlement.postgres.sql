-- Version 3 for PostgreSQL (data/schema.py explains the rule): 0003_seating_and_settlement.sql
-- with the derived table aliased and the seat backfill read with jsonb instead of json_each.

UPDATE games
   SET status = 'abandoned', finished_at = COALESCE(finished_at, updated_at)
 WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL
   AND game_id NOT IN (
       SELECT ranked.game_id FROM (
           SELECT game_id, ROW_NUMBER() OVER (
               PARTITION BY channel_id ORDER BY created_at DESC, game_id DESC) AS rank
             FROM games
            WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL) AS ranked
        WHERE ranked.rank = 1);

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running') AND channel_id IS NOT NULL;

CREATE TABLE seated_users (
    user_id  BIGINT PRIMARY KEY,
    game_id  TEXT COLLATE "C" NOT NULL REFERENCES games (game_id) ON DELETE CASCADE
);
CREATE INDEX seated_users_game ON seated_users (game_id);

INSERT INTO seated_users (user_id, game_id)
SELECT (seat.value ->> 'user_id')::BIGINT, g.game_id
  FROM games AS g,
       jsonb_array_elements(COALESCE(g.meta::jsonb -> 'seats', '[]'::jsonb)) AS seat (value)
 WHERE g.status = 'running'
   AND seat.value ->> 'user_id' IS NOT NULL
   AND COALESCE(seat.value ->> 'is_ai', 'false') NOT IN ('true', '1')
 ORDER BY g.created_at DESC
ON CONFLICT DO NOTHING;

ALTER TABLE games ADD COLUMN settlement_checked BIGINT NOT NULL DEFAULT 0;
