"""A hand reaches a player by direct message when no interaction token is live.

Alice opens a classic table with three bots and plays from her ephemeral hand, then goes
quiet for more than 15 minutes (the adapter's clock and the fake's move past an
interaction token's life). When a bot's move makes it her turn, her hand comes by direct
message, with the picture and the buttons, and the table's channel says where it went.
She plays from the DM, at the right table. Discord notifies a new message, never an edit:
when it is her move again, the hand comes as a new DM and the old one is deleted (also
after a restart), while versions that ask nothing of her (the AI played for her when her
timer ran out) edit the DM quietly. A user whose settings refuse DMs gets nothing, and
nothing breaks; a click on her DM by someone else is refused like one on her hand in the
channel.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from adapters.discord.ids import channel_of_place, place_of
from adapters.discord.messages import TOKEN_TTL, PublicMessages, dm_key
from adapters.discord.widgets import ActionButton, build_view
from bot.platform import Button, Channel
from bot.show.i18n import _
from engine import card_text
from tests.discord.conftest import TOKEN, World
from tests.discord.test_adapter import hand_post, show, start
from tests.fakes.discord import EPHEMERAL

CARD = re.compile(r"[7-9TJQKA][CDHS]")


def run_of(world: World) -> Any:
    assert world.bot is not None
    return world.bot.app.tables[1].run


def enabled(world: World, message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in world.fake.buttons(message["id"]) if not b.get("disabled")]


def held(world: World) -> list[str]:
    return sorted(card_text(c) for c in run_of(world).match.hand(0))


def labels_of(world: World, message: dict[str, Any]) -> list[str]:
    """The cards on a hand's buttons, sorted."""
    return sorted(
        b["label"] for b in world.fake.buttons(message["id"]) if CARD.fullmatch(b["label"])
    )


def dm_notices(world: World) -> list[str]:
    return [m["content"] for m in world.public() if "direct message" in m["content"]]


def hand_dms(world: World) -> list[dict[str, Any]]:
    """Alice's DMs that show her hand (a timeout notice is a DM of its own)."""
    return [
        m
        for m in world.fake.dm_messages(world.alice)
        if any(a["filename"] == "hand.png" for a in m["attachments"])
    ]


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
    table_id, answered = await world.open_table({"ruleset": "classic"})
    assert answered == 4
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
    """The bots play until it is alice's turn: her hand, as the one hand DM she has (an
    older one was deleted), with cards to play."""
    await world.bots_play()
    assert run_of(world).to_move == 0
    await world.fake.wait_for(
        lambda: len(hand_dms(world)) == 1 and enabled(world, hand_dms(world)[0])
    )
    assert len(hand_dms(world)) == 1, "one DM per hand: the one before was deleted"
    return hand_dms(world)[0]


def deletes_of(world: World, message: dict[str, Any]) -> list[int]:
    """The statuses of the bot's requests to delete that message."""
    path = rf"/channels/{message['channel_id']}/messages/{message['id']}"
    return [r.status for r in world.fake.requests_to("DELETE", path)]


async def play_from(world: World, hand: dict[str, Any]) -> str:
    """Alice clicks her first playable card on a hand (a DM or an ephemeral copy), or her
    first bid when a new deal is being bid: what she clicked, checked at her table."""
    cards = [b for b in enabled(world, hand) if CARD.fullmatch(b["label"])]
    choice = (cards or enabled(world, hand))[0]
    before, seq = held(world), run_of(world).seq
    click = await world.fake.click(world.alice, hand["id"], choice["custom_id"])
    assert await click.response() == 7, "the hand is updated in place"
    if cards:
        assert choice["label"] in before and choice["label"] not in held(world), "played"
    assert run_of(world).seq > seq, "at her table"
    return str(choice["label"])


async def play_on_until_a_bot_moves(world: World, dm: dict[str, Any]) -> None:
    """Alice plays from her DM until a bot is to move: a card may win her the trick and the
    lead of the next, which the DM (updated in place by her click) asks for at once."""
    for _move in range(8):
        if run_of(world).to_move != 0:
            return
        await play_from(world, world.fake.messages[dm["id"]])
    raise AssertionError("a bot never got the move")


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
    assert labels_of(world, dm) == held(world), "a button for every card she holds"
    place = place_of(Channel(f"discord:{world.channel.guild_id}/{world.channel.id}"))
    assert all(b["custom_id"].startswith(f"b:@{place}:t1:") for b in fake.buttons(dm["id"]))
    assert len(fake.ephemeral_messages(alice)) == ephemeral_before, "no token: no ephemeral"
    # the table's channel tells her where to look, once, in her language
    await world.settle()
    assert dm_notices(world) == [_("notice-dm-sent", "en", name=f"<@{alice.id}>")]
    assert len(world.table_messages()) == 1

    # she plays a card from the DM: it is played at table 1, the DM shows the new hand
    card = await play_from(world, dm)
    assert card not in [b["label"] for b in fake.buttons(dm["id"])]
    assert fake.meta[dm["id"]].versions[-1]["attachments"][0]["filename"] == "hand.png"
    await play_on_until_a_bot_moves(world, dm)

    # she looks away for a minute (her click's token lives on, but an edit through it
    # would not notify either): her next move is a new DM (Discord notifies those, not
    # edits), and the old one is deleted, so the DM does not fill up with stale hands
    patches = len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}"))
    again = await her_turn_by_dm(world)
    assert int(again["id"]) > int(dm["id"]) and dm["id"] not in fake.messages
    assert deletes_of(world, dm) == [204]
    assert len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}")) == patches
    assert enabled(world, again) and again["attachments"][0]["filename"] == "hand.png"
    await world.settle()
    assert len(dm_notices(world)) == 1, "the channel is told once"
    await play_from(world, again)

    # when she interacts in the channel again, ephemeral takes over as before
    show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
    shown = await fake.click(alice, table_id, show["custom_id"])
    assert await shown.response() == 4
    assert fake.messages[shown.original_id or ""]["flags"] & EPHEMERAL
    assert [m["id"] for m in fake.dm_messages(alice)] == [again["id"]]
    assert all(r.status < 400 for r in fake.requests)


