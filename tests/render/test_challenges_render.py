"""A challenge's messages: the verdict says how unplayed deals counted, each deal's line
is short (the person's side only), the list shows only compared deals, and the picture is
a PNG of one row per compared deal."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.challenge_scoring import PersonDeal, challenge_card
from bot.render import challenges as render
from bot.render.pictures import score_table


def _row(game: str = "bridge", deals: int = 4) -> SimpleNamespace:
    return SimpleNamespace(id=7, game=game, deals=deals, names=("Alice", "Bob"),
                           people=(1, 2), status="finished", deadline=1_800_000_000)


def test_the_verdict_says_how_unplayed_deals_count() -> None:
    first = {1: PersonDeal(420, "4♠ by South, made"), 2: PersonDeal(-50, "")}
    second = {1: PersonDeal(-50, "4♠ by South, down 1")}
    card = challenge_card(4, "imps", first, second)
    text = render.verdict(_row(), card)
    assert text == ("**Alice** wins 10–0 IMPs on the one board both played (of 4; the "
                    "others do not count).")
    forfeit = challenge_card(4, "imps", {}, second)
    assert render.verdict(_row(), forfeit) == "**Bob** wins: Alice played no board (forfeit)."
    assert "no result" in render.verdict(_row(), challenge_card(4, "imps", {}, {}))
    tie = challenge_card(2, "points", {1: PersonDeal(60, ""), 2: PersonDeal(-10, "")},
                         {1: PersonDeal(50, ""), 2: PersonDeal(0, "")})
    assert render.verdict(_row("spades", 2), tie) == (
        "A tie, +50 to +50 points, on both deals.")


def test_a_finished_challenges_result_is_said_once() -> None:
    """The post says the verdict once (its first line, not again in the embed); the offer
    it ends points to the post instead of saying it again, and says it only when there is
    no post to point to."""
    card = challenge_card(4, "imps", {1: PersonDeal(420, "4♠ by South, made")},
                          {1: PersonDeal(-50, "4♠ by South, down 1")})
    said = render.verdict(_row(), card)
    post = render.result(_row(), card, None)
    whole = (post.content or "") + " ".join(str(e.to_dict()) for e in post.embeds)
    assert whole.count(said) == 1
    url = "https://discord.com/channels/1/2/3"
    offer = render.ended_offer(_row(), card, url).content or ""
    assert said not in offer and "wins" not in offer and url in offer
    assert offer.startswith("Challenge #7 (Contract Bridge, Alice v Bob) is over")
    assert said in (render.ended_offer(_row(), card, None).content or "")


def test_a_deal_line_shows_the_persons_side_only() -> None:
    note = ("North-South: North + South bid 8, took 9: 81 | East-West: East + West bid 4, "
            "took 4: 40")
    card = challenge_card(1, "points", {1: PersonDeal(41, note)}, {1: PersonDeal(-20, "x")})
    line = render.deal_line("spades", card.compared[0], ("Alice", "Bob"))
    assert "East-West" not in line and "bid 8, took 9" in line and "**61 pts Alice**" in line
    tennis = ("First player: Forehand bid 11 won 4, Backhand bid 5 won 2; Second player: "
              "Forehand bid 0 won 2, Backhand bid 10 won 4")
    assert render._short_note("tennis", tennis) == "Forehand bid 11 won 4, Backhand bid 5 won 2"
    assert render._short_note("bridge", "3NT by North, down 2") == "3NT N-2"


def test_the_list_compares_only_deals_both_played() -> None:
    row = _row()
    row.status = "accepted"
    card = challenge_card(4, "imps", {1: PersonDeal(420, ""), 2: PersonDeal(100, "")},
                          {1: PersonDeal(-50, "")})
    text = render.listing(2, [(row, card)]).embeds[0].description or ""
    assert "played: you 1, Alice 2" in text
    assert "Both played (IMPs to you): 1: -10" in text and "2:" not in text


def test_the_picture_is_a_png_with_a_row_per_compared_deal() -> None:
    card = challenge_card(3, "imps", {d: PersonDeal(100 * d, "2♠ by South, made")
                                      for d in (1, 2, 3)},
                          {d: PersonDeal(-50, "") for d in (1, 2)})
    png = render.card_png(_row(deals=3), card)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    smaller = render.card_png(_row(deals=3), challenge_card(3, "imps", {}, {}))
    height = int.from_bytes(png[20:24], "big")
    assert height - int.from_bytes(smaller[20:24], "big") == 2 * score_table.ROW


def test_one_imp_is_singular() -> None:
    card = challenge_card(1, "imps", {1: PersonDeal(110, "2♥ by South, made")},
                         {1: PersonDeal(140, "3♥ by South, made")})
    line = render.deal_line("bridge", card.compared[0], ("Alice", "Bob"))
    assert line.endswith("→ **1 IMP Bob**")
