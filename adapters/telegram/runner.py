"""Running the bot on Telegram: PTB's Application around the core, polling or webhook.

``TelegramAdapter`` is the piece tests drive (start, stop, flush); ``run_telegram`` is
what ``belote run --platform telegram`` calls and runs until stopped.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.constants import UpdateType
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    MessageHandler,
    filters,
)

from adapters.cli.signals import stop_on_signals
from bot.ops import metrics, redact
from bot.ops.settings import environment
from bot.platform import Button, Platform, Post

from . import pace
from .commands import core_commands, menu_languages, scopes
from .config import TelegramConfig, Webhook, api_urls
from .delivery import Outbox, describe
from .handlers import Bridge
from .links import hand_link
from .memory import Memory
from .metering import MeteredRateLimiter

log = logging.getLogger(__name__)

AppFactory = Callable[[Platform], Awaitable[Any]]  # returns a BeloteApp, not started
CONCURRENT_UPDATES = 8
FLUSH_TIMEOUT = 10.0  # seconds to show what is queued when stopping
ALLOWED_UPDATES = [UpdateType.MESSAGE, UpdateType.CALLBACK_QUERY, UpdateType.CHAT_MEMBER]


@dataclass(frozen=True)
class RateLimits:
    """PTB's AIORateLimiter settings: Telegram's flood limits, with retries on 429; and the
    adapter's own count of new messages in a group (:mod:`.pace`), which keeps a group
    under Telegram's 20 a minute without relying on those retries."""

    overall_per_second: float = 30
    group_per_period: float = 20
    group_period: float = 60
    max_retries: int = 3
    group_new_messages: int = pace.BUDGET
    group_new_period: float = pace.PERIOD


