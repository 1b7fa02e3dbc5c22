"""A whole match on the fake Discord, as people play it: slash commands and clicks in,
and assertions on what the real discord.py bot sent back.

Alice plays with three bots (fast core settings: no seed window, no drand, no bot pause;
the bots move when the test lets the fake scheduler run). Along the way: a click from the
wrong user, a stale button, a double click, and a restart of the bot (a new discord.py
client and a new core on the same database) after which the old buttons still work.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.show.i18n import _
from engine import Action, card_text, parse_card
from engine.recipe import commitment
from tests.discord.conftest import World
from tests.fakes.discord import EPHEMERAL

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def enabled(world: World, message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in world.fake.buttons(message["id"]) if not b.get("disabled")]


def callback_of(world: World, interaction: Any) -> Any:
    found = world.fake.requests_to("POST", rf"/interactions/{interaction.id}/.+/callback")
    assert len(found) == 1, "every interaction is answered exactly once"
    return found[0]


async def answer_text(world: World, interaction: Any) -> tuple[int, str, int]:
    """(callback type, content, flags) of the bot's answer to an interaction."""
    kind = await interaction.response()
    await world.settle()  # what it changed in public is shown too (after the answer)
    data = interaction.callback_data or {}
    return kind, data.get("content") or "", int(data.get("flags") or 0)


def table_patches(world: World, table_id: str) -> int:
    return len(world.fake.requests_to("PATCH", rf"/channels/\d+/messages/{table_id}"))


