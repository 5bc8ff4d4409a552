"""The /help and /rules texts: the rules as this bot plays them (RULES.md), in short."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.games import GAMES

RULES: dict[str, tuple[str, str]] = {
    "spades": ("Spades", """\
**Players:** four, partners sit opposite (North-South against East-West). Spades are always trumps.
**Deal:** 13 cards each; the first dealer is drawn at random, then the deal moves clockwise.
**Bidding:** starting left of the dealer, each player bids **Nil** or **1-13** tricks. Your cards start face down: press **Look at my hand** to see them (you may look before your turn). While you have not looked you may instead bid **Double Nil** on your turn.
**Play:** the player left of the dealer leads. Follow suit if you can. Spades may not be led until a spade has been played to an earlier trick, unless you hold nothing but spades. Highest spade wins, else the highest card of the suit led.
**Scoring per side:** the bids of both partners add up to the contract. Made: 10 per trick bid plus 1 per overtrick. Set: minus 10 per trick bid.
A **Nil** bidder is scored alone: +100 for taking no trick, -100 otherwise (**Double Nil** ±200). Their tricks never count for their partner, whose own bid is then scored alone on their own tricks. A nil bidder's tricks are not bags.
**Bags** (overtricks) are counted for each side. With the `bags_penalty` option, every 10 bags cost 100 points (off by default).
**End:** the first side to reach the target (500 unless the table chose another) wins. If both reach it on the same deal the higher score wins; tied, another deal is played."""),
    "bridge": ("Contract Bridge (rubber)", """\
