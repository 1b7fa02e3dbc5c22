"""The Outbox against the fake Bot API, through PTB's real ExtBot and AIORateLimiter."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
from PIL import Image
from telegram.ext import AIORateLimiter, ExtBot

from adapters.telegram.delivery import Outbox, Person
from adapters.telegram.ids import channel, user_id
from adapters.telegram.memory import Memory
from bot.platform import Button, Post
from tests.fakes.telegram import FakeTelegram


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=(3, 1.0)) as fake:
        yield fake


@pytest.fixture
async def outbox(tg: FakeTelegram) -> AsyncIterator[Outbox]:
    limiter = AIORateLimiter(group_max_rate=2, group_time_period=1, max_retries=2)
    bot = ExtBot(tg.token, base_url=tg.api_url, rate_limiter=limiter)
    await bot.initialize()
    memory = await Memory.open(":memory:")

    async def no_link(button: Button, post: Post) -> Any:
        return None

    box = Outbox(bot, memory, link_for=no_link, start_link=lambda p: f"https://t.me/x?start={p}")
    yield box
    await box.flush()
    await bot.shutdown()
    await memory.close()


async def test_edits_are_coalesced_under_the_flood_limit(tg: FakeTelegram, outbox: Outbox) -> None:
    group = tg.add_group("Club")
    ch = channel(group.id)
    for n in range(20):
        await outbox.deliver(Post(ch, "table:1", f"trick {n}", buttons=((Button("Join", "j"),),)))
    await outbox.deliver(Post(ch, "commit:1", "commitment abc"))
    await outbox.flush()
    messages = tg.chat_messages(group)
    assert [m.shown_text for m in messages] == ["trick 19", "commitment abc"]
    assert len(tg.calls_of("sendMessage", "sendPhoto")) == 2
    assert len(tg.calls_of("editMessageCaption")) <= 1
    assert not [c for c in tg.calls if c.status == 429]
    # Showing the same post again costs no request at all.
    before = len(tg.calls)
    await outbox.deliver(Post(ch, "table:1", "trick 19", buttons=((Button("Join", "j"),),)))
    await outbox.flush()
    assert len(tg.calls) == before


async def test_cheapest_edit_and_kind_change(tg: FakeTelegram, outbox: Outbox) -> None:
    group = tg.add_group("Club")
    ch = channel(group.id)
    await outbox.deliver(Post(ch, "board:1", "lobby"))
    await outbox.flush()
    lobby = tg.chat_messages(group)[0]
    # A text message cannot become a picture on Telegram: replaced once, then edited.
    await outbox.deliver(Post(ch, "board:1", "deal 1", image=png("green")))
    await outbox.flush()
    assert lobby.deleted
    table = tg.chat_messages(group)[0]
    assert table.photo is not None and table.caption == "deal 1"
    await outbox.deliver(Post(ch, "board:1", "deal 1, trick 2", image=png("green")))
    await outbox.flush()
    assert tg.calls[-1].method == "editMessageCaption"  # same picture: no upload
    await outbox.deliver(
        Post(ch, "board:1", "deal 1, trick 2", image=png("green"), buttons=((Button("H", "h"),),))
    )
    await outbox.flush()
    assert tg.calls[-1].method == "editMessageReplyMarkup"
    await outbox.deliver(Post(ch, "board:1", "x" * 3000, image=png("red")))
    await outbox.flush()
    assert tg.calls[-1].method == "editMessageMedia"
    assert len(table.caption) == 1024 and table.caption.endswith("…")
    assert table.callback_data() == []
    assert len(tg.chat_messages(group)) == 1


async def test_table_message_is_a_photo_from_the_lobby_on(tg: FakeTelegram, outbox: Outbox) -> None:
    group = tg.add_group("Club")
    ch = channel(group.id)
    await outbox.deliver(Post(ch, "table:1", "t1: Alice", buttons=((Button("Join", "j"),),)))
    await outbox.flush()
    await outbox.deliver(Post(ch, "table:1", "t1: Alice, Bob", buttons=((Button("Join", "j"),),)))
    await outbox.flush()
    assert tg.calls[-1].method == "editMessageCaption"  # the lobby picture is not re-sent
    await outbox.deliver(Post(ch, "table:1", "t1: deal 1", image=png("green")))
    await outbox.flush()
    assert tg.calls[-1].method == "editMessageMedia"
    (table,) = tg.chat_messages(group)
    assert table.version == 2 and table.caption == "t1: deal 1"


async def test_message_deleted_by_someone_is_posted_again(tg: FakeTelegram, outbox: Outbox) -> None:
    group = tg.add_group("Club")
    ch = channel(group.id)
    await outbox.deliver(Post(ch, "table:1", "one"))
    await outbox.flush()
    tg.chat_messages(group)[0].deleted = True  # an admin removed it
    await outbox.deliver(Post(ch, "table:1", "two"))
    await outbox.flush()
    assert [m.shown_text for m in tg.chat_messages(group)] == ["two"]
    assert outbox.failures == 0


async def test_private_posts_wait_for_start_and_notice_once(
    tg: FakeTelegram, outbox: Outbox
) -> None:
    group = tg.add_group("Club")
    forum = tg.add_group("Forum", forum=True)
    topic = tg.add_topic(forum, "Belote")
    zoe = tg.add_user("Zoé", username=None)
    outbox.people[zoe.id] = Person(first_name="Zoé", locale="fr")
    for n in range(3):
        await outbox.deliver(
            Post(
                channel(group.id),
                "hand:1",
                f"hand {n}",
                image=png("white"),
                to_user=user_id(zoe.id),
            )
        )
        await outbox.flush()
    await outbox.deliver(
        Post(channel(forum.id, topic), "hand:2", "other hand", to_user=user_id(zoe.id))
    )
    await outbox.flush()
    notices = tg.chat_messages(group)
    assert len(notices) == 1 and notices[0].text.startswith("Zoé")
    call = next(c for c in tg.calls_of("sendMessage") if c.params["chat_id"] == group.id)
    (mention,) = call.params["entities"]
    assert mention["type"] == "text_mention" and mention["user"]["id"] == zoe.id
    assert (mention["offset"], mention["length"]) == (0, 3)
    assert notices[0].buttons()[0]["url"] == "https://t.me/x?start=hand"
    assert [m.thread_id for m in tg.chat_messages(forum)] == [topic]
    assert len([c for c in tg.calls if c.status == 403]) == 1  # then it stops trying
    tg.start_bot(zoe)
    assert await outbox.user_started(zoe.id) == 2
    await outbox.flush()
    private = tg.chat_messages(zoe.id)
    assert sorted(m.shown_text for m in private) == ["hand 2", "other hand"]
    assert outbox.memory.origin(zoe.id, private[0].message_id) in {
        channel(group.id).id,
        channel(forum.id, topic).id,
    }


async def test_network_errors_are_retried_bad_requests_are_not(
    tg: FakeTelegram, outbox: Outbox
) -> None:
    group = tg.add_group("Club")
    tg.fail_next("sendMessage", times=2)
    await outbox.deliver(Post(channel(group.id), "commit:1", "commitment abc"))
    await outbox.flush()
    assert [m.text for m in tg.chat_messages(group)] == ["commitment abc"]
    assert [c.status for c in tg.calls_of("sendMessage")] == [502, 502, 200]
    assert outbox.failures == 0
    await outbox.deliver(Post(channel(-42), "commit:2", "nowhere"))  # no such chat
    await outbox.flush()
    assert outbox.failures == 1
    assert [c.status for c in tg.calls_of("sendMessage")][-1] == 400
    assert len(tg.calls_of("sendMessage")) == 4


async def test_group_upgraded_to_supergroup_is_followed(tg: FakeTelegram, outbox: Outbox) -> None:
    """Without the service message: Telegram's 400 with migrate_to_chat_id is enough."""
    alice = tg.add_user("Alice")
    group = tg.add_group("Family", supergroup=False)
    await outbox.deliver(Post(channel(group.id), "table:1", "lobby"))
    await outbox.flush()
    supergroup = tg.migrate(group, by=alice)
    await outbox.deliver(Post(channel(group.id), "table:1", "deal 1", image=png("green")))
    await outbox.flush()
    assert outbox.memory.moves == {group.id: supergroup.id}
    assert [m.caption for m in tg.chat_messages(supergroup)] == ["deal 1"]
    assert any(c.status == 400 and "upgraded" in c.description for c in tg.calls)
    assert outbox.failures == 0


