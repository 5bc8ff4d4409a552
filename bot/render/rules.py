"""The /help and /rules texts: the rules as this bot plays them (RULES.md), in short."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.games import GAMES
from bot.render.games import text_for

HELP = """\
**TrickTable** hosts trick-taking card games in this channel.
**Start a table:** {play_commands} (each with its options, plus {table_options}). One table per channel or thread.
**In the lobby:** **Join** (or **Sit** at a chosen seat), **Leave**, **Add bot** for a computer player (the strongest level; where a game has others, **Add Basic bot** and the like pick one), **Start** once every seat is filled, **Cancel**.
**Playing:** press **My hand** (or use `/hand`) to get your cards privately, with a button for each move you may make. It updates as the game goes; if it stops updating (after 15 minutes Discord no longer lets us edit it), press **My hand** again. **Last trick** shows the previous trick privately; in bridge, **Tricks** lists the deal's tricks so far. In the bridge games it also has **Claim…** and **Undo** (see `/rules bridge`).
**Other commands:** `/table` posts the table again at the bottom of the channel (the old message then points to it; each new deal does this too), and brings back a table paused because I lost a permission in the channel, `/leave` hands your seat to a computer player (press **Take my seat back** to return), `/abandon` stops a match (its creator, a majority of its players, or anyone who can manage messages), `/rules game` explains a game.
**Standings:** `/leaderboard game` ranks this server's players, `/stats [member]` shows results, rating and figures, `/history [member]` lists recent matches with their score sheets.
**Hand records:** under each bridge deal's end, **Hand record** privately gives the deal as PBN and LIN files (with a BBO handviewer link), its double-dummy table and par, and a card-by-card double-dummy check marking each card that cost a trick.
**Daily deals:** `/daily bridge` (4 boards, scored duplicate: dealer and vulnerability by board number) or `/daily spades` (4 deals): everyone in the server gets the same cards each day and plays them once, as South with computer players, in a private thread. `/daily results [scoring]` shows today's standings (matchpoints, or IMPs across the field) and, for the boards you have played, the hand record and everyone's contracts; `/daily leaderboard` counts days won and the average percentage. Admins choose with `/daily channel` where each day's final standings are posted and at which hour (UTC offset) the day starts.
**Team matches:** `/match teams [boards] [level]` (Contract Bridge, 4–32 boards): press **Join team A** or **B** (up to 4 each), then **Start**. Two tables in private threads play the same boards, team A North-South at one and East-West at the other; computer players fill the empty seats. Each board is compared in IMPs once both tables have played it, in a score card kept current here; `/match leaderboard` and `/match history` show past matches.
**Robot's play:** under each deal's end in daily deals and team matches, **Robot's play** shows you privately what computer players bid and make on the same cards from your seat, beside your result (and in bridge the double-dummy par).
**Fair deals:** a table shows a *commitment* when it opens: the SHA-256 hash that ends a chain of secret server seeds (deal k's seed, hashed k times, gives it). **Start** adds a *client seed* made from that press and the players' ids, which the bot cannot know in advance. Deal k's pack is shuffled (Fisher–Yates) with numbers from HMAC-SHA256(server seed k, "client seed:k:block"); the README gives every step. When a deal ends, its server seed is posted as a command anyone can run: `python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT` checks the seed against the commitment and prints the deal.
**Bridge computer players** bid a natural system close to Standard American (5-card majors, 1NT 15–17, strong 2♣, weak twos, Stayman and transfers, takeout doubles with the doubler's raises, negative doubles, a cue bid of their suit as the raise of partner's overcall, splinters and cue bids, Roman Key Card Blackwood and the king ask); where the system leaves a close decision to judgement, the default player deals the unseen hands as the auction describes them and plays the candidate contracts double dummy. The table shows what each of their bids and doubles means, under the auction; `/system` lists the whole system.
With a turn timer, a computer player moves for anyone who takes too long, and the table says so.
**Where tables live:** I need View Channel, Send Messages (Send Messages in Threads in a thread), Embed Links and Attach Files in the channel, and Create Public Threads for `thread`; `/play` says which one is missing. Deleting a table's channel or thread, or removing me from the server, abandons its table (it does not count).
**Pings and slow play:** when a table has waited for you a while (2 minutes unless the table chose `ping_after`), a new message pings you with a link to it, deleted once you play; `/settings pings:off` stops them. `/play … pace:slow` is for friends who are not online together: each turn lasts `turn_hours` (24 unless chosen), you are pinged at half time (then press **My hand** for your cards), and a computer player moves for you only when the time runs out. `/tables` lists this server's open tables with links, `/tables show:mine` yours.
**Server settings and your data:** people with Manage Server choose this server's defaults for new tables (turn timer, pings, pace, the computer players' level), the channels tables may open in, and whether computer players may sit, with `/server settings`; `/server reset` goes back to the defaults. `/settings forget:me` removes your Discord id, names and ratings (after asking); your past matches stay, as played by a former player.
Everyone in the channel can watch: the table shows only what a spectator may see; when a deal ends, a picture of all its hands is posted with the result."""


def help_text(table_options: Sequence[str]) -> str:
    """/help, with the games of the registry and the options every table takes."""
    commands = [f"`/play {name}`" for name in GAMES]
    options = [f"`{name}`" for name in table_options]
    return HELP.format(play_commands=", ".join(commands[:-1]) + " or " + commands[-1],
                       table_options=", ".join(options[:-1]) + " and " + options[-1])


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


HELP_PART = 4000  # an embed's description takes 4096 characters; /help is longer


def help_embeds(table_options: Sequence[str]) -> list[discord.Embed]:
    """/help as embeds of whole paragraphs (one message: 6000 characters in all)."""
    parts = [""]
    for paragraph in help_text(table_options).splitlines():
        if parts[-1] and len(parts[-1]) + len(paragraph) + 1 > HELP_PART:
            parts.append("")
        parts[-1] = f"{parts[-1]}\n{paragraph}" if parts[-1] else paragraph
    return [discord.Embed(title="TrickTable help" if i == 0 else None, description=part,
                          colour=discord.Colour.dark_green())
            for i, part in enumerate(parts)]


SYSTEM_TITLE = "How the bridge computer players bid"
MESSAGE_LIMIT = 5500  # Discord allows 6000 characters across one message's embeds


def system_embeds(sections: Sequence[tuple[str, Sequence[str]]]) -> list[list[discord.Embed]]:
    """The bidding system, a field per situation, as messages of embeds within Discord's
    limits (1024 characters a field, 25 fields an embed, 6000 characters a message)."""
    messages: list[list[discord.Embed]] = []
    embed = discord.Embed(title=SYSTEM_TITLE, description=(
        "Points: A 4, K 3, Q 2, J 1, plus one for each card past four in a suit (support "
        "for partner: 3 for a void, 2 a singleton, 1 a doubleton). Each table is read top "
        "down: the first call the hand fits."))
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
