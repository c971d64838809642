-- Version 5: what several bot processes on one database share (issue 15).
--
-- Portable SQL (SQLite and PostgreSQL). Times are milliseconds since the Unix epoch;
-- ids are Discord snowflakes (64-bit), like the guild and user ids of 0001.

-- A lease: one holder at a time for a job that must run once across processes (the
-- weekly leaderboard post of one guild and week). A row outlives a holder that died
-- mid-job, which is how its replacement knows an attempt was made.
CREATE TABLE leases (
    name        TEXT    PRIMARY KEY,
    holder      TEXT    NOT NULL,
    expires_at  INTEGER NOT NULL
);

-- A click that reached a process which does not own its table (DM interactions arrive
-- on shard 0), handed to the owning shard. The interaction id is the idempotency key:
-- the owner sets applied_at when it takes the click, so a second delivery does nothing.
CREATE TABLE routed_interactions (
    interaction_id  INTEGER NOT NULL PRIMARY KEY,
    shard_id        INTEGER NOT NULL,
    payload         TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    applied_at      INTEGER
);
CREATE INDEX routed_interactions_pending ON routed_interactions (shard_id, created_at)
    WHERE applied_at IS NULL;
