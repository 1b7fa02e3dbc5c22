"""Running the bot: a discord.py client wired to the core, and ``run_discord`` for the CLI.

Order at start: log in (REST), register the persistent button class and sync the slash
commands (``setup_hook``), build and start the core (it may post at once: resumed tables),
then open the gateway. The only gateway intent is ``guilds`` (not privileged; it lets
discord.py know the channels): the bot acts only on interactions, which Discord sends
whatever the intents, and never reads messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from adapters.discord.adapter import DEFER_AFTER, CoreApp, DiscordAdapter
from adapters.discord.commands import register_commands
from adapters.discord.config import read_token
from adapters.discord.messages import PublicMessages
from adapters.discord.metering import metered
from adapters.discord.shards import Shards
from adapters.discord.translator import CatalogTranslator
from adapters.discord.widgets import ActionButton
from bot.ops import metrics, redact
from bot.ops.settings import environment
from bot.platform import Platform
from bot.store import is_postgres

log = logging.getLogger(__name__)

#: Builds the core around the platform it must post through (not started yet).
AppFactory = Callable[[Platform], Awaitable[Any]]
#: At most this long to stop (answers, queued edits): under the usual 30 s of a SIGKILL.
STOP_TIMEOUT = 15.0


class BeloteClient(discord.Client):
    """A discord.py client whose every interaction goes to a :class:`DiscordAdapter`."""

    def __init__(
        self,
        *,
        messages_path: str | None = None,
        defer_after: float = DEFER_AFTER,
        sync_commands: bool = True,
        guild_ids: tuple[int, ...] = (),
        guild_ready_timeout: float = 2.0,
        **sharding: Any,
    ) -> None:
        super().__init__(
            intents=discord.Intents(guilds=True),  # not privileged: channel objects only
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=metered(),  # every REST answer: errors and rate limits counted
            **sharding,
        )
        self.tree = app_commands.CommandTree(self)
        self.adapter = DiscordAdapter(self, messages_path=messages_path, defer_after=defer_after)
        self.sync_commands = sync_commands
        self.translator: app_commands.Translator = CatalogTranslator()
        self.guild_ids = guild_ids
        register_commands(self.tree, self.adapter)

    async def on_ready(self) -> None:
        metrics.connected("discord", True)

    async def on_resumed(self) -> None:
        metrics.connected("discord", True)

    async def on_disconnect(self) -> None:
        metrics.connected("discord", False)

    # --- each thread's parent channel (adapters/discord/threads.py), from the gateway ---

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.adapter.threads.learn_guild(guild)  # GUILD_CREATE's active threads

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.adapter.threads.learn_guild(guild)

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.adapter.threads.learn_thread(thread)

    async def on_thread_join(self, thread: discord.Thread) -> None:
        self.adapter.threads.learn_thread(thread)  # THREAD_LIST_SYNC, an unknown update

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        self.adapter.threads.learn_payload(dict(payload.data))  # archived ones too

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.adapter.threads.forget(payload.thread_id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on one of our buttons that is no longer on the message (an old client
        still showing a stale hand), or with a custom id we never made (a forged request):
        discord.py's dynamic items skip those, but the player must hear why nothing
        happened (else the button spins, then "This interaction failed"), so the core gets
        the press and answers it. Discord sends a component interaction only to the app
        whose message it is on, so every one that reaches us is ours to answer."""
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        parsed = ActionButton.parse(custom_id)
        if parsed is not None and _on_message(interaction.message, custom_id):
            return  # ActionButton.callback handles it
        action, place = parsed if parsed is not None else (custom_id, None)
        await self.adapter.on_press(interaction, action, place=place)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton)
        await self.tree.set_translator(self.translator)
        if not self.sync_commands:
            return
        if self.guild_ids:  # guild commands show up at once: handy while developing
            for guild_id in self.guild_ids:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


class ShardedBeloteClient(BeloteClient, discord.AutoShardedClient):
    """The same client on some of the bot's shards (``shard_ids`` of ``shard_count``)."""


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


