"""What a hostile user sends on Telegram: a name full of markup is shown as typed (the
adapter sends plain text: no parse mode, so nothing in a name is read as markup), and a
handler's error is logged with its traceback, the token masked."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.fakes.telegram import FakeTelegram
from tests.telegram.test_match import command, table_msg

HOSTILE = "*Eve* _x_ <b>bold</b> [link](http://evil.example) `code`"
SENDS = (
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
)


async def test_a_name_full_of_markup_is_shown_as_typed(tg: FakeTelegram, start_adapter: Any):
    eve = tg.add_user(HOSTILE, username="eve")
    group = tg.add_group("Belote club", admins=(eve,))
    adapter = await start_adapter()
    created = await command(tg, adapter, eve, group, "/table create")
    assert created.text and "t1" in created.text
    await command(tg, adapter, eve, group, "/addbot")
    await tg.settle()
    lobby = table_msg(tg, adapter, group)
    assert HOSTILE in lobby.shown_text  # every character as typed, none taken as markup
    calls = tg.calls_of(*SENDS)
    assert calls
    for call in calls:
        assert "parse_mode" not in call.params, call
        media = call.params.get("media") or {}
        assert "parse_mode" not in media, call


async def test_the_error_handler_logs_the_traceback_without_the_token(
    tg: FakeTelegram, start_adapter: Any, caplog: pytest.LogCaptureFixture
):
    alice = tg.add_user("Alice")
    group = tg.add_group("Belote club", admins=(alice,))
    adapter = await start_adapter()
    token = adapter.config.token

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"POST https://api.telegram.org/bot{token}/sendMessage failed")

    adapter.bridge._to_group = broken  # the reply cannot be sent: PTB's error handler runs
    caplog.set_level(logging.ERROR, logger="adapters.telegram.runner")
    tg.send_text(alice, group, "/table create")
    record = await tg.wait_for(
        lambda: next((r for r in caplog.records if "handling an update" in r.getMessage()), None)
    )
    text = record.getMessage()
    assert "Traceback" in text and "RuntimeError" in text and "broken" in text
    assert token not in caplog.text and "[redacted]" in text
