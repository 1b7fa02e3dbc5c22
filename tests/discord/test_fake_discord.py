"""The fake Discord against the real discord.py: handshake, commands, interactions, limits.

These tests use a bare discord.py client (no Belote at all), so they check the fake itself:
if discord.py accepts its payloads here, the adapter's tests run on solid ground.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
import pytest
from discord import app_commands

from tests.fakes.discord import EPHEMERAL, FakeDiscord, fake_discord

TOKEN = "fake-bot-token"


class Press(discord.ui.DynamicItem[discord.ui.Button], template=r"t:(?P<n>\d+)"):
    """A persistent button: the count it carries is in its custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"t:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # type: ignore[override]
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Press(self.n + 1))
        await interaction.response.edit_message(content=f"pressed {self.n}", view=view)


class Client(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.gate = asyncio.Event()
        self.gate.set()
        self.errors: list[BaseException] = []

        @self.tree.command(description="Say hello privately, with a picture")
        async def hello(interaction: discord.Interaction, name: str) -> None:
            await self.gate.wait()
            try:
                file = discord.File(__import__("io").BytesIO(b"\x89PNG fake"), "hand.png")
                await interaction.response.send_message(f"hi {name}", ephemeral=True, file=file)
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @self.tree.command(description="Think first, answer later")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("done")

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Press)


@asynccontextmanager
async def running(fake: FakeDiscord) -> AsyncIterator[Client]:
    client = Client()
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield client
    finally:
        await client.close()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord(token=TOKEN) as server:
        guild = server.add_guild()
        server.add_channel(guild, "belote")
        yield server


