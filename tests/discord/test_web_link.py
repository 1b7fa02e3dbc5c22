"""On Discord, ``/web`` and the table's "Web table" button answer with a private link
button to the person's seat on the web table (ephemeral: nobody else sees the link)."""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.discord.conftest import World
from tests.fakes.discord import EPHEMERAL

PUBLIC = "https://belote.example.org"


async def test_web_gives_a_private_link_button_to_the_seat(world: World) -> None:
    world.settings = {"web_key": b"k" * 32, "public_url": PUBLIC}
    fake, alice = world.fake, world.alice
    table_id, _ = await world.open_table({"ruleset": "club"})
    await world.settle()
    labels = [b["label"] for b in fake.buttons(table_id)]
    assert "Web table" in labels
    asked = await fake.slash(alice, world.channel, "web")
    await asked.response()
    data = asked.callback_data or {}
    assert int(data.get("flags") or 0) & EPHEMERAL
    [link] = [
        b for row in data.get("components", []) for b in row["components"] if b.get("style") == 5
    ]
    assert link["label"] == "Open the table" and len(link["url"]) <= 512
    parts = urlsplit(link["url"])
    assert f"{parts.scheme}://{parts.netloc}" == PUBLIC and parts.path == "/table/"
    assert parts.fragment.startswith("k=")
    # the table's button gives the same, privately
    web = next(b for b in fake.buttons(table_id) if b.get("custom_id", "").endswith(":web"))
    click = await fake.click(world.bob, table_id, web["custom_id"])
    await click.response()
    answer = click.callback_data or {}
    assert int(answer.get("flags") or 0) & EPHEMERAL  # bob sits nowhere: a watch link
    assert "Watch t1" in (answer.get("content") or "")
    await world.stop_bot()