async def test_whole_match_with_restart(world: World, db: Any) -> None:
    """On SQLite and on PostgreSQL."""
    world.database = db("discord")
    fake, alice, bob, channel = world.fake, world.alice, world.bob, world.channel
    await world.start_bot()
    registered = {c["name"] for c in fake.global_commands}
    assert {"table", "play", "bid", "hand", "score", "seed", "verify", "replay", "rules"} <= (
        registered
    )
    table_cmd = next(c for c in fake.global_commands if c["name"] == "table")
    subs = {o["name"] for o in table_cmd["options"]}
    assert {"create", "join", "leave", "start", "addbot", "close"} <= subs
    create = next(o for o in table_cmd["options"] if o["name"] == "create")
    ruleset = next(o for o in create["options"] if o["name"] == "ruleset")
    assert {c["value"] for c in ruleset["choices"]} == {"classic", "club", "bulgarian", "coinche"}

    # --- the lobby -----------------------------------------------------------------------
    created = await fake.slash(
        alice, channel, "table", {"ruleset": "club", "target": 1}, subcommand="create"
    )
    kind, text, flags = await answer_text(world, created)
    assert kind == 4 and flags & EPHEMERAL and "t1" in text
    await fake.wait_for(lambda: world.table_messages())
    table = world.table_messages()[0]
    table_id = table["id"]
    assert [b["label"] for b in fake.buttons(table_id)] == ["Join", "Add bot"]

    suggested = await fake.autocomplete(
        bob, channel, "table", {"table": ""}, "table", subcommand="join"
    )
    assert [c["value"] for c in suggested] == ["t1"]
    join = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":join"))
    click = await fake.click(bob, table_id, join["custom_id"])
    kind, text, flags = await answer_text(world, click)
    assert kind == 4 and flags & EPHEMERAL and "t1" in text
    assert "Bob" in fake.messages[table_id]["content"]
    left = await fake.slash(bob, channel, "table", {}, subcommand="leave")
    assert (await answer_text(world, left))[2] & EPHEMERAL
    assert "Bob" not in fake.messages[table_id]["content"]

    # "Add bot" on the table message: the host only (the core decides)
    add_bot = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":addbot"))
    refused = await fake.click(bob, table_id, add_bot["custom_id"])
    kind, text, flags = await answer_text(world, refused)
    assert kind == 4 and flags & EPHEMERAL and text == _("err-host-only", "en", table="t1")
    added = await fake.click(alice, table_id, add_bot["custom_id"])
    kind, text, flags = await answer_text(world, added)
    assert kind == 4 and flags & EPHEMERAL and "seat 2" in text
    for _n in range(2):
        added = await fake.slash(alice, channel, "table", {"level": "easy"}, subcommand="addbot")
        assert (await answer_text(world, added))[2] & EPHEMERAL
    assert len(world.table_messages()) == 1, "the table message is edited, never re-posted"
    assert [b["label"] for b in fake.buttons(table_id)] == ["Join", "Start"]  # full
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))

    # bob is not the host: refused privately, nothing changes
    before = (table_patches(world, table_id), len(world.public()))
    refused = await fake.click(bob, table_id, start["custom_id"])
    kind, text, flags = await answer_text(world, refused)
    assert kind == 4 and flags & EPHEMERAL and text == _("err-host-only", "en", table="t1")
    assert (table_patches(world, table_id), len(world.public())) == before

    # --- the start: the commitment in public, alice's hand in private ------------------------
    started = await fake.click(alice, table_id, start["custom_id"])
    assert await started.response() == 4
    await world.settle()
    hand_id = started.original_id
    assert hand_id is not None
    hand = fake.messages[hand_id]
    assert hand["flags"] & EPHEMERAL and fake.meta[hand_id].visible_to == alice.id
    assert hand["attachments"][0]["filename"] == "hand.png"
    upload = callback_of(world, started).files[0]
    assert upload.data.startswith(b"\x89PNG")
    await fake.wait_for(lambda: any("commitment" in m["content"] for m in world.public()))
    commit_post = next(m for m in world.public() if "commitment" in m["content"])
    committed = HEX64.search(commit_post["content"])
    assert committed is not None
    assert hand not in fake.visible_messages(bob, channel)
    table = fake.messages[table_id]
    assert table["attachments"][0]["filename"] == "table.png"
    assert [b["label"] for b in fake.buttons(table_id)] == ["Show my hand"]

    # --- the match -----------------------------------------------------------------------------
    checks = {"wrong_user", "stale", "double", "restart", "autocomplete", "show_hand"}
    done: set[str] = set()
    clicks = 0
    for _turn in range(200):
        await world.bots_play()
        assert world.bot is not None
        if world.bot.app.tables[1].run.over:
            break
        await fake.wait_for(lambda: world.live_hand(alice) is not None)
        live = world.live_hand(alice)
        assert live is not None
        buttons = enabled(world, live)
        labels = [b["label"] for b in buttons]

        if "wrong_user" not in done:
            # bob forges a click on alice's card: the core refuses, nothing changes
            await world.settle()
            versions = len(fake.meta[live["id"]].versions)
            patches = table_patches(world, table_id)
            forged = await fake.click(bob, live["id"], buttons[0]["custom_id"], force=True)
            kind, text, flags = await answer_text(world, forged)
            assert kind == 4 and flags & EPHEMERAL
            assert text == _("err-not-your-hand", "en")
            assert len(fake.meta[live["id"]].versions) == versions
            assert table_patches(world, table_id) == patches
            done.add("wrong_user")

        if "autocomplete" not in done and all(
            re.fullmatch(r"[2-9TJQKA][CDHS]", x[:2]) for x in labels
        ):
            choices = await fake.autocomplete(alice, channel, "play", {"card": ""}, "card")
            assert {c["value"] for c in choices} == {x[:2] for x in labels}
            done.add("autocomplete")

        if "show_hand" not in done and clicks >= 2:
            # "Show my hand" on the table message: a fresh private copy with the same buttons
            show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
            shown = await fake.click(alice, table_id, show["custom_id"])
            assert await shown.response() == 4
            copy = fake.messages[shown.original_id or ""]
            assert copy["flags"] & EPHEMERAL
            assert [b["label"] for b in enabled(world, copy)] == labels
            assert copy not in fake.visible_messages(bob, channel)
            done.add("show_hand")
            continue

        if "restart" not in done and clicks >= 4:
            before_identify = fake.identify_count
            await world.stop_bot()
            await world.start_bot()
            assert fake.identify_count == before_identify + 1
            assert len(world.table_messages()) == 1, "after a restart too, the table is edited"
            old = await fake.click(alice, live["id"], buttons[0]["custom_id"])
            assert await old.response() == 7, "the old hand is updated in place"
            assert fake.meta[live["id"]].versions[-1]["id"] == live["id"]
            # and the table message's button, posted by the old process, works too
            show = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":hand"))
            again = await fake.click(alice, table_id, show["custom_id"])
            assert await again.response() == 4
            assert fake.messages[again.original_id or ""]["attachments"][0]["filename"] == (
                "hand.png"
            )
            done.add("restart")
            clicks += 1
            continue

        if "double" not in done and clicks >= 3:
            first = await fake.click(alice, live["id"], buttons[0]["custom_id"])
            second = await fake.click(alice, live["id"], buttons[0]["custom_id"])
            kinds = sorted([await first.response(), await second.response()])
            assert kinds == [4, 7]
            late = first if first.callback_type == 4 else second
            assert late.callback_data is not None
            assert late.callback_data["content"] == _("err-double-press", "en")
            assert late.callback_data["flags"] & EPHEMERAL
            done.add("double")
            clicks += 1
            continue

        pressed = buttons[0]
        click = await fake.click(alice, live["id"], pressed["custom_id"])
        kind = await click.response()
        clicks += 1
        if world.bot.app.tables[1].run.over:
            assert kind in (6, 7)  # the last card: the core shows the end on the table
            break
        assert kind == 7, "a click updates the hand in place"
        after = fake.messages[live["id"]]
        assert after["attachments"] and after["attachments"][0]["filename"] == "hand.png"

        if "stale" not in done and len(buttons) >= 2:
            stale = await fake.click(alice, live["id"], buttons[1]["custom_id"], force=True)
            kind, text, flags = await answer_text(world, stale)
            assert kind == 4 and flags & EPHEMERAL
            assert text == _("err-stale-button", "en")
            done.add("stale")
    else:
        raise AssertionError("the match did not end")

    print("checks done:", sorted(done), "clicks:", clicks)
    assert done == checks, done
    app = world.bot.app  # type: ignore[union-attr]
    assert app.tables[1].run.over

    # --- the end: the server seed in public, and it matches the commitment ------------------------
    await world.settle()
    revealed = [
        seed
        for m in world.public()
        if m["id"] != commit_post["id"]
        for seed in HEX64.findall(m["content"])
    ]
    assert any(commitment(bytes.fromhex(s)) == committed.group(0) for s in revealed)
    assert len(world.table_messages()) == 1
    # the table message ends with the result and the seed; the hand has nothing to press
    seed = app.tables[1].run.server_seed.hex()
    await fake.wait_for(lambda: seed in fake.messages[table_id]["content"])
    assert "wins the match" in fake.messages[table_id]["content"]
    # the hands are posted after the table message: wait for them too
    await fake.wait_for(
        lambda: any("is over" in m["content"] for m in fake.ephemeral_messages(alice))
    )
    final = max(fake.ephemeral_messages(alice), key=lambda m: fake.meta[m["id"]].updated)
    assert "is over" in final["content"] and seed in final["content"]
    assert fake.buttons(final["id"]) == []
    # an older copy of the hand (before the restart): a click there says the match is over
    old_copy = world.live_hand(alice)
    if old_copy is not None:
        button = next(b for b in fake.buttons(old_copy["id"]) if not b.get("disabled"))
        late = await fake.click(alice, old_copy["id"], button["custom_id"])
        kind, text, flags = await answer_text(world, late)
        assert kind == 4 and flags & EPHEMERAL and text == _("err-match-over", "en", match="m1")
    assert len(fake.meta[table_id].versions) > 10

    verify = await fake.slash(alice, channel, "verify")
    kind, text, flags = await answer_text(world, verify)
    assert kind == 4 and not flags & EPHEMERAL, "/verify answers in the channel"
    assert "m1" in text

    unanswered = [i for i in fake.interactions.values() if i.callback_type is None]
    assert not unanswered
    assert all(r.status < 400 for r in fake.requests), [
        (r.method, r.path, r.status) for r in fake.requests if r.status >= 400
    ]
    await asyncio.sleep(0)


