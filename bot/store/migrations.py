"""The schema, as numbered migrations applied in order (one transaction each).

To change the schema, append a Migration with the next number; never edit a released one.
`PRAGMA user_version` holds the number of the last migration applied. Scripts run inside a
transaction, so they must not change pragmas that are no-ops there (foreign_keys): a table
rebuild keeps foreign keys on and copies rows in dependency order instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


_INITIAL: Final = """
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    seed        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    thread_id   INTEGER,
    message_id  INTEGER,
    creator_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'cancelled')),
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON object: turn timeout, bot pause, ...
    created_at  TEXT    NOT NULL,                -- ISO-8601 UTC, millisecond precision
    started_at  TEXT,
    finished_at TEXT
);

-- Restart (all unfinished tables) and "is a table open in this channel/thread?".
CREATE INDEX matches_unfinished ON matches (status)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX matches_active_channel ON matches (channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX matches_active_thread ON matches (thread_id)
    WHERE status IN ('lobby', 'playing') AND thread_id IS NOT NULL;
-- Leaderboards: a guild's matches of one game, newest first.
CREATE INDEX matches_guild_game ON matches (guild_id, game, finished_at);

CREATE TABLE seats (
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,
    bot_kind     TEXT,
    display_name TEXT    NOT NULL,
    left_user_id INTEGER,                        -- the person a bot is standing in for
    PRIMARY KEY (match_id, seat),
    CHECK ((user_id IS NULL) <> (bot_kind IS NULL))
) WITHOUT ROWID;

CREATE TABLE actions (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    actor      TEXT    NOT NULL CHECK (actor IN ('user', 'bot', 'timer')),
    user_id    INTEGER,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- The log is replayed from the seed: a changed entry would silently change history.
CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE deal_results (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    deal_no  INTEGER NOT NULL CHECK (deal_no >= 0),
    points   TEXT    NOT NULL,                   -- JSON list of ints, one per side
    detail   TEXT    NOT NULL DEFAULT '{}',      -- JSON object
    PRIMARY KEY (match_id, deal_no)
) WITHOUT ROWID;

CREATE TABLE match_results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    finished_at TEXT    NOT NULL,
    result      TEXT    NOT NULL,                -- JSON object
    winner_side INTEGER                          -- NULL: a draw (or no winner)
);

CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    side     INTEGER NOT NULL,
    user_id  INTEGER,
    bot_kind TEXT,
    rank     INTEGER NOT NULL CHECK (rank >= 0),
    points   INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat),
    CHECK (user_id IS NOT NULL OR bot_kind IS NOT NULL)
) WITHOUT ROWID;

-- A person's results (and, joined through matches_guild_game, per-guild leaderboards).
CREATE INDEX match_players_user ON match_players (user_id, match_id)
    WHERE user_id IS NOT NULL;
"""

_RATINGS: Final = """
-- One rating per server, game and entity: a person ('u:<user id>', user_id set) or a
-- computer-player kind ('b:<kind>', user_id NULL). Recomputable from match_players.
CREATE TABLE skill_ratings (
    guild_id   INTEGER NOT NULL,
    player     TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, player, game)
) WITHOUT ROWID;

-- /leaderboard: a server's people for one game, best conservative rating first.
CREATE INDEX ratings_board ON skill_ratings (guild_id, game, (mu - 3 * sigma) DESC)
    WHERE user_id IS NOT NULL;

-- Each match's change for each entity (the trend in /stats, the line after a match).
CREATE TABLE rating_changes (
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL,
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    user_id      INTEGER,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, player)
) WITHOUT ROWID;

CREATE INDEX rating_changes_trend ON rating_changes (guild_id, player, game, match_id);

-- Game-specific totals per server, entity and game (contracts made, nils, errors...).
CREATE TABLE player_figures (
    guild_id INTEGER NOT NULL,
    player   TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    figure   TEXT    NOT NULL,
    value    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player, game, figure)
) WITHOUT ROWID;

-- `ratings --rebuild` replays finished matches in the order they finished.
CREATE INDEX match_results_order ON match_results (finished_at, match_id);
"""

_HAND_TOKENS: Final = """
-- The interaction that last showed a person their private hand at a table: its token is
-- the only way to edit that (ephemeral) message, for 15 minutes from issued_at. Kept so a
-- restarted bot goes on updating the hands people have open.
CREATE TABLE hand_tokens (
    match_id       INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    message_id     INTEGER,                      -- the hand message, when known
    issued_at      TEXT    NOT NULL,             -- ISO-8601 UTC, millisecond precision
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;

CREATE INDEX hand_tokens_issued ON hand_tokens (issued_at);
"""

MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "initial schema: matches, seats, actions, deal and match results", _INITIAL),
    Migration(2, "ratings, rating changes and per-game figures", _RATINGS),
    Migration(3, "private hands' interaction tokens, kept across restarts", _HAND_TOKENS),
)

SCHEMA_VERSION: Final = len(MIGRATIONS)
