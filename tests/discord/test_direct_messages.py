"""A hand reaches a player by direct message when no interaction token is live.

Alice opens a classic table with three bots and plays from her ephemeral hand, then goes
quiet for more than 15 minutes (the adapter's clock and the fake's move past an
interaction token's life). When a bot's move makes it her turn, her hand comes by direct
message, with the picture and the buttons, and the table's channel says where it went.
She plays from the DM, at the right table; later versions edit that same DM, before and
after a restart. A user whose settings refuse DMs gets nothing, and nothing breaks; a
click on her DM by someone else is refused like one on her hand in the channel.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from adapters.discord.ids import channel_of_place, place_of
from adapters.discord.widgets import ActionButton, build_view
from bot.i18n import _
from bot.platform import Button, Channel
from engine import card_text
from tests.discord.conftest import TOKEN, World
from tests.fakes.discord import EPHEMERAL

CARD = re.compile(r"[7-9TJQKA][CDHS]")


def run_of(world: World) -> Any:
    assert world.bot is not None
    return world.bot.app.tables[1].run


def enabled(world: World, message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in world.fake.buttons(message["id"]) if not b.get("disabled")]


def held(world: World) -> list[str]:
    return sorted(card_text(c) for c in run_of(world).match.hand(0))


def dm_notices(world: World) -> list[str]:
    return [m["content"] for m in world.public() if "direct message" in m["content"]]


def go_idle(world: World, minutes: float = 16) -> None:
    """Alice stays away longer than an interaction token lives: the adapter's clock and
    the fake Discord's move on (the core's clock does not, so no turn timer fires)."""
    assert world.bot is not None
    adapter = world.bot.adapter
    before = adapter.now
    adapter.now = lambda: before() + minutes * 60  # type: ignore[method-assign]
    world.fake.advance(minutes * 60)


async def open_table(world: World) -> str:
    """Alice opens a classic table, three bots join, she starts: the table message id."""
    fake, alice, channel = world.fake, world.alice, world.channel
    await world.start_bot()
    created = await fake.slash(alice, channel, "table", {"ruleset": "classic"}, subcommand="create")
    await created.response()
    for _n in range(3):
        await (await fake.slash(alice, channel, "table", {}, subcommand="addbot")).response()
    await fake.wait_for(lambda: world.table_messages())
    table_id = world.table_messages()[0]["id"]
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
    assert await (await fake.click(alice, table_id, start["custom_id"])).response() == 4
    return table_id


async def play_until_a_bot_must_play_a_card(world: World) -> None:
    """Alice bids and plays from her ephemeral hand until a card is to be played by a bot."""
    fake, alice = world.fake, world.alice
    for _turn in range(100):
        run = run_of(world)
        assert not run.over
        if run.to_move != 0:
            if run.match.view(0).contract is not None:
                return
            await world.bots_play()
            continue
        live = await fake.wait_for(lambda: world.live_hand(alice))
        click = await fake.click(alice, live["id"], enabled(world, live)[0]["custom_id"])
        assert await click.response() in (6, 7)
    raise AssertionError("no card to play by a bot")


async def her_turn_by_dm(world: World) -> dict[str, Any]:
    """The bots play until it is alice's turn: her hand, as the one DM she has."""
    await world.bots_play()
    assert run_of(world).to_move == 0
    await world.fake.wait_for(lambda: world.fake.dm_messages(world.alice))
    dms = world.fake.dm_messages(world.alice)
    assert len(dms) == 1, "one DM per hand, edited in place"
    await world.fake.wait_for(lambda: enabled(world, world.fake.dm_messages(world.alice)[0]))
    return world.fake.dm_messages(world.alice)[0]


async def play_from(world: World, hand: dict[str, Any]) -> str:
    """Alice clicks her first playable card on a hand (a DM or an ephemeral copy): the
    card she played, checked at her table."""
    cards = [b for b in enabled(world, hand) if CARD.fullmatch(b["label"])]
    assert cards, [b["label"] for b in enabled(world, hand)]
    before = held(world)
    click = await world.fake.click(world.alice, hand["id"], cards[0]["custom_id"])
    assert await click.response() == 7, "the hand is updated in place"
    card = cards[0]["label"]
    assert card in before and card not in held(world), "played at her table"
    return card


