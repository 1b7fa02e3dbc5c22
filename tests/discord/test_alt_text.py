"""Every picture the bot sends on Discord carries an attachment description (its alt text,
read by screen readers) that says in words what it shows, in its reader's language: a
hand's cards and which may be played, the table, a deal's result, a replay. Checked at
the fake Discord's multipart payloads (``attachments[].description``), as sent."""

from __future__ import annotations

from typing import Any

from bot.ops.scheduler import ApsScheduler
from engine import card_text
from tests.discord.conftest import World

PICTURES = (".png", ".gif", ".jpg", ".webp")


def sent_pictures(world: World) -> list[tuple[str, dict[str, Any]]]:
    """Every picture the bot uploaded: (its file name, its ``attachments`` entry)."""
    found = []
    for record in world.fake.requests:
        if not record.multipart or not isinstance(record.json, dict):
            continue
        body = record.json.get("data", record.json) if "type" in record.json else record.json
        for item in (body or {}).get("attachments", []):
            name = str(item.get("filename", ""))
            if name.endswith(PICTURES):
                found.append((name, item))
    return found


async def test_every_picture_says_what_it_shows_in_its_readers_language(world: World) -> None:
    fake = world.fake
    chloe = fake.add_user("chloe", locale="fr")
    await world.start_bot(scheduler=ApsScheduler())
    assert world.bot is not None
    for command, options in (("create", {"target": 1}), ("addbot", {}), ("addbot", {})):
        await (
            await fake.slash(chloe, world.channel, "table", options, subcommand=command)
        ).response()
    await (await fake.slash(world.alice, world.channel, "table", {}, subcommand="join")).response()
    await world.settle()
    table = next(m for m in world.public() if fake.buttons(m["id"]))
    start = next(b for b in fake.buttons(table["id"]) if b["custom_id"].endswith(":start"))
    await (await fake.click(chloe, table["id"], start["custom_id"])).response()

    run_over = lambda: world.bot.app.tables[1].run.over  # noqa: E731
    for _turn in range(400):
        await fake.wait_for(
            lambda: run_over() or any(world.live_hand(p) for p in (chloe, world.alice))
        )
        if run_over():
            break
        for person in (chloe, world.alice):
            live = world.live_hand(person)
            if live is None:
                continue
            buttons = [b for b in fake.buttons(live["id"]) if not b.get("disabled")]
            await (await fake.click(person, live["id"], buttons[0]["custom_id"])).response()
    else:
        raise AssertionError("the match did not end")
    await world.settle()
    replay = await fake.slash(chloe, world.channel, "replay", {})
    await replay.response()
    await world.settle()

    pictures = sent_pictures(world)
    names = {name for name, _item in pictures}
    assert {"hand.png", "table.png", "result.png"} <= names, names
    assert any(name.endswith(".gif") for name in names), names
    for name, item in pictures:
        assert str(item.get("description", "")).strip(), (name, item)

    # the hands: the cards spoken, which may be played, in each reader's language
    hands = [item["description"] for name, item in pictures if name == "hand.png"]
    french = [d for d in hands if d.startswith("Image de ta main")]
    english = [d for d in hands if d.startswith("Picture of your hand")]
    assert french and english, hands
    assert any("Tu peux jouer" in d for d in french), french
    assert any("You may play" in d for d in english), english
    assert any(" de " in d and ("Valet" in d or "As" in d or "Roi" in d) for d in french)
    for d in hands:  # never the codes a screen reader spells out
        assert not any(f" {card_text(c)}" in d for c in range(32)), d
    # the table, the result and the replay: in the table's language (its host's, French)
    for name, item in pictures:
        if name == "table.png":
            assert item["description"].startswith("Image de la table"), item
        if name == "result.png":
            assert item["description"].startswith("Image du résultat"), item
        if name.endswith(".gif"):
            assert item["description"].startswith("Animation de la donne"), item
            assert "pli 1 :" in item["description"]


async def test_the_standings_picture_says_the_standings(world: World) -> None:
    fake, mod = world.fake, world.mod
    chloe = fake.add_user("chloe", locale="fr")
    world.tournaments = True  # a tournament and a ladder, in this channel
    await world.start_bot()
    for group, options in (("tournament", {"format": "swiss"}), ("ladder", {})):
        made = await fake.slash(
            mod, world.channel, group, {**options, "name": "Friday Cup"}, subcommand="create"
        )
        await made.response()
        for person in (chloe, world.alice):
            joined = await fake.slash(person, world.channel, group, {}, subcommand="join")
            await joined.response()
    # the ladder's standings: its players, in words as in the picture
    asked = await fake.slash(chloe, world.channel, "ladder", {}, subcommand="standings")
    await asked.response()
    await world.settle()
    standings = [item for name, item in sent_pictures(world) if name == "standings.png"]
    assert standings, [name for name, _item in sent_pictures(world)]
    described = standings[-1].get("description", "")
    assert described.startswith("Image du classement de Friday Cup"), described
    assert "chloe" in described.lower() and "alice" in described.lower(), described
