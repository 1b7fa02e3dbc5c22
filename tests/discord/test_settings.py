"""A server's own settings through the real discord.py client on the fake Discord: an
admin (Manage Server), a member, a role the server names, bad values, a table running
meanwhile, and a restart in the middle."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import World
from tests.fakes.discord import FakeUser


async def said(
    world: World, user: FakeUser, sub: str, options: dict[str, Any] | None = None
) -> str:
    """``user`` runs ``/settings <sub>``: the text of the answer only they see."""
    fake = world.fake
    before = len(fake.ephemeral_messages(user))
    interaction = await fake.slash(user, world.channel, "settings", options or {}, subcommand=sub)
    await interaction.response()
    await fake.wait_for(lambda: len(fake.ephemeral_messages(user)) > before)
    return str(fake.ephemeral_messages(user)[-1]["content"])


def core(world: World) -> Any:
    assert world.bot is not None and world.bot.adapter.app is not None
    return world.bot.adapter.app


async def test_admins_change_members_cannot_and_a_named_role_can(world: World) -> None:
    fake, alice, bob, mod = world.fake, world.alice, world.bob, world.mod
    guild = next(iter(fake.guilds.values()))
    staff = await fake.add_role(guild, "Belote staff")  # no permission of its own
    fake.give_role(guild, bob, staff)
    await world.open_table({"timer": 45})  # a match runs meanwhile
    running = next(iter(core(world).tables.values()))

    refusal = await said(world, alice, "set", {"name": "timer", "value": "20"})
    assert "Manage Server" in refusal
    assert "No setting has been changed" in await said(world, alice, "log")

    assert "timer is now 20" in await said(world, mod, "set", {"name": "timer", "value": "20"})
    assert "Manage Server" in await said(world, bob, "set", {"name": "target", "value": "1500"})
    named = await said(world, mod, "set", {"name": "admin_roles", "value": f"<@&{staff}>"})
    assert staff in named
    assert "1500" in await said(world, bob, "set", {"name": "target", "value": "1500"})

    # bad values: one line each, nothing changed
    for name, value in [("timer", "2"), ("levels", "godlike"), ("max_tables", "0"), ("nope", "1")]:
        line = await said(world, mod, "set", {"name": name, "value": value})
        assert "\n" not in line and "is now" not in line, line
    shown = await said(world, alice, "show")
    assert "(timer): 20, set for the server · default 60" in shown
    assert "(target): 1500, set for the server" in shown

    # the running table keeps what it started with
    assert running.settings.timer == 45 and running.settings.target is None

    # a restart in the middle: nothing is lost, the rights are the same
    await world.stop_bot()
    await world.start_bot()
    assert "Manage Server" in await said(world, alice, "set", {"name": "timer", "value": "30"})
    shown = await said(world, alice, "show")
    assert "(timer): 20, set for the server" in shown
    history = await said(world, mod, "log")
    assert "Bob" in history and "Mod" in history and "target - → 1500" in history

    # a table created now uses the new values
    created = await fake.slash(alice, world.channel, "table", {}, subcommand="create")
    await created.response()
    newest = max(core(world).tables.values(), key=lambda t: t.id)
    assert newest.settings.timer == 20 and newest.settings.target == 1500

    # the role taken back: bob may no longer
    fake.take_role(guild, bob, staff)
    assert "Manage Server" in await said(world, bob, "reset", {"name": "target"})


async def test_autocomplete_offers_the_declared_settings_and_their_values(world: World) -> None:
    fake, mod = world.fake, world.mod
    await world.start_bot()
    names = await fake.autocomplete(
        mod, world.channel, "settings", {"name": "time"}, "name", subcommand="set"
    )
    assert [c["value"] for c in names] == ["timer"]
    values = await fake.autocomplete(
        mod, world.channel, "settings", {"name": "ruleset", "value": ""}, "value", subcommand="set"
    )
    assert "club" in [c["value"] for c in values]


async def test_the_buttons_change_a_setting_for_an_admin_only(world: World) -> None:
    fake, alice, mod = world.fake, world.alice, world.mod
    await world.start_bot()
    await said(world, mod, "show")
    view = fake.ephemeral_messages(mod)[-1]
    timer = next(b for b in fake.buttons(view["id"]) if b["custom_id"].endswith("st:k:timer"))
    await (await fake.click(mod, view["id"], timer["custom_id"])).response()
    await fake.wait_for(lambda: "Pick a value" in fake.ephemeral_messages(mod)[-1]["content"])
    pick = fake.ephemeral_messages(mod)[-1]
    thirty = next(b for b in fake.buttons(pick["id"]) if b["custom_id"].endswith(":30"))
    await (await fake.click(mod, pick["id"], thirty["custom_id"])).response()
    await fake.wait_for(lambda: "timer is now 30" in fake.ephemeral_messages(mod)[-1]["content"])
    # a member forging the same press changes nothing
    before = len(fake.ephemeral_messages(alice))
    await said(world, alice, "show")
    assert not fake.buttons(fake.ephemeral_messages(alice)[-1]["id"])
    forged = await fake.click(
        alice, pick["id"], thirty["custom_id"].replace(":30", ":15"), force=True
    )
    await forged.response()
    await fake.wait_for(lambda: len(fake.ephemeral_messages(alice)) > before + 1)
    assert "(timer): 30, set for the server" in await said(world, alice, "show")


async def test_several_settings_in_one_command_all_or_nothing(world: World) -> None:
    alice, mod = world.alice, world.mod
    await world.start_bot()
    both = await said(
        world,
        mod,
        "set",
        {"name": "ruleset", "value": "coinche", "name2": "target", "value2": "500"},
    )
    assert "ruleset is now coinche" in both and "target is now 500" in both
    shown = await said(world, alice, "show")
    assert "(ruleset): coinche, set for the server" in shown
    assert "(target): 500, set for the server" in shown

    # one bad value among three: one line, none of them changed
    refused = await said(
        world,
        mod,
        "set",
        {
            "name": "ruleset",
            "value": "classic",
            "name2": "timer",
            "value2": "30",
            "name3": "max_tables",
            "value3": "0",
        },
    )
    assert "\n" not in refused and "is now" not in refused, refused
    # a name without its value: the usage line, nothing changed
    usage = await said(world, mod, "set", {"name": "timer", "value": "30", "name2": "target"})
    assert "/settings set" in usage and "is now" not in usage
    shown = await said(world, alice, "show")
    assert "(ruleset): coinche, set for the server" in shown
    assert "(target): 500, set for the server" in shown
    assert "(timer): 60 · default 60" in shown
    # the log: the two of the first command, nothing else
    history = await said(world, mod, "log")
    assert history.count("Mod") == 2, history
