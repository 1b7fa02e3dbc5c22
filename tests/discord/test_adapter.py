"""The adapter's own decisions, against the fake Discord, with a scripted core.

The scripted core stands in for ``BeloteApp`` (the adapter's contract is bot/platform.py):
it answers with the replies and delivers the posts a test gives it, so each case of the
mapping (layout, deferral, private delivery outside an interaction, token expiry, public
re-posting, /verify in public, admin flag) is checked on its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from adapters.discord import DiscordBot, invite_url, read_token
from adapters.discord.config import PERMISSIONS_VALUE
from adapters.discord.messages import TOKEN_TTL
from bot.platform import Button, Channel, Platform, Post, Reply, User
from bot.show.i18n import _
from tests.discord.conftest import TOKEN, World
from tests.fakes.discord import EPHEMERAL, LOADING

Script = Callable[[User, Channel, str], Awaitable[list[Reply]]]


class ScriptedCore:
    """Answers each command or press with what ``script`` says; records who asked."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        self.calls: list[tuple[str, User, Channel, str]] = []
        self.delay = 0.0
        self.script: Script | None = None

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def _run(self, kind: str, user: User, channel: Channel, text: str) -> list[Reply]:
        self.calls.append((kind, user, channel, text))
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.script is None:
            return [Reply(f"{kind} {text}")]
        return await self.script(user, channel, text)

    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]:
        return await self._run("command", user, channel, text)

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]:
        return await self._run("press", user, channel, action)


async def start(world: World, **options: Any) -> tuple[DiscordBot, ScriptedCore]:
    cores: list[ScriptedCore] = []

    async def factory(platform: Platform) -> ScriptedCore:
        cores.append(ScriptedCore(platform))
        return cores[0]

    options.setdefault("guild_ready_timeout", 0.05)
    bot = DiscordBot(factory, TOKEN, **options)
    await bot.start()
    world.bot = bot
    return bot, cores[0]


async def show(bot: DiscordBot, post: Post) -> None:
    """The core delivers ``post`` outside any interaction; wait until Discord shows it
    (delivery only queues it, so the core's table lock is never held across Discord)."""
    await bot.adapter.deliver(post)
    await bot.adapter.flush()


def asked_message(world: World, interaction: Any) -> dict[str, Any]:
    return world.fake.messages[interaction.original_id or ""]


def hand_post(user_id: str, channel: Channel, text: str, buttons: Any = ()) -> Post:
    return Post(
        channel=channel,
        key=f"hand:1:{user_id}",
        text=text,
        image=b"\x89PNG hand",
        image_name="hand.png",
        buttons=buttons,
        to_user=user_id,
    )


async def test_buttons_are_laid_out_five_a_row_with_illegal_ones_disabled(world: World) -> None:
    _bot, core = await start(world)
    cards = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    row = tuple(Button(c, f"t1:3:0:play {c}", enabled=c in ("9C", "AC")) for c in cards)

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        # the acting user's own new hand comes back in the answer, as the core sends it
        return [Reply.showing(hand_post(user.id, channel, "Your hand", (row,)))]

    core.script = script
    asked = await world.fake.slash(world.alice, world.channel, "hand")
    assert await asked.response() == 4
    message = world.fake.messages[asked.original_id or ""]
    assert message["flags"] & EPHEMERAL
    assert [len(r["components"]) for r in message["components"]] == [5, 3]
    buttons = world.fake.buttons(message["id"])
    assert [b["label"] for b in buttons] == cards
    assert [b["label"] for b in buttons if not b.get("disabled")] == ["9C", "AC"]
    assert all(b["custom_id"].startswith("b:t1:3:0:play ") for b in buttons)
    assert message["attachments"][0]["filename"] == "hand.png"
    assert core.calls[0][3] == "/hand"


