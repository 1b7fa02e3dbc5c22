"""Whole matches on Telegram, as users play them: real PTB, real core, fake Bot API.

Alice plays with three bots in a group; her hand lives in her private chat, which she
opens through the deep link. Bob presses what is not his; Alice presses stale buttons
and presses twice. A second test runs in a forum topic and restarts the bot mid-match.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram import TelegramAdapter
from adapters.telegram.keyboard import DISABLED_MARK
from bot.show.i18n import _ as tr
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser


def shown(adapter: TelegramAdapter, prefix: str, user: FakeUser | None = None) -> Any:
    """The adapter's record of the message showing a post key (white box, on purpose)."""
    assert adapter.memory is not None
    suffix = f"|telegram:{user.id}" if user else "|"
    for mkey, record in adapter.memory.shown.items():
        if mkey.startswith(prefix) and mkey.endswith(suffix):
            return record
    return None


def table_msg(tg: FakeTelegram, adapter: TelegramAdapter, chat: FakeChat) -> FakeMessage:
    record = shown(adapter, "table:")
    assert record is not None and record.chat_id == chat.id
    return tg.message(chat, record.message_id)


def hand_msg(tg: FakeTelegram, adapter: TelegramAdapter, user: FakeUser) -> FakeMessage | None:
    record = shown(adapter, "hand:", user)
    return tg.message(user.id, record.message_id) if record else None


def reveal(tg: FakeTelegram, chat: FakeChat) -> FakeMessage | None:
    return next((m for m in tg.chat_messages(chat) if "server seed was" in m.shown_text), None)


async def command(
    tg: FakeTelegram,
    adapter: TelegramAdapter,
    user: FakeUser,
    chat: FakeChat,
    text: str,
    thread: int | None = None,
) -> FakeMessage:
    """Type a command; returns the bot's reply to it, once all it caused is shown."""
    sent = tg.send_text(user, chat, text, thread_id=thread)
    reply = await tg.wait_for(
        lambda: next((m for m in tg.chat_messages(chat) if m.reply_to == sent.message_id), None)
    )
    await adapter.flush()
    return reply


def playable(hand: FakeMessage) -> list[str]:
    """The callback data of the buttons not marked unplayable (the core disabled them)."""
    return [
        b["callback_data"]
        for b in hand.buttons()
        if "callback_data" in b and not b["text"].startswith(DISABLED_MARK)
    ]


async def press(tg: FakeTelegram, user: FakeUser, msg: FakeMessage, data: str, **kw: Any) -> dict:
    return await tg.wait_answer(tg.press(user, msg, data, **kw))


async def play_turns(
    tg: FakeTelegram,
    adapter: TelegramAdapter,
    alice: FakeUser,
    group: FakeChat,
    *,
    turns: int | None = None,
    on_turn: Any = None,
) -> int:
    """Alice presses her first legal button each turn until the match ends (or ``turns``)."""
    done = 0
    last: tuple[str, ...] = ()
    while turns is None or done < turns:

        def ready(last: tuple[str, ...] = last) -> Any:
            if reveal(tg, group):
                return "over"
            hand = hand_msg(tg, adapter, alice)
            if hand is not None and hand.callback_data() and tuple(hand.callback_data()) != last:
                return hand
            return None

        try:
            hand = await tg.wait_for(ready, timeout=30)
        except TimeoutError:
            _dump(tg, adapter, alice, group)
            raise
        if hand == "over":
            break
        if on_turn is not None and await on_turn(done, hand):
            continue  # the same turn again
        last = tuple(hand.callback_data())
        answer = await press(tg, alice, hand, playable(hand)[0])
        assert not answer.get("text"), answer  # a legal move needs no notice
        done += 1
    return done