class DiscordBot:
    """The client and the core together, started and stopped as one."""

    def __init__(
        self,
        app_factory: AppFactory,
        token: str,
        shards: Shards | None = None,
        **client_options: Any,
    ) -> None:
        self._factory = app_factory
        self._token = token
        self._messages_path_given = client_options.get("messages_path") is not None
        self._shards = shards
        if shards is None:
            self.client = BeloteClient(**client_options)
        else:
            self.client = ShardedBeloteClient(
                shard_ids=list(shards.ids), shard_count=shards.count, **client_options
            )
        # the core runs (and takes over) the tables of these shards' servers only: every
        # Discord server when unsharded, never another platform's tables
        self.client.adapter.shards = shards or Shards((0,), 1)
        self.app: CoreApp | Any = None
        self._task: asyncio.Task[None] | None = None

    @property
    def adapter(self) -> DiscordAdapter:
        return self.client.adapter

    async def start(self) -> None:
        """Log in, start the core, connect the gateway (in the background); returns when
        the bot is ready to answer interactions."""
        metrics.connected("discord", False)  # /healthz: not ready until the gateway is
        redact.register(self._token)  # no log line shows it (see bot.ops.redact)
        redact.install()
        await self.client.login(self._token)
        self.app = await self._factory(self.client.adapter)
        self.client.adapter.app = self.app
        store_path = getattr(getattr(self.app, "store", None), "path", None)
        if not self._messages_path_given and store_path and store_path != ":memory:":
            # which message shows which table: next to the database file, or on PostgreSQL
            # one file per set of shards (whoever runs those shards again reads it back)
            self.client.adapter.public = PublicMessages(self._messages_file(store_path))
        await self.app.start()
        self._task = asyncio.create_task(self.client.connect(reconnect=True))
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            ready.cancel()
            await self._task  # raises what stopped the connection (bad token, ...)
        log.info("Discord bot ready as %s", self.client.user)

    def _messages_file(self, store_path: str) -> str:
        if not is_postgres(store_path):
            return f"{store_path}.discord.json"
        if self._shards is None:
            return "belote-discord.json"  # never a file named after a URL
        return f"belote-discord-shards-{'-'.join(map(str, self._shards.ids))}.json"

    async def wait_closed(self) -> None:
        if self._task is not None:
            await self._task

    async def close(self, timeout: float = STOP_TIMEOUT) -> None:
        """Stop gracefully, in at most about ``timeout`` seconds: take no more input,
        answer the interactions in flight, stop the core (its scheduler, then the
        database), show what is still queued, then close the gateway and the HTTP session.
        Whatever could not be shown in time is shown again by the core at its next start."""
        adapter = self.client.adapter
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self.app is not None:
            await adapter.stop_input(timeout / 3)
            try:
                await self.app.stop()
            except Exception:
                log.exception("the core did not stop cleanly")
            self.app = None
        if not self.client.is_closed():
            await adapter.drain(max(0.5, deadline - loop.time()))
        await self.client.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._task
        redact.forget(self._token)


async def run(app_factory: AppFactory, token: str | None = None, **options: Any) -> int:
    """What ``belote run --platform discord`` calls: the token from ``DISCORD_TOKEN`` (or
    ``.env``), commands synced to the servers in ``DISCORD_GUILD_IDS`` (comma-separated)
    if set, else globally. Returns an exit code; the token is never printed."""
    token = token or read_token()
    if not token:
        log.error("Set DISCORD_TOKEN (in the environment or a .env file) to run on Discord.")
        return 2
    if "guild_ids" not in options:
        raw = environment().get("DISCORD_GUILD_IDS", "")
        options["guild_ids"] = tuple(int(g) for g in raw.replace(" ", "").split(",") if g.isdigit())
    try:
        await run_discord(app_factory, token, **options)
    except discord.LoginFailure:
        log.error("DISCORD_TOKEN: Discord refused it: check it in the developer portal.")
        return 2
    return 0


async def run_discord(
    app_factory: AppFactory,
    token: str,
    *,
    messages_path: str | None = None,
    guild_ids: tuple[int, ...] = (),
    sync_commands: bool = True,
    defer_after: float = DEFER_AFTER,
    shard_ids: tuple[int, ...] | None = None,
    shard_count: int | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Run the Belote bot on Discord until SIGTERM or SIGINT (or ``stop`` is set), then
    stop gracefully (see :meth:`DiscordBot.close`).

    ``app_factory(platform)`` builds the core (``BeloteApp``) posting through ``platform``;
    it is started here and stopped on the way out. ``messages_path`` keeps which channel
    message shows which table across restarts (JSON; e.g. next to the database).
    ``guild_ids`` registers the commands in those servers only (instant, for testing).
    ``shard_ids`` of ``shard_count``: this process serves those shards only (several
    processes on one PostgreSQL database, see docs/scaling.md).
    """
    from adapters.cli.signals import stop_on_signals, wait_for_stop

    stop = stop or asyncio.Event()
    shards = None
    if shard_ids is not None or shard_count is not None:
        count = shard_count or 1
        shards = Shards(tuple(shard_ids) if shard_ids else tuple(range(count)), count)
    bot = DiscordBot(
        app_factory,
        token,
        shards=shards,
        messages_path=messages_path,
        guild_ids=guild_ids,
        sync_commands=sync_commands,
        defer_after=defer_after,
    )
    with stop_on_signals(stop):
        try:
            await bot.start()
            await wait_for_stop(stop, bot.wait_closed())
            if stop.is_set():
                adapter = bot.adapter
                log.info(
                    "stopping: %d interactions in flight, %d posts queued",
                    len(adapter._handling),
                    adapter.outbox.pending(),
                )
        finally:
            await bot.close()
