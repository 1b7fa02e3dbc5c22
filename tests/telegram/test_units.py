"""Small pieces of the adapter: settings, command texts, deep links, keyboards, texts."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.telegram import ConfigError, TelegramConfig
from adapters.telegram.commands import GROUP_COMMANDS, core_text, menu, scopes
from adapters.telegram.config import api_urls
from adapters.telegram.ids import channel, chat_of, telegram_user, user_id
from adapters.telegram.keyboard import cut, inline_keyboard
from adapters.telegram.links import hand_link, parse_payload
from adapters.telegram.texts import ENGLISH, text
from bot.platform import Button, Channel

TOKEN = "123456:ABC-secret_part"


def test_config_from_env_and_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        f"# comment\nexport TELEGRAM_TOKEN='{TOKEN}'\nTELEGRAM_API_URL=http://127.0.0.1:8081/\n"
    )
    config = TelegramConfig.from_env({}, dotenv=dotenv)
    assert config.token == TOKEN
    assert config.api_url == "http://127.0.0.1:8081/bot"
    assert config.file_url == "http://127.0.0.1:8081/file/bot"
    assert config.webhook is None
    assert TOKEN not in repr(config)
    # The environment wins over the file.
    other = TelegramConfig.from_env({"TELEGRAM_TOKEN": "9:x"}, dotenv=dotenv)
    assert other.token == "9:x"


def test_config_webhook_and_errors() -> None:
    env = {
        "TELEGRAM_TOKEN": TOKEN,
        "TELEGRAM_WEBHOOK_URL": "https://example.org/belote/hook",
        "TELEGRAM_WEBHOOK_PORT": "8080",
    }
    config = TelegramConfig.from_env(env, dotenv=None)
    assert config.webhook is not None
    assert (config.webhook.path, config.webhook.port) == ("/belote/hook", 8080)
    assert len(config.webhook.secret) >= 32 and config.webhook.secret not in repr(config)
    with pytest.raises(ConfigError, match="TELEGRAM_TOKEN is not set"):
        TelegramConfig.from_env({}, dotenv=None)
    with pytest.raises(ConfigError) as info:
        TelegramConfig.from_env({"TELEGRAM_TOKEN": "nocolon"}, dotenv=None)
    assert "nocolon" not in str(info.value)
    with pytest.raises(ConfigError, match="PORT"):
        TelegramConfig.from_env({**env, "TELEGRAM_WEBHOOK_PORT": "x"}, dotenv=None)


def test_api_urls() -> None:
    assert api_urls(None) == (None, None)
    assert api_urls("http://h:1/bot") == ("http://h:1/bot", "http://h:1/file/bot")


def test_ids_round_trip() -> None:
    assert chat_of(channel(-100123, 45)) == (-100123, 45)
    assert chat_of(channel(-100123)) == (-100123, None)
    assert channel(-5, None).id == "telegram:-5"
    assert telegram_user(user_id(77)) == 77
    assert telegram_user("discord:77") is None
    with pytest.raises(ValueError):
        chat_of(Channel("discord:1/2"))


@pytest.mark.parametrize(
    ("typed", "core"),
    [
        ("/join", "/join"),
        ("/join@belote_test_bot t3", "/join t3"),
        ("/Play@Belote_Test_Bot   TD  ", "/play TD"),
        ("/join@other_bot", None),
        ("hello", None),
    ],
)
def test_core_text(typed: str, core: str | None) -> None:
    assert core_text(typed, "belote_test_bot") == core


def test_menus_are_valid_bot_commands() -> None:
    commands = menu(GROUP_COMMANDS)
    assert all(1 <= len(c.description) <= 256 for c in commands)
    assert all(c.command.islower() and len(c.command) <= 32 for c in commands)
    known = frozenset({"join", "hand"})
    for _, cmds in scopes(known):
        assert {c.command for c in cmds} <= known | {"start"}
    private = [c.command for c in scopes(known)[-1][1]]
    assert private == ["start", "hand"]  # /start opens the private chat, always offered


@given(
    table=st.integers(1, 10**9),
    chat=st.integers(-(10**13), 10**13).filter(bool),
    thread=st.one_of(st.none(), st.integers(1, 2**31)),
    seq=st.integers(0, 10**6),
)
def test_hand_links_fit_the_start_payload(
    table: int, chat: int, thread: int | None, seq: int
) -> None:
    link = hand_link(f"t{table}:{seq}:-:hand", channel(chat, thread))
    assert link is not None
    payload = link.payload()
    assert len(payload) <= 64
    assert all(c.isalnum() or c in "_-" for c in payload)
    assert parse_payload(payload) == link


def test_only_the_open_hand_button_is_a_link() -> None:
    group = channel(-100)
    assert hand_link("t1:5:0:hand", group) is None  # a seat's button, not the table's
    assert hand_link("t1:5:-:join", group) is None
    assert hand_link("t1:5:-:hand", Channel("discord:1/2")) is None
    assert parse_payload("hand") is None


async def test_keyboard_marks_disabled_buttons_and_refuses_long_data() -> None:
    rows = ((Button("A", "a"), Button("B", "b", enabled=False)), (Button("C", "c", enabled=False),))
    markup = await inline_keyboard(rows)
    assert [[b.text for b in row] for row in markup.inline_keyboard] == [["A", "· B"], ["· C"]]
    # a disabled button keeps the core's action: the core answers a press on it
    assert [b.callback_data for b in markup.inline_keyboard[0]] == ["a", "b"]
    markup = await inline_keyboard(((Button("long", "é" * 33), Button("ok", "x" * 64)),))
    assert [b.text for b in markup.inline_keyboard[0]] == ["ok"]  # the rest still shows


def test_cut() -> None:
    assert cut("short", 10) == "short"
    long = cut("x" * 2000, 1024)
    assert len(long) == 1024 and long.endswith("…")
    assert cut("   ", 10) == "…"


def test_texts_fall_back_to_english() -> None:
    assert text("telegram-start-needed", "fr", name="@zoe").startswith("@zoe")
    assert text("telegram-open-hand", "en") == ENGLISH["telegram-open-hand"]
    assert "{" not in text("telegram-welcome", "bg", name="Ива")


def test_old_add_bot_buttons_are_still_understood() -> None:
    from adapters.telegram.lobby import add_bot_table

    assert add_bot_table("tg:addbot:t3") == "t3"
    assert add_bot_table("t3:0:-:addbot") is None  # the core's own: passed to app.press
    assert add_bot_table("t3:0:-:join") is None and add_bot_table("tg:addbot:x") is None


def test_core_commands_come_from_the_cores_public_list() -> None:
    from adapters.telegram.commands import GROUP_COMMANDS, core_commands, scopes
    from bot.app import BeloteApp, Settings

    plain = BeloteApp(store=None, settings=Settings(render_images=False))  # type: ignore[arg-type]
    names = core_commands(plain)
    assert names == plain.command_names()
    assert {"table", "join", "addbot", "play", "hand", "verify"} <= names
    assert not {"tournament", "ladder"} & names
    group_menu = [c.command for c in scopes(names)[1][1]]
    assert group_menu == [n for n in GROUP_COMMANDS if n in names]
    cups = BeloteApp(store=None, settings=Settings(render_images=False, tournaments=True))  # type: ignore[arg-type]
    assert {"tournament", "ladder", "stats", "leaderboard"} <= core_commands(cups)
    assert core_commands(object()) is None