async def test_whole_match_in_a_group(
    tg: FakeTelegram, start_adapter: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    alice = tg.add_user("Alice", language_code="en")
    bob = tg.add_user("Bob", username=None)
    group = tg.add_group("Belote club", admins=(alice,))
    adapter = await start_adapter()

    # The menus are registered for groups and private chats.
    assert {"table", "join", "addbot", "start", "verify", "seed"} <= {
        c["command"] for c in tg.commands["all_group_chats/"]
    }
    assert "hand" in {c["command"] for c in tg.commands["all_private_chats/"]}

    created = await command(tg, adapter, alice, group, "/table@belote_test_bot create --target 1")
    assert "t1" in created.text
    lobby = table_msg(tg, adapter, group)
    assert lobby.button("Join") and lobby.photo is not None
    # the core's lobby buttons, each once: Join and Add bot (Start once the table is full)
    assert [b["text"] for b in lobby.buttons()] == ["Join", "Add bot"]
    add_bot = lobby.button("Add bot")["callback_data"]
    assert add_bot.startswith("t1:") and add_bot.endswith(":addbot")
    answer = await press(tg, bob, lobby, add_bot)  # only the host seats bots
    assert "host" in answer["text"].lower()
    answer = await press(tg, alice, lobby, add_bot)
    assert "seat 2" in answer["text"]
    # an "Add bot" the adapter itself made before the core had one still works
    answer = await press(tg, alice, lobby, "tg:addbot:t1", forged=True)
    assert "seat 3" in answer["text"]
    await command(tg, adapter, alice, group, "/addbot")
    await adapter.flush()
    lobby = table_msg(tg, adapter, group)
    assert lobby.version >= 3  # the lobby message was edited, not posted again
    assert [b["text"] for b in lobby.buttons()] == ["Join", "Start"]  # full: no Add bot
    start = lobby.button("Start")["callback_data"]

    # Bob is not the host: a notice for him, nothing changes.
    before = (lobby.message_id, lobby.version)
    answer = await press(tg, bob, lobby, start)
    assert "host" in answer["text"].lower()
    await adapter.flush()
    assert (table_msg(tg, adapter, group).message_id, lobby.version) == before

    # Alice starts: commitment posted; her hand cannot be sent (no private chat yet).
    answer = await press(tg, alice, lobby, start)
    assert answer.get("url") == "https://t.me/belote_test_bot?start=hand"
    await adapter.flush()
    commit = next(m for m in tg.chat_messages(group) if "commitment is" in m.shown_text)
    commitment = commit.text.split("commitment is ")[1].split(".")[0].strip()
    notices = [m for m in tg.chat_messages(group) if "can't write to you first" in m.shown_text]
    assert len(notices) == 1 and "@alice" in notices[0].text
    assert any(c.status == 403 for c in tg.calls_of("sendPhoto", "sendMessage"))

    table = table_msg(tg, adapter, group)
    assert table.photo is not None
    hand_button = table.button("hand")
    assert hand_button["url"].startswith("https://t.me/belote_test_bot?start=t1_")

    # She follows the deep link: her hand appears in the private chat.
    tg.open_deep_link(alice, hand_button["url"])
    hand = await tg.wait_for(lambda: hand_msg(tg, adapter, alice))
    assert hand.photo is not None and hand.chat.type == "private"
    # her turn (the bots before her have bid): nothing moves until she does
    await tg.wait_for(lambda: hand_msg(tg, adapter, alice).callback_data())
    await adapter.flush()
    hand = hand_msg(tg, adapter, alice)  # as it is now, on her turn
    # the buttons as they are now: the fake edits its messages in place, and the copy
    # below may take over the live buttons before the assertion reads the old message
    buttons = hand.callback_data()

    # /hand typed in the group: the cards go to the private chat, the group is told so.
    count = len(tg.chat_messages(alice.id))
    told = await command(tg, adapter, alice, group, "/hand")
    assert "private chat" in told.text and told.photo is None
    copy = tg.chat_messages(alice.id)[count]
    assert copy.photo is not None and copy.callback_data() == buttons

    # Bad presses along the way, then play to the end.
    seen: dict[str, Any] = {}

    async def mischief(turn: int, hand: FakeMessage) -> bool:
        data = playable(hand)
        if turn == 0 and "forged" not in seen:
            seen["forged"] = await press(tg, bob, hand, data[0], forged=True)
            return True  # then the same turn again, for Alice
        if turn == 1 and "double" not in seen:
            table_before = table_msg(tg, adapter, group).version
            q1 = tg.press(alice, hand, data[0])
            q2 = tg.press(alice, hand, data[0])
            assert not (await tg.wait_answer(q1)).get("text")
            seen["double"] = await tg.wait_answer(q2)
            seen["old"] = data
            await adapter.flush()
            assert table_msg(tg, adapter, group).version > table_before
            return True
        if turn == 1 and "stale" not in seen:
            version = hand.version
            seen["stale"] = await press(tg, alice, hand, seen["old"][-1], stale_ok=True)
            await adapter.flush()
            assert hand_msg(tg, adapter, alice).version == version  # nothing changed
            return False
        return False

    turns = await play_turns(tg, adapter, alice, group, on_turn=mischief)
    assert turns >= 2
    assert "not your cards" in seen["forged"]["text"]
    assert "already done" in seen["double"]["text"].lower()
    assert "out of date" in seen["stale"]["text"]

    # The end: the server seed is revealed in the group and /verify answers there.
    await adapter.flush()
    over = reveal(tg, group)
    assert commitment in over.text
    seed = over.text.split("server seed was ")[1].split(" ")[0]
    # the table message shows the result and the seed; the hand has nothing left to press
    # (both are posted after the reveal: wait for them rather than race the core)
    final_table = await tg.wait_for(
        lambda: (m := table_msg(tg, adapter, group)) and seed in m.shown_text and m
    )
    assert "wins the match" in final_table.shown_text
    final_hand = await tg.wait_for(
        lambda: (m := hand_msg(tg, adapter, alice)) and "is over" in m.shown_text and m
    )
    assert final_hand.callback_data() == []
    assert final_hand.photo is not None
    verified = await command(tg, adapter, bob, group, "/verify")
    assert "checks passed" in verified.shown_text
    # the transcript goes with the answer, for the browser check the answer links to
    assert verified.document is not None and verified.document.file_name.endswith(".json")
    assert seed in verified.document.data.decode()

    # The table was one message, edited in place from the lobby to the end.
    table = table_msg(tg, adapter, group)
    assert table.message_id == lobby.message_id and not tg.calls_of("deleteMessage")
    table_sends = [
        c
        for c in tg.calls_of("sendPhoto")
        if c.ok and c.result["message_id"] == table.message_id and c.params["chat_id"] == group.id
    ]
    assert len(table_sends) == 1
    assert len([c for c in tg.calls_of("editMessageMedia") if c.ok]) >= 4
    # Hands were edited in place too: one private photo message for Alice (and the copy
    # she asked for with /hand).
    assert len([m for m in tg.chat_messages(alice.id) if m.photo is not None]) == 2
    # Payloads: pictures are uploaded only when they change, and stay small.
    uploads = [c for c in tg.calls if c.files]
    assert uploads and all(
        c.method in ("sendPhoto", "editMessageMedia", "sendDocument") for c in uploads
    )
    assert [c.method for c in uploads].count("sendDocument") == 1  # /verify's transcript
    assert max(size for c in uploads for _, size in c.files.values()) < 1_000_000
    light = tg.calls_of("editMessageCaption", "editMessageReplyMarkup", "answerCallbackQuery")
    assert light and all(not c.files and c.body_size < 8_000 for c in light)
    # Every press was answered, every button fitted, no flood error, no token in logs.
    assert all(q.answered is not None for q in tg.queries.values())
    datas = [d for m in tg.messages.values() for v in m.history for d in _data(v.reply_markup)]
    assert datas and max(len(d.encode()) for d in datas) <= 64
    assert not [c for c in tg.calls if c.status == 429]
    assert not [c for c in tg.calls if c.description and "not modified" in c.description]
    assert tg.token not in caplog.text
    assert tg.token.split(":")[1] not in caplog.text


def _data(markup: dict | None) -> list[str]:
    if not markup:
        return []
    return [
        b["callback_data"] for row in markup["inline_keyboard"] for b in row if "callback_data" in b
    ]


async def test_forum_topic_and_restart_mid_match(
    tg: FakeTelegram, start_adapter: Any, db: Any
) -> None:
    alice = tg.add_user("Alice")
    forum = tg.add_group("Cards", forum=True, admins=(alice,))
    topic = tg.add_topic(forum, "Belote")
    tg.start_bot(alice)  # she talked to the bot before: hands go straight to her
    target = db("restart")  # SQLite, then PostgreSQL (the adapter's memory there too)
    first = await start_adapter(target)

    await command(tg, first, alice, forum, "/table create --target 1", thread=topic)
    for _ in range(3):
        await command(tg, first, alice, forum, "/addbot", thread=topic)
    await first.flush()
    lobby = table_msg(tg, first, forum)
    assert lobby.thread_id == topic
    await press(tg, alice, lobby, lobby.button("Start")["callback_data"])
    await first.flush()
    assert all(m.thread_id == topic for m in tg.chat_messages(forum))
    assert not [m for m in tg.chat_messages(forum) if "can't write" in m.shown_text]

    await play_turns(tg, first, alice, forum, turns=1)
    # "Show my hand" again, hand already there: it comes back at the bottom of the chat.
    await tg.wait_for(lambda: hand_msg(tg, first, alice).callback_data())
    await first.flush()
    old_hand = hand_msg(tg, first, alice)
    link = table_msg(tg, first, forum).button("hand")["url"]
    assert link.endswith(f"_{forum.id}_{topic}")
    tg.open_deep_link(alice, link)
    await tg.wait_for(
        lambda: (h := hand_msg(tg, first, alice)) is not None and h.message_id > old_hand.message_id
    )
    await first.flush()
    assert old_hand.deleted
    again = hand_msg(tg, first, alice)
    assert again.callback_data() == old_hand.callback_data() and again.photo is not None
    await play_turns(tg, first, alice, forum, turns=1)
    # Stop while it is Alice's turn, her buttons showing.
    await tg.wait_for(lambda: hand_msg(tg, first, alice).callback_data())
    await first.flush()
    table_before = table_msg(tg, first, forum)
    hand_before = hand_msg(tg, first, alice)
    old_buttons = hand_before.callback_data()
    stale = next(  # an earlier keyboard of the same message
        v.reply_markup
        for v in hand_before.history
        if v.reply_markup and _data(v.reply_markup) != old_buttons
    )
    sends_before = len(tg.calls_of("sendPhoto", "sendMessage"))
    await first.stop()

    # A new Application on the same database: the same messages, edited in place.
    second = await start_adapter(target)
    await second.flush()
    assert table_msg(tg, second, forum).message_id == table_before.message_id
    hand_after = hand_msg(tg, second, alice)
    assert hand_after.message_id == hand_before.message_id
    assert hand_after.callback_data() == old_buttons
    assert len(tg.calls_of("sendPhoto", "sendMessage")) == sends_before
    # A button from before the restart that is out of date: a notice, nothing else.
    stale_data = [b["callback_data"] for row in stale["inline_keyboard"] for b in row]
    hand_version = hand_after.version
    answer = await press(tg, alice, hand_after, stale_data[-1], stale_ok=True)
    assert "out of date" in answer["text"] or "already done" in answer["text"].lower()
    await second.flush()
    assert hand_msg(tg, second, alice).version == hand_version
    # Typed in the private chat, commands act at the table of the hand shown there.
    private = tg.private_chat(alice)
    count = len(tg.chat_messages(private))
    tg.send_text(alice, private, "/hand")
    copy = (await tg.wait_for(lambda: tg.chat_messages(private)[count:]))[0]
    assert copy.photo is not None and copy.callback_data() == old_buttons
    tg.send_text(alice, private, "/score")
    score = (await tg.wait_for(lambda: tg.chat_messages(private)[count + 1 :]))[0]
    assert "t1" in score.text and "m1" in score.text
    # The current buttons from before the restart still work.
    version = table_msg(tg, second, forum).version
    good = playable(hand_after)[0]
    answer = await press(tg, alice, hand_after, good)
    assert not answer.get("text")
    await tg.wait_for(lambda: table_msg(tg, second, forum).version > version)
    # The copy's same button is now a double press, recognised as such.
    answer = await press(tg, alice, copy, good)
    assert "already done" in answer["text"].lower()

    await play_turns(tg, second, alice, forum)
    await second.flush()
    assert reveal(tg, forum).thread_id == topic
    verified = await command(tg, second, alice, forum, "/verify", thread=topic)
    assert "checks passed" in verified.shown_text and verified.thread_id == topic


def _dump(tg: FakeTelegram, adapter: TelegramAdapter, alice: FakeUser, group: FakeChat) -> None:
    """What the chats show, for a failing test's report."""
    for chat in (group.id, alice.id):
        for m in tg.chat_messages(chat):
            print(chat, m.message_id, m.version, repr(m.shown_text[:300]), m.callback_data())
    print("shown", adapter.memory.shown if adapter.memory else None)
    print("calls", [(c.method, c.status, c.description) for c in tg.calls[-30:]])


async def test_webhook_mode(tg: FakeTelegram, tmp_path: Path, unused_tcp_port: int) -> None:
    """Telegram POSTs updates to our listener; a wrong secret is refused."""
    from aiohttp import ClientSession

    from adapters.telegram import TelegramConfig, Webhook
    from tests.telegram.conftest import TEST_LIMITS, core_factory

    url = f"http://127.0.0.1:{unused_tcp_port}/tg/hook"
    hook = Webhook(url=url, listen="127.0.0.1", port=unused_tcp_port, secret="s3cret-token")
    config = TelegramConfig(token=tg.token, api_url=tg.api_url, webhook=hook)
    adapter = TelegramAdapter(config, core_factory(tmp_path / "hook.db"), rate_limits=TEST_LIMITS)
    await adapter.start()
    try:
        assert tg.webhook == {"url": url, "secret_token": "s3cret-token"}
        assert not tg.calls_of("getUpdates")
        alice = tg.add_user("Alice")
        group = tg.add_group("Club", admins=(alice,))
        reply = await command(tg, adapter, alice, group, "/table create")
        assert "t1" in reply.text
        async with ClientSession() as http, http.post(url, json={"update_id": 99}) as resp:
            assert resp.status == 403
    finally:
        await adapter.stop()


async def test_group_upgraded_to_supergroup_mid_match(tg: FakeTelegram, start_adapter: Any) -> None:
    """Telegram moves a basic group to a new chat id; the table follows it there."""
    alice = tg.add_user("Alice")
    group = tg.add_group("Family", supergroup=False, admins=(alice,))
    tg.start_bot(alice)
    adapter = await start_adapter()
    await command(tg, adapter, alice, group, "/table create --target 1")
    for _ in range(3):
        await command(tg, adapter, alice, group, "/addbot")
    lobby = table_msg(tg, adapter, group)
    await press(tg, alice, lobby, lobby.button("Start")["callback_data"])
    await play_turns(tg, adapter, alice, group, turns=1)

    supergroup = tg.migrate(group, by=alice)
    await tg.wait_for(lambda: adapter.memory.moves.get(group.id) == supergroup.id)
    await play_turns(tg, adapter, alice, supergroup)
    await adapter.flush()
    assert reveal(tg, supergroup) is not None
    table = table_msg(tg, adapter, supergroup)
    assert table.photo is not None and table.chat is supergroup
    verified = await command(tg, adapter, alice, supergroup, "/verify")
    assert "checks passed" in verified.shown_text
    assert adapter.outbox.failures == 0


async def test_unplayable_cards_are_dotted_and_answered(
    tg: FakeTelegram, start_adapter: Any
) -> None:
    """Telegram has no greyed-out buttons: every card of the hand is a button, the ones
    that may not be played now are marked with a dot, and pressing one gets the core's
    short notice while nothing changes."""
    alice = tg.add_user("Alice", language_code="en")
    group = tg.add_group("Dots", admins=(alice,))
    tg.start_bot(alice)
    adapter = await start_adapter()
    await command(tg, adapter, alice, group, "/table create classic --target 400")
    for _ in range(3):
        await command(tg, adapter, alice, group, "/addbot")
    lobby = table_msg(tg, adapter, group)
    await press(tg, alice, lobby, lobby.button("Start")["callback_data"])
    seen: dict[str, Any] = {}

    kinds = ("follow", "beat", "trump")
    rules = {tr(f"err-rule-{kind}-{suit}", "en") for kind in kinds for suit in "CDHS"}
    rules.add(tr("err-rule-overtrump", "en"))

    async def check(turn: int, hand: FakeMessage) -> bool:
        dotted = [b for b in hand.buttons() if b["text"].startswith(DISABLED_MARK)]
        cards = [b for b in hand.buttons() if b["callback_data"].split(":", 3)[3][:5] == "play "]
        if "dot" in seen or not dotted or not cards:
            return False
        held = hand.caption.split("\n")[0]
        for b in cards:  # each card held is there, playable or dotted
            assert b["text"].removeprefix(DISABLED_MARK)[:2] in held
        version = hand.version
        answer = await press(tg, alice, hand, dotted[0]["callback_data"])
        card = dotted[0]["text"].removeprefix(DISABLED_MARK)
        # the rule that forbids it, as the engine names it (follow suit, trump...), or
        # where the engine names none, that the card cannot be played now
        assert answer["text"] in rules | {f"You can't play {card} now."}, answer["text"]
        await adapter.flush()
        assert hand_msg(tg, adapter, alice).version == version
        seen["dot"] = True
        return False

    for _ in range(40):
        if "dot" in seen or reveal(tg, group):
            break
        await play_turns(tg, adapter, alice, group, turns=1, on_turn=check)
    assert seen.get("dot"), "no unplayable card was ever shown"