async def test_login_identify_ready_and_heartbeat(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        assert client.user is not None and str(client.user.id) == fake.application_id
        assert client.application_id == int(fake.application_id)
        paths = [(r.method, r.path) for r in fake.requests]
        assert ("GET", "/users/@me") in paths
        assert ("GET", "/oauth2/applications/@me") in paths
        assert all(
            r.headers.get("Authorization") == f"Bot {TOKEN}"
            for r in fake.requests
            if r.path.startswith("/users")
        )
        identify = [f for d, f in fake.gateway_log if d == "in" and f["op"] == 2]
        assert len(identify) == 1 and identify[0]["d"]["token"] == TOKEN
        assert identify[0]["d"]["intents"] == 1  # guilds only
        await fake.wait_for(lambda: any(s.heartbeats for s in fake.sessions))
        acks = [f for d, f in fake.gateway_log if d == "out" and f["op"] == 11]
        assert acks
        guild = next(iter(fake.guilds.values()))
        assert client.get_guild(int(guild.id)) is not None  # GUILD_CREATE was understood


async def test_bad_token_fails_login() -> None:
    async with fake_discord(token="the-real-one"):
        client = Client()
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
        await client.close()


async def test_reconnect_resumes_on_resume_gateway_url(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        resumed = asyncio.create_task(client.wait_for("resumed", timeout=10))
        await asyncio.sleep(0)
        await fake.request_reconnect()
        await resumed
        assert fake.resume_count == 1 and fake.identify_count == 1


async def test_sync_then_slash_command_answers_ephemerally_with_a_file(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        await client.tree.sync()
        put = fake.requests_to("PUT", rf"/applications/{fake.application_id}/commands")
        assert {c["name"] for c in put[0].json} == {"hello", "slow"}
        user = fake.add_user("alice")
        channel = next(iter(fake.channels.values()))
        interaction = await fake.slash(user, channel, "hello", {"name": "Bob"})
        assert await interaction.response() == 4
        message = fake.messages[interaction.original_id or ""]
        assert message["content"] == "hi Bob"
        assert message["flags"] & EPHEMERAL
        assert message["attachments"][0]["filename"] == "hand.png"
        callback = fake.requests_to("POST", rf"/interactions/{interaction.id}/.+/callback")[0]
        assert callback.multipart and callback.files[0].data == b"\x89PNG fake"
        other = fake.add_user("bob")
        assert message not in fake.visible_messages(other, channel)
        assert message in fake.visible_messages(user, channel)


async def test_first_followup_after_thinking_replaces_the_loading_message(
    fake: FakeDiscord,
) -> None:
    async with running(fake) as client:
        await client.tree.sync()
        user = fake.add_user("alice")
        channel = next(iter(fake.channels.values()))
        interaction = await fake.slash(user, channel, "slow")
        assert await interaction.response() == 5
        await fake.wait_for(lambda: fake.requests_to("POST", r"/webhooks/.+"))
        message = fake.messages[interaction.original_id or ""]
        assert message["content"] == "done" and message["flags"] == EPHEMERAL
        assert len(fake.ephemeral_messages(user)) == 1


async def test_late_answer_is_refused_as_unknown_interaction(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        await client.tree.sync()
        client.gate.clear()
        user = fake.add_user("alice")
        channel = next(iter(fake.channels.values()))
        await fake.slash(user, channel, "hello", {"name": "late"})
        fake.advance(3.5)  # the bot "took" longer than Discord's 3 s
        client.gate.set()
        await fake.wait_for(lambda: client.errors)
        error = client.errors[0]
        assert isinstance(error, discord.NotFound) and error.code == 10062


async def test_unregistered_command_cannot_be_typed(fake: FakeDiscord) -> None:
    async with running(fake):
        user = fake.add_user("alice")
        channel = next(iter(fake.channels.values()))
        with pytest.raises(AssertionError, match="not registered"):
            await fake.slash(user, channel, "hello", {"name": "x"})


async def test_dynamic_button_click_updates_message_once(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        channel = next(iter(fake.channels.values()))
        view = discord.ui.View(timeout=None)
        view.add_item(Press(1))
        sent = await client.get_partial_messageable(int(channel.id)).send("start", view=view)
        assert fake.buttons(str(sent.id))[0]["custom_id"] == "t:1"
        user = fake.add_user("alice")
        click = await fake.click(user, str(sent.id), "t:1")
        assert await click.response() == 7
        assert fake.messages[str(sent.id)]["content"] == "pressed 1"
        assert fake.buttons(str(sent.id))[0]["custom_id"] == "t:2"
        with pytest.raises(AssertionError, match="no button"):
            await fake.click(user, str(sent.id), "t:1")  # gone from the message
        # the webhook of the click edits the clicked message for 15 minutes, not after
        await client.http.request(
            discord.http.Route(
                "GET", "/webhooks/{a}/{t}/messages/@original", a=fake.application_id, t=click.token
            )
        )
        fake.advance(15 * 60 + 1)
        with pytest.raises(discord.HTTPException) as info:
            await client.http.request(
                discord.http.Route(
                    "GET",
                    "/webhooks/{a}/{t}/messages/@original",
                    a=fake.application_id,
                    t=click.token,
                )
            )
        assert info.value.code == 50027


async def test_second_answer_to_one_interaction_is_refused(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        channel = next(iter(fake.channels.values()))
        view = discord.ui.View(timeout=None)
        view.add_item(Press(5))
        sent = await client.get_partial_messageable(int(channel.id)).send("x", view=view)
        click = await fake.click(fake.add_user("alice"), str(sent.id), "t:5")
        await click.response()
        route = discord.http.Route(
            "POST", "/interactions/{i}/{t}/callback", i=click.id, t=click.token
        )
        with pytest.raises(discord.HTTPException) as info:
            await client.http.request(route, json={"type": 6})
        assert info.value.code == 40060


async def test_invalid_components_are_refused_like_discord(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        channel = next(iter(fake.channels.values()))
        target = client.get_partial_messageable(int(channel.id))
        view = discord.ui.View(timeout=None)
        for n in range(2):
            view.add_item(discord.ui.Button(label="same", custom_id="dup", row=n))
        with pytest.raises(discord.HTTPException) as info:
            await target.send("x", view=view)
        assert info.value.code == 50035
        with pytest.raises(discord.HTTPException) as info:
            await target.send("y" * 2001)
        assert info.value.code == 50035


async def test_direct_messages_open_send_click_and_refuse_like_discord(fake: FakeDiscord) -> None:
    """``POST /users/@me/channels`` opens the DM (type 1, the same channel every time); a
    click there arrives without a guild, as a User; a user who refuses DMs gets none."""
    async with running(fake) as client:
        alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_open=False)
        dm = await client.create_dm(discord.Object(id=int(alice.id)))
        assert isinstance(dm, discord.DMChannel) and dm.recipient is not None
        assert dm.recipient.id == int(alice.id)
        opened = fake.requests_to("POST", "/users/@me/channels")
        assert opened[0].json == {"recipient_id": int(alice.id)}
        view = discord.ui.View(timeout=None)
        view.add_item(Press(1))
        sent = await dm.send("your hand", view=view)
        assert [m["id"] for m in fake.dm_messages(alice)] == [str(sent.id)]
        assert "guild_id" not in fake.messages[str(sent.id)]
        with pytest.raises(AssertionError, match="direct messages"):
            await fake.click(bob, str(sent.id), "t:1")  # bob cannot see alice's DMs
        heard = asyncio.create_task(client.wait_for("interaction", timeout=10))
        await asyncio.sleep(0)
        click = await fake.click(alice, str(sent.id), "t:1")
        assert await click.response() == 7
        assert fake.messages[str(sent.id)]["content"] == "pressed 1"
        interaction = await heard
        assert interaction.guild_id is None and interaction.user.id == int(alice.id)
        assert isinstance(interaction.user, discord.User)  # not a Member: no guild
        assert isinstance(interaction.channel, discord.DMChannel)
        # the same DM channel again (from discord.py's cache or from the fake)
        again = await client.http.start_private_message(int(alice.id))
        assert again["id"] == str(dm.id) and again["type"] == 1
        closed = await client.create_dm(discord.Object(id=int(bob.id)))
        with pytest.raises(discord.Forbidden) as info:
            await closed.send("your hand")
        assert info.value.code == 50007 and fake.dm_messages(bob) == []
        # the bot deletes its DM (204); a second delete finds nothing (404, 10008)
        await dm.get_partial_message(sent.id).delete()
        assert fake.dm_messages(alice) == []
        deleted = fake.requests_to("DELETE", rf"/channels/{dm.id}/messages/{sent.id}")
        assert [r.status for r in deleted] == [204]
        with pytest.raises(discord.NotFound) as gone:
            await dm.get_partial_message(sent.id).delete()
        assert gone.value.code == 10008


async def test_a_channel_takes_five_messages_in_five_seconds_and_says_so(
    fake: FakeDiscord,
) -> None:
    """Discord's per-channel limit: every post or edit carries the X-RateLimit headers;
    the sixth within 5 s is a 429 with ``retry_after``, which discord.py waits out."""
    async with running(fake) as client:
        channel = next(iter(fake.channels.values()))
        target = client.get_partial_messageable(int(channel.id))
        started = asyncio.get_running_loop().time()
        for n in range(6):
            await target.send(f"message {n}")
        took = asyncio.get_running_loop().time() - started
        posts = fake.requests_to("POST", rf"/channels/{channel.id}/messages")
        assert [m["content"] for m in fake.channel_messages(channel)] == [
            f"message {n}" for n in range(6)
        ]
        assert took >= 4.0, "the sixth waited for the window to reset"
        # discord.py read the headers: it waited before the sixth instead of being refused
        assert [r.status for r in posts].count(200) == 6
        assert all(r.status in (200, 429) for r in posts)

        # without waiting (a raw request past the limit): 429 with Discord's body and headers
        fake._windows[channel.id] = (fake.now(), 5)
        route = discord.http.Route("POST", "/channels/{c}/messages", c=channel.id)
        session = client.http._HTTPClient__session  # type: ignore[attr-defined]
        async with session.post(
            route.url,
            json={"content": "x"},
            headers={"Authorization": f"Bot {TOKEN}"},
        ) as response:
            body = await response.json()
            assert response.status == 429
            assert body["retry_after"] > 0 and body["global"] is False
            assert response.headers["X-RateLimit-Remaining"] == "0"
            assert float(response.headers["X-RateLimit-Reset-After"]) > 0
            assert response.headers["X-RateLimit-Bucket"]


async def test_every_call_takes_20_to_60_ms(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        loop = asyncio.get_running_loop()
        times = []
        for _n in range(5):
            started = loop.time()
            await client.http.request(discord.http.Route("GET", "/users/@me"))
            times.append(loop.time() - started)
        assert min(times) >= 0.02 and max(times) < 1.0


async def test_a_followup_before_the_first_answer_is_refused(fake: FakeDiscord) -> None:
    async with running(fake) as client:
        channel = next(iter(fake.channels.values()))
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="idle", custom_id="nobody-answers"))
        sent = await client.get_partial_messageable(int(channel.id)).send("x", view=view)
        click = await fake.click(fake.add_user("alice"), str(sent.id), "nobody-answers")
        route = discord.http.Route(
            "POST", "/webhooks/{a}/{t}", a=fake.application_id, t=click.token
        )
        with pytest.raises(discord.HTTPException) as info:
            await client.http.request(route, json={"content": "too early"})
        assert info.value.status == 404 and info.value.code == 10015
