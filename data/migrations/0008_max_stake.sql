-- Version 8: a server's highest stake (NULL: the bot's own limit, 1,000,000). A table's
-- points come out of its players' balances only where another player sits: at a table
-- of AI seats they are made or lost outright, so a stake as high as the bot allows let
-- one player put hundreds of millions on the boards in an evening. An admin caps it.
ALTER TABLE guild_settings ADD COLUMN max_stake INTEGER;
