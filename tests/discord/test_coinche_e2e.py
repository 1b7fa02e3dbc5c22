"""A Coinche match on the fake Discord, four people clicking: the table made with its
options by the slash command, the two-step bid (a value, then its suit), typed bids, and
the auction's bad inputs refused with the rule's reason in the player's language while
nothing changes; then the match played to its end with the hands' buttons.
"""

from __future__ import annotations

from typing import Any

from bot.show.i18n import _
from tests.discord.conftest import World
from tests.fakes.discord import EPHEMERAL, FakeUser


def _ids(world: World, message: dict[str, Any]) -> list[str]:
    """The action part of each enabled button (``b:t1:3:0:value 90`` -> ``value 90``)."""
    return [
        b["custom_id"].rsplit(":", 1)[1]
        for b in world.fake.buttons(message["id"])
        if not b.get("disabled")
    ]


def _custom_id(world: World, message: dict[str, Any], code: str) -> str:
    found = [b for b in world.fake.buttons(message["id"]) if b["custom_id"].endswith(":" + code)]
    assert found, (code, _ids(world, message))
    return found[0]["custom_id"]


async def _answer(world: World, interaction: Any) -> tuple[int, str, int]:
    kind = await interaction.response()
    await world.settle()
    data = interaction.callback_data or {}
    return kind, data.get("content") or "", int(data.get("flags") or 0)


