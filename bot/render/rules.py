"""The /help and /rules texts: the rules as this bot plays them (docs/rules.md), in short."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.games import GAMES, game_class
from bot.render import ids
from bot.render.components import TableButton, button
from bot.render.games import text_for
from bot.render.leaderboard import RATING_MEANING

# /help: one short page, and a page per topic and per game behind its buttons.
HELP_HOME = """\
**TrickTable** hosts trick-taking card games in this channel: {play_commands}.
Open a table with `/play`, press **Join** or **Add bot** for each seat, then **Start**. Press **My hand** for your cards, privately, with a button for each move you may make.
{rating_meaning} See `/leaderboard`, `/stats` and `/history`.
Pick a game for its rules, or a topic:"""

HELP_TOPICS: dict[str, tuple[str, str]] = {
    "commands": ("Commands", """\
**Start a table:** {play_commands} (each with its options, plus {table_options}). One table per channel or thread.
**In the lobby:** **Join** (or **Sit** at a chosen seat), **Leave**, **Add bot** for a computer player (the strongest level unless `/server settings` chose another; where a game has others, **Add Basic bot** and the like pick one), **Start** once every seat is filled, **Cancel**.
**Playing:** press **My hand** (or use `/hand`) to get your cards privately, with a button for each move you may make. It updates as the game goes; if it stops updating (after 15 minutes Discord no longer lets us edit it), press **My hand** again. **Last trick** shows the previous trick privately; in bridge, **Tricks** lists the deal's tricks so far. In the bridge games it also has **Claim…** and **Undo** (see `/rules bridge`).
**Other commands:** `/table` posts the table again at the bottom of the channel (the old message then points to it; each new deal does this too), and brings back a table paused because I lost a permission in the channel, `/leave` hands your seat to a computer player (press **Take my seat back** to return), `/abandon` stops a match (its creator, a majority of its players, or anyone who can manage messages), `/rules game` explains a game.
**Standings:** `/leaderboard game` ranks this server's players, `/stats [member]` shows results, rating and figures, `/history [member]` lists recent matches with their score sheets.
**Hand records:** under each bridge deal's end, **Hand record** privately gives the deal as PBN and LIN files (with a BBO handviewer link), its double-dummy table and par, and a card-by-card double-dummy check marking each card that cost a trick."""),
    "tables": ("Tables and pings", """\
**Where tables live:** I need View Channel, Send Messages (Send Messages in Threads in a thread), Embed Links and Attach Files in the channel, Create Public Threads for `thread`, and Create Private Threads for daily deals, team matches and challenges; each command says which one is missing. Deleting a table's channel or thread, or removing me from the server, abandons its table (it does not count).
**Pings and slow play:** when a table has waited for you a while (2 minutes unless the table or the server chose another `ping_after`), a new message pings you with a link to it, deleted once you play; `/settings pings:off` stops them. `/play … pace:slow` is for friends who are not online together: each turn lasts `turn_hours` (24 unless chosen), you are pinged at half time (then press **My hand** for your cards), and a computer player moves for you only when the time runs out. `/tables` lists this server's open tables with links, `/tables show:mine` yours.
**Server settings and your data:** people with Manage Server choose this server's defaults for new tables (turn timer, pings, pace, the computer players' level), the channels tables may open in, and whether computer players may sit, with `/server settings`; `/server reset` goes back to the defaults. `/settings forget:me` removes your Discord id, names and ratings (after asking); your past matches stay, as played by a former player.
With a turn timer, a computer player moves for anyone who takes too long, and the table says so.
Everyone in the channel can watch: the table shows only what a spectator may see; when a deal ends, a picture of all its hands is posted with the result."""),
    "daily": ("Daily deals, team matches and challenges", """\
**Daily deals:** `/daily bridge` (4 boards, scored duplicate: dealer and vulnerability by board number) or `/daily spades` (4 deals): everyone in the server gets the same cards each day and plays them once, as South with computer players, in a private thread. `/daily results [game] [scoring]` shows today's standings (matchpoints, or IMPs across the field) and, for the boards you have played, the hand record and everyone's contracts; `/daily leaderboard` counts days won and the average percentage. Admins choose with `/daily channel` where each day's final standings are posted and at which hour (UTC offset) the day starts.
**Team matches:** `/match teams [boards] [level]` (Contract Bridge, 4–32 boards): press **Join team A** or **B** (up to 4 each), then **Start**. Two tables in private threads play the same boards, team A North-South at one and East-West at the other; computer players fill the empty seats. Each board is compared in IMPs once both tables have played it, in a score card kept current here; `/match leaderboard` and `/match history` show past matches.
**Challenges:** `/challenge new member game [deals] [days] [level]` challenges someone: they press **Accept** or **Decline** (you may **Cancel** until then). You both play the same fair deals, each in your own private thread from the same seat with computer players in the others, whenever you like before the deadline (3 days unless `days` says 1–14; whoever has not finished is pinged half a day before): press **Play my deals**. Each deal is compared once both have played it (bridge games in IMPs, the others in points) and neither sees the other's result first. The result, with a picture and the deals' seeds, is posted here when both are done or at the deadline: only deals both played count, and whoever played none forfeits. `/challenge list` shows yours; up to 5 open at once.
**Robot's play:** under each deal's end in daily deals, team matches and challenges, **Robot's play** shows you privately what computer players bid and make on the same cards from your seat, beside your result (and in bridge the double-dummy par)."""),
    "fair": ("Fair deals", """\
**Fair deals:** each table's **Rules** button shows its *commitment* from the moment it opens: the SHA-256 hash that ends a chain of secret server seeds (deal k's seed, hashed k times, gives it). **Start** adds a *client seed* made from that press and the players' ids, which the bot cannot know in advance. Deal k's pack is shuffled (Fisher–Yates) with numbers from HMAC-SHA256 keyed with server seed k (its 64 hex characters as text) over "client seed:k:block"; docs/playing.md gives every step. Once a deal has ended, **Rules** also gives its server seed as a command anyone can run: `python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT` checks the seed against the commitment and prints the deal."""),
    "bots": ("Computer players", """\
**Bridge computer players** bid a natural system close to Standard American (5-card majors, 1NT 15–17, strong 2♣, weak twos, Stayman and transfers, takeout doubles, negative doubles, Roman Key Card Blackwood and the king ask); where the system leaves a close decision to judgement, the default player deals the unseen hands as the auction describes them and plays the candidate contracts double dummy; and it may make another call its explanation also covers, where a model learned from its own deals values that call higher (once the opponents have bid, where that model and the system disagree over game or slam, the dealt hands decide). In the play it leads with a model learned from its own deals, and chooses each later card by dealing the unseen hands as the auction, the opening lead and the play describe them (a layout counts for more where the opening leader's hand would have made that lead) and playing each layout double dummy; on defence, a second learned model picks its leads to the next few tricks from what that search found. As defenders, the first time they follow to a suit, they signal with small cards that cannot matter: count when declarer's side leads it (a high card first with an even number, their lowest with an odd one), attitude when their partner leads it (a high card holding the ace, king or queen, their lowest without). They read signals only from computer players like themselves, never from people. The table shows what each of their bids and doubles means, under the auction; `/system` lists the whole system."""),
}
HOME = "home"  # the help page a button returns to
HELP_VERB = "help"
COLOUR = discord.Colour.dark_green()


