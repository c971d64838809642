-- Version 6: the language of a server's shared table: the table picture in the channel,
-- hand results, standings and the leaderboard. 'auto' follows the server's preferred
-- locale, which only a Community server can change (any other stays en-US), so an
-- admin can choose zh-CN, zh-TW or en instead. preferred_locale is that locale as
-- interactions last reported it, kept so that a restarted bot draws the table in it
-- before anyone has clicked.
ALTER TABLE guild_settings ADD COLUMN channel_language TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE guild_settings ADD COLUMN preferred_locale TEXT;
