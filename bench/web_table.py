"""The web table, measured: socket latency at 100 live tables, a socket's memory, the page's
weight, and the time from a link to a playable hand in headless Chromium.

Run from the repository root, in the project's virtual environment:

    python bench/web_table.py                       # the whole run, about 2 minutes
    python bench/web_table.py --tables 200 --seconds 40 --sockets 2000
    python bench/web_table.py --skip chat,browser   # parts: people, chat, sockets, page, browser

What it does, in one run (each part in processes of its own, started afresh):

1. ``--tables`` live tables of four people (every seat a socket of this script's own
   browserless clients, aiohttp's WebSocket client) and ``--bot-tables`` tables of two
   people and two bots (``--level``, no pause) with two watch sockets, so four sockets
   there too and the bots' moves must reach them. Each person plays a choice of the view
   ``--pace`` seconds after it shows their turn: the first legal one (in the auction the
   first that is not a pass: a table where everyone passes redeals for ever). Figures:
   from an action's frame sent to the view that shows it (the first with a later ``seq``)
   arrived at all four sockets of the table; for a bot's move, from the core's starting to
   commit it (``Turns.apply``) to the same, the two processes reading one clock
   (``CLOCK_MONOTONIC`` is the machine's). Twice: with no chat platform, then with the
   Telegram adapter (python-telegram-bot, its rate limiter and the Outbox, every table
   in a group of its own) delivering every table message and hand to the fake Bot API
   server of tests/fakes, run in a third process.
   The bot (core, SQLite file in a temporary directory, the real clock and APScheduler,
   no drand, seed window 0) is one process; the clients are another, so their CPU is not
   the bot's; the fake Telegram a third. The CPU each used is printed beside.
2. ``--sockets`` sockets signed in at tables of four people in one bot process, each
   having got its view: the bot's resident memory before and after, divided; then
   ``--traced`` sockets more under tracemalloc (the Python objects a socket holds).
3. The page's weight: the bytes of ``web/table/`` a browser loads, before compression,
   ``web/table/vendor/`` apart.
4. Headless Chromium (the OS's, through Playwright): from opening a seat's link to a hand
   with lit cards (a card of the hand with the class ``legal``), the median
   of ``--runs`` runs, each in a fresh browser context (no cache).

Each line ends with its goal and whether it held. The machine is shared: run it when you
can say what else was running.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import cpu_seconds, rss_bytes  # noqa: E402  (the load bench's readings)

PAGE_DIR = ROOT / "web" / "table"
KEY = b"bench-web-table-key-0123456789ab"
PARTS = ("people", "chat", "sockets", "page", "browser")

# the goals of issue 63's "Measured"
GOAL_P99_MS = 100.0
GOAL_SOCKET_KIB = 64.0
GOAL_PAGE_KB = 150.0
GOAL_OPEN_S = 1.0

#: The files a browser loads from the page's folder (what is not one of these, a licence,
#: a fetch script, a README, is listed apart and not weighed).
LOADED = {
    ".html", ".js", ".mjs", ".css", ".json", ".svg", ".png", ".webp", ".jpg", ".ico",
    ".woff", ".woff2", ".ttf", ".webmanifest", ".map", ".txt", ".ftl", ".po", ".mo",
}  # fmt: skip


# --- shared helpers -------------------------------------------------------------------------


def cpu_wait_seconds(pid: int | str = "self") -> float:
    """Seconds the process's threads were runnable but waiting for a CPU (the kernel's
    schedstat): what a crowded machine adds to every figure, whatever the code does."""
    total = 0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


async def loop_lags(out: list[float], every: float = 0.05) -> None:
    """How late the bot's event loop wakes a task that sleeps ``every`` seconds."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(every)
        out.append(time.monotonic() - t - every)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def more_files() -> None:
    """A thousand sockets need more than the usual 1,024 descriptors: up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def quiet_logs() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    for name in ("httpx", "telegram", "apscheduler", "aiohttp"):
        logging.getLogger(name).setLevel(logging.ERROR)


def say(obj: dict[str, Any]) -> None:
    """A child's answer to the parent: one JSON line on stdout (logs go to stderr)."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def stdin_lines() -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def next_command(reader: asyncio.StreamReader) -> dict[str, Any]:
    line = await reader.readline()
    if not line:
        return {"cmd": "stop"}
    return json.loads(line)