def _listed(items: Sequence[str], last: str = "or") -> str:
    """`a, b or c`."""
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


def help_page(page: str, table_options: Sequence[str]) -> discord.Embed:
    """One page of /help: HOME, a topic of HELP_TOPICS, or a game's rules."""
    if page in GAMES:
        return rules_embed(page)
    if page in HELP_TOPICS:
        title, text = HELP_TOPICS[page]
        return discord.Embed(title=f"TrickTable help: {title}", colour=COLOUR,
                             description=text.format(**_help_values(table_options)))
    return discord.Embed(title="TrickTable help", colour=COLOUR,
                         description=HELP_HOME.format(**_help_values(table_options)))


def help_buttons(page: str) -> list[TableButton]:
    """A button per game, one per topic, and (away from it) one back to the first page;
    the page shown is marked. `tt:help:0:<page>`: no table, so its id is 0."""
    def to(target: str, label: str, row: int) -> TableButton:
        style = discord.ButtonStyle.primary if target == page else discord.ButtonStyle.secondary
        return button(ids.make(HELP_VERB, 0, target), label, style, row=row)

    out = [to(name, game_class(name).TITLE, 0) for name in GAMES]
    out += [to(key, title, 1) for key, (title, _) in HELP_TOPICS.items()]
    if page != HOME:
        out.append(to(HOME, "Back to help", 2))
    return out