async def test_slash_options_become_the_core_command_text(world: World) -> None:
    _bot, core = await start(world)
    fake, alice, channel = world.fake, world.alice, world.channel
    cases = [
        (
            ("table", {"ruleset": "bulgarian", "target": 501, "rated": True}, "create"),
            "/table create bulgarian --target 501 --rated",
        ),
        (("table", {"table": "t2", "seat": 3}, "join"), "/join t2 3"),
        (("table", {"level": "hard", "seat": 2}, "addbot"), "/addbot hard 2"),
        (("table", {"seat": 4}, "kick"), "/kick 4"),
        (("table", {}, "close"), "/table close"),
        (("play", {"card": "TD", "declare": "belote"}, None), "/play TD belote"),
        (("bid", {"bid": "take"}, None), "/bid take"),
        (("seed", {"hex": "00ff" * 8}, None), "/seed " + "00ff" * 8),
        (("verify", {"match": "m3"}, None), "/verify m3"),
        (("rules", {"ruleset": "classic"}, None), "/rules classic"),
        (
            ("tournament", {"format": "swiss", "name": "Spring Cup", "rounds": 5}, "create"),
            "/tournament create swiss Spring Cup --rounds 5",
        ),
        (("tournament", {"id": 2}, "join"), "/tournament join #2"),
        (("tournament", {"player": "Bob", "id": 2}, "drop"), "/tournament drop Bob #2"),
        (
            ("tournament", {"match": 4, "outcome": "a", "score_a": 162, "score_b": 0}, "result"),
            "/tournament result 4 a 162 0",
        ),
        (("ladder", {"ruleset": "club", "days": 30}, "create"), "/ladder create club --days 30"),
        (("ladder", {}, "standings"), "/ladder standings"),
        (("stats", {"player": "Bob"}, None), "/stats Bob"),
        (("leaderboard", {"ruleset": "bulgarian"}, None), "/leaderboard bulgarian"),
    ]
    for (name, options, sub), expected in cases:
        interaction = await fake.slash(alice, channel, name, options, subcommand=sub)
        await interaction.response()
        assert core.calls[-1][3] == expected


async def test_user_channel_admin_and_locale_reach_the_core(world: World) -> None:
    _bot, core = await start(world)
    fake = world.fake
    french = fake.add_user("zoe", locale="fr")
    for person in (world.alice, world.mod, french):
        await (await fake.slash(person, world.channel, "score")).response()
    users = [call[1] for call in core.calls]
    assert [u.is_admin for u in users] == [False, True, False]
    assert users[0].id == f"discord:{world.alice.id}" and users[0].name == "Alice"
    assert users[2].locale == "fr"
    assert core.calls[0][2].id == f"discord:{world.channel.guild_id}/{world.channel.id}"


async def test_a_slow_core_is_deferred_then_answered(world: World) -> None:
    bot, core = await start(world, defer_after=0.0)
    core.delay = 0.05
    fake = world.fake
    asked = await fake.slash(world.alice, world.channel, "score")
    assert await asked.response() == 5  # thinking, ephemeral
    await fake.wait_for(lambda: fake.requests_to("PATCH", r"/webhooks/.+/messages/@original"))
    message = fake.messages[asked.original_id or ""]
    assert message["content"] == "command /score"
    assert message["flags"] & EPHEMERAL and not message["flags"] & LOADING

    # a click on a public message: acknowledged first (6), then answered privately
    channel_id = int(world.channel.id)
    table = Post(
        Channel(f"discord:{world.channel.guild_id}/{channel_id}"),
        "table:1",
        "Table",
        buttons=((Button("Join", "t1:0:-:join"),),),
    )
    await show(bot, table)
    table_id = (
        world.table_messages()[0]["id"] if world.table_messages() else world.public()[0]["id"]
    )
    click = await fake.click(world.bob, table_id, "b:t1:0:-:join")
    assert await click.response() == 6
    await fake.wait_for(lambda: click.followup_ids)
    answer = fake.messages[click.followup_ids[0]]
    assert answer["content"] == "press t1:0:-:join" and answer["flags"] & EPHEMERAL


