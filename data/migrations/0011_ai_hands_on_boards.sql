-- Version 11: whether hands played with AI seats count on the leaderboards.
--
-- An AI seat has no balance: what a player wins from AI seats is made outright, so one
-- player grinding easy AI tables could top every board. A server whose boards are for
-- play between people turns this off (0): such hands still move balances, count toward
-- the day cap and in the player's own /stats, but on no leaderboard. The bot recomputes
-- the boards when it changes, so they always read as the current setting says.
ALTER TABLE guild_settings ADD COLUMN ai_hands_on_boards INTEGER NOT NULL DEFAULT 1;

-- Then one rule set's week or month board is read from the ledger's hands of those days
-- (its per-day rows hold the AI hands too): by day, not the guild's whole ledger.
CREATE INDEX ledger_hands_by_day ON ledger (guild_id, local_day) WHERE kind = 'hand';