def _help_values(table_options: Sequence[str]) -> dict[str, str]:
    return {"play_commands": _listed([f"`/play {name}`" for name in GAMES]),
            "table_options": _listed([f"`{name}`" for name in table_options], "and"),
            "rating_meaning": RATING_MEANING}


def help_text(table_options: Sequence[str]) -> str:
    """Every page of /help as one text (the home page first)."""
    return "\n".join((help_page(page, table_options).description or "")
                     for page in (HOME, *HELP_TOPICS))


def rules_embed(game: str | None, options: Mapping[str, object] | None = None
                ) -> discord.Embed:
    """A game's rules; with a table's options, also what that table chose (its target,
    say), so rules read from a table are that table's."""
    if game not in GAMES:
        return discord.Embed(title="TrickTable rules", description=(
            "Pick a game: " + ", ".join(f"`{g}`" for g in GAMES) + " (`/rules game`)."))
    title, text = _rules(game)
    if options:
        text = f"{text}\n**At this table:** {options_line(options)}."
    return discord.Embed(title=f"Rules: {title}", description=text,
                         colour=discord.Colour.dark_green())


def options_line(options: Mapping[str, object]) -> str:
    """A table's options as people read them: "target: 300, bags penalty: on"."""
    return ", ".join(f"{key.replace('_', ' ')}: {option_value(value)}"
                     for key, value in options.items())


def options_text(options: Mapping[str, object], slow_pace: bool, turn_timeout: float) -> str:
    """The lobby's line of options: the game's, then the table's pace or turn timer."""
    parts = [options_line(options)] if options else []
    if slow_pace:
        parts.append(f"slow play: {turn_timeout / 3600:g} h per turn")
    elif turn_timeout:
        parts.append(f"turn timer: {int(turn_timeout)}s")
    return ("Options — " + ", ".join(parts) + ".") if parts else ""


def option_value(value: object) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def rules_for(game: str | None) -> str:
    """Rules as plain text (for places that take text only)."""
    if game not in GAMES:
        return "Pick a game: " + ", ".join(GAMES)
    title, text = _rules(game)
    return f"**Rules: {title}**\n{text}"


def _rules(game: str) -> tuple[str, str]:
    about = text_for(game).about
    return about.title, about.rules


SYSTEM_TITLE = "How the bridge computer players bid"
MESSAGE_LIMIT = 5500  # Discord allows 6000 characters across one message's embeds


def system_embeds(sections: Sequence[tuple[str, Sequence[str]]]) -> list[list[discord.Embed]]:
    """The bidding system, a field per situation, as messages of embeds within Discord's
    limits (1024 characters a field, 25 fields an embed, 6000 characters a message)."""
    messages: list[list[discord.Embed]] = []
    embed = discord.Embed(title=SYSTEM_TITLE, description=(
        "HCP: A 4, K 3, Q 2, J 1. Points: HCP plus one for each card past four in a suit "
        "(with support for partner, 3 for a void, 2 a singleton, 1 a doubleton instead). "
        "Each table is read top down: the first call the hand fits."))
    size = len(SYSTEM_TITLE) + len(embed.description or "")
    for title, lines in sections:
        value = "\n".join(lines)[:1024]
        if size + len(title) + len(value) > MESSAGE_LIMIT or len(embed.fields) == 25:
            messages.append([embed])
            embed = discord.Embed(title=SYSTEM_TITLE + " (continued)")
            size = len(embed.title or "")
        embed.add_field(name=title, value=value, inline=False)
        size += len(title) + len(value)
    messages.append([embed])
    return messages