async def test_whole_match_with_bots_moving_in_the_background(world: World) -> None:
    """The real APScheduler moves the bots while alice clicks: posts for her arrive from
    the scheduler's tasks, concurrently with her own interactions."""
    from bot.ops.scheduler import ApsScheduler

    fake, alice = world.fake, world.alice
    await world.open_table({"target": 1}, scheduler=ApsScheduler())
    assert world.bot is not None
    run_over = lambda: world.bot.app.tables[1].run.over  # noqa: E731
    refused = 0
    for _turn in range(300):
        await fake.wait_for(lambda: run_over() or world.live_hand(alice) is not None)
        if run_over():
            break
        live = world.live_hand(alice)
        assert live is not None
        click = await fake.click(alice, live["id"], enabled(world, live)[0]["custom_id"])
        kind = await click.response()
        if kind == 4:  # her hand changed under her finger: refused, told why
            refused += 1
            assert (click.callback_data or {}).get("flags", 0) & EPHEMERAL
    else:
        raise AssertionError("the match did not end")
    kinds = [i.callback_type for i in fake.interactions.values()]
    assert kinds.count(7) >= 5, "her clicks update her hand in place"
    assert refused < 10
    assert len(world.table_messages()) == 1
    assert not [i for i in fake.interactions.values() if i.callback_type is None]


async def test_manage_server_may_close_a_table_it_does_not_host(world: World) -> None:
    fake, channel = world.fake, world.channel
    await world.start_bot()
    await (await fake.slash(world.alice, channel, "table", {}, subcommand="create")).response()
    await fake.wait_for(lambda: world.table_messages())
    table_id = world.table_messages()[0]["id"]
    by_bob = await fake.slash(world.bob, channel, "table", {"table": "t1"}, subcommand="close")
    _kind, text, flags = await answer_text(world, by_bob)
    assert flags & EPHEMERAL and text == _("err-host-only", "en", table="t1")
    by_mod = await fake.slash(world.mod, channel, "table", {"table": "t1"}, subcommand="close")
    _kind, text, flags = await answer_text(world, by_mod)
    assert flags & EPHEMERAL and text == _("ok-closed", "en", table="t1")
    assert fake.buttons(table_id) == [], "a closed table offers no button"
    assert len(world.table_messages()) == 1