def hand(ch: str, text: str, user: int, version: int, buttons: bool = False) -> Post:
    keys = ((Button("7S", "t1:play:7S"),),) if buttons else ()
    return Post(
        ch, "hand:1", text, image=png("white"), to_user=user_id(user), version=version, buttons=keys
    )


async def test_a_hand_newer_than_the_held_one_wins_when_the_chat_opens(
    tg: FakeTelegram, outbox: Outbox
) -> None:
    """Held: the hand dealt before Zoé opened the chat.  Her turn comes as she opens it:
    the hand with her buttons is queued before the held one is released, and the older
    one must not take its place."""
    group = tg.add_group("Club")
    zoe = tg.add_user("Zoé")
    ch = channel(group.id)
    await outbox.deliver(hand(ch, "dealt", zoe.id, 1))
    await outbox.flush()
    assert not tg.chat_messages(zoe.id)
    tg.start_bot(zoe)
    await outbox.deliver(hand(ch, "your turn", zoe.id, 2, buttons=True))
    assert await outbox.user_started(zoe.id) == 1
    await outbox.flush()
    (shown,) = [m for m in tg.chat_messages(zoe.id) if not m.deleted]
    assert shown.shown_text == "your turn" and shown.buttons()


async def test_a_refusal_answered_after_the_chat_opened_is_tried_again(
    tg: FakeTelegram, outbox: Outbox
) -> None:
    """Telegram refused the hand (the chat was not open yet), but its answer arrives after
    Zoé opened the chat: the hand is sent again, not held until she writes once more."""
    group = tg.add_group("Club")
    zoe = tg.add_user("Zoé")
    late = tg.answer_late("sendPhoto")
    await outbox.deliver(hand(channel(group.id), "dealt", zoe.id, 1))
    await tg.wait_for(lambda: any(c.decided for c in tg.calls_of("sendPhoto")))
    tg.start_bot(zoe)
    assert await outbox.user_started(zoe.id) == 0  # nothing held yet: the answer is out
    late.set()
    await outbox.flush()
    assert [c.status for c in tg.calls_of("sendPhoto")] == [403, 200]
    assert [m.shown_text for m in tg.chat_messages(zoe.id) if not m.deleted] == ["dealt"]
    assert zoe.id not in outbox.refused and not outbox.waiting.get(zoe.id)
