"""People at the fake Discord: open a table, and play it from the newest hand.

Shared by the busy-tables test and ``bench/discord_ack.py``. A person plays like a quick
human: as soon as their newest private hand offers a move that is theirs at the table, they
press its first enabled button (and, every few moves, ask for their hand with ``/hand`` at
the same moment, the race of issue 18). They check, as they go, that the newest hand offers
the current move and that their first press on it is accepted.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .payloads import FakeChannel, FakeUser
from .server import FakeDiscord

STALE_WITHIN = 3.0  # seconds after a move by which no message may offer it any more


def hands(fake: FakeDiscord, user: FakeUser) -> list[dict[str, Any]]:
    """The user's private hand messages (ephemeral or DM), oldest first."""
    found = [
        m
        for m in fake.ephemeral_messages(user) + fake.dm_messages(user)
        if any(a["filename"] == "hand.png" for a in m["attachments"])
    ]
    return sorted(found, key=lambda m: int(m["id"]))


def offers(fake: FakeDiscord, message: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons of a message that may be pressed."""
    return [b for b in fake.buttons(message["id"]) if not b.get("disabled")]


async def open_table(
    fake: FakeDiscord,
    channel: FakeChannel,
    host: FakeUser,
    guests: list[FakeUser],
    table: str,
    bots: int,
    options: dict[str, Any] | None = None,
) -> None:
    """``host`` creates ``table`` (the next table id), the guests join, bots fill the rest,
    the host starts."""
    created = await fake.slash(host, channel, "table", options or {}, subcommand="create")
    await created.response()
    for guest in guests:
        joined = await fake.slash(guest, channel, "table", {"table": table}, subcommand="join")
        await joined.response()
    for _n in range(bots):
        added = await fake.slash(host, channel, "table", {"table": table}, subcommand="addbot")
        await added.response()
    started = await fake.slash(host, channel, "table", {"table": table}, subcommand="start")
    await started.response()


async def play(
    fake: FakeDiscord,
    app: Any,
    channel: FakeChannel,
    user: FakeUser,
    table: int,
    *,
    ask_every: int = 3,
    moves: dict[str, int] | None = None,
    timeout: float = 60.0,
    stale_for: list[float] | None = None,
) -> None:
    """``user`` plays table ``table`` of the core ``app`` to the end from their newest hand.

    Raises AssertionError if the newest hand offers a move that is over, or if a first
    press on it is not played; TimeoutError if a move made is still offered somewhere
    after ``STALE_WITHIN`` seconds. ``stale_for`` collects how long a move made was still
    offered by some copy (while the bot brings its messages up to date)."""
    made = 0
    stale_since: float | None = None

    def run() -> Any:
        return app.tables[table].run

    def seat() -> int:
        return app.tables[table].seat_of(f"discord:{user.id}")

    def ready() -> dict[str, Any] | bool:
        r = run()
        if r is None or r.over:
            return True
        if r.to_move != seat() or r.phase != "play":
            return False
        shown = hands(fake, user)
        if not shown or not offers(fake, shown[-1]):
            return False
        return shown[-1]

    while True:
        newest = await fake.wait_for(ready, timeout=timeout)
        if newest is True:
            return
        r = run()
        seq = r.seq
        buttons = offers(fake, newest)
        if not buttons:
            continue  # edited since it was seen (the same moment): look again
        stale = [b for b in buttons if f":{seq}:" not in b["custom_id"]]
        if stale:
            # the bot may be answering right now (a copy that crossed a click); it has
            # STALE_WITHIN seconds to bring the newest hand up to date
            stale_since = stale_since if stale_since is not None else fake.now()
            assert fake.now() - stale_since < STALE_WITHIN, (
                f"{user.username}'s newest hand offers a move that is over: {stale}"
            )
            await asyncio.sleep(0.02)
            continue
        if stale_since is not None and stale_for is not None:
            stale_for.append(fake.now() - stale_since)
        stale_since = None
        made += 1
        asked = None
        if ask_every and made % ask_every == 1:
            asked = asyncio.ensure_future(fake.slash(user, channel, "hand"))
        click = await fake.click(user, newest["id"], buttons[0]["custom_id"])
        await click.response()
        entry = r.entries[seq] if seq < len(r.entries) else None
        assert entry is not None and entry.kind == "action" and entry.data["seat"] == seat(), (
            f"{user.username}'s press on the newest hand was not played: {click.callback_data}"
        )
        if moves is not None:
            moves[user.username] = moves.get(user.username, 0) + 1
        if asked is not None:
            await (await asked).response()
        # a move made is soon offered nowhere: the copy clicked is updated, any other
        # copy (a "/hand" answer that crossed the click) is deleted or brought up to date
        started = fake.now()
        await fake.wait_for(lambda s=seq: not offering(fake, user, s), timeout=STALE_WITHIN)
        if stale_for is not None:
            stale_for.append(fake.now() - started)


def offering(fake: FakeDiscord, user: FakeUser, seq: int) -> bool:
    """Does any private message of ``user`` still offer a move of turn ``seq``?"""
    mark = f":{seq}:"
    found = fake.ephemeral_messages(user) + fake.dm_messages(user)
    return any(mark in b["custom_id"] for m in found for b in offers(fake, m))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0