class TelegramAdapter:
    """The core on Telegram: one PTB Application, one Outbox, one Bridge."""

    def __init__(
        self,
        config: TelegramConfig,
        app_factory: AppFactory,
        *,
        state_path: str | Path | None = None,
        rate_limits: RateLimits | None = None,
        poll_timeout: int = 30,
    ) -> None:
        self.config = config
        self._factory = app_factory
        self._state_path = state_path
        self._limits = rate_limits or RateLimits()
        self._poll_timeout = poll_timeout
        self._web: web.AppRunner | None = None
        self.ptb: Application | None = None
        self.core: Any = None
        self.outbox: Outbox | None = None
        self.memory: Memory | None = None
        self.bridge: Bridge | None = None

    async def start(self) -> None:
        """Connect (getMe), open the core and memory, set the menus, start receiving."""
        metrics.connected("telegram", False)  # /healthz: not until updates come in
        self._guard_logs()
        limits = self._limits
        builder = (
            Application.builder()
            .token(self.config.token)
            .rate_limiter(
                MeteredRateLimiter(
                    overall_max_rate=limits.overall_per_second,
                    overall_time_period=1,
                    group_max_rate=limits.group_per_period,
                    group_time_period=limits.group_period,
                    max_retries=limits.max_retries,
                )
            )
            .get_updates_read_timeout(self._poll_timeout + 10)
            # Uploads of pictures on a busy machine or link: more than PTB's 5 s defaults.
            .read_timeout(20)
            .write_timeout(30)
            .connect_timeout(10)
            .pool_timeout(10)
            .media_write_timeout(60)
            # One slow update (a /verify checking drand) must not hold up every group;
            # the core serialises what must be serialised (one lock per table).
            .concurrent_updates(CONCURRENT_UPDATES)
            .job_queue(None)  # the core has its own scheduler; PTB's would be a second one
        )
        base_url, file_url = api_urls(self.config.api_url)
        if base_url:
            builder = builder.base_url(base_url).base_file_url(self.config.file_url or file_url)
        if self.config.webhook is not None:
            builder = builder.updater(None)
        self.ptb = ptb = builder.build()
        await ptb.initialize()  # getMe: fails fast on a wrong token
        username = ptb.bot.username

        self.outbox = outbox = Outbox(
            ptb.bot,
            None,
            link_for=self._link_for,
            start_link=self._start_link,  # type: ignore[arg-type]
            pace=pace.GroupPace(limits.group_new_messages, limits.group_new_period),
        )
        self.core = core = await self._factory(outbox)
        path = self._state_path or getattr(getattr(core, "store", None), "path", ":memory:")
        self.memory = outbox.memory = await Memory.open(path)
        self.bridge = bridge = Bridge(core, outbox, self.memory, username)
        ptb.add_handler(MessageHandler(filters.COMMAND, bridge.on_command))
        ptb.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, bridge.on_migrate))
        ptb.add_handler(CallbackQueryHandler(bridge.on_press))
        ptb.add_handler(ChatMemberHandler(bridge.on_chat_member, ChatMemberHandler.CHAT_MEMBER))
        ptb.add_error_handler(self._on_error)

        known = core_commands(core)
        for language in menu_languages():
            for scope, commands in scopes(known, language or "en"):
                await ptb.bot.set_my_commands(commands, scope=scope, language_code=language)
        await core.start()  # resumes unfinished tables: their messages are edited in place
        await ptb.start()
        if self.config.webhook is None:
            assert ptb.updater is not None
            await ptb.updater.start_polling(
                poll_interval=0, timeout=self._poll_timeout, allowed_updates=ALLOWED_UPDATES
            )
        else:
            await self._start_webhook(self.config.webhook)
        metrics.connected("telegram", True)
        log.info("Telegram bot @%s is running", username)

    async def stop(self) -> None:
        """Stop receiving, finish what is queued, stop the core, close everything."""
        ptb = self.ptb
        if ptb is None:
            return
        metrics.connected("telegram", False)
        if ptb.updater is not None and ptb.updater.running:
            await ptb.updater.stop()
        if self._web is not None:
            await self._web.cleanup()
            self._web = None
        if ptb.running:
            await ptb.stop()  # the updates in flight are handled first
        if self.core is not None:
            await self.core.stop()  # its scheduler, then the database
        if self.outbox is not None and not await self.outbox.flush(FLUSH_TIMEOUT):
            # bounded: what is left is shown again when the core resumes at the next start
            dropped = await self.outbox.cancel()
            log.warning("stopped with %d posts not shown (shown again at the next start)", dropped)
        await ptb.shutdown()
        if self.memory is not None:
            await self.memory.close()
        self.ptb = None
        redact.forget(self.config.token)

    async def flush(self) -> None:
        """Wait until every post the core made so far is shown (for tests)."""
        if self.outbox is not None:
            await self.outbox.flush()

    # ----------------------------------------------------------------- internals
    def _start_link(self, payload: str) -> str:
        assert self.ptb is not None
        return f"https://t.me/{self.ptb.bot.username}?start={payload}"

    async def _link_for(self, button: Button, post: Post) -> str | None:
        """Group buttons that open a hand become ``/start`` deep links."""
        if post.to_user is not None:
            return None
        link = hand_link(button.action, post.channel)
        return self._start_link(link.payload()) if link else None

    async def _on_error(self, update: object, context: Any) -> None:
        """An error PTB caught in a handler or while polling: its traceback, for the
        operator, with the token and every unrevealed seed masked (httpx errors name the
        request URL, which holds the token)."""
        error = context.error
        trace = "".join(traceback.format_exception(error)) if error is not None else ""
        log.error("error while handling an update: %s\n%s", describe(error), redact.redact(trace))

    def _guard_logs(self) -> None:
        """No log line shows the token: it is a secret of bot.ops.redact's registry, whose
        filter sits on the root handlers and on the loggers that name request URLs."""
        redact.register(self.config.token)
        logging.getLogger("httpx").setLevel(logging.WARNING)
        for name in ("", "httpx", "telegram", "telegram.ext", "aiohttp.access"):
            redact.install(logging.getLogger(name) if name else None)

    async def _start_webhook(self, hook: Webhook) -> None:
        """Our own small aiohttp listener (no tornado needed), then ``setWebhook``."""
        assert self.ptb is not None
        ptb = self.ptb

        async def receive(request: web.Request) -> web.Response:
            if request.headers.get("X-Telegram-Bot-Api-Secret-Token") != hook.secret:
                return web.Response(status=403)
            try:
                data = await request.json()
            except ValueError:
                return web.Response(status=400)
            await ptb.update_queue.put(Update.de_json(data, ptb.bot))
            return web.Response()

        app = web.Application()
        app.router.add_post(hook.path, receive)
        self._web = web.AppRunner(app, access_log=None)
        await self._web.setup()
        site = web.TCPSite(self._web, hook.listen, hook.port)
        await site.start()
        await ptb.bot.set_webhook(
            hook.url, secret_token=hook.secret, allowed_updates=ALLOWED_UPDATES
        )


async def run_telegram(
    app_factory: AppFactory,
    token: str | None = None,
    *,
    api_url: str | None = None,
    webhook: Webhook | None = None,
    stop: asyncio.Event | None = None,
    rate_limits: RateLimits | None = None,
    state_path: str | Path | None = None,
) -> None:
    """Run the bot on Telegram until ``stop`` is set (or SIGINT / SIGTERM).

    ``app_factory(platform)`` builds the core (a ``BeloteApp``, not yet started) around the
    given platform; this function starts and stops it. Settings not given here come from
    ``TELEGRAM_TOKEN`` / ``TELEGRAM_API_URL`` / ``TELEGRAM_WEBHOOK_*`` in the environment
    or ``.env``; explicit arguments win over them.
    """
    env = environment()
    if token is not None:
        env["TELEGRAM_TOKEN"] = token
    config = TelegramConfig.from_env(env, dotenv=None)
    if api_url is not None or webhook is not None:
        base, files = api_urls(api_url) if api_url else (config.api_url, config.file_url)
        config = TelegramConfig(
            token=config.token, api_url=base, file_url=files, webhook=webhook or config.webhook
        )
    adapter = TelegramAdapter(config, app_factory, rate_limits=rate_limits, state_path=state_path)
    stop = stop or asyncio.Event()
    with stop_on_signals(stop):
        try:
            await adapter.start()
            await stop.wait()
        finally:
            await adapter.stop()
