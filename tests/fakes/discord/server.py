"""A local fake Discord: REST API v10 and the gateway websocket on 127.0.0.1 (aiohttp).

The real discord.py talks to it unchanged once :func:`patch_discord` has pointed
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at it.
It keeps what Discord keeps (users, guilds, channels, messages with their attachments and
components, registered commands, interactions with their tokens) and enforces the rules
that matter to a bot, with Discord's own error codes:

- an interaction is answered once (40060), within 3 s (else 10062 Unknown interaction);
- its token opens the interaction webhook for 15 minutes (else 50027 Invalid Webhook Token),
  and only for the messages that interaction created or answered (else 10008);
- the first follow-up after a "thinking" defer replaces the loading message;
- a message has at most 5 rows of at most 5 buttons, unique custom ids of at most 100
  characters, labels of at most 80, content of at most 2000 characters (50035);
- a bot edits only its own channel messages (50005), never an ephemeral one through the
  channel route (10008); bot routes need ``Authorization: Bot <token>`` (401, 0);
- direct messages: ``POST /users/@me/channels`` opens (or finds) the DM channel with a user
  (type 1, no guild); a message there reaches only that user, and a user who refuses DMs
  (``FakeUser.dms_open = False``) makes it fail with 403, code 50007. A click in a DM is
  an interaction without ``guild_id``, with ``user`` instead of ``member``. The bot deletes
  its DM with ``DELETE /channels/{dm}/messages/{id}`` (204; a message already gone: 404,
  10008 Unknown Message).

Every REST request is recorded (:attr:`FakeDiscord.requests`) with its JSON body (or
``payload_json``) and uploaded files, and every gateway frame in both directions
(:attr:`FakeDiscord.gateway_log`), so tests assert on what the bot really sent.

Time: :meth:`FakeDiscord.advance` moves the fake's clock forward (the 3 s and 15 min
limits are measured on it), so token expiry is tested without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from .payloads import (
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    AUTOCOMPLETE,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    FORUM,
    LOADING,
    MEDIA,
    MESSAGE_COMPONENT,
    PUBLIC_THREAD,
    UPDATE_MESSAGE,
    FakeChannel,
    FakeGuild,
    FakeUser,
    iso_now,
    message_payload,
    new_token,
    snowflake,
)

API_PREFIX = "/api/v10"
RESPONSE_WINDOW = 3.0  # seconds to answer an interaction
#: Discord's per-channel limit on the bot's messages: 5 posts or edits in 5 s a channel.
CHANNEL_LIMIT = (5, 5.0)
#: What a REST call takes, there and back (seconds, drawn uniformly).
LATENCY = (0.02, 0.06)
#: The routes under the per-channel limit (a DM channel is a channel too).
CHANNEL_LIMITED = (
    "POST /channels/{channel}/messages",
    "PATCH /channels/{channel}/messages/{message}",
)
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token opens its webhook
GUILDS_INTENT = 1 << 0


class DiscordError(Exception):
    """An error answer, as Discord shapes it: HTTP status, JSON code and message."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code, **self.extra}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def invalid_form(field_name: str, reason: str) -> DiscordError:
    errors = {field_name: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": reason}]}}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


@dataclass
class UploadedFile:
    """One file part of a multipart request."""

    field: str  # "files[0]"
    filename: str
    content_type: str
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request the bot made, and how the fake answered it."""

    method: str
    path: str  # after /api/v10, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    status: int = 0
    route: str = ""  # the route template that matched, e.g. "POST /channels/{}/messages"

    @property
    def multipart(self) -> bool:
        return self.headers.get("Content-Type", "").startswith("multipart/form-data")


@dataclass
class FakeInteraction:
    """An interaction the fake dispatched, and everything the bot did with it."""

    id: str
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    created: float
    message_id: str | None = None  # the clicked message, for a component interaction
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    original_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float | None = None  # the fake's clock when the first answer came

    @property
    def answer_time(self) -> float | None:
        """Seconds from the user's action to the bot's first answer (Discord allows 3)."""
        return None if self.answered_at is None else self.answered_at - self.created

    @property
    def custom_id(self) -> str | None:
        return (self.payload.get("data") or {}).get("custom_id")

    async def response(self, timeout: float = 10.0) -> int:
        """Wait for the bot's callback; returns its type (4, 5, 6, 7, 8...)."""
        await asyncio.wait_for(self.responded.wait(), timeout)
        assert self.callback_type is not None
        return self.callback_type


@dataclass
class MessageMeta:
    """What the fake knows about a message beyond its payload."""

    visible_to: str | None = None  # a user id for an ephemeral message
    interaction_id: str | None = None
    versions: list[dict[str, Any]] = field(default_factory=list)  # every state, oldest first
    updated: int = 0  # order of the last change among all messages


def shard_of(guild_id: str | int | None, count: int) -> int:
    """Discord's rule: the shard a server's events go to (a DM's: shard 0)."""
    return 0 if guild_id is None else (int(guild_id) >> 22) % count


@dataclass
class GatewaySession:
    ws: web.WebSocketResponse
    query: dict[str, str]
    session_id: str = ""
    identified: bool = False
    intents: int = 0
    seq: int = 0
    heartbeats: int = 0
    shard: tuple[int, int] | None = None  # [shard id, shard count] from IDENTIFY

    def serves(self, guild_id: str | None) -> bool:
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]