async def test_after_a_restart_the_dm_still_plays_is_still_edited_and_replaced(
    world: World,
) -> None:
    fake, alice = world.fake, world.alice
    await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    go_idle(world)
    dm = await her_turn_by_dm(world)

    # the bot restarts: a new client and a new core; it knows no token of hers (the
    # channel's notice of her DM is out first: a stop drains the queue for a few seconds
    # only, and on a loaded machine it may drop that notice, which no start shows again)
    await world.settle()
    patches = len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}"))
    await world.stop_bot()
    await world.start_bot()
    assert run_of(world).to_move == 0
    # the core shows her hand again as it resumes: the same move, which the DM already
    # asks for (the map says so across the restart), so it is edited, not sent anew
    await fake.wait_for(
        lambda: len(fake.requests_to("PATCH", rf"/channels/\d+/messages/{dm['id']}")) > patches
    )
    assert [m["id"] for m in hand_dms(world)] == [dm["id"]] and deletes_of(world, dm) == []
    current = fake.messages[dm["id"]]
    await play_from(world, current)  # a button sent by the old process
    await play_on_until_a_bot_moves(world, dm)
    go_idle(world)
    again = await her_turn_by_dm(world)
    # her move again: a new DM, and the old one, whose id was kept across the restart,
    # is deleted
    assert again["id"] != dm["id"] and deletes_of(world, dm) == [204]
    await world.settle()
    assert len(dm_notices(world)) == 1
    assert len(fake.ephemeral_messages(alice)) >= 1 and len(fake.dm_messages(alice)) == 1
    assert all(r.status < 400 for r in fake.requests)


async def test_while_nothing_is_asked_of_her_the_dm_is_edited_in_place(world: World) -> None:
    """She looks away from a DM that asks for her move: her timer runs out and the AI
    plays for her. Her hand, which asks nothing of her now, edits the DM quietly; her
    next move comes as a new DM (a ping), and the old one is deleted."""
    fake = world.fake
    await open_table(world)
    await play_until_a_bot_must_play_a_card(world)
    go_idle(world)
    dm = await her_turn_by_dm(world)
    # the timer is tried on a move after which a bot is to play (not the last card of a
    # trick, which she might win and lead the next one)
    for _move in range(8):
        if len(run_of(world).match.current_trick) < 3:
            break
        await play_from(world, dm)
        await play_on_until_a_bot_moves(world, dm)
        go_idle(world)
        dm = await her_turn_by_dm(world)
    assert len(run_of(world).match.current_trick) < 3
    seq, versions = run_of(world).seq, len(fake.meta[dm["id"]].versions)
    dms_before = len(fake.dm_messages(world.alice))

    assert world.scheduler is not None
    assert await world.scheduler.advance(run_of(world).timer, max_jobs=1) == 1  # her timer
    run = run_of(world)
    assert run.timeouts[0] == 1 and run.to_move != 0 and run.seq > seq, "the AI played for her"
    await fake.wait_for(lambda: len(fake.meta[dm["id"]].versions) > versions)
    assert [m["id"] for m in hand_dms(world)] == [dm["id"]], "edited in place"
    now = fake.messages[dm["id"]]
    assert enabled(world, now) == [] and now["attachments"][0]["filename"] == "hand.png"
    assert deletes_of(world, dm) == []
    # the AI's move is told by a DM of its own (another post key: a new message)
    await fake.wait_for(lambda: len(fake.dm_messages(world.alice)) == dms_before + 1)

    # the bots play on: her move again is a new hand DM, the quiet one is deleted
    again = await her_turn_by_dm(world)
    assert int(again["id"]) > int(dm["id"]) and deletes_of(world, dm) == [204]
    assert enabled(world, again) and again["attachments"][0]["filename"] == "hand.png"
    await world.settle()
    assert len(dm_notices(world)) == 1 and all(r.status < 400 for r in fake.requests)


