"""On Telegram, ``/web`` in the group sends the seat's link to the person's private chat
as a URL button (never in the group, where everyone would see it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adapters.telegram import TelegramAdapter, TelegramConfig
from tests.fakes.telegram import FakeTelegram
from tests.telegram.conftest import TEST_LIMITS
from tests.telegram.test_match import command

PUBLIC = "https://belote.example.org"


def web_factory(db: Path) -> Any:
    async def factory(platform: Any) -> Any:
        from bot.app import BeloteApp, Settings
        from bot.store import open_store

        store = await open_store(db, owner="telegram-tests")
        settings = Settings(
            fast=True, drand=False, bot_delay=0.0, web_key=b"k" * 32, public_url=PUBLIC
        )
        return BeloteApp(store, platform, settings=settings)

    return factory


async def test_web_in_the_group_sends_the_link_privately(tg: FakeTelegram, tmp_path: Path):
    alice = tg.add_user("Alice", language_code="fr")
    group = tg.add_group("Belote club", admins=(alice,))
    config = TelegramConfig(token=tg.token, api_url=tg.api_url)
    adapter = TelegramAdapter(
        config, web_factory(tmp_path / "b.db"), rate_limits=TEST_LIMITS, poll_timeout=5
    )
    await adapter.start()
    try:
        tg.send_text(alice, tg.private_chat(alice), "/start")  # she opened her private chat
        await command(tg, adapter, alice, group, "/table create --target 1")
        for _ in range(3):
            await command(tg, adapter, alice, group, "/addbot")
        await command(tg, adapter, alice, group, "/web")

        def link() -> Any:
            for m in tg.chat_messages(alice.id):
                for b in m.buttons():
                    if b.get("url", "").startswith(PUBLIC + "/table/#k="):
                        return m, b
            return None

        message, button = await tg.wait_for(link)
        assert button["text"] == "Ouvrir la table"  # in her language
        assert "Ta place à t1" in message.shown_text
        token = button["url"].split("#k=")[1]
        assert not any(token in m.shown_text for m in tg.chat_messages(group))
    finally:
        await adapter.stop()
