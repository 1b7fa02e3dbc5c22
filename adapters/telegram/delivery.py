"""The core's posts as Telegram messages: sent once, then edited in place.

Each chat is a lane of the core's delivery queue (:mod:`bot.ops.delivery`): one worker and
the post keys in the order they first came; a newer post for a key still waiting replaces
it where it stands. So messages keep their order
in a chat, and when the flood limits (PTB's AIORateLimiter) slow a busy group down, the
table message jumps straight to its latest state instead of replaying every card: edits
are coalesced, never multiplied.

Private posts (hands) go to the player's private chat. Telegram forbids a bot to write
first, so a player who never opened that chat is told once per group, with a deep link
button, and their latest private posts wait here until they tap Start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    MessageEntity,
)
from telegram import User as TgUser
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.ops.delivery import DeliveryQueue
from bot.platform import Button, Post

from . import ids
from .keyboard import CAPTION_LIMIT, TEXT_LIMIT, cut, digest, inline_keyboard, markup_digest
from .lobby import is_table_post, lobby_picture
from .memory import Memory, ShownMessage
from .pace import GroupPace
from .texts import text

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.5, 2.0, 5.0)  # a post that hit a network error is tried again
LAST_POSTS = 2000  # private posts kept in memory to show again (a few tables' hands)
GONE = (
    "message to edit not found",
    "message can't be edited",
    "message_id_invalid",
    "there is no media in the message to edit",
    "there is no text in the message to edit",
    "there is no caption in the message to edit",
)


@dataclass
class Person:
    """What the adapter has seen of a Telegram user (for mentions and locales)."""

    first_name: str
    username: str | None = None
    locale: str = "en"

    @property
    def mention(self) -> str:
        return f"@{self.username}" if self.username else self.first_name


class Outbox:
    """The adapter's :class:`bot.platform.Platform`: ``deliver`` queues, workers send."""

    def __init__(
        self,
        bot: Bot,
        memory: Memory,
        *,
        link_for: Callable[[Button, Post], Awaitable[str | None]],
        start_link: Callable[[str], str],
        pace: GroupPace | None = None,
    ) -> None:
        self.bot = bot
        #: new messages per group and minute, shared with the command answers (handlers)
        self.pace = pace or GroupPace()
        self.memory = memory
        self.people: dict[int, Person] = {}
        self.waiting: dict[int, OrderedDict[str, Post]] = {}  # user -> held private posts
        self.refused: set[int] = set()  # users Telegram said we may not write to
        # How many times each user opened the private chat: a refusal that answers a send
        # begun before the latest opening is stale (the send is tried again, not held).
        self.openings: dict[int, int] = {}
        self._link_for = link_for
        self._start_link = start_link
        self._queue: DeliveryQueue[Post] = DeliveryQueue(self._deliver_one, name="telegram")
        # The latest private post of each key, to show it again ("Open my hand"); bounded.
        self.last: OrderedDict[str, Post] = OrderedDict()
        self.failures = 0

    # ------------------------------------------------------------------ Platform
    def serves(self, channel_id: str) -> bool:
        """The core's channels this process serves: Telegram's (one process receives a
        bot's updates; on a shared database it leaves the other platforms' tables alone)."""
        return channel_id.startswith(ids.PREFIX)

    async def deliver(self, post: Post) -> None:
        """Queue ``post``; it is shown (sent or edited) by its chat's worker."""
        try:
            chat_id, _ = self._target(post)
        except ValueError:
            log.warning("post %r is not for Telegram (channel %r)", post.key, post.channel.id)
            return
        self._enqueue(chat_id, post)

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued post has been shown (tests, shutdown); False if
        ``timeout`` seconds passed first."""
        return await self._queue.flush(timeout)

    async def cancel(self) -> int:
        """Drop what is still queued (a bounded shutdown); how many posts were left."""
        return await self._queue.cancel()

    async def flush_chat(self, chat_id: int) -> None:
        """Wait until the posts queued for one chat have been shown."""
        await self._queue.flush(lanes=lambda lane: lane == chat_id)

    async def show_answer(self, user: int, posts: list[Post], *, wait: bool = True) -> bool:
        """The user's own posts that came in the answer to their press or command (their
        new hand): shown like any private post (the message that shows a key is edited),
        in their chat's order, unless a newer version of it was delivered meanwhile.
        With ``wait``, returns once they are shown; False if the private chat is not open
        to us (as far as is known without waiting)."""
        for post in posts:
            known = self.last.get(self._mkey(post))
            if known is None or not post.version or known.version < post.version:
                self._enqueue(user, post)
        if wait:
            await self.flush_chat(user)
        return user not in self.refused

    # ------------------------------------------------------------- private chat
    async def user_started(self, user: int) -> int:
        """The user opened the private chat: show what was held for them; how many."""
        self.refused.discard(user)
        self.openings[user] = self.openings.get(user, 0) + 1
        held = self.waiting.pop(user, OrderedDict())
        for mkey, post in held.items():
            if self._latest(mkey, post):
                self._enqueue(user, post)
        await self.memory.set_started(user, True)
        return len(held)

    async def reshow(self, user: int, channel: str) -> bool:
        """Post the user's private messages of a table again, at the bottom of the chat.

        For "Open my hand" when the hand is already there, higher up: the old message is
        deleted and the latest post sent anew. False when this process has no such post.
        """
        again = [
            (mkey, post)
            for mkey, post in list(self.last.items())
            if post.to_user is not None
            and ids.telegram_user(post.to_user) == user
            and post.channel.id == channel
        ]
        for mkey, post in again:
            shown = self.memory.shown.get(mkey)
            if shown is not None:
                with contextlib.suppress(TelegramError):
                    await self.bot.delete_message(shown.chat_id, shown.message_id)
                await self.memory.forget(mkey)
            self._enqueue(user, post)
        return bool(again)

    # ---------------------------------------------------------------- internals
    def _target(self, post: Post) -> tuple[int, int | None]:
        if post.to_user is not None:
            user = ids.telegram_user(post.to_user)
            if user is None:
                raise ValueError(post.to_user)
            return user, None
        chat, thread = ids.chat_of(post.channel)
        return self.memory.current_chat(chat) if self.memory else chat, thread

    @staticmethod
    def _mkey(post: Post) -> str:
        return f"{post.key}|{post.to_user or ''}"

    def _latest(self, mkey: str, post: Post) -> bool:
        """Whether ``post`` is still the newest private post of its key (a newer one queued
        since must not be overtaken by it)."""
        return self.last.get(mkey, post) is post

    def _enqueue(self, chat_id: int, post: Post) -> None:
        mkey = self._mkey(post)
        self._queue.put(chat_id, mkey, post)  # a newer post for a waiting key takes its place
        if post.to_user is not None:
            self.last[mkey] = post
            self.last.move_to_end(mkey)
            while len(self.last) > LAST_POSTS:
                self.last.popitem(last=False)

    async def _deliver_one(self, chat_id: object, mkey: object, post: Post) -> None:
        """The chat's worker shows one post, trying again after a network error."""
        assert isinstance(chat_id, int) and isinstance(mkey, str)
        for attempt in range(len(RETRY_DELAYS) + 1):
            try:
                await self._show(mkey, post)
                return
            except ChatMigrated as exc:  # the group is a supergroup now
                await self.memory.migrate(self._target(post)[0], exc.new_chat_id)
                if attempt == len(RETRY_DELAYS):
                    self._failed(post, chat_id, exc)
            except (TimedOut, RetryAfter, NetworkError) as exc:
                # a timeout, a 5xx, flood control past the limiter's own retries
                # (a BadRequest is a NetworkError too, but trying again won't help)
                last = attempt == len(RETRY_DELAYS)
                if isinstance(exc, BadRequest) or last or self._queue.waiting(chat_id, mkey):
                    # given up, or a newer post of that key is waiting anyway
                    self._failed(post, chat_id, exc)
                    return
                await asyncio.sleep(RETRY_DELAYS[attempt])
            except Exception as exc:  # one bad post must not stop the chat
                self._failed(post, chat_id, exc)
                return

    def _failed(self, post: Post, chat_id: int, exc: BaseException) -> None:
        self.failures += 1
        log.error("could not show %s in chat %s: %s", post.key, chat_id, describe(exc))

    async def _show(self, mkey: str, post: Post) -> None:
        chat_id, thread_id = self._target(post)
        if post.to_user is not None and chat_id in self.refused:
            await self._hold(chat_id, mkey, post)
            return
        if post.image is None and is_table_post(post):
            post = replace(post, image=lobby_picture(), image_name="lobby.png")
        markup = await inline_keyboard(post.buttons, lambda b: self._link_for(b, post))
        kind = "photo" if post.image else "text"
        body = cut(post.text, CAPTION_LIMIT if post.image else TEXT_LIMIT)
        want = ShownMessage(
            chat_id=chat_id,
            message_id=0,
            kind=kind,
            digest="",
            image_digest=digest(post.image) if post.image else "",
            markup_digest=markup_digest(markup),
            caption_digest=digest(body),
        )
        want.digest = digest(kind, want.image_digest, want.markup_digest, want.caption_digest)
        shown = self.memory.shown.get(mkey)
        if shown is not None and shown.chat_id == chat_id:
            if shown.digest == want.digest:
                return  # already showing exactly this
            if shown.kind == kind:
                want.message_id = shown.message_id
                try:
                    await self._edit(shown, want, post, body, markup)
                except BadRequest as exc:
                    reason = exc.message.lower()
                    if "not modified" not in reason:
                        if not any(g in reason for g in GONE):
                            raise
                        want.message_id = 0  # deleted by someone: post it again
                if want.message_id:
                    await self.memory.remember(mkey, want)
                    return
            else:
                with contextlib.suppress(TelegramError):
                    await self.bot.delete_message(chat_id, shown.message_id)
        opened = self.openings.get(chat_id, 0)
        try:
            message = await self._send(chat_id, thread_id, post, body, markup)
        except Forbidden:
            if post.to_user is None:
                raise
            if self.openings.get(chat_id, 0) != opened:  # they opened the chat meanwhile
                if self._latest(mkey, post):
                    self._enqueue(chat_id, post)
                return
            self.refused.add(chat_id)
            await self._hold(chat_id, mkey, post)
            if chat_id in self.refused:  # still refused once the notice is out
                await self.memory.set_started(chat_id, False)
            return
        if post.to_user is not None:
            await self.memory.set_started(chat_id, True)
            await self.memory.set_origin(chat_id, message.message_id, post.channel.id)
        want.message_id = message.message_id
        await self.memory.remember(mkey, want)

    async def _edit(
        self,
        shown: ShownMessage,
        want: ShownMessage,
        post: Post,
        body: str,
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        """The cheapest edit that shows ``want``: keyboard only, caption, or picture."""
        chat_id, message_id = shown.chat_id, shown.message_id
        if want.kind == "photo" and shown.image_digest != want.image_digest:
            media = InputMediaPhoto(post.image or b"", caption=body, filename=post.image_name)
            await self.bot.edit_message_media(
                media=media, chat_id=chat_id, message_id=message_id, reply_markup=markup
            )
        elif shown.caption_digest != want.caption_digest:
            if want.kind == "photo":
                await self.bot.edit_message_caption(
                    chat_id=chat_id, message_id=message_id, caption=body, reply_markup=markup
                )
            else:
                await self.bot.edit_message_text(
                    body, chat_id=chat_id, message_id=message_id, reply_markup=markup
                )
        else:
            await self.bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=message_id, reply_markup=markup
            )

    async def _send(
        self,
        chat_id: int,
        thread_id: int | None,
        post: Post,
        body: str,
        markup: InlineKeyboardMarkup | None,
    ) -> Message:
        await self.pace.turn(chat_id)  # a group's new message waits for room (its lane too)
        if post.image:
            return await self.bot.send_photo(
                chat_id,
                post.image,
                caption=body,
                filename=post.image_name,
                reply_markup=markup,
                message_thread_id=thread_id,
            )
        return await self.bot.send_message(
            chat_id, body, reply_markup=markup, message_thread_id=thread_id
        )

    async def _hold(self, user: int, mkey: str, post: Post) -> None:
        """Keep the private post for later and, once per group, say how to get it."""
        self.waiting.setdefault(user, OrderedDict())[mkey] = post
        try:
            group, thread = ids.chat_of(post.channel)
        except ValueError:
            return
        group = self.memory.current_chat(group)
        if group == user or not await self.memory.mark_notified(user, group):
            return
        person = self.people.get(user, Person(first_name=str(user)))
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        text("telegram-open-hand", person.locale), url=self._start_link("hand")
                    )
                ]
            ]
        )
        notice = text("telegram-start-needed", person.locale, name=person.mention)
        await self.pace.turn(group)
        await self.bot.send_message(
            group,
            notice,
            reply_markup=keyboard,
            message_thread_id=thread,
            entities=mention_entities(notice, person, user),
        )


def mention_entities(body: str, person: Person, user: int) -> list[MessageEntity] | None:
    """A text mention for someone without a username, so they are notified too."""
    if person.username or person.first_name not in body:
        return None  # an @username is linked by Telegram itself
    start = body.index(person.first_name)
    offset = len(body[:start].encode("utf-16-le")) // 2  # Telegram counts UTF-16 units
    length = len(person.first_name.encode("utf-16-le")) // 2
    who = TgUser(id=user, first_name=person.first_name, is_bot=False)
    return [MessageEntity(MessageEntity.TEXT_MENTION, offset, length, user=who)]


def describe(exc: BaseException) -> str:
    """An exception for a log line: its type and Telegram's description, no URL or token."""
    if isinstance(exc, TelegramError):
        return f"{type(exc).__name__}: {exc.message}"
    return type(exc).__name__
