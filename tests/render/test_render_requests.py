"""Claims and undo as people see them: the Claim… and Undo buttons in the private hand,
the claim screen, Accept/Reject for the opponents (in their hand and, for a person asked,
on the public table) and the outcome under a finished deal."""

from __future__ import annotations

import random

from bot.games import Game, create
from bot.render import ids
from bot.render import messages as m
from bot.render.seating import Seating


def seating(game: Game, bots: tuple[bool, ...] = ()) -> Seating:
    n = game.SEATS
    return Seating(seat_names=tuple(game.SEAT_NAMES), names=("Ann", "Bob", "Cy", "Di")[:n],
                   user_ids=tuple(1000 + s for s in range(n)), bots=bots or (False,) * n)


def bridge_in_play(seed: int = 3) -> Game:
    """A bridge game in its second trick, declarer to play (dummy's or own card)."""
    game = create("bridge", options={}, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if game.phase == "play" and len(game.view(None).played) == 4 and \
                game.declarer in game.to_act():
            return game
        seat = min(game.to_act())
        game.apply(seat, rng.choice(list(game.legal(seat))))
    raise AssertionError("declarer never came to play in the second trick")


def hand(game: Game, seat: int, group: str | None = None) -> m.Message:
    return m.hand(7, game.NAME, game.TITLE, seat, game.view(seat), game.legal(seat), 5,
                  seating(game), group=group)


def labels(message: m.Message) -> list[str]:
    return [b.label for b in message.buttons or ()]


def test_claim_and_undo_buttons_sit_under_declarers_cards() -> None:
    game = bridge_in_play()
    declarer = game.declarer
    shown = hand(game, declarer)
    assert "Claim…" in labels(shown)
    claim = next(b for b in shown.buttons if b.label == "Claim…")
    assert claim.custom_id == ids.make("pick", 7, declarer, 5, "claim")
    defender = (declarer + 1) % 4
    assert "Claim…" not in labels(hand(game, defender))
    assert len(shown.components()) <= 5


def test_claim_screen_offers_every_number_of_the_tricks_left() -> None:
    game = bridge_in_play()
    screen = hand(game, game.declarer, group="claim")
    assert labels(screen) == ["All 12", *[str(n) for n in range(11, 0, -1)], "None", "Back"]
    assert "How many of the last 12 tricks" in screen.content
    assert screen.buttons[0].custom_id == ids.action_id(7, game.declarer, 5, "claim:12")
    assert len(screen.components()) == 4


def test_claim_pending_asks_the_defenders_in_their_hands_and_on_the_table() -> None:
    game = bridge_in_play()
    declarer = game.declarer
    game.apply(declarer, "claim:9")
    defender = (declarer + 1) % 4
    asked = hand(game, defender)
    assert labels(asked)[:2] == ["Accept", "Reject"] and "Claim…" not in labels(asked)
    assert "claims 9 of the last 12" in asked.content and "accept or reject" in asked.content
    mine = hand(game, declarer)
    assert labels(mine)[0] == "Refresh" and labels(mine)[-1] == "Withdraw my request"
    table = m.public_table(7, "bridge", game.TITLE, game.view(None), seating(game), [],
                           sorted(game.to_act()), decisions=[3, 4, 5, 6])
    names = [game.SEAT_NAMES[s] for s in sorted(game.to_act())]
    assert [lab for lab in labels(table) if ":" in lab] == [
        f"{names[0]}: Accept", f"{names[0]}: Reject", f"{names[1]}: Accept",
        f"{names[1]}: Reject"]
    first = sorted(game.to_act())[0]
    accept = next(b for b in table.buttons if b.label == f"{names[0]}: Accept")
    number = game.request.number  # it names the request it answers
    assert accept.custom_id == ids.action_id(7, first, 3 + first, f"accept:{number}")
    in_hand = next(b for b in asked.buttons if b.label == "Accept")
    assert in_hand.custom_id.endswith(f":accept:{number}")
    assert "⚖️" in table.embeds[0].description.splitlines()[0]
    assert table.content.endswith("accept or reject?")


def test_claim_no_public_answer_buttons_for_computer_players() -> None:
    game = bridge_in_play()
    game.apply(game.declarer, "claim:9")
    table = m.public_table(7, "bridge", game.TITLE, game.view(None),
                           seating(game, bots=(True,) * 4), [], [], decisions=[0] * 4)
    assert not [lab for lab in labels(table) if ":" in lab]


def test_undo_button_in_the_hand_of_who_just_played() -> None:
    game = bridge_in_play()
    declarer = game.declarer
    game.apply(declarer, game.legal(declarer)[0])
    shown = hand(game, declarer)
    undo = next(b for b in shown.buttons if b.label == "Undo")
    assert undo.custom_id == ids.action_id(7, declarer, 5, "undo")


def test_undo_is_disabled_while_the_asker_waits_and_the_hand_says_until_when() -> None:
    """After a rejected or withdrawn request, Undo is shown disabled (no click to refuse)
    and the hand says when asking is possible again; Claim… stays (a claim that holds
    double dummy stands at once), and its screen says an unproven one must wait."""
    game = bridge_in_play()
    declarer = game.declarer
    game.apply(declarer, game.legal(declarer)[0])
    shown = m.hand(7, game.NAME, game.TITLE, declarer, game.view(declarer),
                   game.legal(declarer), 5, seating(game), ask_again_at=1_800_000_019.2)
    undo = next(b for b in shown.buttons if b.label == "Undo")
    assert undo.disabled
    assert "you may ask your opponents again <t:1800000020:R>." in (shown.content or "")
    assert not next(b for b in hand(game, declarer).buttons if b.label == "Undo").disabled


def test_the_claim_screen_says_when_an_unproven_claim_must_wait() -> None:
    game = bridge_in_play()
    screen = m.hand(7, game.NAME, game.TITLE, game.declarer, game.view(game.declarer),
                    game.legal(game.declarer), 5, seating(game), group="claim",
                    ask_again_at=1_800_000_020)
    assert "any other is put to the opponents once you may ask again." in screen.content
    assert "<t:1800000020:R>" in screen.content


def test_claim_outcome_shown_under_the_finished_deal() -> None:
    game = bridge_in_play()
    declarer = game.declarer
    game.apply(declarer, "claim:12")
    for seat in sorted(game.to_act()):
        game.apply(seat, "accept")
    post = m.deal_end(7, "bridge", game.TITLE, game.view(None), seating(game))
    assert post is not None
    assert "claims all of the last 12 tricks: accepted." in post.embeds[0].description