async def test_private_posts_between_interactions_edit_the_hand_until_the_token_ends(
    world: World,
) -> None:
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")

    async def show_hand(user: User, channel: Channel, text: str) -> list[Reply]:
        return [Reply("Your hand", image=b"\x89PNG", buttons=((Button("7C", "t1:1:0:x"),),))]

    core.script = show_hand
    asked = await fake.slash(alice, world.channel, "hand")
    await asked.response()
    hand_id = asked.original_id or ""

    # a bot played: it is alice's turn; the hand shown by /hand is edited in place
    await show(bot, hand_post(uid, here, "Your turn", ((Button("8C", "t1:2:0:y"),),)))
    assert fake.messages[hand_id]["content"] == "Your turn"
    assert [b["label"] for b in fake.buttons(hand_id)] == ["8C"]
    edit = fake.requests[-1]
    assert edit.method == "PATCH"
    assert edit.path == f"/webhooks/{fake.application_id}/{asked.token}/messages/@original"

    # 15 minutes later that token is dead: the ephemeral hand is left alone, and the new
    # version reaches alice by direct message instead (tests/discord/test_direct_messages.py)
    clock = [bot.adapter.now()]
    bot.adapter.now = lambda: clock[0]  # type: ignore[method-assign]
    clock[0] += TOKEN_TTL + 1
    fake.advance(15 * 60 + 1)
    await show(bot, hand_post(uid, here, "Your turn again"))
    assert fake.messages[hand_id]["content"] == "Your turn"
    assert [m["content"] for m in fake.dm_messages(alice)] == ["Your turn again"]
    assert not fake.requests_to("PATCH", rf"/webhooks/.+/{asked.token}/messages/.+")[1:]
    # her next interaction brings a fresh token: the next post is a new ephemeral message
    core.script = None
    await (await fake.slash(alice, world.channel, "score")).response()
    await show(bot, hand_post(uid, here, "Your turn, at last"))
    latest = fake.ephemeral_messages(alice)[-1]
    assert latest["content"] == "Your turn, at last" and latest["id"] != hand_id


async def test_a_deleted_table_message_is_posted_again(world: World) -> None:
    bot, _core = await start(world)
    fake = world.fake
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")
    await show(bot, Post(here, "table:1", "Table t1 v1", image=b"\x89PNG"))
    await show(bot, Post(here, "table:1", "Table t1 v2"))
    first = world.public()
    assert len(first) == 1 and first[0]["content"] == "Table t1 v2"
    assert first[0]["attachments"] == []  # the new version has no picture: it goes
    fake.delete_message(first[0]["id"])
    await show(bot, Post(here, "table:1", "Table t1 v3"))
    again = world.public()
    assert len(again) == 1 and again[0]["content"] == "Table t1 v3"


async def test_verify_answers_in_public_but_refusals_stay_private(world: World) -> None:
    _bot, core = await start(world)

    async def verify(user: User, channel: Channel, text: str) -> list[Reply]:
        if text.endswith("m9"):
            return [Reply("No such match", ok=False)]
        return [Reply("Match m1 was dealt fairly", file=b'{"match": "m1"}', file_name="m1.json")]

    core.script = verify
    good = await world.fake.slash(world.alice, world.channel, "verify")
    await good.response()
    assert not (good.callback_data or {}).get("flags", 0) & EPHEMERAL
    # the transcript is attached to the public answer, for the browser check
    (attached,) = world.fake.messages[good.original_id]["attachments"]
    assert attached["filename"] == "m1.json"
    assert world.fake.files[attached["id"]] == b'{"match": "m1"}'
    bad = await world.fake.slash(world.alice, world.channel, "verify", {"match": "m9"})
    await bad.response()
    assert (bad.callback_data or {}).get("flags", 0) & EPHEMERAL