async def test_an_idle_player_gets_the_hand_by_dm_and_plays_from_it(world: World) -> None:
    fake, alice = world.fake, world.alice
    table_id = await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    ephemeral_before = len(fake.ephemeral_messages(alice))

    # alice goes quiet; a bot plays and it becomes her turn: her hand comes by DM
    go_idle(world)
    dm = await her_turn_by_dm(world)
    assert "guild_id" not in dm and not dm["flags"] & EPHEMERAL
    assert dm["attachments"][0]["filename"] == "hand.png"
    labels = sorted(b["label"] for b in fake.buttons(dm["id"]) if CARD.fullmatch(b["label"]))
    assert labels == held(world), "a button for every card she holds"
    place = place_of(Channel(f"discord:{world.channel.guild_id}/{world.channel.id}"))
    assert all(b["custom_id"].startswith(f"b:@{place}:t1:") for b in fake.buttons(dm["id"]))
    assert len(fake.ephemeral_messages(alice)) == ephemeral_before, "no token: no ephemeral"
    # the table's channel tells her where to look, once, in her language
    assert dm_notices(world) == [_("notice-dm-sent", "en", name=f"<@{alice.id}>")]
    assert len(world.table_messages()) == 1

    # she plays a card from the DM: it is played at table 1, the DM shows the new hand
    card = await play_from(world, dm)
    assert card not in [b["label"] for b in fake.buttons(dm["id"])]
    assert fake.meta[dm["id"]].versions[-1]["attachments"][0]["filename"] == "hand.png"

    # idle again; her next turn edits the same DM (the channel route: no token needed)
    go_idle(world)
    patches = len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}"))
    again = await her_turn_by_dm(world)
    assert again["id"] == dm["id"]
    assert len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}")) > patches
    assert len(dm_notices(world)) == 1, "the channel is told once"
    await play_from(world, again)

    # when she interacts in the channel again, ephemeral takes over as before
    show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
    shown = await fake.click(alice, table_id, show["custom_id"])
    assert await shown.response() == 4
    assert fake.messages[shown.original_id or ""]["flags"] & EPHEMERAL
    assert len(fake.dm_messages(alice)) == 1
    assert all(r.status < 400 for r in fake.requests)


async def test_after_a_restart_the_dm_still_plays_and_is_still_edited(world: World) -> None:
    fake, alice = world.fake, world.alice
    await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    go_idle(world)
    dm = await her_turn_by_dm(world)

    # the bot restarts: a new client and a new core; it knows no token of hers
    await world.stop_bot()
    await world.start_bot()
    assert run_of(world).to_move == 0
    current = fake.messages[dm["id"]]
    await play_from(world, current)  # a button sent by the old process
    go_idle(world)
    again = await her_turn_by_dm(world)
    assert again["id"] == dm["id"], "the DM's id was kept across the restart"
    assert len(dm_notices(world)) == 1
    assert len(fake.ephemeral_messages(alice)) >= 1 and len(fake.dm_messages(alice)) == 1
    assert all(r.status < 400 for r in fake.requests)


async def test_someone_else_clicking_the_dm_is_refused_and_nothing_changes(world: World) -> None:
    fake, bob = world.fake, world.bob
    table_id = await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    go_idle(world)
    dm = await her_turn_by_dm(world)
    versions = len(fake.meta[dm["id"]].versions)
    table_versions = len(fake.meta[table_id].versions)
    seq = run_of(world).seq

    # a forged click (Discord shows a DM to its recipient only) by bob on alice's card
    button = enabled(world, dm)[0]
    forged = await fake.click(bob, dm["id"], button["custom_id"], force=True)
    assert await forged.response() == 4
    answer = forged.callback_data or {}
    assert answer["flags"] & EPHEMERAL and answer["content"] == _("err-not-your-hand", "en")
    assert len(fake.meta[dm["id"]].versions) == versions
    assert len(fake.meta[table_id].versions) == table_versions
    assert run_of(world).seq == seq and run_of(world).to_move == 0


async def test_dms_closed_the_player_gets_nothing_and_nothing_breaks(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake, alice = world.fake, world.alice
    alice.dms_open = False  # her privacy settings refuse DMs from the bot
    table_id = await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    go_idle(world)
    ephemeral_before = len(fake.ephemeral_messages(alice))
    table_versions = len(fake.meta[table_id].versions)

    with caplog.at_level(logging.INFO, logger="adapters.discord"):
        await world.bots_play()
    run = run_of(world)
    assert run.to_move == 0 and not run.over, "the match waits for her, as before"
    assert fake.dm_messages(alice) == [] and dm_notices(world) == []
    assert len(fake.ephemeral_messages(alice)) == ephemeral_before
    assert len(fake.meta[table_id].versions) > table_versions, "the table says whose turn"
    refused = [r for r in fake.requests if r.status == 403]
    assert len(refused) == 1, "asked once, not again for every post"
    lines = [r.getMessage() for r in caplog.records if "direct messages" in r.getMessage()]
    assert lines and all(
        r.levelno == logging.INFO for r in caplog.records if r.getMessage() in lines
    )
    tokens = [TOKEN] + [i.token for i in fake.interactions.values()]
    assert not any(t in r.getMessage() for r in caplog.records for t in tokens)

    # her next click brings the hand back, ephemeral, as today; she plays on
    show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
    shown = await fake.click(alice, table_id, show["custom_id"])
    assert await shown.response() == 4
    hand = fake.messages[shown.original_id or ""]
    assert hand["flags"] & EPHEMERAL
    await play_from(world, hand)


def test_a_place_fits_in_a_custom_id_and_names_the_table_channel_back() -> None:
    """The longest place (two 64-bit snowflakes) with the longest action (60 bytes) and a
    duplicate suffix stays within Discord's 100 characters, and parses back."""
    biggest = Channel(f"discord:{2**64 - 1}/{2**64 - 1}")
    place = place_of(biggest)
    assert place is not None and channel_of_place(place) == biggest
    action = "t9999:99999:4:" + "x" * 46
    assert len(action) == 60
    view = build_view(((Button("A", action), Button("B", action)),), place)
    assert view is not None
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert all(len(i) <= 100 for i in ids) and ids[1].endswith("#1")
    assert ActionButton.parse(ids[1]) == (action, place)
    assert ActionButton.parse("b:" + action) == (action, None)
    assert place_of(Channel("telegram:42")) is None
