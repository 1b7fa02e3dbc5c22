"""Threads and forum posts take their parent channel's settings, then their own: through
the real discord.py client on the fake Discord, which sends threads as Discord does (the
threads of GUILD_CREATE, THREAD_CREATE, THREAD_UPDATE, THREAD_DELETE, THREAD_LIST_SYNC,
each thread's ``parent_id``, an interaction's channel object)."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import World
from tests.fakes.discord import FakeChannel, FakeUser
from tests.fakes.discord.payloads import PRIVATE_THREAD


async def ask(
    world: World,
    user: FakeUser,
    channel: FakeChannel,
    name: str,
    options: dict[str, Any] | None = None,
    sub: str | None = None,
) -> str:
    """``user`` runs ``/name sub options`` in ``channel``: the answer only they see."""
    fake = world.fake
    before = len(fake.ephemeral_messages(user))
    interaction = await fake.slash(user, channel, name, options or {}, subcommand=sub)
    await interaction.response()
    await fake.wait_for(lambda: len(fake.ephemeral_messages(user)) > before)
    return str(fake.ephemeral_messages(user)[-1]["content"])


def tables_in(world: World, channel: FakeChannel) -> list[Any]:
    assert world.bot is not None and world.bot.adapter.app is not None
    place = f"discord:{channel.guild_id}/{channel.id}"
    return [t for t in world.bot.adapter.app.tables.values() if t.channel == place]


def guild_of(world: World) -> Any:
    return world.fake.guilds[str(world.channel.guild_id)]


async def test_a_thread_takes_its_channels_values_then_its_own(world: World) -> None:
    fake, alice, mod, belote = world.fake, world.alice, world.mod, world.channel
    guild = guild_of(world)
    earlier = await fake.add_thread(guild, belote, "known at connect")  # in GUILD_CREATE
    await world.start_bot()
    later = await fake.add_thread(guild, belote, "made while connected")  # THREAD_CREATE
    private = await fake.add_thread(guild, belote, "private", kind=PRIVATE_THREAD)

    said = await ask(world, mod, belote, "settings", {"name": "ruleset", "value": "coinche"}, "set")
    assert "in this channel" not in said  # the server's: every channel
    said = await ask(
        world, mod, belote, "settings", {"name": "tables", "value": "off", "here": True}, "set"
    )
    assert "tables is now off in this channel" in said

    for thread in (earlier, later, private):
        refused = await ask(world, alice, thread, "table", {}, "create")
        assert "Tables are not hosted in this channel" in refused, thread.name
        assert not tables_in(world, thread)

    # the thread's own value over its channel's
    said = await ask(
        world, mod, later, "settings", {"name": "tables", "value": "on", "here": True}, "set"
    )
    assert "tables is now on in this channel" in said
    shown = await ask(world, alice, earlier, "settings", {}, "show")
    assert "(tables): off, set for the channel this belongs to" in shown
    assert "Table" in await ask(world, alice, later, "table", {}, "create")
    assert [t.settings.ruleset for t in tables_in(world, later)] == ["coinche"]

    # the channel's ruleset reaches its threads' tables
    await ask(
        world, mod, belote, "settings", {"name": "ruleset", "value": "classic", "here": True}, "set"
    )
    await ask(world, alice, later, "table", {}, "close")
    await ask(world, alice, later, "table", {}, "create")
    assert tables_in(world, later)[-1].settings.ruleset == "classic"

    # nothing asked of Discord's REST API about the threads
    asked = fake.requests_to("GET", r"/channels/\d+$")
    assert not asked, [r.path for r in asked]


async def test_a_forum_holds_values_for_all_its_posts(world: World) -> None:
    fake, alice, mod = world.fake, world.alice, world.mod
    guild = guild_of(world)
    await world.start_bot()
    for media in (False, True):
        forum = await fake.add_forum(guild, "media" if media else "games", media=media)
        first = await fake.add_thread(guild, forum, "Friday")
        # from a post (a forum itself takes no commands): the forum's value, for every post
        said = await ask(
            world,
            mod,
            first,
            "settings",
            {"name": "ruleset", "value": "coinche", "parent": True},
            "set",
        )
        assert "in all its threads and posts" in said, said
        second = await fake.add_thread(guild, forum, "Saturday")
        await ask(world, alice, second, "table", {}, "create")
        assert [t.settings.ruleset for t in tables_in(world, second)] == ["coinche"]
        # a post's own value wins for that post only
        await ask(
            world,
            mod,
            first,
            "settings",
            {"name": "ruleset", "value": "classic", "here": True},
            "set",
        )
        await ask(world, alice, first, "table", {}, "create")
        assert [t.settings.ruleset for t in tables_in(world, first)] == ["classic"]
        # max_tables from the forum: each post holds that many
        await ask(
            world,
            mod,
            first,
            "settings",
            {"name": "max_tables", "value": "1", "parent": True},
            "set",
        )
        assert "too many tables" in await ask(world, world.bob, second, "table", {}, "create")
        third = await fake.add_thread(guild, forum, "Sunday")
        assert "Table" in await ask(world, world.bob, third, "table", {}, "create")
        for post in (first, second, third):
            await ask(world, alice, post, "table", {}, "close")
            await ask(world, world.bob, post, "table", {}, "close")

    # parent where there is none: a friendly line, nothing changed
    said = await ask(
        world,
        mod,
        world.channel,
        "settings",
        {"name": "timer", "value": "30", "parent": True},
        "set",
    )
    assert "belongs to no other" in said
    assert "(timer): 60 · default 60" in await ask(
        world, alice, world.channel, "settings", {}, "show"
    )


async def test_a_threads_parent_is_kept_current_from_the_gateway(world: World) -> None:
    fake, alice, mod, belote = world.fake, world.alice, world.mod, world.channel
    guild = guild_of(world)
    other = fake.add_channel(guild, "tournaments")
    synced = await fake.add_thread(guild, other, "before the bot")
    await world.start_bot()
    assert world.bot is not None
    parents = world.bot.adapter.threads
    await fake.wait_for(lambda: parents.parent_of(int(synced.id)) == int(other.id))

    await ask(
        world, mod, belote, "settings", {"name": "ruleset", "value": "coinche", "here": True}, "set"
    )
    thread = await fake.add_thread(guild, belote, "moved later")
    await fake.wait_for(lambda: parents.parent_of(int(thread.id)) == int(belote.id))
    await fake.move_thread(thread, other)
    await fake.wait_for(lambda: parents.parent_of(int(thread.id)) == int(other.id))
    await ask(world, alice, thread, "table", {}, "create")
    assert tables_in(world, thread)[-1].settings.ruleset == "club"  # the server's: other's

    # archived: still known (it may be unarchived, its tables' buttons clicked in a DM)
    await ask(
        world, mod, other, "settings", {"name": "ruleset", "value": "classic", "here": True}, "set"
    )
    await fake.archive_thread(thread)
    shown = await ask(world, alice, thread, "settings", {}, "show")  # after the update
    assert "(ruleset): classic, set for the channel this belongs to" in shown
    assert parents.parent_of(int(thread.id)) == int(other.id)

    # THREAD_LIST_SYNC: the active threads of channels the bot just gained
    hidden = fake.add_channel(guild, "hidden")
    found = await fake.add_thread(guild, hidden, "seen at sync")
    parents.forget(int(found.id))  # as if its THREAD_CREATE never reached the bot
    await fake.sync_threads(guild, [hidden])
    await fake.wait_for(lambda: parents.parent_of(int(found.id)) == int(hidden.id))

    # deleted: forgotten
    await fake.delete_thread(found)
    await fake.wait_for(lambda: parents.parent_of(int(found.id)) is None)