async def test_a_coinche_match_by_clicks(world: World) -> None:
    fake, channel = world.fake, world.channel
    dave = fake.add_user("dave", locale="fr")
    people: list[FakeUser] = [world.alice, world.bob, world.mod, dave]
    await world.start_bot()
    table_cmd = next(c for c in fake.global_commands if c["name"] == "table")
    create = next(o for o in table_cmd["options"] if o["name"] == "create")
    names = {o["name"] for o in create["options"]}
    assert {"no_trump", "all_trump", "generale", "bid_only"} <= names
    assert {"coinche", "surcoinche"} <= {c["name"] for c in fake.global_commands}

    created = await fake.slash(
        world.alice,
        channel,
        "table",
        {"ruleset": "coinche", "target": 1, "all_trump": True},
        subcommand="create",
    )
    kind, text, flags = await _answer(world, created)
    assert kind == 4 and flags & EPHEMERAL and "t1" in text
    for seat, who in enumerate(people[1:], start=2):
        joined = await fake.slash(who, channel, "table", {"seat": seat}, subcommand="join")
        assert (await _answer(world, joined))[0] == 4
    table_id = world.table_messages()[0]["id"]
    assert "coinche (All Trump)" in fake.messages[table_id]["content"]
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
    assert await (await fake.click(world.alice, table_id, start["custom_id"])).response() == 4
    await world.settle()
    assert world.bot is not None
    app = world.bot.app
    await fake.wait_for(lambda: app.tables[1].run.phase == "play")
    for who in people[1:]:  # "Show my hand": each gets their hand, privately, with buttons
        show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
        assert await (await fake.click(who, table_id, show["custom_id"])).response() == 4
    await world.settle()
    run = app.tables[1].run

    def mover() -> FakeUser:
        return people[run.to_move]

    def hand_of(who: FakeUser) -> dict[str, Any]:
        found = world.live_hand(who)
        assert found is not None, who.username
        return found

    # --- the first bid: a value, then its suit -------------------------------------------------
    first = mover()
    hand = hand_of(first)
    ids = _ids(world, hand)
    assert ids[:2] == ["value 80", "value 90"] and "value capot" in ids and "pass" in ids
    assert "value generale" not in ids  # not an option of this table
    assert "Capot" in [b["label"] for b in fake.buttons(hand["id"])]
    seq = run.seq
    picked = await fake.click(first, hand["id"], _custom_id(world, hand, "value 90"))
    assert await picked.response() == 7, "the value's suits replace the values in place"
    await world.settle()
    assert run.seq == seq and not run.match.view(None).bids
    hand = hand_of(first)
    assert _ids(world, hand) == [
        "bid 90 C",
        "bid 90 D",
        "bid 90 H",
        "bid 90 S",
        "bid 90 AT",
        "values",
        "pass",
    ]
    suit_labels = [b["label"] for b in fake.buttons(hand["id"])][:4]
    assert suit_labels == ["90 ♣", "90 ♦", "90 ♥", "90 ♠"]
    # someone else presses it (a forged click): refused, nothing changes
    opp = people[(run.to_move + 1) % 4]
    bid_90_hearts = _custom_id(world, hand, "bid 90 H")
    forged = await fake.click(opp, hand["id"], bid_90_hearts, force=True)
    kind, text, flags = await _answer(world, forged)
    assert flags & EPHEMERAL and text == _("err-not-your-hand", "en")
    assert run.seq == seq
    bid = await fake.click(first, hand["id"], bid_90_hearts)
    assert await bid.response() == 7
    await world.settle()
    assert list(run.match.view(None).bids) == [(people.index(first), "bid 90 H")]
    # the same button again: a double click, refused
    again = await fake.click(first, hand["id"], bid_90_hearts, force=True)
    kind, text, flags = await _answer(world, again)
    assert flags & EPHEMERAL and text == _("err-double-press", "en")
    await fake.wait_for(lambda: "90 ♥" in fake.messages[table_id]["content"])

    # --- bad inputs: the rule's reason in the player's language, nothing changes ----------------
    seat0 = people.index(first)
    order = [people[(seat0 + k) % 4] for k in range(4)]  # bidder, opp, partner, opp
    bidder, opp1, partner, opp2 = order

    async def refused(who: FakeUser, command: str, options: dict[str, Any], key: str) -> None:
        before = (run.seq, list(run.match.view(None).bids))
        loc = "fr" if who is dave else "en"
        answered = await fake.slash(who, channel, command, options)
        kind, text, flags = await _answer(world, answered)
        assert kind == 4 and flags & EPHEMERAL
        assert _(key, loc, standing="90 ♥") in text, text
        assert (run.seq, list(run.match.view(None).bids)) == before

    await refused(opp1, "bid", {"bid": "80 S"}, "err-rule-bid-higher")
    ids = _ids(world, hand_of(opp1))
    assert ids[0] == "value 100" and "coinche" in ids
    passed = await fake.click(opp1, hand_of(opp1)["id"], _custom_id(world, hand_of(opp1), "pass"))
    assert await passed.response() == 7
    await world.settle()
    await refused(partner, "coinche", {}, "err-rule-coinche-own-side")
    passed = await fake.slash(partner, channel, "bid", {"bid": "pass"})
    await _answer(world, passed)
    coinche = await fake.click(
        opp2, hand_of(opp2)["id"], _custom_id(world, hand_of(opp2), "coinche")
    )
    assert await coinche.response() == 7
    await world.settle()
    assert run.match.view(None).bids[-1][1] == "coinche"
    await refused(bidder, "bid", {"bid": "100 S"}, "err-rule-bid-after-coinche")
    assert _ids(world, hand_of(bidder)) == ["pass", "surcoinche"]
    await _answer(world, await fake.slash(bidder, channel, "bid", {"bid": "pass"}))
    await refused(opp1, "surcoinche", {}, "err-rule-surcoinche-defence")
    for _n in range(2):  # the defence passes, then the bidder's partner passes: 90 ♥ coinched
        who = mover()
        await _answer(world, await fake.slash(who, channel, "bid", {"bid": "pass"}))
    contract = run.match.view(None).contract
    assert contract is not None and contract.bid == 90 and contract.multiplier == 2
    await fake.wait_for(lambda: "90 ♥, coinched (x2)" in fake.messages[table_id]["content"])

    # --- the cards: each person clicks a card of their hand until the match ends ---------------
    for _turn in range(400):
        if run.over:
            break
        who = mover()
        hand = hand_of(who)
        card = next(b for b in fake.buttons(hand["id"]) if not b.get("disabled"))
        await (await fake.click(who, hand["id"], card["custom_id"])).response()
        await world.settle()
    else:
        raise AssertionError("the match did not end")
    await fake.wait_for(lambda: "wins the match" in fake.messages[table_id]["content"])
    results = [m["content"] for m in world.public() if m["content"].startswith("Deal 1")]
    assert results and "90 ♥, coinched (x2)" in results[0]
