-- Version 9: the server-wide ledger an admin audits (/mjadmin ledger) and exports.
--
-- Its pages read one guild's rows of a kind or two (adjustments and penalties by default)
-- over every user, newest first. The only index led by the guild was ledger_user_history
-- (guild, user, kind, id): without a user it orders nothing, so a page of the few
-- adjustments read every hand row of the guild and sorted them. AI seats' rows (no user,
-- no balance) are never listed, hence the WHERE: it also lets the page count be read
-- from the index alone.
CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind, id) WHERE user_id IS NOT NULL;