Handler = Callable[..., Any]


@dataclass
class PlannedFailure:
    """An error the fake will answer instead of serving a request (see fail_next)."""

    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int
    retry_after: float

    def error(self) -> DiscordError:
        if self.status == 429:
            extra = {"retry_after": self.retry_after, "global": False}
            return DiscordError(429, self.code, self.message, extra=extra)
        return DiscordError(self.status, self.code, self.message)


class FakeDiscord:
    """The far side of discord.py, in-process. Use :func:`fake_discord` to run one."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        heartbeat_interval_ms: int = 41_250,
        latency: tuple[float, float] | None = LATENCY,
        channel_limit: tuple[int, float] | None = CHANNEL_LIMIT,
        seed: int = 18,
    ):
        """``latency``: (min, max) seconds each REST call takes (None: at once);
        ``channel_limit``: (count, seconds) of message posts and edits a channel takes
        before 429 (None: no limit)."""
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.latency = latency
        self.channel_limit = channel_limit
        self._random = random.Random(seed)
        self._windows: dict[str, tuple[float, int]] = {}  # channel -> (window start, used)
        self.application_id = snowflake()
        self.bot_user = FakeUser(self.application_id, "belote", bot=True)
        self.owner = FakeUser(snowflake(), "owner")
        self.users: dict[str, FakeUser] = {}
        self.guilds: dict[str, FakeGuild] = {}
        self.channels: dict[str, FakeChannel] = {}
        self.dm_channels: dict[str, FakeChannel] = {}  # user id -> their DM with the bot
        self.messages: dict[str, dict[str, Any]] = {}
        self.meta: dict[str, MessageMeta] = {}
        self.files: dict[str, bytes] = {}
        self.interactions: dict[str, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[str, list[dict[str, Any]]] = {}
        self.requests: list[RecordedRequest] = []
        self.gateway_log: list[tuple[str, dict[str, Any]]] = []  # ("in"|"out", frame)
        self.sessions: list[GatewaySession] = []
        self.identify_count = 0
        self.resume_count = 0
        self.time_offset = 0.0
        self._changes = itertools.count(1)
        self._failures: list[PlannedFailure] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], str, Handler, bool]] = []
        self._add_routes()

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for session in list(self.sessions):
            await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def now(self) -> float:
        return time.monotonic() + self.time_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock (token lifetimes, the 3 s window) forward."""
        self.time_offset += seconds

    # ----------------------------------------------------------------- world

    def add_user(
        self, username: str, *, admin: bool = False, locale: str = "en-US", dms_open: bool = True
    ) -> FakeUser:
        """A person; ``dms_open=False``: their privacy settings refuse the bot's DMs."""
        user = FakeUser(snowflake(), username, admin=admin, locale=locale, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str = "Belote club", *, shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """A server; ``shard=(i, n)``: one whose events go to shard ``i`` of ``n``."""
        gid = snowflake()
        while shard is not None and shard_of(gid, shard[1]) != shard[0]:
            gid = snowflake()
        guild = FakeGuild(gid, name, self.owner.id)
        self.guilds[guild.id] = guild
        return guild

    async def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> str:
        """A new role of ``guild`` (its id); a connected bot hears GUILD_ROLE_CREATE."""
        role = guild.role_payload(snowflake(), name, permissions, len(guild.roles) + 1)
        guild.roles.append(role)
        if any(s.identified for s in self.sessions):
            await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": guild.id, "role": role})
        return str(role["id"])

    def give_role(self, guild: FakeGuild, user: FakeUser, role_id: str) -> None:
        """``user`` holds ``role_id`` in ``guild`` from their next interaction on."""
        guild.member_roles.setdefault(user.id, []).append(role_id)

    def take_role(self, guild: FakeGuild, user: FakeUser, role_id: str) -> None:
        guild.member_roles.get(user.id, []).remove(role_id)

    def add_channel(self, guild: FakeGuild, name: str = "belote") -> FakeChannel:
        channel = FakeChannel(snowflake(), guild.id, name)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    async def add_forum(self, guild: FakeGuild, name: str = "games", *, media: bool = False):
        """A forum (type 15) or media (16) channel; a connected bot hears CHANNEL_CREATE."""
        forum = FakeChannel(snowflake(), guild.id, name, type=MEDIA if media else FORUM)
        guild.channels.append(forum)
        self.channels[forum.id] = forum
        if any(s.identified for s in self.sessions):
            await self.dispatch("CHANNEL_CREATE", forum.payload())
        return forum

    async def add_thread(
        self,
        guild: FakeGuild,
        parent: FakeChannel,
        name: str = "game night",
        *,
        kind: int | None = None,
        owner: FakeUser | None = None,
    ) -> FakeChannel:
        """A thread of ``parent`` (public, type 11, unless ``kind`` says 10 or 12), or a
        post of a forum or media channel (always type 11, as Discord makes them). A
        connected bot hears THREAD_CREATE (``newly_created``), as Discord sends it; a bot
        that connects later finds it among GUILD_CREATE's threads."""
        if parent.type in (FORUM, MEDIA):
            kind = PUBLIC_THREAD
        thread = FakeChannel(
            snowflake(),
            guild.id,
            name,
            type=kind or PUBLIC_THREAD,
            parent_id=parent.id,
            owner_id=(owner or self.owner).id,
        )
        guild.threads.append(thread)
        self.channels[thread.id] = thread
        if any(s.identified for s in self.sessions):
            await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    async def archive_thread(self, thread: FakeChannel, archived: bool = True) -> None:
        """Discord archives a thread (after its inactivity, or a moderator): THREAD_UPDATE."""
        thread.archived = archived
        await self.dispatch("THREAD_UPDATE", thread.payload())

    async def move_thread(self, thread: FakeChannel, parent: FakeChannel) -> None:
        """The thread now belongs to ``parent``: THREAD_UPDATE carries the new
        ``parent_id`` (the bot must take the parent from the update, not its first look)."""
        thread.parent_id = parent.id
        await self.dispatch("THREAD_UPDATE", thread.payload())

    async def delete_thread(self, thread: FakeChannel) -> None:
        """THREAD_DELETE: id, guild_id, parent_id and type only, as Discord sends it."""
        guild = self.guilds[str(thread.guild_id)]
        guild.threads.remove(thread)
        self.channels.pop(thread.id, None)
        data = {
            "id": thread.id,
            "guild_id": thread.guild_id,
            "parent_id": thread.parent_id,
            "type": thread.type,
        }
        await self.dispatch("THREAD_DELETE", data)

    async def sync_threads(self, guild: FakeGuild, parents: list[FakeChannel] | None = None):
        """THREAD_LIST_SYNC (the bot gains access to channels): the active threads of
        ``parents`` (or of the whole server)."""
        ids = None if parents is None else {p.id for p in parents}
        threads = [
            t for t in guild.threads if not t.archived and (ids is None or t.parent_id in ids)
        ]
        data: dict[str, Any] = {
            "guild_id": guild.id,
            "threads": [t.payload() for t in threads],
            "members": [],
        }
        if ids is not None:
            data["channel_ids"] = sorted(ids)
        await self.dispatch("THREAD_LIST_SYNC", data)

    def delete_message(self, message_id: str) -> None:
        """Someone (a moderator, the user dismissing an ephemeral) removes a message."""
        self.messages.pop(message_id, None)

    # ----------------------------------------------------------------- queries for tests

    def requests_to(self, method: str, pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose method matches and whose path matches ``pattern`` (regex)."""
        rx = re.compile(pattern)
        return [r for r in self.requests if r.method == method and rx.fullmatch(r.path)]

    def channel_messages(self, channel: FakeChannel) -> list[dict[str, Any]]:
        """Every message in the channel, ephemeral ones included, oldest first."""
        found = [m for m in self.messages.values() if m["channel_id"] == channel.id]
        return sorted(found, key=lambda m: int(m["id"]))

    def visible_messages(self, user: FakeUser, channel: FakeChannel) -> list[dict[str, Any]]:
        """What ``user`` sees in ``channel``: public messages and their own ephemeral ones."""
        return [
            m
            for m in self.channel_messages(channel)
            if self.meta[m["id"]].visible_to in (None, user.id)
        ]

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        """The DM channel between the bot and ``user``, once the bot has opened it."""
        return self.dm_channels.get(user.id)

    def dm_messages(self, user: FakeUser) -> list[dict[str, Any]]:
        """What the bot sent ``user`` by direct message, oldest first."""
        channel = self.dm_channel(user)
        return [] if channel is None else self.channel_messages(channel)

    def ephemeral_messages(self, user: FakeUser) -> list[dict[str, Any]]:
        found = [m for mid, m in self.messages.items() if self.meta[mid].visible_to == user.id]
        return sorted(found, key=lambda m: int(m["id"]))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy: re-checked after every request and gateway
        frame, and every 20 ms for what changes on the bot's side alone."""

        async def poll() -> Any:
            while not (result := predicate()):
                async with self._changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.02)
            return result

        return await asyncio.wait_for(poll(), timeout)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ----------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        session = GatewaySession(ws, dict(request.query))
        self.sessions.append(session)
        try:
            await self._send(
                session, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_log.append(("in", frame))
                await self._on_frame(session, frame)
                await self._notify()
        finally:
            self.sessions.remove(session)
            await self._notify()
        return ws

    async def _on_frame(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:  # HEARTBEAT
            session.heartbeats += 1
            await self._send(session, {"op": 11})
        elif op == 2:  # IDENTIFY
            if data.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard")
            if shard is not None:
                shard_id, count = int(shard[0]), int(shard[1])
                if not 0 <= shard_id < count:
                    await session.ws.close(code=4010, message=b"Invalid shard.")
                    return
                session.shard = (shard_id, count)
            self.identify_count += 1
            session.identified = True
            session.intents = int(data.get("intents", 0))
            session.session_id = new_token("session")[:40]
            guilds = [g for g in self.guilds.values() if session.serves(g.id)]
            ready = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": self.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "_trace": ["fake-discord"],
            }
            if session.shard is not None:
                ready["shard"] = list(session.shard)
            await self._dispatch_to(session, "READY", ready)
            if session.intents & GUILDS_INTENT:
                for guild in guilds:
                    await self._dispatch_to(session, "GUILD_CREATE", guild.payload(self.bot_user))
        elif op == 6:  # RESUME
            self.resume_count += 1
            session.identified = True
            session.session_id = data.get("session_id", "")
            session.seq = int(data.get("seq") or 0)
            await self._dispatch_to(session, "RESUMED", {"_trace": ["fake-discord"]})

    async def _send(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        frame.setdefault("d", None)
        self.gateway_log.append(("out", frame))
        await session.ws.send_str(json.dumps(frame))

    async def _dispatch_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        await self._send(session, {"op": 0, "s": session.seq, "t": event, "d": data})

    async def dispatch(self, event: str, data: dict[str, Any], timeout: float = 10.0) -> None:
        """Send a DISPATCH to every identified bot session that serves its server (waits
        for one to exist): as Discord does, a guild's events go to the shard
        ``(guild_id >> 22) % shard_count`` only, a DM's to shard 0."""
        guild = data.get("guild_id")

        def serving() -> list[GatewaySession]:
            return [s for s in self.sessions if s.identified and s.serves(guild)]

        await self.wait_for(serving, timeout)
        for session in serving():
            await self._dispatch_to(session, event, data)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client must come back and RESUME."""
        for session in list(self.sessions):
            await self._send(session, {"op": 7})

    # ----------------------------------------------------------------- interactions (the user side)

    def _commands_for(self, guild_id: str) -> list[dict[str, Any]]:
        return self.global_commands + self.guild_commands.get(guild_id, [])

    def _base_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
    ) -> dict[str, Any]:
        if channel.guild_id is None:
            return self._dm_interaction(kind, user, channel, data)
        guild = self.guilds[channel.guild_id]
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "guild_id": guild.id,
            "guild": guild.partial(),
            "channel_id": channel.id,
            "channel": channel.payload(),
            "member": user.member_payload(guild),
            "token": new_token(),
            "version": 1,
            "locale": user.locale,
            "guild_locale": "en-US",
            "app_permissions": str((1 << 11) | (1 << 15) | (1 << 10) | (1 << 14)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _dm_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
    ) -> dict[str, Any]:
        """An interaction in the bot's DM with ``user``, as Discord sends it: no guild, the
        ``user`` object instead of ``member``, context 1 (BOT_DM), and the integration
        owner ``"0"`` for a guild-installed app used in its bot's DMs."""
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "channel_id": channel.id,
            "channel": channel.payload(),
            "user": user.payload(),
            "token": new_token(),
            "version": 1,
            "locale": user.locale,
            "app_permissions": str(DM_APP_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": "0"},
            "context": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _command_data(
        self,
        channel: FakeChannel,
        name: str,
        subcommand: str | None,
        options: dict[str, Any] | None,
        focused: str | None = None,
    ) -> dict[str, Any]:
        commands = [c for c in self._commands_for(channel.guild_id) if c["name"] == name]
        if not commands:
            raise AssertionError(f"/{name} is not registered with the fake Discord")
        command = commands[0]
        schema = command.get("options", [])
        if subcommand is not None:
            subs = [o for o in schema if o["type"] == 1 and o["name"] == subcommand]
            if not subs:
                raise AssertionError(f"/{name} has no subcommand {subcommand!r}")
            schema = subs[0].get("options", [])
        typed = []
        for key, value in (options or {}).items():
            found = [o for o in schema if o["name"] == key]
            if not found:
                raise AssertionError(f"/{name} {subcommand or ''} has no option {key!r}")
            option: dict[str, Any] = {"name": key, "type": found[0]["type"], "value": value}
            if key == focused:
                option["focused"] = True
            typed.append(option)
        missing = [
            o["name"] for o in schema if o.get("required") and o["name"] not in (options or {})
        ]
        if missing and focused is None:
            raise AssertionError(f"/{name} misses required options {missing}")
        if subcommand is not None:
            typed = [{"name": subcommand, "type": 1, "options": typed}]
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": typed}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data

    async def _open(
        self,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        message_id: str | None = None,
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=payload["id"],
            token=payload["token"],
            type=payload["type"],
            user=user,
            channel=channel,
            payload=payload,
            created=self.now(),
            message_id=message_id,
        )
        self.interactions[interaction.id] = interaction
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
    ) -> FakeInteraction:
        """``user`` runs ``/name [subcommand] options`` in ``channel`` (checked against the
        commands the bot registered, as Discord's client does)."""
        data = self._command_data(channel, name, subcommand, options)
        payload = self._base_interaction(APPLICATION_COMMAND, user, channel, data)
        return await self._open(payload, user, channel)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any],
        focused: str,
        *,
        subcommand: str | None = None,
    ) -> list[dict[str, Any]]:
        """``user`` types in option ``focused``; returns the choices the bot suggested."""
        data = self._command_data(channel, name, subcommand, options, focused=focused)
        payload = self._base_interaction(AUTOCOMPLETE, user, channel, data)
        interaction = await self._open(payload, user, channel)
        kind = await interaction.response()
        assert kind == APPLICATION_COMMAND_AUTOCOMPLETE_RESULT, kind
        return list((interaction.callback_data or {}).get("choices", []))

    def buttons(self, message_id: str) -> list[dict[str, Any]]:
        """The buttons of a message as it is now, row after row."""
        rows = self.messages[message_id].get("components", [])
        return [b for row in rows for b in row.get("components", [])]

    async def click(
        self, user: FakeUser, message_id: str, custom_id: str, *, force: bool = False
    ) -> FakeInteraction:
        """``user`` presses the button ``custom_id`` of a message.

        Discord's client only lets one press a button that is there, enabled, on a message
        one can see; ``force=True`` skips those checks to play an old client, a second
        device or a forged request (the bot must still refuse what is not allowed)."""
        message = self.messages[message_id]
        channel = self.channels[message["channel_id"]]
        if not force:
            visible_to = self.meta[message_id].visible_to
            if visible_to not in (None, user.id):
                raise AssertionError("that user cannot see this ephemeral message")
            if channel.recipient is not None and channel.recipient.id != user.id:
                raise AssertionError("that user cannot see someone else's direct messages")
            found = [b for b in self.buttons(message_id) if b.get("custom_id") == custom_id]
            if not found:
                raise AssertionError(f"no button {custom_id!r} on message {message_id}")
            if found[0].get("disabled"):
                raise AssertionError(f"button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._base_interaction(MESSAGE_COMPONENT, user, channel, data)
        payload["message"] = copy.deepcopy(message)
        return await self._open(payload, user, channel, message_id)

    # ----------------------------------------------------------------- REST plumbing

    def _add_routes(self) -> None:
        def add(method: str, template: str, handler: Handler, auth: bool = True) -> None:
            rx = re.compile(re.sub(r"\{\w+\}", r"([^/]+)", template))
            self._routes.append((method, rx, f"{method} {template}", handler, auth))

        add("GET", "/users/@me", self._get_me)
        add("GET", "/oauth2/applications/@me", self._get_application)
        add("GET", "/gateway", self._get_gateway, auth=False)
        add("GET", "/gateway/bot", self._get_gateway_bot)
        add("GET", "/applications/{app}/commands", self._get_commands)
        add("PUT", "/applications/{app}/commands", self._put_commands)
        add("GET", "/applications/{app}/guilds/{guild}/commands", self._get_guild_commands)
        add("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_guild_commands)
        add("POST", "/interactions/{id}/{token}/callback", self._callback, auth=False)
        add("POST", "/webhooks/{app}/{token}", self._followup, auth=False)
        for method in ("GET", "PATCH", "DELETE"):
            add(method, "/webhooks/{app}/{token}/messages/{message}", self._webhook_message, False)
        add("POST", "/users/@me/channels", self._create_dm)
        add("GET", "/channels/{channel}", self._get_channel)
        add("POST", "/channels/{channel}/messages", self._create_message)
        add("GET", "/channels/{channel}/messages/{message}", self._get_message)
        add("PATCH", "/channels/{channel}/messages/{message}", self._edit_channel_message)
        add("DELETE", "/channels/{channel}/messages/{message}", self._delete_channel_message)

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.path[len(API_PREFIX) :]
        body, files = await self._read_body(request)
        record = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            headers=dict(request.headers),
        )
        headers: dict[str, str] = {"Via": "1.1 google"}  # as Discord's (through its proxy)
        try:
            failure = self._planned_failure(record)
            if failure is not None:
                if failure.status == 429:
                    headers |= {
                        "Retry-After": str(failure.retry_after),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(failure.retry_after),
                        "X-RateLimit-Bucket": "fake-bucket",
                        "X-RateLimit-Scope": "user",
                    }
                raise failure.error()
            if self.latency is not None:
                await asyncio.sleep(self._random.uniform(*self.latency))
            for method, rx, name, handler, auth in self._routes:
                match = rx.fullmatch(path)
                if match is None or method != request.method:
                    continue
                record.route = name
                if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise DiscordError(401, 0, "401: Unauthorized")
                if name in CHANNEL_LIMITED:
                    headers |= self._take_channel_slot(match.group(1))
                status, result = await handler(record, *match.groups())
                break
            else:
                raise DiscordError(404, 0, "404: Not Found")
        except DiscordError as exc:
            status, result = exc.status, exc.body()
            headers |= exc.headers
        record.status = status
        self.requests.append(record)  # once answered: a test sees what Discord did with it
        await self._notify()
        if status == 204 or result is None:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=status,
            body=json.dumps(result).encode(),
            headers={**headers, "Content-Type": "application/json"},
        )

    def _take_channel_slot(self, channel_id: str) -> dict[str, str]:
        """One post or edit in ``channel_id``: Discord's rate-limit headers for it, or a
        429 (``retry_after`` in the body, ``Retry-After`` too) when the window is full."""
        if self.channel_limit is None:
            return {}
        limit, period = self.channel_limit
        now = self.now()
        start, used = self._windows.get(channel_id, (now, 0))
        if now - start >= period:
            start, used = now, 0
        reset_after = max(0.0, start + period - now)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Bucket": f"channel-messages-{channel_id}",
        }
        if used >= limit:
            headers |= {
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Scope": "user",
                "Retry-After": str(max(1, round(reset_after))),
            }
            raise DiscordError(
                429,
                0,
                "You are being rate limited.",
                extra={"retry_after": round(reset_after, 3), "global": False},
                headers=headers,
            )
        self._windows[channel_id] = (start, used + 1)
        return headers | {"X-RateLimit-Remaining": str(limit - used - 1)}

    def fail_next(
        self,
        method: str,
        pattern: str,
        *,
        status: int = 429,
        code: int = 0,
        message: str = "You are being rate limited.",
        times: int = 1,
        retry_after: float = 0.05,
    ) -> None:
        """Answer the next ``times`` requests matching (method, path regex) with an error:
        429 (rate limited, with Retry-After and the X-RateLimit headers), 403 (e.g. 50013
        Missing Permissions), 5xx..."""
        self._failures.append(
            PlannedFailure(method, re.compile(pattern), status, code, message, times, retry_after)
        )

    def _planned_failure(self, record: RecordedRequest) -> PlannedFailure | None:
        for failure in self._failures:
            matches = failure.method == record.method and failure.pattern.fullmatch(record.path)
            if failure.times > 0 and matches:
                failure.times -= 1
                return failure
        return None

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
        files: list[UploadedFile] = []
        if request.content_type == "multipart/form-data":
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = bytes(await part.read())  # type: ignore[union-attr]
                    files.append(
                        UploadedFile(
                            field=part.name or "",  # type: ignore[union-attr]
                            filename=part.filename or "",  # type: ignore[union-attr]
                            content_type=part.headers.get("Content-Type", ""),  # type: ignore[union-attr]
                            data=data,
                        )
                    )
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), files

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.files.get(request.match_info["id"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, headers={"Content-Type": "application/octet-stream"})

    # ----------------------------------------------------------------- login and commands

    async def _get_me(self, record: RecordedRequest) -> tuple[int, Any]:
        payload = self.bot_user.payload()
        payload.update({"verified": True, "mfa_enabled": False, "flags": 0})
        return 200, payload

    async def _get_application(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, {
            "id": self.application_id,
            "name": "belote",
            "icon": None,
            "description": "Belote",
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": 0,
            "summary": "",
        }

    async def _get_gateway(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.identify_count,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    def _check_app(self, app: str) -> None:
        if app != self.application_id:
            raise DiscordError(404, 10002, "Unknown Application")

    def _register(self, body: Any, old: list[dict[str, Any]], guild_id: str | None) -> list[dict]:
        if not isinstance(body, list) or len(body) > 100:
            raise invalid_form("commands", "Must be a list of at most 100 commands")
        ids = {c["name"]: c["id"] for c in old}
        result = []
        for command in body:
            name = command.get("name", "")
            if not re.fullmatch(r"[-_a-z0-9]{1,32}", name):
                raise invalid_form("name", f"Invalid command name {name!r}")
            description = command.get("description", "")
            if command.get("type", 1) == 1 and not 1 <= len(description) <= 100:
                raise invalid_form("description", f"/{name}: description must be 1-100 long")
            self._check_options(name, command.get("options") or [])
            stored = dict(command)
            stored.update(
                {
                    "id": ids.get(name) or snowflake(),
                    "application_id": self.application_id,
                    "version": snowflake(),
                    "type": command.get("type", 1),
                    "default_member_permissions": command.get("default_member_permissions"),
                }
            )
            if guild_id is not None:
                stored["guild_id"] = guild_id
            result.append(stored)
        return result

    def _check_options(self, name: str, options: list[dict[str, Any]]) -> None:
        if len(options) > 25:
            raise invalid_form("options", f"/{name}: at most 25 options")
        for option in options:
            if not re.fullmatch(r"[-_a-z0-9]{1,32}", option.get("name", "")):
                raise invalid_form("options", f"/{name}: bad option name {option.get('name')!r}")
            if len(option.get("choices") or []) > 25:
                raise invalid_form("choices", f"/{name}: at most 25 choices")
            if option.get("choices") and option.get("autocomplete"):
                raise invalid_form("autocomplete", f"/{name}: choices and autocomplete")
            self._check_options(name, option.get("options") or [])

    async def _get_commands(self, record: RecordedRequest, app: str) -> tuple[int, Any]:
        self._check_app(app)
        return 200, self.global_commands

    async def _put_commands(self, record: RecordedRequest, app: str) -> tuple[int, Any]:
        self._check_app(app)
        self.global_commands = self._register(record.json, self.global_commands, None)
        return 200, self.global_commands

    async def _get_guild_commands(self, record: RecordedRequest, app: str, guild: str):
        self._check_app(app)
        return 200, self.guild_commands.get(guild, [])

    async def _put_guild_commands(self, record: RecordedRequest, app: str, guild: str):
        self._check_app(app)
        old = self.guild_commands.get(guild, [])
        self.guild_commands[guild] = self._register(record.json, old, guild)
        return 200, self.guild_commands[guild]

    # ----------------------------------------------------------------- messages

    @staticmethod
    def _check_message(body: dict[str, Any], files: list[UploadedFile], creating: bool) -> None:
        content = body.get("content")
        if content is not None and len(content) > 2000:
            raise invalid_form("content", "Must be 2000 or fewer in length.")
        rows = body.get("components")
        if rows is not None:
            if len(rows) > 5:
                raise invalid_form("components", "Must be 5 or fewer in length.")
            custom_ids: set[str] = set()
            for row in rows:
                if row.get("type") != 1 or not 1 <= len(row.get("components", [])) <= 5:
                    raise invalid_form("components", "An action row holds 1 to 5 buttons.")
                for button in row["components"]:
                    if button.get("type") != 2:
                        continue
                    if len(button.get("label") or "") > 80:
                        raise invalid_form("label", "Must be 80 or fewer in length.")
                    if button.get("style") == 5:
                        if not button.get("url"):
                            raise invalid_form("url", "A link button needs a url.")
                        if len(button["url"]) > 512:
                            raise invalid_form("url", "Must be 512 or fewer in length.")
                        continue
                    custom_id = button.get("custom_id") or ""
                    if not 1 <= len(custom_id) <= 100:
                        raise invalid_form("custom_id", "Must be 1 to 100 in length.")
                    if custom_id in custom_ids:
                        raise invalid_form("custom_id", "Component custom id cannot be duplicated")
                    custom_ids.add(custom_id)
        if creating and not (content or rows or files or body.get("embeds")):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    def _attachments(
        self,
        body: dict[str, Any],
        files: list[UploadedFile],
        existing: list[dict[str, Any]],
        ephemeral: bool,
    ) -> list[dict[str, Any]]:
        by_index: dict[int, UploadedFile] = {}
        for upload in files:
            match = re.fullmatch(r"files\[(\d+)\]", upload.field)
            if match:
                by_index[int(match.group(1))] = upload
        spec = body.get("attachments")
        kept = {a["id"]: a for a in existing}
        result: list[dict[str, Any]] = []
        if spec is None:
            result = list(existing)  # an edit without "attachments" keeps them and adds
            spec = [{"id": i} for i in sorted(by_index)]
        for item in spec:
            key = str(item.get("id"))
            if key in kept:
                result.append(kept[key])
                continue
            upload = by_index.get(int(key)) if key.isdigit() and int(key) < 10 else None
            if upload is None:
                raise invalid_form("attachments", f"Unknown attachment {key}")
            attachment_id = snowflake()
            self.files[attachment_id] = upload.data
            filename = item.get("filename") or upload.filename
            url = f"{self.base_url}/attachments/{attachment_id}/{filename}"
            attachment = {
                "id": attachment_id,
                "filename": filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
                "content_type": _content_type(filename),
                "ephemeral": ephemeral,
            }
            description = item.get("description")
            if description is not None:  # the alt text: 1024 characters at most
                if not isinstance(description, str) or len(description) > 1024:
                    raise invalid_form("attachments", "Must be 1024 or fewer in length.")
                attachment["description"] = description
            result.append(attachment)
        return result

    def _new_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        author: dict[str, Any],
        flags: int = 0,
        visible_to: str | None = None,
        interaction: FakeInteraction | None = None,
    ) -> dict[str, Any]:
        message = message_payload(
            message_id=snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=body.get("content") or "",
            components=body.get("components") or [],
            embeds=body.get("embeds") or [],
            flags=flags,
            webhook_id=self.application_id if interaction else None,
            application_id=self.application_id if interaction else None,
            message_type=20 if interaction and interaction.type == APPLICATION_COMMAND else 0,
        )
        message["attachments"] = self._attachments(body, files, [], bool(flags & EPHEMERAL))
        if interaction is not None:
            message["interaction_metadata"] = {
                "id": interaction.id,
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": channel.guild_id or "0"},
            }
        self.messages[message["id"]] = message
        self.meta[message["id"]] = MessageMeta(
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            versions=[copy.deepcopy(message)],
            updated=next(self._changes),
        )
        return message

    def _edit(self, message_id: str, body: dict[str, Any], files: list[UploadedFile]) -> dict:
        message = self.messages[message_id]
        self._check_message(body, files, creating=False)
        for key in ("content", "components", "embeds"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if "attachments" in body or files:
            ephemeral = bool(message["flags"] & EPHEMERAL)
            message["attachments"] = self._attachments(
                body, files, message["attachments"], ephemeral
            )
        if "flags" in body and body["flags"] is not None:
            # only SUPPRESS_EMBEDS may change; keep ephemeral, drop loading on an edit
            message["flags"] = (message["flags"] & EPHEMERAL) | (int(body["flags"]) & 4)
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = iso_now()
        self.meta[message_id].versions.append(copy.deepcopy(message))
        self.meta[message_id].updated = next(self._changes)
        return message

    # ----------------------------------------------------------------- channel routes

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _message_in(self, channel_id: str, message_id: str) -> dict[str, Any]:
        message = self.messages.get(message_id)
        if message is None or message["channel_id"] != channel_id:
            raise DiscordError(404, 10008, "Unknown Message")
        if self.meta[message_id].visible_to is not None:
            raise DiscordError(404, 10008, "Unknown Message")  # ephemeral: not in the channel
        return message

    async def _get_channel(self, record: RecordedRequest, channel_id: str):
        return 200, self._channel(channel_id).payload()

    async def _create_dm(self, record: RecordedRequest):
        """``POST /users/@me/channels {recipient_id}``: the DM channel with that user, the
        same one every time. Opening it always works; whether the user accepts messages
        there is decided when one is sent (50007)."""
        recipient = self.users.get(str((record.json or {}).get("recipient_id", "")))
        if recipient is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        channel = self.dm_channels.get(recipient.id)
        if channel is None:
            channel = FakeChannel(snowflake(), None, "", recipient=recipient)
            self.dm_channels[recipient.id] = channel
            self.channels[channel.id] = channel
        return 200, channel.payload()

    async def _create_message(self, record: RecordedRequest, channel_id: str):
        channel = self._channel(channel_id)
        body = record.json or {}
        self._check_message(body, record.files, creating=True)
        if channel.recipient is not None and not channel.recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        if body.get("flags", 0) & EPHEMERAL:
            raise invalid_form("flags", "A channel message cannot be ephemeral")
        message = self._new_message(channel, body, record.files, author=self.bot_user.payload())
        return 200, message

    async def _get_message(self, record: RecordedRequest, channel_id: str, message_id: str):
        self._channel(channel_id)
        return 200, self._message_in(channel_id, message_id)

    async def _edit_channel_message(self, record: RecordedRequest, channel_id: str, mid: str):
        self._channel(channel_id)
        message = self._message_in(channel_id, mid)
        if message["author"]["id"] != self.bot_user.id or message.get("webhook_id"):
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        return 200, self._edit(mid, record.json or {}, record.files)

    async def _delete_channel_message(self, record: RecordedRequest, channel_id: str, mid: str):
        self._channel(channel_id)
        self._message_in(channel_id, mid)
        del self.messages[mid]
        return 204, None

    # ----------------------------------------------------------------- interaction routes

    async def _callback(self, record: RecordedRequest, interaction_id: str, token: str):
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        if interaction.callback_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - interaction.created > RESPONSE_WINDOW:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = record.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        channel = interaction.channel
        component = interaction.type == MESSAGE_COMPONENT
        message: dict[str, Any] | None = None
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        author = self.bot_user.payload()
        if kind == CHANNEL_MESSAGE_WITH_SOURCE and interaction.type != AUTOCOMPLETE:
            self._check_message(data, record.files, creating=True)
            message = self._new_message(
                channel,
                data,
                record.files,
                author=author,
                flags=EPHEMERAL if ephemeral else 0,
                visible_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
        elif kind == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE and interaction.type != AUTOCOMPLETE:
            message = self._new_message(
                channel,
                {"content": ""},
                [],
                author=author,
                flags=LOADING | (EPHEMERAL if ephemeral else 0),
                visible_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and component:
            if interaction.message_id not in self.messages:
                raise DiscordError(404, 10008, "Unknown Message")  # deleted since the click
            assert interaction.message_id is not None
            if kind == UPDATE_MESSAGE:
                message = self._edit(interaction.message_id, data, record.files)
            else:
                message = self.messages[interaction.message_id]
        elif kind == APPLICATION_COMMAND_AUTOCOMPLETE_RESULT and interaction.type == AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > 25 or any(len(c.get("name", "")) > 100 for c in choices):
                raise invalid_form("choices", "At most 25 choices of at most 100 characters")
        else:
            raise DiscordError(400, 40043, "Interaction callback type not valid for interaction")
        interaction.callback_type = kind
        interaction.callback_data = data
        interaction.answered_at = self.now()
        if message is not None:
            interaction.original_id = message["id"]
        interaction.responded.set()
        if "with_response" not in record.query:
            return 204, None
        result: dict[str, Any] = {
            "interaction": {
                "id": interaction.id,
                "type": interaction.type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            }
        }
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            if kind != DEFERRED_UPDATE_MESSAGE:
                result["resource"] = {"type": kind, "message": message}
        return 200, result

    def _webhook_interaction(self, app: str, token: str) -> FakeInteraction:
        if app != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        for interaction in self.interactions.values():
            if interaction.token == token:
                if self.now() - interaction.created > TOKEN_LIFETIME:
                    raise DiscordError(401, 50027, "Invalid Webhook Token")
                return interaction
        raise DiscordError(401, 50027, "Invalid Webhook Token")

    async def _followup(self, record: RecordedRequest, app: str, token: str):
        interaction = self._webhook_interaction(app, token)
        if interaction.callback_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")  # not acknowledged yet
        body = record.json or {}
        self._check_message(body, record.files, creating=True)
        original = self.messages.get(interaction.original_id or "")
        if (
            original is not None
            and original["flags"] & LOADING
            and interaction.callback_type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        ):
            message = self._edit(original["id"], body, record.files)  # replaces "thinking..."
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                interaction.channel,
                body,
                record.files,
                author=self.bot_user.payload(),
                flags=EPHEMERAL if ephemeral else 0,
                visible_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
            interaction.followup_ids.append(message["id"])
        if record.query.get("wait") in ("true", "1", "True"):
            return 200, message
        return 204, None

    async def _webhook_message(self, record: RecordedRequest, app: str, token: str, mid: str):
        interaction = self._webhook_interaction(app, token)
        if mid == "@original":
            if interaction.original_id is None:
                raise DiscordError(404, 10008, "Unknown Message")
            mid = interaction.original_id
        elif mid != interaction.original_id and mid not in interaction.followup_ids:
            raise DiscordError(404, 10008, "Unknown Message")
        if mid not in self.messages:
            raise DiscordError(404, 10008, "Unknown Message")
        if record.method == "GET":
            return 200, self.messages[mid]
        if record.method == "DELETE":
            del self.messages[mid]
            return 204, None
        return 200, self._edit(mid, record.json or {}, record.files)


def _content_type(filename: str) -> str:
    lower = filename.lower()
    for ext, kind in ((".png", "image/png"), (".webp", "image/webp"), (".gif", "image/gif")):
        if lower.endswith(ext):
            return kind
    return "application/octet-stream"


@contextlib.contextmanager
def patch_discord(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py (REST and gateway) at ``fake`` for the duration of the block."""
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def fake_discord(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Run a fake Discord on 127.0.0.1 with discord.py pointed at it."""
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        with patch_discord(fake):
            yield fake
    finally:
        await fake.stop()
