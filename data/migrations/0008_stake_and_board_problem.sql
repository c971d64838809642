-- Version 8: two server settings for admins.
--
-- max_stake: the highest stake a table may be opened with (NULL: the bot's own limit,
-- 1,000,000). A table's points come out of its players' balances only where another
-- player sits: at a table of AI seats they are made or lost outright, so a stake as high
-- as the bot allows let one player put hundreds of millions on the boards in an evening.
--
-- leaderboard_problem: kept by the bot, why the last weekly leaderboard could not be
-- posted ('permissions' or 'channel_gone', then ':' and the week's Monday), cleared by
-- the next post that succeeds. The failure was only a log line: /mjadmin settings showed
-- the channel as if the boards went out, and the admin learnt it from the players.
ALTER TABLE guild_settings ADD COLUMN max_stake INTEGER;
ALTER TABLE guild_settings ADD COLUMN leaderboard_problem TEXT;
