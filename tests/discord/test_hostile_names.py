"""A name written to ping or to format (``@everyone``, ``<@id>``, ``**bold**``) shows on
Discord as typed and pings nobody: every message the bot sends or edits carries no
allowed mentions, and its text is escaped for Discord's markdown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from tests.discord.conftest import World
from tests.fakes.discord import FakeUser
from tests.fakes.discord.payloads import snowflake

HOSTILE = (
    "**Eve** @everyone @here <@123456789012345678> __x__ ||spoiler|| [link](https://evil.example)"
)


@dataclass
class Nicknamed(FakeUser):
    """A person whose display name is whatever they chose."""

    display: str = ""

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "global_name": self.display}


def _message_bodies(world: World) -> list[dict[str, Any]]:
    """The message part of every request that writes a message's text."""
    bodies = []
    for r in world.fake.requests:
        body = r.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "type" in body else body  # an interaction callback
        if isinstance(data, dict) and "content" in data:
            bodies.append(data)
    return bodies


async def test_a_hostile_name_pings_nobody_and_shows_as_typed(world: World) -> None:
    fake = world.fake
    eve = Nicknamed(snowflake(), "eve", display=HOSTILE)
    fake.users[eve.id] = eve
    await world.start_bot()
    created = await fake.slash(eve, world.channel, "table", {}, subcommand="create")
    await created.response()
    await (await fake.slash(eve, world.channel, "table", {}, subcommand="addbot")).response()
    await fake.wait_for(lambda: world.table_messages())
    table = world.table_messages()[-1]["content"]
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(HOSTILE))
    assert escaped in table
    assert "@everyone" not in table and "@here" not in table and "**Eve**" not in table
    assert "<@123456789012345678>" not in table
    bodies = _message_bodies(world)
    assert len(bodies) >= 3
    for body in bodies:
        assert body.get("allowed_mentions") == {"parse": []}, body