**Players:** four; North-South against East-West. The first dealer is drawn at random, then the deal moves clockwise. 13 cards each.
**Auction** (from the dealer, clockwise): Pass; a bid of 1-7 in ♣ < ♦ < ♥ < ♠ < NT, higher than the last bid; **Double** an opponent's last bid if not doubled yet; **Redouble** your side's last bid once an opponent doubled it. A new bid cancels doubles. Three passes after a bid end the auction; four opening passes throw the deal in.
**Declarer** is the player of the winning side who first named the final strain. Declarer's left-hand opponent leads; then dummy (declarer's partner) is laid face up and **declarer plays dummy's cards** — dummy's owner takes no decisions.
**Play:** follow suit if you can; the highest trump wins, else the highest card of the suit led.
**Below the line** (contract tricks over six): ♣/♦ 20, ♥/♠ 30, NT 40 for the first and 30 after; ×2 doubled, ×4 redoubled. 100 below the line wins a game; a side with a game is vulnerable. Two games win the rubber: 700 bonus if the other side has no game, else 500.
**Above the line:** overtricks at trick value undoubled, 100 each doubled (200 vulnerable), 200 redoubled (400 vulnerable); 50 for making a doubled contract, 100 redoubled; small slam 500 (750 vul), grand slam 1000 (1500 vul); honours in one hand: four trump honours 100, all five 150, four aces at NT 150.
**Undertricks:** undoubled 50 each (100 vul). Doubled not vulnerable 100, 200, 200, then 300 each; vulnerable 200 then 300 each. Redoubled: twice that.
**Match:** one rubber unless the table chose more. A match stopped mid-rubber scores 300 for a side's single game and 100 for a part score in an unfinished game."""),
    "single_dummy": ("Single Dummy Bridge", """\
**Players:** two, at South and West; each also plays a dummy sitting opposite (South's at North, West's at East). Play goes clockwise S, W, N, E.
**Deal:** 13 cards to each of the four hands; the first dealer is random, then it alternates. You see your own hand, never your dummy before it is shown. Before the auction one dummy, chosen at random, is shown to both players.
**Auction** (dealer first, then alternating): a bid of 1-7 in ♣ < ♦ < ♥ < ♠ < NT that outranks the last bid, Pass, Double the opponent's last bid, or Redouble your doubled bid. After a bid, **a single Pass ends the auction** and the other player wins it. Two passes without a bid throw the deal in.
**Dummies:** the winner of the bid chooses the shown dummy or the hidden one; that dummy becomes theirs. Then both dummies are face up. The winner's opponent leads from their own hand.
**Score** (only the winner of the bid can score): made = each trick over six counts 20 in ♣/♦, 30 in ♥/♠, in NT 40 for the first and 30 after; ×2 doubled, ×4 redoubled. A failed contract scores nothing — unless the table chose `undertrick_penalty`: the opponent then scores 50 per undertrick (×2 doubled, ×4 redoubled).
**Match:** the first player to reach the target (500 unless the table chose another) wins."""),
    "tennis": ("Tennis", """\
**Players:** two; each has two hands, a **Backhand** and a **Forehand**. You may look at only one of your hands at a time.
**Match:** two sets of five games; in each set the trumps of games 1-5 are ♣, ♦, ♥, ♠, then notrump. The first dealer is random; the deal alternates every game.
**Bidding:** 13 cards are dealt to each Backhand. Each player secretly takes one Backhand card out as the Backhand bid; both bids are turned up together. Then 13 cards go to each Forehand and the Forehand bid is made the same way. Bid values: A = 1, 2-10 face value, J = 11, Q = 12, **K = 0**.
**Play:** 12 tricks of four cards. The first trick: the non-dealer leads from the Forehand, the dealer follows from the Forehand, then the non-dealer plays from the Backhand and the dealer from the Backhand. After that, the hand that won the last trick leads; the other player follows from the same kind of hand; then each plays from their other hand. Follow suit if that hand can. The trick goes to the hand that played the highest trump, else the highest card of the suit led.
**Errors:** after each game, each player counts |Forehand tricks − Forehand bid| + |Backhand tricks − Backhand bid|.
**Winner:** fewest errors after ten games; equal errors are a draw."""),
    "bidfair": ("Bid Fair", """\
**Players:** two, with 24 cards (9, 10, J, Q, K, A of each suit); 12 each. The first dealer is random.
**Crib:** each player puts 4 cards face down into a shared crib of 8.
**Bidding** — each player ends up placing exactly one card, keeping 7:
• The non-dealer places a card **face up** (a bid), **face down** (no bid), or **passes**.
• After a face-up bid the dealer places a face-up card of higher rank (9 < 10 < J < Q < K < A; suits don't matter) or a card face down. After a face-down card the dealer places any card face up, or face down.
• If the non-dealer passed, the dealer places face up, face down, or passes (both pass: redeal by the same dealer). Then the non-dealer must place a card: face up and higher than a face-up dealer bid (any rank after a face-down card), or face down.
**Contract:** the higher face-up bid makes its player the bidder; the other is the **contract holder**. The bid card's rank is the deal's **high rank** and sets the contract value: 9: 40, 10: 50, J: 60, Q: 70, K: 80, A: 90. No face-up card: no contract.
**Trump:** the crib is shuffled and its top card turned up; its suit is trump. A face-up bid card of the trump suit earns its player 40.
**Exchange:** the holder may swap their 7 cards for the other 7 crib cards.
**Play:** 7 tricks; the holder leads (no contract: the non-dealer). Follow suit, else trump or discard. In each suit the high rank is highest, then K Q J 10 9. The ace is low when led and high when played second — unless the ace is the high rank, when it is simply highest. With no contract: K Q J 10 9 with the ace rule.
**Scoring:** captured cards count A 1, K/Q/J/10 10, 9 9; each player scores their own. If the holder's points reach the contract value, the holder also scores the difference between the two players' points (doubled when both bid cards were face up) and the opponent gets 40. No penalty for failing.
**Next deal:** the player ahead deals (level: alternate). The game ends after a deal where someone has reached the target (800 unless the table chose another); the higher total wins; tied, play another deal."""),
}