async def test_a_core_failure_gets_a_polite_private_answer(world: World) -> None:
    _bot, core = await start(world)

    async def boom(user: User, channel: Channel, text: str) -> list[Reply]:
        raise RuntimeError("secret-token-123 must not leak")

    core.script = boom
    asked = await world.fake.slash(world.alice, world.channel, "score")
    assert await asked.response() == 4
    data = asked.callback_data or {}
    assert data["flags"] & EPHEMERAL and "secret" not in data["content"]


def test_token_from_environment_or_env_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    env = tmp_path / ".env"
    assert read_token(env) is None
    env.write_text("# secrets\nOTHER=1\nexport DISCORD_TOKEN='abc.def'\n")
    assert read_token(env) == "abc.def"
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert read_token(env) == "from-env"


def test_invite_asks_only_for_what_the_bot_uses() -> None:
    assert PERMISSIONS_VALUE == 1024 | 2048 | 32768
    url = invite_url(42)
    assert "client_id=42" in url and "permissions=35840" in url
    assert "scope=bot%20applications.commands" in url


async def test_versions_queued_behind_a_slow_edit_are_coalesced(world: World) -> None:
    bot, _core = await start(world)
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")
    posts = [Post(here, "table:7", f"Table t7 v{n}") for n in range(1, 6)]
    await bot.adapter.deliver(posts[0])
    fake = world.fake
    await fake.wait_for(lambda: fake.requests_to("POST", r"/channels/\d+/messages"))
    # v1 is on its way to Discord: delivering returns at once, nothing is sent meanwhile
    for post in posts[1:]:
        await bot.adapter.deliver(post)
    assert len(fake.requests_to("POST", r"/channels/\d+/messages")) == 1
    await bot.adapter.flush()
    sent = fake.requests_to("POST", r"/channels/\d+/messages") + fake.requests_to(
        "PATCH", r"/channels/\d+/messages/\d+"
    )
    assert len(sent) == 2  # the first, then only the newest of those that waited
    assert [m["content"] for m in world.public()] == ["Table t7 v5"]
    assert bot.adapter.outbox.stats.coalesced == 3


async def test_a_slow_click_on_the_hand_is_deferred_then_updates_it_in_place(
    world: World,
) -> None:
    _bot, core = await start(world, defer_after=0.0)
    fake, alice = world.fake, world.alice
    turn = [1]

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        await asyncio.sleep(0.02)
        if text.startswith("/hand"):
            card = Button(f"card {turn[0]}", f"t1:{turn[0]}:0:play")
            return [Reply("Your hand", image=b"\x89PNG", buttons=((card,),))]
        turn[0] += 1
        card = Button(f"card {turn[0]}", f"t1:{turn[0]}:0:play")
        return [Reply.showing(hand_post(user.id, channel, f"Hand {turn[0]}", ((card,),)))]

    core.script = script
    asked = await fake.slash(alice, world.channel, "hand")
    assert await asked.response() == 5
    await fake.wait_for(
        lambda: fake.buttons(asked.original_id or "") if asked.original_id else None
    )
    hand_id = asked.original_id or ""
    for n in (1, 2):
        click = await fake.click(alice, hand_id, f"b:t1:{n}:0:play")
        # acknowledged at once by showing the hand with its buttons disabled: until the
        # answer comes, it does not offer the move just made
        assert await click.response() == 7
        frozen = fake.meta[hand_id].versions[-1]
        assert frozen["content"] == ("Your hand" if n == 1 else f"Hand {n}")
        assert all(b["disabled"] for row in frozen["components"] for b in row["components"])
        await fake.wait_for(lambda n=n: fake.messages[hand_id]["content"] == f"Hand {n + 1}")
        assert [b["label"] for b in fake.buttons(hand_id)] == [f"card {n + 1}"]
        assert not fake.buttons(hand_id)[0].get("disabled")
    assert len(fake.ephemeral_messages(alice)) == 1, "one hand, updated in place"

    # a slow click the core refuses (it changed nothing): the hand offers its move again
    async def refuse(user: User, channel: Channel, text: str) -> list[Reply]:
        await asyncio.sleep(0.02)
        return [Reply("That button is out of date", ok=False)]

    core.script = refuse
    click = await fake.click(alice, hand_id, "b:t1:3:0:play")
    assert await click.response() == 7
    await fake.wait_for(lambda: click.followup_ids)
    await world.settle()
    assert [b.get("disabled", False) for b in fake.buttons(hand_id)] == [False]
    assert fake.messages[click.followup_ids[0]]["content"] == "That button is out of date"