class Child:
    """A process of this script in another role, spoken to in JSON lines."""

    def __init__(self, role: str, spec: dict[str, Any], log_dir: Path) -> None:
        self.role = role
        self.log = log_dir / f"{role}-{time.monotonic_ns()}.log"
        self._err = self.log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--role", role],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            text=True,
            cwd=ROOT,
        )
        self.send(spec)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def recv(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            tail = self.log.read_text()[-3000:]
            raise SystemExit(f"the {self.role} process ended ({self.proc.returncode}):\n{tail}")
        return json.loads(line)

    def ask(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.send(obj)
        return self.recv()

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(Exception):
                self.send({"cmd": "stop"})
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()


# --- the bot's process ----------------------------------------------------------------------


@dataclass
class Served:
    """What the bot process built: its app, its listener, what it records."""

    app: Any
    web: Any
    adapter: Any = None
    bot_moves: list[tuple[int, int, float]] = field(default_factory=list)
    person_moves: int = 0
    humans: dict[int, list[Any]] = field(default_factory=dict)  # table -> its people
    channels: dict[int, Any] = field(default_factory=dict)


async def build_app(spec: dict[str, Any], db_dir: Path) -> Served:
    from adapters.web.server import WebTable
    from bot.app import BeloteApp, Settings
    from bot.ops.clock import SeededRandomness
    from bot.platform import NullPlatform
    from bot.store import open_store

    settings = Settings(
        bot_delay=0.0,
        drand=False,
        render_images=False,
        seed_window=0.0,
        record_latency=True,
        max_tables_per_channel=100_000,
        long_running=True,
        web_key=KEY,
        public_url="http://127.0.0.1",
    )

    async def factory(platform: Any) -> Any:
        store = await open_store(str(db_dir / "bench.db"))
        return BeloteApp(store, platform, settings=settings, randomness=SeededRandomness(1))

    tg = spec.get("telegram")
    if tg:
        from adapters.telegram import RateLimits, TelegramAdapter, TelegramConfig

        # Telegram's own flood limits (the adapter's defaults: 30 calls a second, 20 a
        # minute in a group), as a real bot has them; "loose": every change shown at once,
        # more work than Telegram would ever take from one bot.
        if tg.get("limits") == "loose":
            limits = RateLimits(overall_per_second=10_000, group_per_period=1_000, group_period=1)
        else:
            limits = RateLimits()
        adapter = TelegramAdapter(
            TelegramConfig(token=tg["token"], api_url=tg["api_url"]),
            factory,
            rate_limits=limits,
            poll_timeout=10,
            # production keeps the adapter's memory in the bot's database file
            state_path=db_dir / "telegram.db" if tg.get("own_file") else None,
        )
        await adapter.start()
        app = adapter.core
        web = WebTable(app, "127.0.0.1", 0, deliver=adapter.outbox.deliver)
    else:
        adapter = None
        app = await factory(NullPlatform())
        await app.start()
        web = WebTable(app, "127.0.0.1", 0)
    await web.start()
    return Served(app, web, adapter)


def time_moves(served: Served) -> None:
    """Note when each move starts to be committed (the bots' have no frame to time from)."""
    from bot.play.entries import By

    turns = served.app.turns
    apply = turns.apply

    async def timed(t: Any, seat: int, action: Any, by: Any, ctx: Any = None) -> None:
        start = time.monotonic()
        await apply(t, seat, action, by, ctx)
        if by == By.PLAYER:
            served.person_moves += 1
        elif t.run is not None:
            served.bot_moves.append((t.id, t.run.seq, start))

    turns.apply = timed


async def open_tables(served: Served, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables of the spec, started, and a token for each of their sockets."""
    from bot.platform import Channel, User

    app = served.app
    tg = spec.get("telegram")
    groups = list(tg["groups"]) if tg else []
    people = list(tg["users"]) if tg else []
    level = spec.get("level", "normal")
    out: list[dict[str, Any]] = []
    n = 0

    def person(i: int) -> User:
        if tg:
            uid, name = people[i]
            return User(f"telegram:{uid}", name, locale="en")
        return User(f"bench:u{i}", f"P{i}", locale="en")

    kinds = (
        [("people", "hold" if spec.get("hold") else "play")] * spec.get("people_tables", 0)
        + [("bots", "play")] * spec.get("bot_tables", 0)
        + [("browser", "browser")] * spec.get("browser_tables", 0)
    )
    for i, (kind, use) in enumerate(kinds):
        channel = Channel(f"telegram:{groups[i]}" if tg else f"bench:c{i}")
        host = person(n)
        n += 1
        replies = await app.command(host, channel, "/table create --timer off")
        assert replies and replies[0].ok, replies
        tid = max(t.id for t in app.tables.values() if t.host == host.id)
        seated = [host]
        plan = {"people": "jjj", "bots": "bjb", "browser": "bbb"}[kind]
        for step in plan:
            if step == "j":
                u = person(n)
                n += 1
                r = await app.command(u, channel, f"/join t{tid}")
                seated.append(u)
            else:
                r = await app.command(host, channel, f"/addbot {level} t{tid}")
            assert r and r[0].ok, r
        r = await app.command(host, channel, f"/start t{tid}")
        assert r and r[0].ok, r
        served.humans[tid] = seated
        served.channels[tid] = channel
        now = app.clock.now()
        sockets = [
            {"token": app.links.token("seat", u.id, u.name, "en", channel.id, tid, now)}
            for u in seated
        ]
        if kind == "bots":  # two watchers, so that four sockets see the bots' moves
            sockets += [
                {
                    "token": app.links.token(
                        "watch", f"bench:w{tid}-{k}", f"W{k}", "en", channel.id, tid, now
                    )
                }
                for k in range(2)
            ]
        out.append({"tid": tid, "kind": kind, "use": use, "sockets": sockets})
    for table in out:
        if table["kind"] == "browser":
            await until_playable(served, table["tid"])
    return out


async def until_playable(served: Served, tid: int, timeout: float = 30.0) -> None:
    """Play the person's auction (taking) until it is their turn to play a card."""
    app = served.app
    [u] = served.humans[tid]
    channel = served.channels[tid]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = app.table_view(u, tid)
        if v is not None and v.phase == "play" and v.legal_cards and v.to_move == v.my_seat:
            return
        if v is not None and v.choices and v.to_move == v.my_seat:
            choice = pick([{"action": c.action, "command": c.command} for c in v.choices])
            await app.command(u, channel, choice["command"])
        await asyncio.sleep(0.02)
    raise RuntimeError(f"table t{tid} never came to its person's card")


async def serve(spec: dict[str, Any]) -> None:
    """The bot process: build, open the tables, then answer the parent's commands."""
    import tracemalloc

    more_files()
    quiet_logs()
    reader = await stdin_lines()
    db_dir = Path(tempfile.mkdtemp(prefix="belote-webbench-"))
    served = await build_app(spec, db_dir)
    time_moves(served)
    tables = await open_tables(served, spec)
    gc.collect()
    say({"port": served.web.port, "tables": tables, "rss": rss_bytes()})
    hub = served.web.hub
    cpu0, t0, traced0 = cpu_seconds(), time.monotonic(), 0
    handling0, wait0 = 0, cpu_wait_seconds()
    lags: list[float] = []
    lagging = asyncio.create_task(loop_lags(lags))
    profiler: Any = None
    while True:
        c = await next_command(reader)
        cmd = c["cmd"]
        if cmd == "window":  # the measured window starts
            served.bot_moves.clear()
            served.person_moves = 0
            handling0 = len(served.app.stats.latencies)
            cpu0, t0, wait0 = cpu_seconds(), time.monotonic(), cpu_wait_seconds()
            lags.clear()
            if spec.get("profile"):
                import cProfile

                profiler = cProfile.Profile()
                profiler.enable()
            say({"ok": True})
        elif cmd == "report":
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(spec["profile"])
                profiler = None
            lat = list(served.app.stats.latencies)[handling0:]
            say(
                {
                    "bot_moves": served.bot_moves,
                    "person_moves": served.person_moves,
                    "handling_ms": [x * 1000 for x in lat],
                    "cpu": cpu_seconds() - cpu0,
                    "cpu_wait": cpu_wait_seconds() - wait0,
                    "lags_ms": [x * 1000 for x in lags],
                    "elapsed": time.monotonic() - t0,
                    "sockets": hub.sockets(),
                    "rss": rss_bytes(),
                }
            )
        elif cmd == "rss":
            gc.collect()
            say({"rss": rss_bytes(), "sockets": hub.sockets()})
        elif cmd == "trace":
            gc.collect()
            tracemalloc.start()
            traced0 = tracemalloc.get_traced_memory()[0]
            say({"ok": True})
        elif cmd == "traced":
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] - traced0
            tracemalloc.stop()
            say({"traced": traced, "sockets": hub.sockets()})
        elif cmd == "tokens":  # more seat links for the tables of four people
            now = served.app.clock.now()
            links, people = [], [t for t in tables if t["kind"] == "people"]
            for k in range(c["n"]):
                tid = people[k % len(people)]["tid"]
                u = served.humans[tid][(k // len(people)) % 4]
                ch = served.channels[tid].id
                links.append(served.app.links.token("seat", u.id, u.name, "en", ch, tid, now))
            say({"tokens": links})
        elif cmd == "link":  # a new seat link for a browser table's person
            tid = c["tid"]
            [u] = served.humans[tid]
            token = served.app.links.token(
                "seat", u.id, u.name, "en", served.channels[tid].id, tid, served.app.clock.now()
            )
            say({"url": f"http://127.0.0.1:{served.web.port}/table/#k={token}"})
        elif cmd == "stop":
            break
    lagging.cancel()
    await served.web.stop()
    if served.adapter is not None:
        await served.adapter.stop()
    else:
        await served.app.stop()
    say({"bye": True})


# --- the fake Telegram's process ------------------------------------------------------------


async def fake_telegram(spec: dict[str, Any]) -> None:
    """The fake Bot API server with a group a table and every person's private chat open."""
    from tests.fakes.telegram import FakeTelegram

    more_files()
    quiet_logs()
    reader = await stdin_lines()
    fake = FakeTelegram()
    await fake.start()
    groups = [fake.add_group(f"bench {i}").id for i in range(spec["groups"])]
    users = []
    for i in range(spec["users"]):
        u = fake.add_user(f"P{i}")
        u.started_bot = True  # they opened the private chat: their hands can be sent
        fake.private_chat(u)
        users.append((u.id, u.first_name))
    say({"api_url": fake.api_url, "token": fake.token, "groups": groups, "users": users})
    calls0, cpu0 = 0, cpu_seconds()
    while True:
        c = await next_command(reader)
        if c["cmd"] == "window":
            calls0, cpu0 = len(fake.calls), cpu_seconds()
            say({"ok": True})
        elif c["cmd"] == "report":
            by: dict[str, int] = {}
            for call in fake.calls[calls0:]:
                by[call.method] = by.get(call.method, 0) + 1
            say({"calls": len(fake.calls) - calls0, "by": by, "cpu": cpu_seconds() - cpu0})
        elif c["cmd"] == "stop":
            break
    await fake.stop()
    say({"bye": True})


# --- the clients' process -------------------------------------------------------------------


def pick(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """The first legal choice; in the auction the first that is not a pass (everyone
    passing redeals for ever, and the cards would never be played)."""
    return next((c for c in choices if c["action"] != "pass"), choices[0])


@dataclass
class TableClients:
    tid: int
    kind: str
    socks: list[Sock] = field(default_factory=list)
    #: actions in flight: the view seq each was chosen on -> (sent at, arrivals by socket)
    pending: dict[int, tuple[float, dict[int, float]]] = field(default_factory=dict)


@dataclass
class Sock:
    index: int
    table: TableClients
    token: str
    ws: Any = None
    seq: int = 0  # the page's own action numbers
    acted_on: int = -1  # the view seq last acted on
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (view seq, when)
    last_view: dict[str, Any] | None = None
    got_view: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None


class Clients:
    """Browserless pages: sign in, keep every view's arrival, play when it is their turn."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.url = f"http://127.0.0.1:{spec['port']}/table/ws"
        self.pace = tuple(spec.get("pace", (0.5, 1.5)))
        self.rng = random.Random(7)
        self.tables = [TableClients(t["tid"], t["kind"]) for t in spec["tables"]]
        for t, spec_t in zip(self.tables, spec["tables"], strict=True):
            t.socks = [Sock(i, t, s["token"]) for i, s in enumerate(spec_t["sockets"])]
        self.playing = False
        self.latencies: list[float] = []
        self.acts = 0
        self.refused = 0
        self.views = 0
        self.failed: list[str] = []
        self.http: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def open(self, socks: list[Sock], at_once: int = 50) -> float:
        """Connect and sign in every socket (``at_once`` handshakes at a time); the time
        until each has its first view."""
        import aiohttp

        if self.http is None:
            self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        gate = asyncio.Semaphore(at_once)
        t0 = time.monotonic()

        async def one(s: Sock) -> None:
            async with gate:
                try:
                    s.ws = await self.http.ws_connect(self.url, max_msg_size=2**22)
                    await s.ws.send_json({"type": "hello", "token": s.token})
                    s.reader = asyncio.create_task(self.read(s))
                    await asyncio.wait_for(s.got_view.wait(), 60)
                except Exception as exc:
                    self.failed.append(f"{type(exc).__name__}: {exc}")

        await asyncio.gather(*(one(s) for s in socks))
        return time.monotonic() - t0

    async def read(self, s: Sock) -> None:
        import aiohttp

        async for msg in s.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            frame = json.loads(msg.data)
            kind = frame.get("type")
            if kind == "view":
                self.on_view(s, frame["view"], now)
            elif kind == "ack" and not frame.get("ok"):
                self.refused += 1
            elif kind == "bye":
                self.failed.append(f"bye: {frame.get('text')}")

    def on_view(self, s: Sock, v: dict[str, Any], now: float) -> None:
        seq = v["seq"]
        s.arrivals.append((seq, now))
        s.last_view = v
        s.got_view.set()
        self.views += 1
        t = s.table
        for at, (sent, seen) in list(t.pending.items()):
            if seq > at and s.index not in seen:
                seen[s.index] = now
                if len(seen) == len(t.socks):
                    self.latencies.append(max(seen.values()) - sent)
                    del t.pending[at]
        self.maybe_act(s, v)

    def maybe_act(self, s: Sock, v: dict[str, Any]) -> None:
        """A seat whose view shows its turn plays, once a view, after a person's pause."""
        seq = v["seq"]
        if (
            self.playing
            and v.get("choices")
            and v.get("my_seat") is not None
            and v.get("to_move") == v["my_seat"]
            and seq > s.acted_on
        ):
            s.acted_on = seq
            choice = pick(v["choices"])
            task = asyncio.create_task(self.act(s, choice["action"], seq))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def act(self, s: Sock, action: str, at: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.pace))
        if not self.playing:
            return
        s.seq += 1
        s.table.pending[at] = (time.monotonic(), {})
        self.acts += 1
        with contextlib.suppress(Exception):
            await s.ws.send_json({"type": "act", "seq": s.seq, "action": action, "at": at})

    def start_playing(self) -> None:
        """Go: every seat plays from now on, those already at their turn at once."""
        self.playing = True
        for t in self.tables:
            for s in t.socks:
                if s.last_view is not None:
                    self.maybe_act(s, s.last_view)

    async def close(self) -> None:
        self.playing = False
        for t in self.tables:
            for s in t.socks:
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await s.ws.close()
                if s.reader is not None:
                    s.reader.cancel()
        if self.http is not None:
            await self.http.close()


async def clients(spec: dict[str, Any]) -> None:
    more_files()
    quiet_logs()
    reader = await stdin_lines()
    c = Clients(spec)
    socks = [s for t in c.tables for s in t.socks]
    took = await c.open(socks)
    say({"connected": len(socks) - len(c.failed), "failed": c.failed[:5], "took": took})
    cpu0, wait0 = cpu_seconds(), cpu_wait_seconds()
    while True:
        cmd = await next_command(reader)
        kind = cmd["cmd"]
        if kind == "go":
            c.latencies.clear()
            c.acts = c.refused = c.views = 0
            cpu0, wait0 = cpu_seconds(), cpu_wait_seconds()
            c.start_playing()
            say({"ok": True})
        elif kind == "stop-playing":
            c.playing = False
            await asyncio.sleep(1.0)  # the views of the last moves come in
            arrivals = {t.tid: [s.arrivals for s in t.socks] for t in c.tables if t.kind == "bots"}
            say(
                {
                    "latencies_ms": [x * 1000 for x in c.latencies],
                    "acts": c.acts,
                    "refused": c.refused,
                    "views": c.views,
                    "unfinished": sum(len(t.pending) for t in c.tables),
                    "arrivals": arrivals,
                    "cpu": cpu_seconds() - cpu0,
                    "cpu_wait": cpu_wait_seconds() - wait0,
                    "failed": c.failed[:5],
                }
            )
        elif kind == "more":
            extra_table = TableClients(-1, "more")
            extra = [Sock(i, extra_table, tok) for i, tok in enumerate(cmd["tokens"])]
            extra_table.socks = extra
            took = await c.open(extra)
            c.tables.append(extra_table)
            say({"connected": sum(1 for s in extra if s.got_view.is_set()), "took": took})
        elif kind == "stop":
            break
    await c.close()
    say({"bye": True})


# --- the parent: the parts and their lines --------------------------------------------------


def held(ok: bool) -> str:
    return "held" if ok else "NOT held"


def bot_latencies(
    moves: list[tuple[int, int, float]], arrivals: dict[str, list[list[list[float]]]]
) -> list[float]:
    """Each bot's move (table, the seq its view has, when its commit began) to the first
    view at or after that seq arrived at every socket of the table, in ms."""
    out = []
    for tid, seq, start in moves:
        socks = arrivals.get(str(tid))
        if not socks:
            continue
        last = []
        for seen in socks:
            when = next((t for s, t in seen if s >= seq and t >= start), None)
            if when is None:
                break
            last.append(when)
        else:
            out.append((max(last) - start) * 1000)
    return out


def spread(ms: list[float]) -> str:
    return f"p50 {pct(ms, 50):.1f} ms, p99 {pct(ms, 99):.1f} ms, max {max(ms or [0]):.1f} ms"


def latency_part(args: argparse.Namespace, logs: Path, chat: bool) -> None:
    """Part 1: the tables played from sockets, without a chat platform or with Telegram's."""
    people, bots = args.tables, args.bot_tables
    fake = None
    spec: dict[str, Any] = {"people_tables": people, "bot_tables": bots, "level": args.level}
    if args.profile:  # a cProfile of the bot's window, a file a variant
        spec["profile"] = f"{args.profile}.{'chat' if chat else 'web'}"
    children: list[Child] = []
    try:
        if chat:
            world = {"groups": people + bots, "users": 4 * people + 2 * bots}
            fake = Child("telegram", world, logs)
            children.append(fake)
            spec["telegram"] = fake.recv() | {
                "own_file": args.telegram_file == "own",
                "limits": args.telegram_limits,
            }
        t0 = time.monotonic()
        server = Child("server", spec, logs)
        children.append(server)
        ready = server.recv()
        opened = time.monotonic() - t0
        client = Child(
            "clients", {"port": ready["port"], "tables": ready["tables"], "pace": args.pace}, logs
        )
        children.append(client)
        hello = client.recv()
        if hello["failed"]:
            print(f"  sockets that failed to sign in: {hello['failed']}")
        server.ask({"cmd": "window"})
        if fake is not None:
            fake.ask({"cmd": "window"})
        client.ask({"cmd": "go"})
        time.sleep(args.seconds)
        got = client.ask({"cmd": "stop-playing"})
        rep = server.ask({"cmd": "report"})
        tg = fake.ask({"cmd": "report"}) if fake is not None else None
    finally:
        for c in reversed(children):
            c.close()
    where = (
        f"with the Telegram adapter delivering ({args.telegram_limits} rate limits)"
        if chat
        else "no chat platform"
    )
    ms = got["latencies_ms"]
    bot_ms = bot_latencies(rep["bot_moves"], got["arrivals"])
    sockets = hello["connected"]
    print(
        f"- {where}: {people} tables of four people + {bots} of two people and two "
        f"{args.level} bots (and two watchers), {sockets} sockets signed in "
        f"(tables opened in {opened:.1f} s, sockets in {hello['took']:.1f} s); "
        f"{args.seconds:g} s, a person's move {args.pace[0]:g}-{args.pace[1]:g} s after "
        f"their turn shows"
    )
    p99 = pct(ms, 99)
    print(
        f"  people's moves, action frame to the new view at all four sockets: {spread(ms)} "
        f"({len(ms)} moves, {got['refused']} refused, {got['unfinished']} unseen at the end)"
        f" [goal p99 < {GOAL_P99_MS:g} ms: {held(p99 < GOAL_P99_MS)}]"
    )
    bp99 = pct(bot_ms, 99)
    print(
        f"  bots' moves, the core's commit begun to the new view at all four sockets: "
        f"{spread(bot_ms)} ({len(bot_ms)} moves)"
        f" [goal p99 < {GOAL_P99_MS:g} ms: {held(bp99 < GOAL_P99_MS)}]"
    )
    hand = rep["handling_ms"]
    el = rep["elapsed"]
    print(
        f"  in the bot: {len(hand) / el:.0f} moves/s, handling a move (commit + apply + "
        f"posts) {spread(hand)}; {got['views'] / el:.0f} views/s sent"
    )
    line = (
        f"  CPU in the window: bot {rep['cpu']:.1f} s ({rep['cpu'] / el:.0%} of a core), "
        f"clients {got['cpu']:.1f} s (and {got['cpu_wait']:.1f} s waiting for a CPU)"
    )
    if tg is not None:
        top = ", ".join(f"{k} {v}" for k, v in sorted(tg["by"].items(), key=lambda kv: -kv[1])[:3])
        line += f", fake Telegram {tg['cpu']:.1f} s ({tg['calls']} Bot API calls: {top})"
    print(line + f"; bot RSS {rep['rss'] / 2**20:.0f} MiB")
    moves = max(1, len(hand))
    print(
        f"  the bot's CPU a move (with its views{' and chat posts' if chat else ''}): "
        f"{rep['cpu'] / moves * 1000:.2f} ms; its threads waited {rep['cpu_wait']:.1f} s for a "
        f"CPU (runnable, not running: the machine's crowd); its event loop woke a 50 ms sleep "
        f"late by {spread(rep['lags_ms'])}"
    )


def sockets_part(args: argparse.Namespace, logs: Path) -> None:
    """Part 2: the memory a signed-in socket costs the bot."""
    tables = max(1, -(-args.sockets // 4))
    children: list[Child] = []
    try:
        server = Child("server", {"people_tables": tables, "hold": True}, logs)
        children.append(server)
        ready = server.recv()
        before = server.ask({"cmd": "rss"})["rss"]
        client = Child("clients", {"port": ready["port"], "tables": ready["tables"]}, logs)
        children.append(client)
        hello = client.recv()
        after = server.ask({"cmd": "rss"})
        traced = None
        if args.traced:
            server.ask({"cmd": "trace"})
            tokens = server.ask({"cmd": "tokens", "n": args.traced})["tokens"]
            more = client.ask({"cmd": "more", "tokens": tokens})
            t = server.ask({"cmd": "traced"})
            traced = (t["traced"], more["connected"])
    finally:
        for c in reversed(children):
            c.close()
    n = after["sockets"]
    per = (after["rss"] - before) / max(1, n) / 1024
    print(
        f"- {n} sockets signed in at {tables} tables of four, each with its view "
        f"(signed in in {hello['took']:.1f} s): the bot's RSS {before / 2**20:.1f} -> "
        f"{after['rss'] / 2**20:.1f} MiB = {per:.1f} KiB a socket"
        f" [goal < {GOAL_SOCKET_KIB:g} KiB: {held(per < GOAL_SOCKET_KIB)}]"
    )
    if traced is not None:
        size, count = traced
        print(
            f"  tracemalloc, {count} sockets more: {size / max(1, count) / 1024:.1f} KiB of "
            f"Python objects a socket (the session, its last view's frame, aiohttp's "
            f"response and buffers)"
        )


def page_files(folder: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]], list[str]]:
    """(the page's own files, the vendored ones, files a browser does not load)."""
    own, vendored, other = [], [], []
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = f.relative_to(folder).as_posix()
        if f.suffix.lower() not in LOADED:
            other.append(rel)
        elif rel.startswith("vendor/"):
            vendored.append((rel, f.stat().st_size))
        else:
            own.append((rel, f.stat().st_size))
    return own, vendored, other


def page_part(folder: Path = PAGE_DIR) -> None:
    """Part 3: what the page weighs before compression."""
    if not folder.is_dir():
        print(f"- no page: {folder.relative_to(ROOT)}/ does not exist yet (not measured)")
        return
    own, vendored, other = page_files(folder)
    total = sum(s for _, s in own) + sum(s for _, s in vendored)
    kb = total / 1000
    print(
        f"- {len(own) + len(vendored)} files, {kb:.1f} KB before compression"
        f" [goal < {GOAL_PAGE_KB:g} KB: {held(kb < GOAL_PAGE_KB)}]"
    )
    biggest = ", ".join(f"{n} {s / 1000:.1f}" for n, s in sorted(own, key=lambda x: -x[1])[:6])
    print(f"  the page's own: {sum(s for _, s in own) / 1000:.1f} KB ({biggest or 'none'})")
    if vendored:
        listing = ", ".join(f"{n} {s / 1000:.1f} KB" for n, s in vendored)
        print(f"  vendored: {sum(s for _, s in vendored) / 1000:.1f} KB ({listing})")
    else:
        print("  vendored: none")
    if other:
        print(f"  not loaded by the page, not weighed: {', '.join(other)}")


#: the page (web/table/table.js) lights a card it may play with the class ``legal``
PLAYABLE = """() => !!document.querySelector("#hand .card.legal")"""


def chromium() -> str | None:
    import shutil

    for name in (os.environ.get("BELOTE_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def browser_part(args: argparse.Namespace, logs: Path) -> None:
    """Part 4: from opening a seat's link to a hand with lit cards, in headless Chromium."""
    exe = chromium()
    if exe is None:
        print("- Chromium is not installed (apt-get install chromium): not measured")
        return
    if not (PAGE_DIR / "index.html").is_file():
        print("- no page: web/table/index.html does not exist yet (not measured)")
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("- Playwright is not installed (pip install -e '.[dev]'): not measured")
        return
    server = Child("server", {"browser_tables": 1, "level": args.level}, logs)
    times: list[float] = []
    loaded: list[tuple[int, int]] = []
    failed = ""
    try:
        ready = server.recv()
        tid = ready["tables"][0]["tid"]
        flags = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
        ]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=flags)
            version = browser.version
            for _ in range(args.runs):
                url = server.ask({"cmd": "link", "tid": tid})["url"]
                context = browser.new_context(viewport={"width": 360, "height": 640})
                page = context.new_page()
                responses: list[Any] = []
                page.on("response", lambda r, got=responses: got.append(r))
                start = time.perf_counter()
                try:
                    page.goto(url)
                    page.wait_for_function(PLAYABLE, timeout=15_000)
                except Exception as exc:
                    failed = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                    context.close()
                    break
                times.append(time.perf_counter() - start)
                size = 0
                for r in responses:
                    with contextlib.suppress(Exception):
                        size += len(r.body())
                loaded.append((len(responses), size))
                context.close()
            browser.close()
    finally:
        server.close()
    if not times:
        print(f"- Chromium {version}: no playable hand came ({failed})")
        return
    med = statistics.median(times)
    reqs, size = loaded[0]
    print(
        f"- Chromium {version}, headless, 360x640, a fresh context a run: opening a seat's "
        f"link to a hand with lit cards median {med * 1000:.0f} ms, best "
        f"{min(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms ({len(times)} runs; "
        f"{reqs} requests, {size / 1000:.1f} KB loaded) [goal < {GOAL_OPEN_S:g} s: "
        f"{held(med < GOAL_OPEN_S)}]" + (f"; then {failed}" if failed else "")
    )


def machine() -> str:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = os.getloadavg()
    return (
        f"{os.cpu_count()} cores ({model or platform.machine()}), Python "
        f"{platform.python_version()}, load average {load[0]:.1f} / {load[1]:.1f} / "
        f"{load[2]:.1f} at the start"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=100, help="tables of four people")
    p.add_argument("--bot-tables", type=int, default=20, help="tables of two people, two bots")
    p.add_argument("--level", default="normal", help="the bots' level")
    p.add_argument("--seconds", type=float, default=20.0, help="the measured window of part 1")
    p.add_argument(
        "--pace",
        type=float,
        nargs=2,
        default=(0.5, 1.5),
        metavar=("LOW", "HIGH"),
        help="a person's pause before a move, seconds (uniform between)",
    )
    p.add_argument(
        "--telegram-file",
        default="shared",
        choices=("shared", "own"),
        help="the Telegram adapter's memory in the bot's SQLite file (as run) or a file apart",
    )
    p.add_argument(
        "--telegram-limits",
        default="telegram",
        choices=("telegram", "loose"),
        help="the adapter's rate limits: Telegram's (the default) or none to speak of",
    )
    p.add_argument(
        "--profile",
        default=None,
        metavar="FILE",
        help="write a cProfile of the bot's window in part 1 to FILE.web and FILE.chat",
    )
    p.add_argument("--sockets", type=int, default=1000, help="open sockets of part 2")
    p.add_argument("--traced", type=int, default=100, help="sockets more under tracemalloc")
    p.add_argument("--runs", type=int, default=5, help="Chromium runs")
    p.add_argument("--skip", default="", help=f"parts to leave out, by name: {', '.join(PARTS)}")
    p.add_argument("--role", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.role is not None:
        spec = json.loads(sys.stdin.readline())
        role = {"server": serve, "clients": clients, "telegram": fake_telegram}[args.role]
        asyncio.run(role(spec))
        return
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - set(PARTS):
        p.error(f"--skip: parts are {', '.join(PARTS)}")
    print(f"machine: {machine()}")
    print(
        "processes: the bot (core + web listener), the socket clients and the fake Telegram "
        "each in a process of their own"
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="belote-webbench-logs-") as tmp:
        logs = Path(tmp)
        if "people" in skip and "chat" in skip:
            pass
        else:
            print("1. live tables played from sockets")
            if "people" not in skip:
                latency_part(args, logs, chat=False)
            if "chat" not in skip:
                latency_part(args, logs, chat=True)
        if "sockets" not in skip:
            print("2. open sockets in one bot process")
            sockets_part(args, logs)
        if "page" not in skip:
            print("3. the page's weight (web/table/)")
            page_part()
        if "browser" not in skip:
            print("4. headless Chromium: a seat's link to a playable hand")
            browser_part(args, logs)
    print(f"the whole run: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
