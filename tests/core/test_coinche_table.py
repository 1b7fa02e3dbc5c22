"""A Coinche table through the core: its creation with options, the two-step bid buttons,
the typed bids, and every auction refusal with the rule's reason, changing nothing.

Four people sit (the bots learn Coinche elsewhere); the harness plays in fake time.
"""

from __future__ import annotations

from dataclasses import replace

from bot.platform import User
from bot.show.i18n import _ as tr
from bot.show.texts import action_command
from engine import Action
from tests.core.harness import make_harness, user


def _codes(post) -> list[str]:
    """The action part of each button of a post (``t1:5:2:value 90`` -> ``value 90``)."""
    return [b.action.split(":", 3)[3] for row in post.buttons for b in row]


def _button(post, code: str) -> str:
    return next(b.action for row in post.buttons for b in row if b.action.endswith(":" + code))


NAMES = ("alice", "bob", "carol", "dave")


async def _four_at_coinche(h, *options: str):
    assert (await h.cmd("alice", " ".join(["/table create coinche", *options])))[0].ok
    for seat, name in enumerate(NAMES[1:], start=2):  # the host sits in seat 1
        assert (await h.cmd(name, f"/join {seat}"))[0].ok
    assert (await h.cmd("alice", "/start"))[0].ok
    await h.advance(1)
    t = h.table()
    assert t.run.phase == "play"
    return t


async def _refused_unchanged(h, t, who: str, text: str, key: str, **values: object) -> None:
    """``who`` types ``text``: refused with the rule (``key``), and nothing changed."""
    seq, bids = t.run.seq, list(t.run.match.view(None).bids)
    replies = await h.cmd(who, text)
    assert len(replies) == 1 and not replies[0].ok, replies
    assert tr(key, "en", **values) in replies[0].text, replies[0].text
    assert t.run.seq == seq and list(t.run.match.view(None).bids) == bids