HELP = """\
**TrickTable** hosts trick-taking card games in this channel.
**Start a table:** `/play spades`, `/play bridge`, `/play single_dummy`, `/play tennis` or `/play bidfair` (each with its options, plus `turn_timeout`, `thread`, `ping_after` and `pace`). One table per channel or thread.
**In the lobby:** **Join** (or **Sit** at a chosen seat), **Leave**, **Add bot** for a computer player (the strongest level; where a game has others, **Add Basic bot** and the like pick one), **Start** once every seat is filled, **Cancel**.
**Playing:** press **My hand** (or use `/hand`) to get your cards privately, with a button for each move you may make. It updates as the game goes; if it stops updating (after 15 minutes Discord no longer lets us edit it), press **My hand** again.
**Other commands:** `/table` posts the table again at the bottom of the channel (the old message then points to it; each new deal does this too), and brings back a table paused because I lost a permission in the channel, `/leave` hands your seat to a computer player (press **Take my seat back** to return), `/abandon` stops a match (its creator, a majority of its players, or anyone who can manage messages), `/rules game` explains a game.
**Standings:** `/leaderboard game` ranks this server's players, `/stats [member]` shows results, rating and figures, `/history [member]` lists recent matches with their score sheets.
**Hand records:** under each bridge deal's end, **Hand record** privately gives the deal as PBN and LIN files, a link that opens it in Bridge Base Online's handviewer, its double-dummy table and par, and a card-by-card double-dummy post-mortem marking each card that cost a trick (the end-of-deal post names the first of them).
**Daily deals:** `/daily bridge` (4 boards, scored duplicate: dealer and vulnerability by board number) or `/daily spades` (4 deals): everyone in the server gets the same cards each day and plays them once, as South with computer players, in a private thread. `/daily results [scoring]` shows today's standings (matchpoints, or IMPs across the field) and, for the boards you have played, the hand record and everyone's contracts; `/daily leaderboard` counts days won and the average percentage. Admins choose with `/daily channel` where each day's final standings are posted and at which hour (UTC offset) the day starts.
**Fair deals:** a table shows a *commitment* when it opens: the SHA-256 hash that ends a chain of secret server seeds (deal k's seed, hashed k times, gives it). **Start** adds a *client seed* made from that press and the players' ids, which the bot cannot know in advance. Deal k's pack is shuffled (Fisher–Yates) with numbers from HMAC-SHA256(server seed k, "client seed:k:block"); the README gives every step. When a deal ends, its server seed is posted as a command anyone can run: `python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT` checks the seed against the commitment and prints the deal.
**Bridge computer players** bid a natural system close to Standard American (5-card majors, 1NT 15–17, strong 2♣, weak twos, Stayman and transfers, takeout and negative doubles, Blackwood); the table shows what each of their bids and doubles means, under the auction; `/system` lists the whole system.
With a turn timer, a computer player moves for anyone who takes too long, and the table says so.
**Pings and slow play:** when a table has waited for you a while (2 minutes unless the table chose `ping_after`), a new message pings you with a link to it, deleted once you play; `/settings pings:off` stops them. `/play … pace:slow` is for friends who are not online together: each turn lasts `turn_hours` (24 unless chosen), you are pinged at half time (then press **My hand** for your cards), and a computer player moves for you only when the time runs out. `/tables` lists this server's open tables with links, `/tables show:mine` yours.
Everyone in the channel can watch: the table shows only what a spectator may see; when a deal ends, a picture of all its hands is posted with the result."""


def rules_embed(game: str | None, options: Mapping[str, object] | None = None
                ) -> discord.Embed:
    """A game's rules; with a table's options, also what that table chose (its target,
    say), so rules read from a table are that table's."""
    if game not in RULES:
        return discord.Embed(title="TrickTable rules", description=(
            "Pick a game: " + ", ".join(f"`{g}`" for g in GAMES) + " (`/rules game`)."))
    title, text = RULES[game]
    if options:
        text = f"{text}\n**At this table:** {options_line(options)}."
    return discord.Embed(title=f"Rules: {title}", description=text,
                         colour=discord.Colour.dark_green())


def options_line(options: Mapping[str, object]) -> str:
    """A table's options as people read them: "target: 300, bags penalty: on"."""
    def shown(value: object) -> str:
        return ("on" if value else "off") if isinstance(value, bool) else str(value)

    return ", ".join(f"{key.replace('_', ' ')}: {shown(value)}"
                     for key, value in options.items())


def rules_for(game: str | None) -> str:
    """Rules as plain text (for places that take text only)."""
    if game not in RULES:
        return "Pick a game: " + ", ".join(GAMES)
    title, text = RULES[game]
    return f"**Rules: {title}**\n{text}"


def help_embed() -> discord.Embed:
    return discord.Embed(title="TrickTable help", description=HELP,
                         colour=discord.Colour.dark_green())


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
