"""A group's pace on a fake that counts as Telegram does: past 20 new messages a minute in
one group, 429 with ``retry_after``. A burst of about thirty commands in a minute is
answered, every one, and the group never receives 20 new messages within 60 s: answers past
the minute's budget are folded into the bot's latest answer there, by an edit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.telegram import RateLimits, TelegramAdapter, TelegramConfig
from tests.fakes.telegram import FakeTelegram
from tests.telegram.conftest import core_factory

#: PTB's own limiter out of the way (as in the other tests): what holds the group under
#: Telegram's limit must be the adapter's count of new messages, at its defaults.
LIMITER_OFF = RateLimits(overall_per_second=200, group_per_period=100, group_period=1)
COMMANDS = ("/score", "/join", "/leave", "/back", "/score", "/rules")


@pytest.fixture
async def telegram_as_it_is() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:  # its defaults: 20 new messages a minute in a group
        yield fake


async def test_a_burst_of_thirty_commands_keeps_the_group_under_20_new_messages_a_minute(
    telegram_as_it_is: FakeTelegram, tmp_path: Any
) -> None:
    tg = telegram_as_it_is
    adapter = TelegramAdapter(
        TelegramConfig(token=tg.token, api_url=tg.api_url),
        core_factory(tmp_path / "belote.db"),
        rate_limits=LIMITER_OFF,
        poll_timeout=5,
    )
    await adapter.start()
    try:
        group = tg.add_group("Friday night")
        people = [tg.add_user(f"P{i}") for i in range(30)]
        sent = []
        for i, person in enumerate(people):
            typed = "/table create" if i in (0, 7) else COMMANDS[i % len(COMMANDS)]
            sent.append((person, tg.send_text(person, group, typed)))

        def answered(person: Any, message: Any) -> bool:
            mine = f"@{person.username}: "
            return any(
                m.reply_to == message.message_id or mine in m.shown_text
                for m in tg.chat_messages(group)
            )

        await tg.wait_for(lambda: all(answered(p, m) for p, m in sent), timeout=30)
        await adapter.flush()
        refused = [c for c in tg.calls if c.status == 429]
        assert not refused, f"{len(refused)} calls hit Telegram's flood limit"
        assert tg.new_messages_in_a_minute(group) < 20
        tables = [m for m in tg.chat_messages(group) if m.photo is not None]
        assert len(tables) == 2, "both new tables are shown"
    finally:
        await adapter.stop()