async def test_one_ping_per_move_with_a_scripted_core(world: World) -> None:
    """The rule on its own: a version that asks her to act (a button not disabled) is a new
    DM unless the DM already asks for this move; anything else edits in place."""
    bot, _core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")
    move = ((Button("7C", "t1:1:0:play 7C"), Button("8C", "t1:1:0:play 8C", enabled=False)),)
    wait = ((Button("7C", "t1:1:0:play 7C", enabled=False),),)

    def dms() -> list[tuple[str, str]]:
        return [(m["id"], m["content"]) for m in fake.dm_messages(alice)]

    await show(bot, hand_post(uid, here, "Your move", move))
    [(first, _text)] = dms()
    # the same move shown again, nothing in between: edited in place, no second ping
    await show(bot, hand_post(uid, here, "Your move, still", move))
    assert dms() == [(first, "Your move, still")]
    # nothing asked of her (every button disabled, or none): edited in place
    await show(bot, hand_post(uid, here, "Wait", wait))
    await show(bot, hand_post(uid, here, "Wait on"))
    assert dms() == [(first, "Wait on")]
    # her move again: a new DM, the old one deleted
    await show(bot, hand_post(uid, here, "Your move again", move))
    [(second, text)] = dms()
    assert text == "Your move again" and int(second) > int(first)
    assert deletes_of(world, {"id": first, "channel_id": fake.messages[second]["channel_id"]}) == [
        204
    ]

    # she acts in the channel: a later move is shown ephemerally (the DM is now older than
    # it); once her token is gone, the move after that pings her with a new DM although
    # the DM still asks (for a move that is over)
    await (await fake.slash(alice, world.channel, "score")).response()
    await show(bot, hand_post(uid, here, "Your move, in the channel", move))
    assert fake.ephemeral_messages(alice)[-1]["content"] == "Your move, in the channel"
    clock = [bot.adapter.now() + TOKEN_TTL + 1]
    bot.adapter.now = lambda: clock[0]  # type: ignore[method-assign]
    fake.advance(15 * 60 + 1)
    await show(bot, hand_post(uid, here, "Your move by DM", move))
    [(third, text)] = dms()
    assert text == "Your move by DM" and int(third) > int(second)
    assert all(r.status < 400 for r in fake.requests)


async def test_an_old_dm_that_cannot_be_deleted_breaks_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The old DM is gone already (404, 10008: fine, nothing logged) or Discord fails to
    delete it (a 403: a warning, a stale copy stays): the new DM is sent and kept all the
    same, and later versions edit it."""
    bot, _core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")
    move = ((Button("7C", "t1:1:0:play 7C"),),)

    await show(bot, hand_post(uid, here, "Your move", move))
    await show(bot, hand_post(uid, here, "Wait"))
    [gone] = fake.dm_messages(alice)
    fake.delete_message(gone["id"])  # it vanished on Discord's side; the map still has it
    with caplog.at_level(logging.INFO, logger="adapters.discord"):
        await show(bot, hand_post(uid, here, "Your move again", move))
    [new] = fake.dm_messages(alice)
    assert new["content"] == "Your move again" and deletes_of(world, gone) == [404]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]

    await show(bot, hand_post(uid, here, "Wait again"))
    fake.fail_next(
        "DELETE",
        rf"/channels/\d+/messages/{new['id']}",
        status=403,
        code=50003,
        message="Cannot execute action on a DM channel",
    )
    with caplog.at_level(logging.INFO, logger="adapters.discord"):
        await show(bot, hand_post(uid, here, "Your move once more", move))
    stale, newest = fake.dm_messages(alice)
    assert stale["id"] == new["id"] and newest["content"] == "Your move once more"
    assert any("could not delete the old DM" in r.getMessage() for r in caplog.records)
    await show(bot, hand_post(uid, here, "Played"))
    assert fake.messages[newest["id"]]["content"] == "Played"
    assert fake.messages[stale["id"]]["content"] == "Wait again"
    assert deletes_of(world, gone) == [404]


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
    await world.settle()
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


def test_the_map_keeps_whether_a_dm_asks_and_reads_older_files(tmp_path: Path) -> None:
    """``[channel, message, 1]`` for a DM that asks to act; an entry of an older file (no
    flag) reads as "does not ask", so its next move is a new DM; an unchanged entry is not
    written again (a DM is edited at every move)."""
    path = tmp_path / "map.json"
    key = dm_key("discord:1", "hand:1:discord:1")
    path.write_text(json.dumps({"table:1": [5, 6], key: [7, 8]}), encoding="utf-8")
    older = PublicMessages(path)
    assert older.get(key) == (7, 8) and not older.asking(key)
    older.set(key, 7, 9, asking=True)
    assert json.loads(path.read_text(encoding="utf-8"))[key] == [7, 9, 1]
    again = PublicMessages(path)
    assert again.asking(key) and again.get("table:1") == (5, 6) and not again.asking("table:1")
    path.unlink()
    again.set(key, 7, 9, asking=True)
    assert not path.exists(), "nothing changed: nothing written"
    again.outdated(key)
    assert not again.asking(key) and json.loads(path.read_text(encoding="utf-8"))[key] == [7, 9]
    again.set(key, 7, 9, asking=True)
    again.forget(key)
    assert not again.asking(key) and key not in json.loads(path.read_text(encoding="utf-8"))