async def test_a_hand_is_shown_only_in_the_channel_of_its_table(world: World) -> None:
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    other = fake.add_channel(fake.guilds[world.channel.guild_id], "belote-2")
    there = Channel(f"discord:{other.guild_id}/{other.id}")

    async def script(user: User, channel: Channel, text: str) -> list[Reply]:
        await core.platform.deliver(hand_post(user.id, there, "Hand at the other table"))
        return [Reply("ok")]

    core.script = script
    asked = await fake.slash(alice, world.channel, "score")
    await asked.response()
    await world.settle()
    assert [m["content"] for m in fake.visible_messages(alice, world.channel)] == ["ok"]
    assert fake.ephemeral_messages(alice) == [asked_message(world, asked)]
    # she has not been seen in that channel: the hand there goes by direct message, and
    # that channel is told where it went
    assert [m["content"] for m in fake.dm_messages(alice)] == ["Hand at the other table"]
    assert [m["content"] for m in fake.visible_messages(alice, other)] == [
        f"<@{alice.id}>, your hand was sent to you by direct message."
    ]
    # once she acts in that channel, her hand there reaches her there
    core.script = None
    await (await fake.slash(alice, other, "score")).response()
    await show(bot, hand_post(f"discord:{alice.id}", there, "Hand at the other table"))
    assert fake.visible_messages(alice, other)[-1]["content"] == "Hand at the other table"


async def test_rate_limits_are_waited_out_and_missing_permissions_are_explained(
    world: World,
) -> None:
    bot, core = await start(world)
    fake = world.fake
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")
    fake.fail_next("POST", rf"/channels/{world.channel.id}/messages", status=429, retry_after=0.05)
    await show(bot, Post(here, "table:1", "Table t1"))
    statuses = [r.status for r in fake.requests_to("POST", r"/channels/\d+/messages")]
    assert statuses == [429, 200]  # discord.py waited Retry-After, then posted
    assert [m["content"] for m in world.public()] == ["Table t1"]

    async def create(user: User, channel: Channel, text: str) -> list[Reply]:
        await core.platform.deliver(Post(here, "table:2", "Table t2"))
        return [Reply("Table t2 created")]

    core.script = create
    fake.fail_next(
        "POST", r"/channels/\d+/messages", status=403, code=50013, message="Missing Permissions"
    )
    asked = await fake.slash(world.alice, world.channel, "score")
    await asked.response()
    await fake.wait_for(lambda: asked.followup_ids)
    texts = [m["content"] for m in fake.ephemeral_messages(world.alice)]
    assert any("Send Messages" in t for t in texts) and "Table t2 created" in texts


