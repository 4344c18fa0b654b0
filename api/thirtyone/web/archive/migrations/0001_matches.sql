-- Finished matches: each match's record (what `thirtyone verify` checks), verbatim, with what
-- a list of matches shows; and who played each one, so a player finds their matches again.
-- Plain SQL that SQLite and PostgreSQL both read.
CREATE TABLE matches (
    table_id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    archived_at DOUBLE PRECISION NOT NULL,
    summary TEXT NOT NULL,
    record TEXT NOT NULL
);

-- One row per player of a match: a seat's name (case-folded) and its key's SHA-256.
CREATE TABLE match_players (
    player TEXT NOT NULL,
    table_id TEXT NOT NULL REFERENCES matches (table_id),
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player, table_id)
);

CREATE INDEX match_players_recent ON match_players (player, finished_at DESC, table_id);
