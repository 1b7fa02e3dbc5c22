"""A local fake of the Telegram Bot API, for running python-telegram-bot for real.

The bot under test talks HTTP to ``http://127.0.0.1:PORT/bot<token>/<method>`` (point
PTB at it with ``base_url`` / ``base_file_url``, or ``TELEGRAM_API_URL``), exactly as it
would talk to Telegram or to a self-hosted Bot API server. The test plays the users:
it sends texts and commands, opens private chats (``/start`` deep links) and presses
inline buttons; the fake turns those into updates for ``getUpdates`` (long polling) or
POSTs them to the webhook set with ``setWebhook``.

The fake answers Telegram's own errors where a real bot trips over them: callback
data over 64 bytes (``BUTTON_DATA_INVALID``), an edit that changes nothing (``message is
not modified``), writing first to a user (403 ``bot can't initiate conversation``), an
unknown or already answered callback query, captions and texts over their limits, and,
past 20 new messages a minute in one group (Telegram's own limit; ``new_message_limit``)
and when other flood limits are set, 429 ``Too Many Requests: retry after N``. Every call is
recorded (method, decoded parameters, uploaded file sizes, body size, answer) so that
tests can assert edits rather than new messages, callback answers and payload sizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import re
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import ClientSession, web

from .state import (
    ApiError,
    Call,
    CallbackQuery,
    Counter,
    Document,
    FakeChat,
    FakeMessage,
    FakeUser,
    Photo,
    bad_request,
    buttons_of,
    forbidden,
)

JSON_FIELDS = {
    "reply_markup",
    "media",
    "commands",
    "scope",
    "entities",
    "caption_entities",
    "reply_parameters",
    "link_preview_options",
    "allowed_updates",
}
INT_FIELDS = {
    "message_id",
    "message_thread_id",
    "offset",
    "limit",
    "timeout",
    "user_id",
    "reply_to_message_id",
    "cache_time",
    "max_connections",
}
BOOL_FIELDS = {"show_alert", "drop_pending_updates", "disable_notification", "has_spoiler"}
COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")
#: What Telegram sends a bot that did not list ``allowed_updates``: not ``chat_member``.
DEFAULT_UPDATES = frozenset({"message", "edited_message", "callback_query", "my_chat_member"})
#: An administrator's rights, as ``ChatMemberAdministrator`` lists them.
ADMIN_RIGHTS = (
    "can_be_edited",
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)
#: Who an anonymous administrator's message is ``from`` (Telegram's own account).
ANONYMOUS_ADMIN = FakeUser(1087968824, "Group", username="GroupAnonymousBot", is_bot=True)
START_PAYLOAD_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
GROUP_METHODS = {
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
}
#: The calls that put a new message in a chat (what Telegram's "20 messages a minute in a
#: group" counts; edits are limited only by ``group_limit``).
NEW_MESSAGE_METHODS = {
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "sendMediaGroup",
    "sendAnimation",
    "sendVideo",
    "sendSticker",
    "copyMessage",
    "forwardMessage",
}
#: Telegram's limit of new messages in one group: about 20 a minute.
GROUP_NEW_MESSAGES = (20, 60.0)
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)


class FakeTelegram:
    """The far side of the Bot API, plus the users who press its buttons.

    ``group_limit=(n, seconds)`` makes sends and edits in one group past ``n`` within
    ``seconds`` fail with 429, as Telegram's flood control does (off by default).
    ``new_message_limit`` does the same for new messages only, and is on by default as on
    Telegram: past 20 new messages in one group within 60 s, 429 with ``retry_after``
    (a bot that relies on PTB's retries to get them out is caught).
    """

    def __init__(
        self,
        token: str = "123456:TEST-token-for-the-fake",
        bot_username: str = "belote_test_bot",
        *,
        group_limit: tuple[int, float] | None = None,
        new_message_limit: tuple[int, float] | None = GROUP_NEW_MESSAGES,
    ) -> None:
        self.token = token
        self.group_limit = group_limit
        self.new_message_limit = new_message_limit
        self._new_messages: dict[int, deque[float]] = {}
        self._ids = Counter(1000)
        self.bot = FakeUser(
            id=int(token.split(":")[0]), first_name="Belote", username=bot_username, is_bot=True
        )
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], FakeMessage] = {}
        self.queries: dict[str, CallbackQuery] = {}
        self.calls: list[Call] = []
        self.commands: dict[str, list[dict[str, str]]] = {}  # scope key -> commands
        self.webhook: dict[str, Any] | None = None
        self._next_message_id: dict[int, int] = {}
        self._updates: deque[dict[str, Any]] = deque()
        #: the kinds of update the bot asked for (getUpdates' or setWebhook's
        #: ``allowed_updates``); None: Telegram's default, every kind but chat_member
        self.allowed_updates: set[str] | None = None
        self._next_update_id = 1
        self._changed = asyncio.Condition()
        self._poller = 0  # the newest getUpdates; older waiting ones get 409 Conflict
        self._flood: dict[int, deque[float]] = {}
        self._files: dict[str, Photo] = {}
        self._failures: dict[str, int] = {}
        self._late: dict[str, asyncio.Event] = {}
        self._runner: web.AppRunner | None = None
        self._http: ClientSession | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self.port = 0

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> FakeTelegram:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.*}", self._download)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._webhook_task:
            self._webhook_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._webhook_task
        if self._http:
            await self._http.close()
        async with self._changed:
            self._poller = -1
            self._changed.notify_all()
        if self._runner:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_url(self) -> str:
        """What to give PTB's ``base_url`` (the token is appended by PTB)."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # ------------------------------------------------------------ the world
    def add_user(
        self, first_name: str, *, username: str | None = None, language_code: str = "en"
    ) -> FakeUser:
        user = FakeUser(
            id=self._ids() * 10 + 7,
            first_name=first_name,
            username=username or first_name.lower(),
            language_code=language_code,
        )
        self.users[user.id] = user
        return user

    def add_group(
        self,
        title: str,
        *,
        supergroup: bool = True,
        forum: bool = False,
        admins: tuple[FakeUser, ...] = (),
    ) -> FakeChat:
        chat_id = -(1_000_000_000_000 + self._ids()) if supergroup else -self._ids()
        chat = FakeChat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            is_forum=forum,
            admins={u.id for u in admins},
            creator=admins[0].id if admins else None,
        )
        self.chats[chat.id] = chat
        return chat

    def add_topic(self, chat: FakeChat, name: str) -> int:
        """A forum topic: its thread id is the id of the service message that opened it."""
        if not chat.is_forum:
            raise ValueError("topics live in forum supergroups")
        thread_id = self._new_message_id(chat.id)
        chat.topics[thread_id] = name
        return thread_id

    def migrate(self, chat: FakeChat, by: FakeUser) -> FakeChat:
        """Upgrade a basic group to a supergroup: a new chat id, the old one refuses."""
        if chat.type != "group":
            raise ValueError("only basic groups migrate")
        new = self.add_group(chat.title or "", supergroup=True)
        new.admins, new.creator = set(chat.admins), chat.creator
        chat.migrated_to = new.id
        for target, field_name, value in (
            (chat, "migrate_to_chat_id", new.id),
            (new, "migrate_from_chat_id", chat.id),
        ):
            msg = FakeMessage(
                chat=target,
                message_id=self._new_message_id(target.id),
                date=int(time.time()),
                sender=by,
            )
            msg.snapshot()
            self.messages[(target.id, msg.message_id)] = msg
            self._push({"message": {**msg.to_api(), field_name: value}})
        return new

    def set_admin(self, chat: FakeChat, user: FakeUser, admin: bool = True) -> None:
        """Promote (or demote) ``user`` in ``chat``; as Telegram does, a bot that asked for
        ``chat_member`` updates (and is an admin there) is told with one."""
        old = "administrator" if user.id in chat.admins else "member"
        if admin:
            chat.admins.add(user.id)
        else:
            chat.admins.discard(user.id)
        new = "administrator" if admin else "member"
        if old == new:
            return

        def member(status: str) -> dict[str, Any]:
            out: dict[str, Any] = {"status": status, "user": user.to_api()}
            if status == "administrator":
                out.update(dict.fromkeys(ADMIN_RIGHTS, False))
            return out

        self._push(
            {
                "chat_member": {
                    "chat": chat.to_api(),
                    "from": user.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": member(old),
                    "new_chat_member": member(new),
                }
            }
        )

    def send_as_group(self, chat: FakeChat, text: str) -> FakeMessage:
        """An anonymous administrator writes: Telegram shows the group as the sender
        (``sender_chat``) and puts ``GroupAnonymousBot`` in ``from``."""
        msg = FakeMessage(
            chat=chat,
            message_id=self._new_message_id(chat.id),
            date=int(time.time()),
            sender=ANONYMOUS_ADMIN,
            text=text,
        )
        if text.startswith("/"):
            msg.entities = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        msg.snapshot()
        self.messages[(chat.id, msg.message_id)] = msg
        self._push({"message": {**msg.to_api(), "sender_chat": chat.to_api()}})
        return msg

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(id=user.id, type="private", user=user)
            self.chats[user.id] = chat
        return chat

    def chat_messages(self, chat: FakeChat | int, *, from_bot: bool = True) -> list[FakeMessage]:
        """Messages of a chat still there, oldest first (by default only the bot's)."""
        chat_id = chat if isinstance(chat, int) else chat.id
        return [
            m
            for (cid, _), m in sorted(self.messages.items(), key=lambda kv: kv[0][1])
            if cid == chat_id and not m.deleted and (not from_bot or m.sender is self.bot)
        ]

    def message(self, chat: FakeChat | int, message_id: int) -> FakeMessage:
        chat_id = chat if isinstance(chat, int) else chat.id
        return self.messages[(chat_id, message_id)]

    # ------------------------------------------------------- users acting
    def send_text(
        self, user: FakeUser, chat: FakeChat, text: str, *, thread_id: int | None = None
    ) -> FakeMessage:
        """The user writes in a chat; a leading /command gets its bot_command entity."""
        if chat.type == "private":
            if chat.id != user.id:
                raise ValueError("a user writes only in their own private chat with the bot")
            user.started_bot = True
            user.blocked_bot = False
        msg = FakeMessage(
            chat=chat,
            message_id=self._new_message_id(chat.id),
            date=int(time.time()),
            sender=user,
            thread_id=thread_id,
            text=text,
        )
        if text.startswith("/"):
            length = len(text.split()[0])
            msg.entities = [{"type": "bot_command", "offset": 0, "length": length}]
        msg.snapshot()
        self.messages[(chat.id, msg.message_id)] = msg
        self._push({"message": msg.to_api()})
        return msg

    def start_bot(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """The user opens the private chat (a t.me deep link) and taps Start."""
        if payload is not None and not START_PAYLOAD_RE.match(payload):
            raise ValueError(f"Telegram would not carry the start payload {payload!r}")
        text = "/start" if payload is None else f"/start {payload}"
        return self.send_text(user, self.private_chat(user), text)

    def open_deep_link(self, user: FakeUser, url: str) -> FakeMessage:
        """Follow a ``https://t.me/<bot>?start=<payload>`` link, as a client does."""
        match = re.fullmatch(r"https://t\.me/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]{1,64})", url)
        if not match or match.group(1) != self.bot.username:
            raise ValueError(f"not a deep link to this bot: {url!r}")
        return self.start_bot(user, match.group(2))

    def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        data: str,
        *,
        stale_ok: bool = False,
        forged: bool = False,
    ) -> str:
        """The user taps an inline button; returns the callback query id.

        The button must be on the message as it is now, or (``stale_ok``) as it was in an
        earlier version (a client that had not caught up yet). ``forged`` skips the check,
        as a modified client could.
        """
        if not forged:
            current = message.callback_data()
            earlier = {
                b.get("callback_data") for v in message.history for b in buttons_of(v.reply_markup)
            }
            if data not in current and not (stale_ok and data in earlier):
                raise LookupError(f"no button {data!r} on message {message.message_id}")
            if message.chat.type == "private" and message.chat.id != user.id:
                raise LookupError("only the owner of a private chat sees its buttons")
        query = CallbackQuery(id=str(self._ids() * 1000 + 1), user=user, message=message, data=data)
        self.queries[query.id] = query
        self._push(
            {
                "callback_query": {
                    "id": query.id,
                    "from": user.to_api(),
                    "message": message.to_api(),
                    "chat_instance": str(abs(message.chat.id)),
                    "data": data,
                }
            }
        )
        return query.id

    def answer_late(self, method: str) -> asyncio.Event:
        """The next call of ``method`` is decided when it arrives but answered only once
        the returned event is set: the latency of a real request, in which the world may
        change (a user opens the chat) after Telegram has already refused."""
        gate = asyncio.Event()
        self._late[method] = gate
        return gate

    def fail_next(self, method: str, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` get 502 Bad Gateway (Telegram hiccups)."""
        self._failures[method] = self._failures.get(method, 0) + times

    # ------------------------------------------------------------- waiting
    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every call the bot makes)."""

        async def loop() -> Any:
            async with self._changed:
                while not (value := predicate()):
                    await self._changed.wait()
                return value

        return await asyncio.wait_for(loop(), timeout)

    async def wait_answer(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        """The parameters of answerCallbackQuery for that press."""
        return await self.wait_for(lambda: self.queries[query_id].answered, timeout)

    async def settle(self, quiet: float = 0.2, timeout: float = 15.0) -> None:
        """Wait until every update was fetched and the bot made no call for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        seen = -1
        while time.monotonic() < deadline:
            if not self._updates_pending() and len(self.calls) == seen:
                return
            seen = len(self.calls)
            await asyncio.sleep(quiet)
        raise TimeoutError("the bot did not settle")

    def calls_of(self, *methods: str) -> list[Call]:
        return [c for c in self.calls if c.method in methods]

    # ------------------------------------------------------------ internals
    def _new_message_id(self, chat_id: int) -> int:
        value = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = value + 1
        return value

    def _push(self, update: dict[str, Any]) -> None:
        wanted = self.allowed_updates
        if wanted is None or not wanted:
            wanted = DEFAULT_UPDATES
        if not wanted & set(update):  # Telegram never queues what the bot did not ask for
            return
        update = {"update_id": self._next_update_id, **update}
        self._next_update_id += 1
        self._updates.append(update)
        self._notify()
        if self.webhook is not None:
            self._ensure_webhook_task()

    def _updates_pending(self) -> bool:
        return bool(self._updates)

    def _notify(self) -> None:
        async def wake() -> None:
            async with self._changed:
                self._changed.notify_all()

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(wake())

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        call = Call(
            seq=len(self.calls),
            method=method,
            params={},
            files={},
            body_size=request.content_length or 0,
            at=time.monotonic(),
        )
        self.calls.append(call)
        self._notify()  # waiters see the call arrive (a long poll answers much later)
        try:
            params, files = await self._parse(request)
            call.params = params
            call.files = {k: (v[0], len(v[1])) for k, v in files.items()}
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            handler = getattr(self, f"_api_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found")
            if self._failures.get(method):
                self._failures[method] -= 1
                raise ApiError(502, "Bad Gateway")
            self._check_flood(method, params)
            self._check_new_messages(method, params)
            gate = self._late.pop(method, None)
            try:
                result = await handler(params, files)
                self._count_new_message(method, params)
            finally:
                call.decided = True
                if gate is not None:
                    self._notify()
                    await gate.wait()
        except ApiError as err:
            call.status, call.description = err.code, err.description
            call.decided = True
            self._notify()
            return self._json(err.payload(), err.code)
        call.result = result
        self._notify()
        return self._json({"ok": True, "result": result}, 200)

    @staticmethod
    def _json(payload: dict[str, Any], status: int) -> web.Response:
        return web.Response(
            body=json.dumps(payload).encode(), status=status, content_type="application/json"
        )

    @staticmethod
    async def _parse(
        request: web.Request,
    ) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
        """Form fields as the Bot API reads them: JSON where an object is expected."""
        params: dict[str, Any] = dict(request.query)
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "application/json":
            body = await request.json()
            params.update(body)
            return params, files
        form = await request.post()
        for name, value in form.items():
            if isinstance(value, web.FileField):
                files[name] = (value.filename, value.file.read())
            else:
                params[name] = value
        for name, value in list(params.items()):
            if not isinstance(value, str):
                continue
            if name in JSON_FIELDS:
                try:
                    params[name] = json.loads(value)
                except ValueError as exc:
                    raise bad_request(f"can't parse {name} JSON object") from exc
            elif name in INT_FIELDS or (name == "chat_id" and re.fullmatch(r"-?\d+", value)):
                params[name] = int(value)
            elif name in BOOL_FIELDS:
                params[name] = value.lower() == "true"
        return params, files

    def _check_flood(self, method: str, params: dict[str, Any]) -> None:
        chat_id = params.get("chat_id")
        if self.group_limit is None or method not in GROUP_METHODS:
            return
        if not isinstance(chat_id, int) or chat_id >= 0:
            return
        limit, period = self.group_limit
        now = time.monotonic()
        window = self._flood.setdefault(chat_id, deque())
        while window and now - window[0] > period:
            window.popleft()
        if len(window) >= limit:
            retry = max(1, int(period - (now - window[0]) + 0.999))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry)
        window.append(now)

    def _group_window(self, method: str, params: dict[str, Any]) -> deque[float] | None:
        """The times of the new messages of the group ``params`` writes in, when the call
        is a new message in a group under ``new_message_limit``."""
        chat_id = params.get("chat_id")
        if self.new_message_limit is None or method not in NEW_MESSAGE_METHODS:
            return None
        if not isinstance(chat_id, int) or chat_id >= 0:
            return None
        window = self._new_messages.setdefault(chat_id, deque())
        period = self.new_message_limit[1]
        now = time.monotonic()
        while window and now - window[0] > period:
            window.popleft()
        return window

    def _check_new_messages(self, method: str, params: dict[str, Any]) -> None:
        window = self._group_window(method, params)
        if window is None or self.new_message_limit is None:
            return
        limit, period = self.new_message_limit
        if len(window) >= limit:
            retry = max(1, int(period - (time.monotonic() - window[0]) + 0.999))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry)

    def _count_new_message(self, method: str, params: dict[str, Any]) -> None:
        window = self._group_window(method, params)
        if window is not None:
            window.append(time.monotonic())

    def new_messages_in_a_minute(self, chat: FakeChat | int, period: float = 60.0) -> int:
        """The most new messages the bot put in one group within any ``period`` seconds."""
        chat_id = chat if isinstance(chat, int) else chat.id
        times = [
            c.at
            for c in self.calls
            if c.ok and c.method in NEW_MESSAGE_METHODS and c.params.get("chat_id") == chat_id
        ]
        most = 0
        for i, start in enumerate(times):
            most = max(most, sum(1 for t in times[i:] if t - start < period))
        return most

    def _chat(self, params: dict[str, Any]) -> FakeChat:
        chat_id = params.get("chat_id")
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            user = self.users.get(chat_id) if isinstance(chat_id, int) else None
            if user is None:
                raise bad_request("chat not found")
            chat = self.private_chat(user)
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                parameters={"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _check_can_write(self, chat: FakeChat) -> None:
        if chat.type != "private" or chat.user is None:
            return
        if chat.user.blocked_bot:
            raise forbidden("bot was blocked by the user")
        if not chat.user.started_bot:
            raise forbidden("bot can't initiate conversation with a user")

    def _thread(self, chat: FakeChat, params: dict[str, Any]) -> int | None:
        thread_id = params.get("message_thread_id")
        if thread_id is None:
            return None
        if chat.is_forum and thread_id not in chat.topics:
            raise bad_request("message thread not found")
        return thread_id

    def _message(self, params: dict[str, Any]) -> FakeMessage:
        if "inline_message_id" in params:
            raise bad_request("inline messages are not supported by the fake")
        chat = self._chat(params)
        msg = self.messages.get((chat.id, params.get("message_id", 0)))
        if msg is None or msg.deleted:
            raise bad_request("message to edit not found")
        if msg.sender is not self.bot:
            raise bad_request("message can't be edited")
        return msg

    @staticmethod
    def _markup(params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        if len(rows) > 100 or sum(len(r) for r in rows) > 100:
            raise bad_request("too many buttons")  # real limit: 100 buttons
        for button in buttons_of(markup):
            text = button.get("text", "")
            if not text:
                raise bad_request("text buttons are unallowed in the inline keyboard")
            if "callback_data" in button:
                data = button["callback_data"]
                if not isinstance(data, str) or not 1 <= len(data.encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
            elif "url" in button:
                url = button["url"]
                if not re.match(r"^(https?|tg)://", url):
                    raise bad_request("BUTTON_URL_INVALID")
            else:
                raise bad_request('can\'t find field "callback_data" in the inline button')
        return markup if rows and any(rows) else None

    @staticmethod
    def _check_text(text: Any, limit: int, what: str) -> str:
        if not isinstance(text, str) or not text.strip():
            raise bad_request(f"{what} is empty")
        if len(text) > limit:
            raise bad_request(f"{what} is too long")
        return text

    def _photo(self, value: Any, files: dict[str, tuple[str, bytes]], name: str) -> Photo:
        """An upload (multipart part or ``attach://part``) or a file_id sent before."""
        if isinstance(value, str) and value.startswith("attach://"):
            name = value.removeprefix("attach://")
            value = None
        if value is None:
            if name not in files:
                raise bad_request("there is no photo in the request")
            data = files[name][1]
            width, height = self._image_size(data)
            digest = hashlib.sha256(data).hexdigest()
            photo = Photo(
                file_id=f"AgAC{self._ids()}{digest[:16]}",
                file_unique_id=f"AQAD{digest[:12]}",
                data=data,
                width=width,
                height=height,
            )
            self._files[photo.file_id] = photo
            return photo
        if isinstance(value, str) and value in self._files:
            return self._files[value]
        raise bad_request("wrong file identifier/HTTP URL specified")

    @staticmethod
    def _image_size(data: bytes) -> tuple[int, int]:
        if len(data) > 10 * 1024 * 1024:
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        try:
            from PIL import Image

            with Image.open(io.BytesIO(data)) as image:
                return image.size
        except Exception as exc:
            raise bad_request("IMAGE_PROCESS_FAILED") from exc

    def _new_bot_message(self, chat: FakeChat, params: dict[str, Any]) -> FakeMessage:
        reply_to = params.get("reply_to_message_id")
        if isinstance(params.get("reply_parameters"), dict):
            reply_to = params["reply_parameters"].get("message_id")
        return FakeMessage(
            chat=chat,
            message_id=self._new_message_id(chat.id),
            date=int(time.time()),
            sender=self.bot,
            thread_id=self._thread(chat, params),
            reply_to=reply_to,
        )

    def _store(self, msg: FakeMessage) -> dict[str, Any]:
        msg.snapshot()
        self.messages[(msg.chat.id, msg.message_id)] = msg
        return msg.to_api()

    def _edited(self, msg: FakeMessage) -> dict[str, Any]:
        last = msg.history[-1]
        same_photo = (last.photo is None and msg.photo is None) or (
            last.photo is not None
            and msg.photo is not None
            and last.photo.digest == msg.photo.digest
        )
        if (
            last.text == msg.text
            and last.caption == msg.caption
            and same_photo
            and (last.reply_markup or None) == (msg.reply_markup or None)
        ):
            msg.text, msg.caption, msg.photo, msg.reply_markup = (
                last.text,
                last.caption,
                last.photo,
                last.reply_markup,
            )
            raise bad_request(NOT_MODIFIED)
        msg.edit_date = int(time.time())
        return self._store(msg)

    # ------------------------------------------------------------ Bot API
    async def _api_getMe(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        return {
            **self.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _api_logOut(self, params: dict[str, Any], files: Any) -> bool:
        return True

    async def _api_close(self, params: dict[str, Any], files: Any) -> bool:
        return True

    async def _api_deleteWebhook(self, params: dict[str, Any], files: Any) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_setWebhook(self, params: dict[str, Any], files: Any) -> bool:
        url = params.get("url", "")
        if not url:
            return await self._api_deleteWebhook(params, files)
        if not url.startswith(("https://", "http://127.0.0.1")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise bad_request("bad webhook: secret token contains unallowed characters")
        self.webhook = {"url": url, "secret_token": secret}
        if params.get("allowed_updates") is not None:
            self.allowed_updates = set(params["allowed_updates"]) or None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self._ensure_webhook_task()
        return True

    async def _api_getWebhookInfo(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_getUpdates(self, params: dict[str, Any], files: Any) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = params.get("offset") or 0
        if params.get("allowed_updates") is not None:  # kept until changed, as Telegram does
            self.allowed_updates = set(params["allowed_updates"]) or None
        limit = min(max(params.get("limit") or 100, 1), 100)
        timeout = max(params.get("timeout") or 0, 0)
        if offset:
            while self._updates and self._updates[0]["update_id"] < offset:
                self._updates.popleft()
        async with self._changed:
            self._poller += 1
            me = self._poller
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: bool(self._updates) or self._poller != me),
                    timeout,
                )
            if self._poller != me and self._poller != -1:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only "
                    "one bot instance is running",
                )
        return list(self._updates)[:limit]

    async def _api_setMyCommands(self, params: dict[str, Any], files: Any) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("commands must be an array of at most 100 BotCommand")
        for command in commands:
            if not COMMAND_RE.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._scope_key(params)] = commands
        return True

    async def _api_getMyCommands(self, params: dict[str, Any], files: Any) -> list[Any]:
        return self.commands.get(self._scope_key(params), [])

    async def _api_deleteMyCommands(self, params: dict[str, Any], files: Any) -> bool:
        self.commands.pop(self._scope_key(params), None)
        return True

    @staticmethod
    def _scope_key(params: dict[str, Any]) -> str:
        scope = params.get("scope") or {"type": "default"}
        key = scope.get("type", "default")
        if "chat_id" in scope:
            key += f":{scope['chat_id']}"
        return f"{key}/{params.get('language_code') or ''}"

    async def _api_sendMessage(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        chat = self._chat(params)
        self._check_can_write(chat)
        text = self._check_text(params.get("text"), 4096, "message text")
        markup = self._markup(params)
        msg = self._new_bot_message(chat, params)
        msg.text, msg.reply_markup = text, markup
        return self._store(msg)

    def _captioned(self, params: dict[str, Any]) -> tuple[FakeChat, str | None, Any]:
        """What a photo or a document is sent with: its chat (writable), caption, markup."""
        chat = self._chat(params)
        self._check_can_write(chat)
        caption = params.get("caption")
        if caption is not None:
            caption = self._check_text(caption, 1024, "message caption") if caption else None
        return chat, caption, self._markup(params)

    async def _api_sendPhoto(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        chat, caption, markup = self._captioned(params)
        msg = self._new_bot_message(chat, params)
        msg.photo = self._photo(params.get("photo"), files, "photo")
        msg.caption, msg.reply_markup = caption, markup
        return self._store(msg)

    async def _api_sendDocument(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        """A file upload (bots may send up to 50 MB); its name is the multipart part's."""
        chat, caption, markup = self._captioned(params)
        value, part = params.get("document"), "document"
        if isinstance(value, str) and value.startswith("attach://"):
            part = value.removeprefix("attach://")
        if part not in files:
            raise bad_request("there is no document in the request")
        name, data = files[part]
        if len(data) > 50 * 1024 * 1024:
            raise ApiError(413, "Request Entity Too Large")
        digest = hashlib.sha256(data).hexdigest()
        msg = self._new_bot_message(chat, params)
        msg.document = Document(
            f"BQAC{self._ids()}{digest[:16]}", f"AgAD{digest[:12]}", name or "document", data
        )
        msg.caption, msg.reply_markup = caption, markup
        return self._store(msg)

    async def _api_editMessageText(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        msg = self._message(params)
        if msg.text is None:
            raise bad_request("there is no text in the message to edit")
        text = self._check_text(params.get("text"), 4096, "message text")
        msg.text, msg.reply_markup = text, self._markup(params)
        return self._edited(msg)

    async def _api_editMessageCaption(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        msg = self._message(params)
        if msg.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption = params.get("caption") or None
        if caption is not None:
            self._check_text(caption, 1024, "message caption")
        msg.caption, msg.reply_markup = caption, self._markup(params)
        return self._edited(msg)

    async def _api_editMessageMedia(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        msg = self._message(params)
        if msg.photo is None:
            raise bad_request("there is no media in the message to edit")
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad_request("can't parse InputMedia: media type must be photo in the fake")
        caption = media.get("caption") or None
        if caption is not None:
            self._check_text(caption, 1024, "message caption")
        markup = self._markup(params)
        msg.photo = self._photo(media.get("media"), files, "media")
        msg.caption, msg.reply_markup = caption, markup
        return self._edited(msg)

    async def _api_editMessageReplyMarkup(
        self, params: dict[str, Any], files: Any
    ) -> dict[str, Any]:
        msg = self._message(params)
        msg.reply_markup = self._markup(params)
        return self._edited(msg)

    async def _api_deleteMessage(self, params: dict[str, Any], files: Any) -> bool:
        chat = self._chat(params)
        msg = self.messages.get((chat.id, params.get("message_id", 0)))
        if msg is None or msg.deleted:
            raise bad_request("message to delete not found")
        msg.deleted = True
        return True

    async def _api_answerCallbackQuery(self, params: dict[str, Any], files: Any) -> bool:
        query = self.queries.get(str(params.get("callback_query_id", "")))
        if query is None or query.answered is not None:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(text) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url is not None and not re.fullmatch(
            rf"https://t\.me/{self.bot.username}\?start=[A-Za-z0-9_-]{{1,64}}", url
        ):
            raise bad_request("URL_INVALID")
        query.answered = params
        return True

    async def _api_getChat(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        chat = self._chat(params)
        return {**chat.to_api(), "accent_color_id": 0, "max_reaction_count": 11}

    async def _api_getChatMember(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        chat = self._chat(params)
        user = self.users.get(params.get("user_id", 0))
        if user is None:
            raise bad_request("user not found")
        if chat.creator == user.id:
            return {"status": "creator", "user": user.to_api(), "is_anonymous": False}
        if user.id in chat.admins:
            return {
                "status": "administrator",
                "user": user.to_api(),
                **dict.fromkeys(ADMIN_RIGHTS, False),
            }
        return {"status": "member", "user": user.to_api()}

    async def _api_getChatAdministrators(
        self, params: dict[str, Any], files: Any
    ) -> list[dict[str, Any]]:
        chat = self._chat(params)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        out = []
        for user_id in sorted(chat.admins | ({chat.creator} if chat.creator else set())):
            out.append(await self._api_getChatMember({"chat_id": chat.id, "user_id": user_id}, {}))
        return out

    async def _api_sendChatAction(self, params: dict[str, Any], files: Any) -> bool:
        self._chat(params)
        return True

    async def _api_getFile(self, params: dict[str, Any], files: Any) -> dict[str, Any]:
        photo = self._files.get(params.get("file_id", ""))
        if photo is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": photo.file_id,
            "file_unique_id": photo.file_unique_id,
            "file_size": len(photo.data),
            "file_path": f"photos/{photo.file_id}.png",
        }

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=401)
        name = request.match_info["path"].removeprefix("photos/").removesuffix(".png")
        photo = self._files.get(name)
        if photo is None:
            return web.Response(status=404)
        return web.Response(body=photo.data, content_type="image/png")

    # ------------------------------------------------------------- webhook
    def _ensure_webhook_task(self) -> None:
        if self._webhook_task is None or self._webhook_task.done():
            self._webhook_task = asyncio.get_running_loop().create_task(self._deliver_webhook())

    async def _deliver_webhook(self) -> None:
        """POST pending updates, one by one and in order, as Telegram does."""
        if self._http is None:
            self._http = ClientSession()
        while self.webhook is not None and self._updates:
            update = self._updates[0]
            headers = {}
            if self.webhook.get("secret_token"):
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
            try:
                async with self._http.post(
                    self.webhook["url"], json=update, headers=headers
                ) as resp:
                    delivered = resp.status == 200
            except OSError:
                delivered = False
            if delivered:
                if self._updates and self._updates[0] is update:
                    self._updates.popleft()
                self._notify()
            else:
                await asyncio.sleep(0.2)
