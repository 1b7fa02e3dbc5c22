"""A player's newest private message shows their current state; nothing stale is pressable.

With a scripted core, each rule on its own: an answer the core computed before a later
version of the hand was delivered is shown as that later version; a new message that
takes the hand over deletes the older one; a DM that offered a move loses its buttons once
the hand is shown in the channel; and the core never waits on Discord (its ``deliver``
returns before Discord answers).
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

from bot.platform import Button, Channel, Post, Reply, User
from tests.discord.conftest import World
from tests.discord.test_adapter import hand_post, show, start


def here(world: World) -> Channel:
    return Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")


def pressable(world: World, user: Any) -> list[dict[str, Any]]:
    """Every private message of ``user`` (ephemeral or DM) with a button not disabled."""
    fake = world.fake
    found = fake.ephemeral_messages(user) + fake.dm_messages(user)
    return [m for m in found if any(not b.get("disabled") for b in fake.buttons(m["id"]))]


async def test_an_answer_computed_before_a_move_shows_the_move(world: World) -> None:
    """The race of issue 18: alice asks for her hand; before the answer goes out she plays
    from her older hand message (another task delivers the hand after her move). The
    answer shows the hand after the move, the older message is gone, and nothing offers
    the move that was already made."""
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    key = f"hand:1:{uid}"
    turn = ((Button("7C", "t1:4:0:play 7C"), Button("8C", "t1:4:0:play 8C")),)
    later = asyncio.Event()

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        answer = Reply("Your turn: 7C 8C", image=b"\x89PNG", buttons=turn, key=key)
        if later.is_set():
            # the move happens elsewhere (its own task, not this interaction's) after the
            # core computed this answer and before the adapter sends it
            played = hand_post(uid, channel, "You played 8C", ())
            loop = asyncio.get_running_loop()
            moved = loop.create_task(bot.adapter.deliver(played), context=contextvars.Context())
            await moved
        return [answer]

    core.script = script
    first = await fake.slash(alice, world.channel, "hand")
    await first.response()
    older = first.original_id or ""
    assert fake.messages[older]["content"] == "Your turn: 7C 8C"

    later.set()
    second = await fake.slash(alice, world.channel, "hand")
    await second.response()
    await world.settle()
    newest = second.original_id or ""
    assert fake.messages[newest]["content"] == "You played 8C"
    assert fake.buttons(newest) == []
    assert older not in fake.messages, "the older hand message is deleted"
    assert pressable(world, alice) == []
    assert [m["content"] for m in fake.ephemeral_messages(alice)] == ["You played 8C"]


async def test_show_my_hand_again_leaves_one_hand(world: World) -> None:
    """Each "Show my hand" brings the hand down to the bottom: the new message is the hand
    from then on (later versions edit it) and the older one is deleted."""
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    key = f"hand:1:{uid}"
    turn = ((Button("7C", "t1:2:0:play 7C"),),)

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        return [Reply("Your turn", image=b"\x89PNG", buttons=turn, key=key)]

    core.script = script
    shown_ids = []
    for _n in range(3):
        asked = await fake.slash(alice, world.channel, "hand")
        await asked.response()
        shown_ids.append(asked.original_id or "")
    await world.settle()
    assert [m["id"] for m in fake.ephemeral_messages(alice)] == shown_ids[-1:]
    await show(bot, hand_post(uid, here(world), "Bob played", ()))
    assert fake.messages[shown_ids[-1]]["content"] == "Bob played"
    assert pressable(world, alice) == []


async def test_a_dm_that_offered_a_move_loses_its_buttons_when_the_channel_shows_it(
    world: World,
) -> None:
    """Alice was away: her move came by DM. She comes back and asks for her hand in the
    channel: the answer is the hand from now on, and the DM keeps its picture but no
    button, so she cannot play twice or from an older copy."""
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    key = f"hand:1:{uid}"
    turn = ((Button("7C", "t1:3:0:play 7C"),),)
    await show(bot, hand_post(uid, here(world), "Your move", turn))  # no token: a DM
    [dm] = fake.dm_messages(alice)
    assert fake.buttons(dm["id"])

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        return [Reply("Your move", image=b"\x89PNG", buttons=turn, key=key)]

    core.script = script
    asked = await fake.slash(alice, world.channel, "hand")
    await asked.response()
    await world.settle()
    assert fake.buttons(dm["id"]) == [], "the DM no longer offers the move"
    assert fake.messages[dm["id"]]["attachments"], "its picture stays"
    assert [m["id"] for m in pressable(world, alice)] == [asked.original_id]


async def test_delivering_never_waits_for_discord(world: World) -> None:
    """The core hands a post over and goes on: the adapter queues it (so the table's lock
    is released at once), even while the channel's rate limit makes Discord wait."""
    bot, _core = await start(world)
    fake = world.fake
    fake._windows[world.channel.id] = (fake.now(), 5)  # the channel's 5 per 5 s are used
    loop = asyncio.get_running_loop()
    started = loop.time()
    for n in range(20):
        await bot.adapter.deliver(Post(here(world), "table:1", f"Table v{n}"))
    assert loop.time() - started < 0.05
    assert fake.requests_to("POST", r"/channels/\d+/messages") == []
    await bot.adapter.flush()
    assert [m["content"] for m in world.public()] == ["Table v19"]
