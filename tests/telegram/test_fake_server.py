"""The fake Bot API answers the real python-telegram-bot as Telegram would."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, Forbidden, InvalidToken, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from tests.fakes.telegram import FakeTelegram


def png(color: str, size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def tg():
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram):
    async with Bot(tg.token, base_url=tg.api_url, base_file_url=tg.file_url) as b:
        yield b


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(d, callback_data=d) for d in data]])


async def test_get_me_and_wrong_token(tg: FakeTelegram, bot: Bot) -> None:
    assert bot.username == "belote_test_bot"
    with pytest.raises(InvalidToken):
        async with Bot("999:wrong", base_url=tg.api_url):
            pass
    assert [c.status for c in tg.calls_of("getMe")] == [200, 401]


async def test_send_then_edit_in_place_and_not_modified(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.add_group("Club")
    sent = await bot.send_message(group.id, "Table 1", reply_markup=keyboard("join"))
    await bot.edit_message_text("Table 1: Alice", group.id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("Table 1: Alice", group.id, sent.message_id)
    msg = tg.message(group, sent.message_id)
    assert msg.text == "Table 1: Alice"
    assert msg.version == 1
    assert msg.callback_data() == []  # an edit without reply_markup drops the keyboard
    assert len(tg.chat_messages(group)) == 1


async def test_callback_data_over_64_bytes_is_refused(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.add_group("Club")
    await bot.send_message(group.id, "ok", reply_markup=keyboard("x" * 64))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "too long", reply_markup=keyboard("é" * 33))
    assert len(tg.chat_messages(group)) == 1


async def test_bot_cannot_write_first(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(alice.id, "your hand")
    tg.start_bot(alice, "hand-T1")
    sent = await bot.send_message(alice.id, "your hand")
    assert sent.chat.type == "private"
    alice.blocked_bot = True
    with pytest.raises(Forbidden, match=r"(?i)blocked"):
        await bot.send_message(alice.id, "again")


async def test_photo_upload_and_media_edit(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.add_group("Club")
    red, blue = png("red"), png("blue", (60, 20))
    sent = await bot.send_photo(group.id, red, caption="Table", filename="table.png")
    assert sent.photo[-1].width == 40
    call = tg.calls_of("sendPhoto")[-1]
    assert call.files["photo"][1] == len(red)
    assert call.body_size > len(red)
    media = InputMediaPhoto(blue, caption="Table, trick 2", filename="table.png")
    edited = await bot.edit_message_media(media, group.id, sent.message_id)
    assert edited.photo[-1].width == 60
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(blue, caption="Table, trick 2"), group.id, sent.message_id
        )
    await bot.edit_message_caption(group.id, sent.message_id, caption="Table, trick 3")
    msg = tg.message(group, sent.message_id)
    assert (msg.caption, msg.photo.width, msg.version) == ("Table, trick 3", 60, 2)
    with pytest.raises(BadRequest, match=r"(?i)no text in the message"):
        await bot.edit_message_text("x", group.id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_photo(group.id, red, caption="x" * 1025)


async def test_forum_topics(tg: FakeTelegram, bot: Bot) -> None:
    forum = tg.add_group("Forum", forum=True)
    topic = tg.add_topic(forum, "Belote")
    sent = await bot.send_message(forum.id, "hi", message_thread_id=topic)
    assert sent.message_thread_id == topic and sent.is_topic_message
    with pytest.raises(BadRequest, match=r"(?i)thread not found"):
        await bot.send_message(forum.id, "hi", message_thread_id=topic + 50)


async def test_commands_are_validated_and_kept_per_scope(tg: FakeTelegram, bot: Bot) -> None:
    from telegram import BotCommand, BotCommandScopeAllGroupChats

    scope = BotCommandScopeAllGroupChats()
    await bot.set_my_commands([BotCommand("join", "Sit at the table")], scope=scope)
    assert [c.command for c in await bot.get_my_commands(scope=scope)] == ["join"]
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("Join-Now", "x")])


async def test_flood_limit_answers_429() -> None:
    async with FakeTelegram(group_limit=(2, 60)) as tg, Bot(tg.token, base_url=tg.api_url) as b:
        group = tg.add_group("Club")
        await b.send_message(group.id, "1")
        await b.send_message(group.id, "2")
        with pytest.raises(RetryAfter):
            await b.send_message(group.id, "3")


async def test_application_long_polling_commands_and_presses(tg: FakeTelegram) -> None:
    """The real Application, polling the fake: a command, a press and its answer."""
    group = tg.add_group("Club")
    alice = tg.add_user("Alice")
    app = Application.builder().token(tg.token).base_url(tg.api_url).build()

    async def on_ping(update, context) -> None:
        await update.effective_chat.send_message(
            f"pong {' '.join(context.args)}", reply_markup=keyboard("p:1")
        )

    async def on_press(update, context) -> None:
        await update.callback_query.answer(f"pressed {update.callback_query.data}")

    app.add_handler(CommandHandler("ping", on_ping))
    app.add_handler(CallbackQueryHandler(on_press))
    async with app:
        await app.updater.start_polling(poll_interval=0, timeout=5)
        await app.start()
        tg.send_text(alice, group, "/ping@belote_test_bot a b")
        sent = await tg.wait_for(lambda: tg.chat_messages(group))
        assert sent[0].text == "pong a b"
        query = tg.press(alice, sent[0], "p:1")
        answer = await tg.wait_answer(query)
        assert answer["text"] == "pressed p:1"
        with pytest.raises(LookupError):
            tg.press(alice, sent[0], "p:2")
        await app.updater.stop()
        await app.stop()
    assert tg.calls_of("deleteWebhook")  # PTB clears any webhook before polling
    # A second answer to the same query is refused, as Telegram does.
    async with Bot(tg.token, base_url=tg.api_url) as b:
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await b.answer_callback_query(query)


async def test_webhook_delivery(tg: FakeTelegram) -> None:
    from aiohttp import web

    got: list[dict] = []
    done = asyncio.Event()

    async def hook(request: web.Request) -> web.Response:
        assert request.headers["X-Telegram-Bot-Api-Secret-Token"] == "s3cret"
        got.append(await request.json())
        done.set()
        return web.Response()

    web_app = web.Application()
    web_app.router.add_post("/hook", hook)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        async with Bot(tg.token, base_url=tg.api_url) as b:
            await b.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
            with pytest.raises(Exception, match=r"(?i)Conflict"):
                await b.get_updates()
        alice = tg.add_user("Alice")
        tg.start_bot(alice)
        await asyncio.wait_for(done.wait(), 5)
        assert got[0]["message"]["text"] == "/start"
    finally:
        await runner.cleanup()