async def test_command_descriptions_are_localized_from_the_catalog(world: World) -> None:
    from adapters.discord.translator import CatalogTranslator

    texts = {
        ("discord-command_description-hand", "fr"): "Montre ta main (toi seul la vois)",
        ("discord-command_description-table create", "fr"): "Ouvre une table ici",
        ("discord-parameter_description-play card", "bg"): "Картата, напр. TD",
        ("discord-choice_name-announce belote", "fr"): "annoncer la belote",
    }
    cores: list[ScriptedCore] = []

    async def factory(platform: Platform) -> ScriptedCore:
        cores.append(ScriptedCore(platform))
        return cores[0]

    bot = DiscordBot(factory, TOKEN, guild_ready_timeout=0.05)
    bot.client.translator = CatalogTranslator(lambda msgid, lang: texts.get((msgid, lang)))
    await bot.start()
    world.bot = bot
    commands = {c["name"]: c for c in world.fake.global_commands}
    assert commands["hand"]["description_localizations"] == {
        "fr": "Montre ta main (toi seul la vois)"
    }
    assert commands["hand"]["description"] == "Show your hand (only you see it)"
    create = next(o for o in commands["table"]["options"] if o["name"] == "create")
    assert create["description_localizations"] == {"fr": "Ouvre une table ici"}
    card = next(o for o in commands["play"]["options"] if o["name"] == "card")
    assert card["description_localizations"] == {"bg": "Картата, напр. TD"}
    declare = next(o for o in commands["play"]["options"] if o["name"] == "declare")
    belote = next(c for c in declare["choices"] if c["value"] == "belote")
    assert belote["name_localizations"] == {"fr": "annoncer la belote"}
    assert (
        "name_localizations" not in commands["hand"] or not commands["hand"]["name_localizations"]
    )


async def test_a_reply_with_the_hand_key_is_the_hand_exactly(world: World) -> None:
    """``Reply.key``: the reply to /hand is the hand; a later keyless picture with buttons
    (a replay, a tournament page) is not taken for it."""
    bot, core = await start(world)
    fake, alice = world.fake, world.alice
    uid = f"discord:{alice.id}"
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")

    async def answer(user: User, channel: Channel, text: str) -> list[Reply]:
        picture, buttons = b"\x89PNG", ((Button("Next", "t1:1:-:x"),),)
        if text.startswith("/hand"):
            return [Reply("Your hand", image=picture, buttons=buttons, key=f"hand:1:{uid}")]
        return [Reply("A replay", image=picture, buttons=buttons)]

    core.script = answer
    asked = await fake.slash(alice, world.channel, "hand")
    await asked.response()
    hand_id = asked.original_id or ""
    other = await fake.slash(alice, world.channel, "replay")
    await other.response()
    replay_id = other.original_id or ""
    assert hand_id and replay_id and hand_id != replay_id

    await show(bot, hand_post(uid, here, "Your turn", ((Button("8C", "t1:2:0:y"),),)))
    assert fake.messages[hand_id]["content"] == "Your turn"
    assert fake.messages[replay_id]["content"] == "A replay"


async def test_stopping_answers_what_is_in_flight_and_turns_new_input_away(world: World) -> None:
    """A graceful stop: the interaction the core is working on gets its real answer, the
    posts it queued are shown, and one that comes once stopping began is answered at
    once (try again in a minute) without reaching the core."""
    bot, core = await start(world)
    fake = world.fake
    here = Channel(f"discord:{world.channel.guild_id}/{world.channel.id}")

    async def slow(user: User, channel: Channel, text: str) -> list[Reply]:
        await asyncio.sleep(0.3)
        await core.platform.deliver(Post(here, "table:1", "Table t1 after the move"))
        return [Reply("moved")]

    core.script = slow
    in_flight = await fake.slash(world.alice, world.channel, "score")
    await fake.wait_for(lambda: core.calls)
    closing = asyncio.create_task(bot.close())
    await fake.wait_for(lambda: bot.adapter.closing)
    late = await fake.slash(world.bob, world.channel, "score")
    assert await late.response() == 4
    assert (late.callback_data or {})["content"] == _("err-restarting", "en")
    assert len(core.calls) == 1, "the late one never reached the core"
    await closing
    world.bot = None
    assert await in_flight.response() == 4
    assert (in_flight.callback_data or {})["content"] == "moved"
    assert [m["content"] for m in world.public()] == ["Table t1 after the move"]
    assert not [s for s in fake.sessions if s.identified], "the gateway is closed"
