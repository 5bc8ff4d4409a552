"""Watching every payload the bot sends: none may show a card its audience may not see.

The guard sees each payload as the double records it, and compares it with the table's
state at that moment: the cards an audience may not see are the private cards of the
other seats (what their views show beyond the spectator's) that its own view does not
show. Only payloads about the deal in progress are judged (a message names its deal);
the end-of-deal message shows a finished deal, which is public.

A message is built under the table's lock and sent after it, so a move may land while it
is on its way: a payload that shows what its audience saw a few moves earlier (at most
RECENT_MOVES, in the same deal) is one move old, not a leak. The bot then edits it again;
`hands_are_current` checks that every live hand ends up showing the table as it is.

Team matches (two tables on the same boards): nothing of a board may reach a table's
audience (its thread, its people, the match's channel) before that table has finished it:
no picture or hand record of the other table's board, no result of it, and the score card
lists only boards both tables have finished.

Challenges (two people play the same deals, each at their own table): nothing of a deal
may reach one person (privately, or in their table's thread) or the challenge's channel
before both have played it: no message or file of the other person's table, and no
compared row (the result post's, /challenge list's) of a deal one of them has not played.
The guard reads who has played what from the bot's database itself (its own SQL), not
from the code under test.

Fair deals: no payload may show the server seed of a deal that has not ended (the
current deal's, or any later one's), nor the table's secret, whatever deal it names.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from typing import Any

from bot.games import create
from bot.games.base import replay
from bot.games.cards import Card, Rank, Suit
from tests.view_cards import cards_in

SYMBOL = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
RANK = r"(?:10|[2-9TJQKA])"
LABEL = re.compile(rf"({RANK})([♠♥♦♣])")
# A suit symbol followed by ranks (`♥ A K 7`, `♥AK7`); a rank directly followed by a
# symbol belongs to the next label (`A♠ K♠`), not to the group.
GROUP = re.compile(rf"([♠♥♦♣]) ?((?:{RANK}(?![♠♥♦♣0-9]) ?)+)")
# A card emoji, in text (`<:tt1_QH:123>`) or on a button (`"name": "tt1_QH"`).
EMOJI = re.compile(r"\btt\d+_([2-9TJQKA][CDHS])\b")
# The deal a file is about: a picture `deal-<table>-<deal>.png`, a hand record
# `table<table>-deal<deal>.pbn` (or `.lin`).
FILE_DEAL = re.compile(r"deal-\d+-(\d+)\.png|table\d+-deal(\d+)\.(?:pbn|lin)")
CARD_ACTION = re.compile(r"(?:play|crib|up|down|bid):((?:10|[2-9TJQKA])[CDHS])\b")
TABLE_NO = re.compile(r"table #(\d+)")
# A file or a line about one board of one table: `deal-<table>-<deal>.png`,
# `table<table>-deal<deal>.pbn`, and the score card's rows ("` 3` 4♠ by N ...").
TABLE_DEAL = re.compile(r"deal-(\d+)-(\d+)\.png|table(\d+)-deal(\d+)\.(?:pbn|lin)")
CARD_ROW = re.compile(r"`\s*(\d+)`")
DEAL = re.compile(r"(?:deal|board) (\d+)")  # a table names its deal (duplicate: board)
# /challenge list's compared deals: "Both played (IMPs to you): 1: +10 · 2: -3".
BOTH_PLAYED = re.compile(r"Both played[^:]*:((?: ?·? ?\d+: [+-]?\d+)+)")
LISTED = re.compile(r"\*\*#(\d+) ")  # a challenge's block in /challenge list
BRIDGE_GAMES = ("bridge", "single_dummy")
# How many moves may land while one message is on its way (a person's move and the
# computer players' replies queued behind it on the table's lock).
RECENT_MOVES = 4


def visible_now(obj: Any) -> set[Card]:
    """The cards of a view, leaving out the public record of past deals and the score."""
    return cards_in(obj, ("previous_deal", "score"))


def _rank(token: str) -> Rank:
    return Rank.parse("T" if token == "10" else token)


def cards_shown(text: str, game: str) -> set[Card]:
    """Cards a payload's text names: labels (Q♥), suit groups (♥ A K 7) and card actions."""
    found: set[Card] = set()
    for rank, symbol in LABEL.findall(text):
        # In the bridge games "3♥" may be a bid, not a card: judge only ranks above 7.
        if game in BRIDGE_GAMES and rank in "234567" and rank != "10":
            continue
        found.add(Card(SYMBOL[symbol], _rank(rank)))
    for symbol, ranks in GROUP.findall(text):
        tokens = re.findall(RANK, ranks)
        if game in BRIDGE_GAMES and len(tokens) == 1 and tokens[0] in "1234567":
            continue
        for token in tokens:
            found.add(Card(SYMBOL[symbol], _rank(token)))
    for match in CARD_ACTION.finditer(text):
        if game in BRIDGE_GAMES and match.group(0).startswith("bid:"):
            continue  # a bridge bid (`bid:5S`), not a card
        found.add(Card.parse(match.group(1)))
    found.update(Card.parse(name) for name in EMOJI.findall(text))
    return found