async def test_a_coinche_auction_by_buttons_and_commands_with_every_refusal(tmp_path):
    h = await make_harness(tmp_path / "c.db", seed_window=0)
    t = await _four_at_coinche(h, "--no-trump", "--generale")
    # the header says the ruleset and the options the table set
    header = h.last("table:1").text.splitlines()[0]
    assert "coinche (No Trump, générale)" in header
    first = t.run.to_move
    name = NAMES[first]
    hand = h.last(f"hand:1:test:{name}")
    # step one: the values (80 ... 160, capot, générale) and pass; no coinche before a bid
    assert _codes(hand) == [
        *(f"value {v}" for v in range(80, 161, 10)),
        "value capot",
        "value generale",
        "pass",
    ]
    assert all(len(row) <= 5 for row in hand.buttons) and len(hand.buttons) <= 5
    labels = [b.label for row in hand.buttons for b in row]
    assert labels[:2] == ["80", "90"] and "Capot" in labels and "Générale" in labels
    seq = t.run.seq
    # step two: the contracts of 90, back, pass; the match has not moved
    await h.press(name, _button(hand, "value 90"))
    assert t.run.seq == seq and not t.run.match.view(None).bids
    hand = h.last(f"hand:1:test:{name}")
    assert _codes(hand) == [
        "bid 90 C",
        "bid 90 D",
        "bid 90 H",
        "bid 90 S",
        "bid 90 NT",
        "values",
        "pass",
    ]
    assert [b.label for b in hand.buttons[0]] == ["90 ♣", "90 ♦", "90 ♥", "90 ♠"]
    # another player's press on this hand: refused, nothing changes
    other = NAMES[(first + 1) % 4]
    replies = await h.press(other, _button(hand, "bid 90 H"))
    assert not replies[0].ok and t.run.seq == seq
    # back to the values, then 90 ♥
    await h.press(name, _button(hand, "values"))
    assert "value 90" in _codes(h.last(f"hand:1:test:{name}"))
    await h.press(name, _button(h.last(f"hand:1:test:{name}"), "value 90"))
    hand = h.last(f"hand:1:test:{name}")
    await h.press(name, _button(hand, "bid 90 H"))
    assert list(t.run.match.view(None).bids) == [(first, "bid 90 H")]
    # the same button again: a double press, refused; nothing changes
    replies = await h.press(name, _button(hand, "bid 90 H"))
    assert not replies[0].ok and len(t.run.match.view(None).bids) == 1
    assert "Bids: " in h.last("table:1").text and "90 ♥" in h.last("table:1").text

    opp1, partner, opp2 = (NAMES[(first + k) % 4] for k in (1, 2, 3))
    # a bid below the last: the rule, with the standing bid
    await _refused_unchanged(
        h, t, opp1, "/bid 80 S", "err-rule-bid-higher", standing="90 ♥", bid="80 ♠"
    )
    # All Trump is not an option of this table
    await _refused_unchanged(
        h, t, opp1, "/bid 100 AT", "err-rule-bid-contract", bid="100 AT", standing="90 ♥"
    )
    # the next values are offered from 100 on
    codes = _codes(h.last(f"hand:1:test:{opp1}"))
    assert codes[0] == "value 100" and "coinche" in codes and "value 90" not in codes
    assert (await h.cmd(opp1, "pass")) == []  # typed as on a terminal: a bare pass
    # the bidder's partner may not coinche their own side's bid
    await _refused_unchanged(
        h, t, partner, "/coinche", "err-rule-coinche-own-side", standing="90 ♥"
    )
    assert "coinche" not in _codes(h.last(f"hand:1:test:{partner}"))
    assert (await h.cmd(partner, "/bid pass")) == []
    # an opponent coinches by its button
    hand = h.last(f"hand:1:test:{opp2}")
    await h.press(opp2, _button(hand, "coinche"))
    assert t.run.match.view(None).bids[-1] == ((first + 3) % 4, "coinche")
    # nobody bids after a coinche
    await _refused_unchanged(h, t, name, "/bid 100 S", "err-rule-bid-after-coinche")
    assert _codes(h.last(f"hand:1:test:{name}")) == ["pass", "surcoinche"]
    assert (await h.cmd(name, "/pass")) == []
    # the defence may not surcoinche
    await _refused_unchanged(h, t, opp1, "/surcoinche", "err-rule-surcoinche-defence")
    assert (await h.cmd(opp1, "/pass")) == []
    # the bidder's partner surcoinches: the auction is over, 90 ♥ at x4
    assert (await h.cmd(partner, "/bid surcoinche")) == []
    contract = t.run.match.view(None).contract
    assert contract is not None and contract.bid == 90 and contract.multiplier == 4
    assert "90 ♥, surcoinched (x4)" in h.last("table:1").text
    await h.app.stop()


async def test_typed_bids_in_french_and_a_whole_match(tmp_path):
    """Typed bids (value and suit in any case, capot), refusals in French, and a whole
    match played to its end by commands."""
    h = await make_harness(tmp_path / "c.db", seed_window=0)
    t = await _four_at_coinche(h, "--target", "300")
    first = t.run.to_move
    name = NAMES[first]

    def french(n: str) -> User:
        return replace(user(n), locale="fr")

    replies = await h.cmd(french(name), "/bid 90 X")
    assert not replies[0].ok and "/bid 90 H" in replies[0].text
    replies = await h.cmd(french(name), "/bid H")  # a suit alone: the value is missing
    assert not replies[0].ok
    assert tr("err-rule-bid-value", "fr") in replies[0].text
    replies = await h.cmd(french(name), "/coinche")
    assert not replies[0].ok and tr("err-rule-coinche-no-bid", "fr") in replies[0].text
    assert (await h.cmd(name, "/bid capot h")) == []
    assert list(t.run.match.view(None).bids) == [(first, "bid capot H")]
    # play on: every bid after is a pass, every card the first legal one
    for _ in range(3000):
        run = t.run
        if run.over:
            break
        mover = run.to_move
        legal = run.match.legal_actions(mover)
        if run.match.view(None).contract is None:
            bid = next((a for a in legal if a.kind == "bid"), None)
            action = bid if not run.match.view(None).bids else Action.pass_()
        else:
            action = next(a for a in legal if not a.belote)
        replies = await h.cmd(NAMES[mover], action_command(action))
        assert all(r.ok for r in replies), replies
    assert t.run.over and t.run.match.winner is not None
    results = h.posts("result:")
    assert results and any("Capot ♥" in p.text or "80 ♣" in p.text for p in results)
    await h.app.stop()
