"""Telegram updates in, core calls out, and the core's replies back to the right person.

Everything a player does ends in ``core.command`` or ``core.press``: the adapter decides
nothing about the game. It only knows where a reply may be shown on Telegram:

- a button press is answered with ``answerCallbackQuery`` (a short notice; every press
  is answered, or the button keeps spinning), pictures and keyboards go to the private
  chat, and when that chat is not open yet the answer carries a ``/start`` deep link;
- a typed command in a group gets its text answer there, as a reply (``/verify``), while
  anything with cards or buttons goes to the private chat;
- ``/start`` in the private chat (plain or from a deep link) opens that chat: held hands
  are shown, and a link's payload runs the action it stands for;
- an admin's ``/settings`` in a group goes to the private chat (its keyboard changes them),
  and the group is told so in words about the settings, not cards; an anonymous admin
  (writing as the group, through ``GroupAnonymousBot``) has no private chat: the values
  are shown in the group, with the command form to change them instead of the keyboard;
- a group's answers are paced (:mod:`.pace`): past the minute's budget of new messages,
  an answer is folded into the bot's latest answer there, by an edit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from telegram import Chat, Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.community.admins import AdminLists
from bot.community.service import PRESS as SETTINGS_PRESS
from bot.platform import Channel, Reply, User

from . import ids
from .commands import core_text
from .delivery import Outbox, Person, describe
from .keyboard import CAPTION_LIMIT, NOTICE_LIMIT, TEXT_LIMIT, cut, inline_keyboard
from .links import parse_payload, parse_settings_payload, settings_payload
from .lobby import add_bot_table
from .memory import Memory
from .texts import text

log = logging.getLogger(__name__)

ADMIN_TTL = 300.0  # seconds a group's administrator list is trusted


class Core(Protocol):
    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]: ...

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]: ...


class Bridge:
    """The PTB handlers of one running adapter."""

    def __init__(self, core: Core, outbox: Outbox, memory: Memory, bot_username: str) -> None:
        self.core = core
        self.outbox = outbox
        self.memory = memory
        self.bot_username = bot_username
        self.admins = AdminLists(self._fetch_admins, ADMIN_TTL)

    @property
    def bot(self):
        return self.outbox.bot

    def start_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    # --------------------------------------------------------------- updates
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, tg_user, chat = (
            update.effective_message,
            update.effective_user,
            update.effective_chat,
        )
        if message is None or tg_user is None or chat is None or not message.text:
            return
        as_group = message.sender_chat is not None and message.sender_chat.id == chat.id
        if tg_user.is_bot and not as_group:
            return
        typed = core_text(message.text, self.bot_username)
        if typed is None:
            return  # /command@another_bot
        self._remember(tg_user)
        thread = message.message_thread_id if message.is_topic_message else None
        private = chat.type == ChatType.PRIVATE
        if private:
            shown = await self.outbox.user_started(tg_user.id)  # held hands, shown now
            if typed == "/start" or typed.startswith("/start "):
                payload = typed.removeprefix("/start").strip()
                await self._private_start(tg_user, chat, payload, shown)
                return
        channel = ids.channel(self.memory.first_chat(chat.id), thread)
        if private:
            # "/play TD" typed next to a hand means: at that hand's table.
            origin = self.memory.latest_origin(chat.id)
            channel = Channel(origin) if origin else channel
        if as_group:  # an anonymous admin writes as the group itself: an admin there
            user = User(ids.user_id(chat.id), chat.title or str(chat.id), True, "en")
        else:
            user = await self._user(tg_user, channel)
        try:
            replies = await self.core.command(user, channel, typed)
        except Exception as exc:
            log.exception("command failed: %s", describe(exc))
            replies = [Reply(text("telegram-failed", user.locale), ok=False)]
        own = [r.post for r in replies if r.post is not None]
        if own:  # their new hand: to the private chat, in its order (no wait for it here)
            await self.outbox.show_answer(tg_user.id, own, wait=False)
        replies = [r for r in replies if r.post is None]
        if private:
            await self._to_private(tg_user.id, replies, channel)
        else:
            await self._to_group(message, tg_user, channel, replies, as_group=as_group)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        tg_user = query.from_user
        self._remember(tg_user)
        message = query.message
        chat = message.chat if message is not None else None
        if chat is None or not query.data:
            await self._answer(query, None)
            return
        thread = None
        if isinstance(message, Message) and message.is_topic_message:
            thread = message.message_thread_id
        channel = ids.channel(self.memory.first_chat(chat.id), thread)
        in_private = chat.type == ChatType.PRIVATE
        if in_private:
            # A hand's button: the core wants the channel of the table, not of this chat.
            origin = self.memory.origin(chat.id, message.message_id)
            channel = Channel(origin) if origin else channel
        user = await self._user(tg_user, channel)
        try:
            if table := add_bot_table(query.data):  # the adapter's Add bot button
                replies = await self.core.command(user, channel, f"/addbot {table}")
            else:
                replies = await self.core.press(user, channel, query.data)
        except Exception as exc:
            log.exception("press failed: %s", describe(exc))
            replies = [Reply(text("telegram-failed", user.locale), ok=False)]
        await self._answer_press(query, tg_user, user.locale, channel, replies, in_private)

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup: its tables follow it to the new chat id."""
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None:
            return
        if message.migrate_to_chat_id:
            await self.memory.migrate(chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.memory.migrate(message.migrate_from_chat_id, chat.id)

    # ---------------------------------------------------------- private chat
    async def _private_start(self, tg_user: TgUser, chat: Chat, payload: str, shown: int) -> None:
        """``/start`` in the private chat: plain, from the group notice, or "Open my hand".

        ``shown`` held posts were just released: then there is nothing more to do.
        """
        locale = tg_user.language_code or "en"
        link = parse_payload(payload)
        replies: list[Reply] = []
        origin: Channel | None = None
        group = parse_settings_payload(payload)
        if group is not None:  # "Open the settings", from an admin's /settings in a group
            origin = group
            user = await self._user(tg_user, group)
            try:
                replies = await self.core.command(user, group, "/settings")
            except Exception as exc:
                log.exception("start failed: %s", describe(exc))
                replies = [Reply(text("telegram-failed", locale), ok=False)]
        elif link is not None and not shown:
            if not await self.outbox.reshow(tg_user.id, link.channel.id):
                origin = link.channel
                user = await self._user(tg_user, link.channel)
                try:
                    replies = await self.core.command(user, link.channel, f"/hand {link.table}")
                except Exception as exc:
                    log.exception("start failed: %s", describe(exc))
                    replies = [Reply(text("telegram-failed", locale), ok=False)]
        elif not shown:
            key = "telegram-nothing-waiting" if payload else "telegram-welcome"
            replies = [Reply(text(key, locale, name=tg_user.first_name))]
        await self._to_private(tg_user.id, replies, origin)

    async def _to_private(
        self, chat_id: int, replies: Sequence[Reply], origin: Channel | None = None
    ) -> bool:
        """Send replies to the private chat; False when Telegram refuses (not started).

        ``origin`` is the channel of the table they are about: buttons pressed on them
        later reach the core with it.
        """
        for reply in replies:
            markup = await inline_keyboard(reply.buttons)
            try:
                if reply.file is not None:
                    sent = await self.bot.send_document(
                        chat_id,
                        reply.file,
                        filename=reply.file_name,
                        caption=cut(reply.text, CAPTION_LIMIT),
                        reply_markup=markup,
                    )
                elif reply.image:
                    sent = await self.bot.send_photo(
                        chat_id,
                        reply.image,
                        caption=cut(reply.text, CAPTION_LIMIT),
                        filename=reply.image_name,
                        reply_markup=markup,
                    )
                else:
                    sent = await self.bot.send_message(
                        chat_id, cut(reply.text, TEXT_LIMIT), reply_markup=markup
                    )
            except Forbidden:
                self.outbox.refused.add(chat_id)
                await self.memory.set_started(chat_id, False)
                return False
            except TelegramError as exc:  # the press must still be answered
                log.warning("could not answer privately: %s", describe(exc))
                continue
            if origin is not None and markup is not None:
                await self.memory.set_origin(chat_id, sent.message_id, origin.id)
        return True

    # ------------------------------------------------------------------ groups
    async def _to_group(
        self,
        message: Message,
        tg_user: TgUser,
        channel: Channel,
        replies: Sequence[Reply],
        *,
        as_group: bool = False,
    ) -> None:
        """Text answers in the group, as replies; cards and buttons privately.

        ``as_group``: an anonymous admin wrote, who has no private chat: the settings are
        shown here, without their keyboard (the view says how to change them by command)."""
        locale = tg_user.language_code or "en"
        private = [r for r in replies if r.image or r.buttons]
        public = [r for r in replies if not (r.image or r.buttons)]
        if as_group:
            public += [replace(r, buttons=()) for r in private if _is_settings(r)]
            private = [r for r in private if not _is_settings(r)]
        about_settings = any(_is_settings(r) for r in private)
        link = None
        if private and not await self._to_private(tg_user.id, private, channel):
            if about_settings:
                needed = text("telegram-start-needed-settings", locale, name=_mention(tg_user))
                public.append(Reply(needed))
                label = text("telegram-open-settings", locale)
                link = _link_keyboard(label, self.start_link(settings_payload(channel)))
            else:
                public.append(Reply(text("telegram-start-needed", locale, name=_mention(tg_user))))
        elif private:
            key = "telegram-settings-in-private" if about_settings else "telegram-hand-in-private"
            public.append(Reply(text(key, locale)))
        pace = self.outbox.pace
        for r in [r for r in public if r.file is not None]:  # a transcript: for everyone
            public.remove(r)
            try:
                await pace.turn(message.chat_id)
                await message.reply_document(
                    r.file, filename=r.file_name, caption=cut(r.text, CAPTION_LIMIT), do_quote=True
                )
            except TelegramError as exc:
                log.warning("could not send a file: %s", describe(exc))
        if not public:
            return
        body = "\n".join(r.text for r in public if r.text.strip())
        if link is None and tg_user.id in self.outbox.refused:
            link = _link_keyboard(text("telegram-open-hand", locale), self.start_link("hand"))
        thread = message.message_thread_id if message.is_topic_message else None
        if not pace.room_for_answer(message.chat_id):
            part = text("telegram-folded-answer", locale, name=_mention(tg_user), answer=body)
            if await self._fold(message.chat_id, thread, part, link):
                return
        try:
            await pace.turn(message.chat_id)
            sent = await message.reply_text(cut(body, TEXT_LIMIT), reply_markup=link, do_quote=True)
        except TelegramError as exc:
            log.warning("could not answer a command: %s", describe(exc))
            return
        pace.answered(message.chat_id, thread, sent.message_id, body, link)

    async def _fold(self, chat_id: int, thread: int | None, part: str, link: Any) -> bool:
        """Add ``part`` below the bot's latest answer in that group by an edit (no new
        message); False when there is none recent enough or the edit failed."""
        target = self.outbox.pace.fold_target(chat_id, thread)
        if target is None:
            return False
        target.parts.append(part)
        if link is not None:
            target.markup = link
        async with target.lock:  # one edit at a time; the last one carries every part
            if target.shown >= len(target.parts):
                return True  # an edit made meanwhile shows this part already
            parts = list(target.parts)
            showing = len(parts)  # parts added during the edit wait for the next one
            body = "\n\n".join(parts)
            while len(body) > TEXT_LIMIT and len(parts) > 1:  # the oldest answers go first
                parts.pop(0)
                body = "\n\n".join(parts)
            try:
                await self.bot.edit_message_text(
                    cut(body, TEXT_LIMIT),
                    chat_id=chat_id,
                    message_id=target.message_id,
                    reply_markup=target.markup,
                )
            except TelegramError as exc:
                log.info("could not fold an answer: %s", describe(exc))
                target.parts.remove(part)
                return False
            target.shown = showing
        return True

    # ----------------------------------------------------------------- presses
    async def _answer_press(
        self,
        query: Any,
        tg_user: TgUser,
        locale: str,
        channel: Channel,
        replies: Sequence[Reply],
        in_private: bool = False,
    ) -> None:
        own = [r.post for r in replies if r.post is not None]
        replies = [r for r in replies if r.post is None]
        private = [r for r in replies if r.image or r.buttons]
        notes = [r.text for r in replies if not (r.image or r.buttons) and r.text.strip()]
        long_text = sum(len(n) for n in notes) + len(notes) > NOTICE_LIMIT
        if long_text:
            private = [*private, Reply("\n".join(notes))]
        about_settings = any(_is_settings(r) for r in private)
        sent = bool(private) and await self._to_private(tg_user.id, private, channel)
        if sent and not notes and not (about_settings and in_private):
            key = "telegram-settings-in-private" if about_settings else "telegram-hand-in-private"
            notes = [text(key, locale)]
        # the press's own new posts (a hand) are in its answer: shown in the private chat
        # now, which tells whether that chat is open
        if own:
            await self.outbox.show_answer(tg_user.id, own)
        url = None
        if tg_user.id in self.outbox.refused:
            url = self.start_link("hand")
        await self._answer(query, cut("\n".join(notes), NOTICE_LIMIT) if notes else None, url)

    @staticmethod
    async def _answer(query: Any, notice: str | None, url: str | None = None) -> None:
        try:
            await query.answer(text=notice, url=url)
        except TelegramError as exc:  # too late (over 15 s) or already answered
            log.info("callback answer refused: %s", describe(exc))

    # ------------------------------------------------------------------ people
    def _remember(self, tg_user: TgUser) -> None:
        self.outbox.people[tg_user.id] = Person(
            first_name=tg_user.first_name,
            username=tg_user.username,
            locale=tg_user.language_code or "en",
        )

    async def _user(self, tg_user: TgUser, channel: Channel) -> User:
        """The acting user in ``channel`` (a group's, or a private chat's): an admin when
        the group's administrators include them (in a private chat, of the group whose
        table or settings the message shows)."""
        name = tg_user.full_name or tg_user.username or str(tg_user.id)
        return User(
            id=ids.user_id(tg_user.id),
            name=name,
            is_admin=await self._is_admin(channel, tg_user.id),
            locale=tg_user.language_code or "en",
        )

    async def _is_admin(self, channel: Channel, user: int) -> bool:
        """A group's creator or administrators (its list cached in ``self.admins``)."""
        try:
            chat_id, _thread = ids.chat_of(channel)
        except ValueError:
            return False
        if chat_id > 0:  # a private chat: nobody administers it
            return False
        return await self.admins.is_admin(chat_id, user)

    async def _fetch_admins(self, chat_id: int) -> frozenset[int]:
        members = await self.bot.get_chat_administrators(chat_id)
        return frozenset(m.user.id for m in members)

    async def on_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A member's status changed in a group (promoted, demoted, left): its list of
        administrators is asked again at the next input."""
        changed = update.chat_member
        if changed is not None:
            self.admins.forget(changed.chat.id)


def _is_settings(reply: Reply) -> bool:
    """A settings view or pick (its keyboard's buttons are the settings' own)."""
    return any(b.action.startswith(SETTINGS_PRESS) for row in reply.buttons for b in row)


def _mention(tg_user: TgUser) -> str:
    return f"@{tg_user.username}" if tg_user.username else tg_user.first_name


def _link_keyboard(label: str, url: str):
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup

    return InlineKeyboardMarkup([[InlineKeyboardButton(label, url=url)]])