def payload_text(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


class PrivacyGuard:
    """Installed on the double's payload log; records every leak it sees."""

    def __init__(self, harness: Any) -> None:
        self.harness = harness
        self.leaks: list[str] = []
        self.checked = 0
        self.one_move_old = 0  # payloads that showed a recent state, not the current one
        self.seeds_checked = 0
        self.team_checked = 0  # payloads judged for a team match's boards
        self.challenge_checked = 0  # payloads judged for a challenge's deals
        self._sight_of: tuple[Any, dict[int, set[Card]], dict[int, set[Card]]] | None = None
        # The database read for the challenges (`_challenges_played`): one read-only
        # connection for the run, and its answer until another connection commits.
        self._db: sqlite3.Connection | None = None
        self._challenges: tuple[int, list[Any]] | None = None  # (data_version, rows)
        state = harness.driver.state
        guard = self

        class Watched(list):  # type: ignore[type-arg]
            def append(self, payload: Any) -> None:
                super().append(payload)
                guard.check(payload)

        state.payloads = Watched(state.payloads)

    def _sight(self, game: Any) -> tuple[dict[int, set[Card]], dict[int, set[Card]]]:
        """What each seat sees, and sees that a spectator does not, in the game's current
        state (kept until its next move: many payloads go out between two moves)."""
        key = (id(game), len(game.history))
        if self._sight_of is None or self._sight_of[0] != key:
            self._sight_of = (key, *sight(game))
        return self._sight_of[1], self._sight_of[2]

    def _shown_recently(self, table: Any, viewer: int | None, shown: set[Card]) -> bool:
        """Whether the audience could see all of `shown` in one of the few states of this
        deal just before the current one (the payload was built there)."""
        history = table.game.history
        deal_no = table.game.deal_no
        for back in range(1, min(RECENT_MOVES, len(history)) + 1):
            earlier = replay(create(table.game_name, options=table.options,
                                    seed=table.deal_source), history[:-back])
            if getattr(earlier, "deal_no", None) != deal_no:
                return False
            then = dataclasses.replace(table, game=earlier)
            if not shown & forbidden(then, viewer, *sight(earlier)):
                return True
        return False

    def check(self, payload: Any) -> None:
        self.check_team_matches(payload)
        self.check_challenges(payload)
        # The table the payload names, else the one of the channel it went to (a harness
        # may run several; a click on one table's button may be answered elsewhere).
        audience = payload.audience
        text = payload_text(payload.body)
        named = TABLE_NO.search(text)
        tables = self.harness.bot.tables
        if named is not None:
            table = tables.tables.get(int(named.group(1)))
        else:
            table = tables.in_channel(audience.channel_id if audience is not None
                                      else self.harness.channel.id)
        if table is None:
            return
        self.check_seeds(table, payload, text)
        if table.status != "playing" or table.game.finished:
            return
        for filename, _ in payload.files:
            # A file shows every hand: only a finished deal's may be sent.
            found = FILE_DEAL.fullmatch(filename)
            if found is None or int(found.group(1) or found.group(2)) >= table.game.deal_no:
                self.leaks.append(f"{payload.kind} uploads {filename!r} during deal "
                                  f"{table.game.deal_no}")
        deals = {int(n) for n in DEAL.findall(text)}
        game = table.game
        if deals != {game.deal_no} or "is over" in text:
            return
        viewer = None
        if audience is not None and audience.user_id is not None:
            viewer = table.seat_of(audience.user_id)
        self.checked += 1
        shown = cards_shown(text, table.game_name)
        leaked = shown & forbidden(table, viewer, *self._sight(game))
        if leaked and self._shown_recently(table, viewer, shown):
            self.one_move_old += 1
        elif leaked:
            who = f"user {audience.user_id}" if viewer is not None else "everyone"
            self.leaks.append(f"{payload.kind} to {who} shows {sorted(map(str, leaked))}: "
                              f"{text[:2500]}")

    def check_team_matches(self, payload: Any) -> None:
        cog = self.harness.bot.get_cog("Match")
        if cog is None or payload.audience is None:
            return
        audience = payload.audience
        text = payload_text(payload.body)
        names = " ".join(name for name, _ in payload.files)
        for match in list(cog.teams.matches.values()):
            if match.tables is None or match.status != "playing":
                continue
            done = [self._boards_done(t) for t in match.tables]
            if audience.channel_id == match.channel_id and audience.user_id is None:
                self.team_checked += 1
                for row in CARD_ROW.findall(text):
                    if int(row) > min(done):
                        self.leaks.append(f"the score card shows board {row} before both "
                                          f"tables played it: {text[:500]}")
            for index, table_id in enumerate(match.tables):
                if not self._at(table_id, audience):
                    continue
                other = match.tables[1 - index]
                self.team_checked += 1
                for found in TABLE_DEAL.finditer(names + " " + text):
                    table, deal = (found.group(1), found.group(2)) if found.group(1) else (
                        found.group(3), found.group(4))
                    if int(table) == other and int(deal) > done[index]:
                        self.leaks.append(f"table {table_id}'s audience gets table "
                                          f"{other}'s board {deal} before playing it")
                if f"table #{other}" in text:
                    self.leaks.append(f"table {table_id}'s audience gets a message of "
                                      f"table {other}: {text[:300]}")

    def _challenges_played(self) -> list[tuple[int, int, tuple[int, int], tuple[int, int],
                                               tuple[int, int]]]:
        """Each challenge being played, as the database holds it: (its id, channel, two
        people, their tables (0: none yet), the deals each has finished)."""
        conn = self._db
        if conn is None:
            path = getattr(self.harness, "db", None)
            if path is None or not path.exists():
                return []
            conn = self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            # Unchanged since the last read (no commit by the bot's connection): the same
            # rows. Every payload asks, most between two writes.
            version = conn.execute("PRAGMA data_version").fetchone()[0]
            if self._challenges is not None and self._challenges[0] == version:
                return self._challenges[1]
            rows = conn.execute(
                "SELECT id, channel_id, challenger_id, challenged_id, challenger_table,"
                " challenged_table FROM challenges WHERE status = 'accepted'").fetchall()
            out = []
            for challenge, channel, first, second, *tables in rows:
                played = [conn.execute("SELECT COUNT(*) FROM deal_results WHERE match_id = ?",
                                       (t,)).fetchone()[0] if t else 0 for t in tables]
                out.append((challenge, channel, (first, second),
                            (tables[0] or 0, tables[1] or 0), (played[0], played[1])))
            self._challenges = (version, out)
            return out
        except sqlite3.OperationalError:  # no challenges table yet (an older database)
            return []

    def close(self) -> None:
        """Close the guard's database connection (the harness does, at its end)."""
        if self._db is not None:
            self._db.close()
            self._db = None
            self._challenges = None

    def check_challenges(self, payload: Any) -> None:
        audience = payload.audience
        if audience is None or self.harness.bot.get_cog("Challenge") is None:
            return
        text = payload_text(payload.body)
        names = " ".join(name for name, _ in payload.files)
        for challenge, channel, people, tables, played in self._challenges_played():
            both = min(played)
            rows: list[int] = []
            if audience.user_id is None and audience.channel_id == channel:
                rows = [int(row) for row in CARD_ROW.findall(text)]
            for index in (0, 1):
                mine = (audience.user_id == people[index] if audience.user_id is not None
                        else bool(tables[index]) and audience.channel_id == self._thread(
                            tables[index]))
                if not mine:
                    continue
                other = tables[1 - index]
                for listed in BOTH_PLAYED.findall(_listed(text, challenge)):
                    rows += [int(n) for n in re.findall(r"(\d+): [+-]?\d+", listed)]
                if other and other in {int(n) for n in TABLE_NO.findall(text)}:
                    self.leaks.append(f"a challenger gets a message of the other's table "
                                      f"{other}: {text[:300]}")
                for found in TABLE_DEAL.finditer(names + " " + text):
                    table = found.group(1) or found.group(3)
                    if other and int(table) == other:
                        self.leaks.append(f"a challenger gets table {other}'s deal file")
            if rows or audience.channel_id == channel:
                self.challenge_checked += 1
            for row in rows:
                if row > both:
                    self.leaks.append(f"deal {row} of a challenge is shown before both "
                                      f"played it (played: {played}): {text[:500]}")

    def _thread(self, table_id: int) -> int | None:
        table = self.harness.bot.tables.tables.get(table_id)
        return None if table is None else int(table.channel_id)

    def _boards_done(self, table_id: int) -> int:
        """How many boards a table has finished (all of them once it is closed)."""
        table = self.harness.bot.tables.tables.get(table_id)
        if table is None or table.closed:
            return 10**6
        return int(table.game.deal_no) - (0 if table.game.finished else 1)

    def _at(self, table_id: int, audience: Any) -> bool:
        """Is the audience at this table: its thread, or one of its people privately?"""
        table = self.harness.bot.tables.tables.get(table_id)
        if table is None:
            return False
        if audience.user_id is not None:
            return table.seat_of(audience.user_id) is not None
        return bool(audience.channel_id == table.channel_id)

    def hands_are_current(self, publisher: Any) -> list[str]:
        """Every hand message the bot keeps live shows the cards and buttons its person's
        hand has now (a message sent one move old was edited again)."""
        stale = []
        messages = self.harness.driver.state.messages
        for table_id, sessions in publisher.hands.sessions.items():
            table = self.harness.bot.tables.tables.get(table_id)
            if table is None or table.closed:
                continue
            for user_id, session in sessions.items():
                message = messages.get(session.message_id)
                if message is None or table.seat_of(user_id) != session.seat:
                    continue
                on_screen = message.versions[-1]
                now = publisher.hand_message(table, session.seat, session.group).body()
                wanted = cards_shown(payload_text(now), table.game_name)
                has = cards_shown(payload_text({"content": on_screen.content,
                                                "embeds": on_screen.embeds,
                                                "components": on_screen.components}),
                                  table.game_name)
                if has != wanted:
                    stale.append(f"table {table_id}, user {user_id}: shows "
                                 f"{sorted(map(str, has))}, has {sorted(map(str, wanted))}")
        return stale

    def check_seeds(self, table: Any, payload: Any, text: str) -> None:
        """No server seed of a deal that has not ended, nor the secret, in any payload."""
        secret = table.settings.deal_secret
        fair = table.game.fair
        hidden = [secret] if secret else []
        if fair is not None:
            first = table.game.packs_over + 1
            hidden += [fair.server_seed(k) for k in range(first, min(first + 3, fair.length + 1))]
        self.seeds_checked += 1
        for seed in hidden:
            if seed in text:
                self.leaks.append(f"{payload.kind} shows the server seed of an unfinished "
                                  f"deal: {text[:500]}")


def _listed(text: str, challenge: int) -> str:
    """The part of /challenge list's text about one challenge (all of a text that lists
    none)."""
    starts = [(int(m.group(1)), m.start()) for m in LISTED.finditer(text)]
    if not starts:
        return text
    for i, (number, start) in enumerate(starts):
        if number == challenge:
            return text[start:starts[i + 1][1] if i + 1 < len(starts) else len(text)]
    return ""


def sight(game: Any) -> tuple[dict[int, set[Card]], dict[int, set[Card]]]:
    """What each seat sees, and what of it a spectator does not see, in `game`'s state."""
    seen = {seat: visible_now(game.view(seat)) for seat in range(game.SEATS)}
    public = visible_now(game.view(None))
    return seen, {seat: cards - public for seat, cards in seen.items()}


def forbidden(table: Any, viewer: int | None, seen: dict[int, set[Card]],
              private: dict[int, set[Card]]) -> set[Card]:
    """The cards `viewer` (None: a spectator) may not see, from what each seat sees."""
    if viewer is None:
        return set().union(*private.values())
    hidden = set().union(*(p for s, p in private.items() if s != viewer))
    hidden -= seen[viewer]
    # Human declares: a person who plays the hand for their computer partner (declarer)
    # sees declarer's hand too.
    return hidden - seen[table.acting_seat(viewer)]