async def test_two_people_each_get_their_own_hand(world: World) -> None:
    """Bob joins with the button and never types again: his hand reaches him through the
    token of his last click, and each hand is seen by its owner only."""
    fake, alice, bob, channel = world.fake, world.alice, world.bob, world.channel
    await world.start_bot()
    await (await fake.slash(alice, channel, "table", {"target": 1}, subcommand="create")).response()
    await fake.wait_for(lambda: world.table_messages())
    table_id = world.table_messages()[0]["id"]
    join = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":join"))
    await (await fake.click(bob, table_id, join["custom_id"])).response()
    for _n in range(2):
        await (await fake.slash(alice, channel, "table", {}, subcommand="addbot")).response()
    await world.settle()
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
    await (await fake.click(alice, table_id, start["custom_id"])).response()
    await fake.wait_for(lambda: any(m["attachments"] for m in fake.ephemeral_messages(bob)))
    assert world.bot is not None
    played = {alice.id: 0, bob.id: 0}
    for _turn in range(200):
        await world.bots_play()
        if world.bot.app.tables[1].run.over:
            break
        await fake.wait_for(lambda: world.live_hand(alice) or world.live_hand(bob))
        for person in (alice, bob):
            live = world.live_hand(person)
            if live is None:
                continue
            other = bob if person is alice else alice
            assert live not in fake.visible_messages(other, channel)
            click = await fake.click(person, live["id"], enabled(world, live)[0]["custom_id"])
            assert await click.response() in (6, 7)
            played[person.id] += 1
            break
    else:
        raise AssertionError("the match did not end")
    assert played[alice.id] >= 2 and played[bob.id] >= 2
    assert all(r.status < 400 for r in fake.requests)


async def test_the_hand_shows_every_card_with_the_illegal_ones_disabled(world: World) -> None:
    """Every card of the hand is a button; Discord greys out the ones that may not be
    played now, and a forged click on one gets the core's short refusal."""
    fake, alice, channel = world.fake, world.alice, world.channel
    await world.start_bot()
    created = await fake.slash(alice, channel, "table", {"ruleset": "classic"}, subcommand="create")
    await created.response()
    for _n in range(3):
        added = await fake.slash(alice, channel, "table", {}, subcommand="addbot")
        await added.response()
    await fake.wait_for(lambda: world.table_messages())
    table_id = world.table_messages()[0]["id"]
    await world.settle()
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
    assert await (await fake.click(alice, table_id, start["custom_id"])).response() == 4
    seen_bid = seen_card = False
    for _turn in range(200):
        await world.bots_play()
        assert world.bot is not None
        run = world.bot.app.tables[1].run
        if run.over or (seen_bid and seen_card):
            break
        await fake.wait_for(lambda: world.live_hand(alice) is not None)
        live = world.live_hand(alice)
        assert live is not None
        every = fake.buttons(live["id"])
        off = [b for b in every if b.get("disabled")]
        if run.match.view(0).contract is not None:
            held = sorted(card_text(c) for c in run.match.hand(0))
            cards = [b["label"] for b in every if re.fullmatch(r"[7-9TJQKA][CDHS]", b["label"])]
            assert sorted(cards) == held, "one button per card held"
            if off and not seen_card:
                assert all(b["disabled"] is True for b in off)
                versions = len(fake.meta[live["id"]].versions)
                forged = await fake.click(alice, live["id"], off[0]["custom_id"], force=True)
                kind, text, flags = await answer_text(world, forged)
                assert kind == 4 and flags & EPHEMERAL
                # the rule that forbids it, as the engine names it (follow suit, trump...)
                why = run.match.refusal(0, Action.play(parse_card(off[0]["label"])))
                reason = getattr(why, "reason", None)
                if reason is not None:
                    assert text == _(f"err-rule-{reason}", "en")
                else:
                    assert text == _("err-card-not-now", "en", card=off[0]["label"])
                assert len(fake.meta[live["id"]].versions) == versions
                seen_card = True
        elif off:
            seen_bid = True  # round 2: the turned suit is there, greyed out
        first = next(b for b in every if not b.get("disabled"))
        assert await (await fake.click(alice, live["id"], first["custom_id"])).response() in (6, 7)
    assert seen_card
