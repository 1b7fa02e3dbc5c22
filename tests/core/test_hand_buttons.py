"""The private hand: a button for every card (every bid of the round), illegal ones disabled.

A disabled button still carries a real action; pressed anyway (a forged click, or a
platform without disabled buttons) the core refuses it with a short answer and nothing
changes.
"""

from __future__ import annotations

from bot.show import texts
from bot.show.i18n import _ as tr
from engine import Action, card_text
from tests.core.harness import make_harness, table_with_bots


def _choices(post):
    """(what, enabled) of each button of a hand post, the table/nonce/seat part cut off."""
    return [(b.action.split(":", 3)[3], b.enabled) for row in post.buttons for b in row]


async def _to_alice(h, t, max_steps: int = 400) -> None:
    for _ in range(max_steps):
        if t.run.over or t.run.to_move == 0:
            return
        await h.advance(1)
    raise AssertionError("alice's turn never came")


async def test_every_card_is_a_button_and_illegal_ones_are_disabled(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h, "alice", "classic", "--target", "300")
    await h.cmd("alice", "/start")
    t = h.table()
    seen_disabled_card = seen_bids = False
    for _ in range(120):
        await _to_alice(h, t)
        if t.run.over:
            break
        m = t.run.match
        view = m.view(0)
        legal = m.legal_actions(0)
        hand = h.last("hand:1:test:alice")
        choices = _choices(hand)
        assert all(len(b.action.encode()) <= 60 for row in hand.buttons for b in row)
        assert all(len(row) <= 5 for row in hand.buttons)
        if view.contract is None:
            # the auction: every bid of the round, exactly the legal ones enabled
            seen_bids = True
            offered = [Action.parse(a) for a, _ok in choices]
            assert offered == texts.bid_universe(view, legal)
            assert {a for a, ok in choices if ok} == {a.text for a in legal}
            if len(view.bids) >= 4:  # round 2: the turned suit is shown, disabled
                turned = "CDHS"[view.turned // 8]
                assert (f"bid {turned}", False) in choices
            action = next(a for a, ok in choices if ok)
        else:
            cards = [Action.parse(a) for a, _ok in choices if Action.parse(a).kind == "play"]
            card_buttons = cards[: len(view.hand)]
            # one button per card held, in the picture's order
            assert [a.card for a in card_buttons] == texts.hand_order(view)
            assert sorted(a.card for a in card_buttons) == sorted(view.hand)
            enabled = {Action.parse(a).card for a, ok in choices if ok}
            playable = {a.card for a in legal}
            assert enabled == playable
            for a, ok in choices:
                if ok:
                    assert Action.parse(a) in legal, a
            disabled = [Action.parse(a) for a, ok in choices if not ok]
            if disabled:
                seen_disabled_card = True
                # pressed anyway: refused, short and clear, and nothing changes
                button = next(
                    b for row in hand.buttons for b in row if b.action.endswith(disabled[0].text)
                )
                seq = t.run.seq
                replies = await h.press("alice", button.action)
                assert len(replies) == 1 and not replies[0].ok
                # the rule that forbids it, as the engine names it (follow suit, trump...)
                why = t.run.match.refusal(0, Action.play(disabled[0].card))
                if getattr(why, "reason", None) is not None:
                    assert replies[0].text == tr(f"err-rule-{why.reason}", "en")
                else:
                    assert replies[0].text == f"You can't play {card_text(disabled[0].card)} now."
                assert t.run.seq == seq and t.run.to_move == 0
            # belote: offered as its own button whenever the engine allows it
            for a in legal:
                if a.belote and not run_intent(t):
                    assert any(Action.parse(x).belote for x, ok in choices if ok)
            action = next(a for a, ok in choices if ok)
        button = next(b for row in hand.buttons for b in row if b.action.split(":", 3)[3] == action)
        assert await h.press("alice", button.action) == []
    assert seen_bids and seen_disabled_card
    await h.app.stop()


def run_intent(t) -> bool:
    return t.run.belote_intent[0]


async def test_a_disabled_bid_pressed_anyway_is_refused(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0)
    await table_with_bots(h, "alice", "bulgarian")
    await h.cmd("alice", "/start")
    t = h.table()
    for _ in range(50):
        await _to_alice(h, t)
        hand = h.last("hand:1:test:alice")
        off = [b for row in hand.buttons for b in row if not b.enabled]
        if t.run.match.view(0).contract is None and off:
            seq = t.run.seq
            replies = await h.press("alice", off[0].action)
            assert len(replies) == 1 and not replies[0].ok
            assert replies[0].text.startswith("You can't bid ")
            assert t.run.seq == seq
            await h.app.stop()
            return
        # pass (or the first choice) and look again at the next deal
        first = next(b for row in hand.buttons for b in row if b.enabled)
        assert await h.press("alice", first.action) == []
    raise AssertionError("no disabled bid was ever offered")


def test_a_card_alone_means_melds_declared_and_belote_only_when_said():
    plain, melds = Action.parse("play KH"), Action.parse("play KH melds")
    bel, both = Action.parse("play KH belote"), Action.parse("play KH melds belote")
    assert texts.default_play([plain, melds, bel, both]) == melds
    assert texts.default_play([plain, melds, bel, both], belote=True) == both
    assert texts.default_play([plain, bel]) == plain
    assert texts.default_play([plain, bel], belote=True) == bel
