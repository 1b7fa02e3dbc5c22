"""How a bot (or the AI standing in for an away player) picks its action.

One function, :func:`think`, so the AI can be swapped without touching the table logic.
It must be deterministic given ``seed``: a match resumed after a crash asks again with the
same seed and must get the same answer (the AI is called without a time budget for that
reason). The searching levels think in a pool of processes, one per core, so an expert's
second of search uses every core and never holds the event loop (Python code holds the
GIL: in a thread it would); the table is not held while they do, so other tables keep
moving and this table's players are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from bot.ops import metrics
from engine import Action

log = logging.getLogger(__name__)

SEARCHING_LEVELS = frozenset({"hard", "expert"})


def fallback_choice(legal: list[Action] | tuple[Action, ...], seed: int) -> Action:
    """A random legal action from ``seed`` (melds declared, belote announced when possible)."""
    rng = random.Random(seed)
    best: dict[Any, Action] = {}
    for a in legal:  # prefer the flagged variant of the same card: it never costs points
        key = (a.kind, a.contract, a.card)
        cur = best.get(key)
        if cur is None or (a.melds, a.belote) > (cur.melds, cur.belote):
            best[key] = a
    options = sorted(best.values(), key=lambda a: a.text)
    return rng.choice(options)


def choose(view: Any, level: str, seed: int) -> Action:
    """The action a bot of ``level`` takes from ``view`` (a SeatView with ``legal``)."""
    legal = tuple(view.legal)
    if not legal:
        raise ValueError("no legal action for this seat")
    try:
        from engine.ai import choose_action
    except ImportError:  # the AI package is optional
        return fallback_choice(legal, seed)
    try:
        action = choose_action(view, level, seed)
        if action in legal:
            return action
        log.warning("AI chose an illegal action; using the fallback")
    except Exception:
        log.exception("AI failed; using the fallback")
    return fallback_choice(legal, seed)


def choose_on(threads: int, view: Any, level: str, seed: int) -> Action:
    """In a thinking process: :func:`choose`, its worlds solved on ``threads`` threads."""
    use_search_threads(threads)
    return choose(view, level, seed)


#: The settings' ``thinkers`` (bot.ops.settings), set by ``belote run`` before any bot thinks.
CONFIGURED: int | None = None


def thinkers() -> int:
    """How many processes think for the searching levels: one per core this process may
    use, unless the settings' ``BELOTE_THINKERS`` says otherwise (0: think in a thread of
    this process)."""
    if CONFIGURED is not None:
        return CONFIGURED
    configured = os.environ.get("BELOTE_THINKERS", "").strip()
    if configured.isdigit():
        return int(configured)
    return len(os.sched_getaffinity(0))


#: The settings' ``search_threads`` (bot.ops.settings), set by ``belote run`` like ``CONFIGURED``.
CONFIGURED_THREADS: int | None = None


def search_threads() -> int:
    """How many threads one expert decision may solve its worlds on, at most, in a
    thinking process: the settings' ``BELOTE_SEARCH_THREADS``, else two where this
    process may use two cores or more (``_Pool.threads_for_next`` gives fewer while the
    other workers think).  The action does not depend on it; a quiet server answers in about
    half the time, and a busy one does the same work."""
    if CONFIGURED_THREADS is not None:
        return CONFIGURED_THREADS
    configured = os.environ.get("BELOTE_SEARCH_THREADS", "").strip()
    if configured.isdigit() and 1 <= int(configured) <= 8:
        return int(configured)
    return min(2, len(os.sched_getaffinity(0)))


def use_search_threads(threads: int) -> None:
    """Let the searches of this process use ``threads`` threads (a no-op without the AI)."""
    try:
        from engine.ai.world_search import set_search_threads
    except ImportError:  # the AI package is optional
        return
    set_search_threads(threads)


class _Pool:
    """The process pool of the searching levels, started on first use.

    A worker is forked from a fork server that imported the AI once, so starting one is
    cheap, and nothing of the event loop's threads (aiosqlite, pictures) is forked along.
    """

    def __init__(self) -> None:
        self.executor: ProcessPoolExecutor | None = None
        self._lifeline: Connection | None = None  # its end closes when this process ends
        self.workers = 0
        self.decisions = 0  # decisions answered by the pool (a test and the bench read it)
        self.in_flight = 0  # decisions sent and not yet answered
        self.threads_here = False  # this process's searches were given their threads

    def threads_for_next(self) -> int:
        """The threads the next decision may solve on: ``search_threads()`` when the
        other workers are idle, fewer when they are busy.

        A second thread halves an expert's answer on a quiet machine for about the same
        CPU; when the other workers are thinking too, it only contends with them for the
        cores (measured with ``bench/load.py --level expert``: 9% more CPU a decision
        with two threads every time, on 2 cores).  The action does not depend on it.
        """
        idle = max(1, self.workers - self.in_flight)
        return min(search_threads(), idle)

    def get(self) -> ProcessPoolExecutor | None:
        if self.executor is None:
            workers = thinkers()
            if workers <= 0:
                return None
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["bot.play.thinking"])
            lifeline, self._lifeline = ctx.Pipe(duplex=False)
            self.workers = workers
            self.executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=ctx,
                initializer=_start_worker,
                initargs=(lifeline, search_threads()),
            )
        return self.executor

    async def warm(self) -> None:
        """Start every worker now rather than on the first decisions (the bench)."""
        executor = self.get()
        if executor is None:
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(executor, time.sleep, 0.2) for _ in range(self.workers))
        )

    def pids(self) -> list[int]:
        """The workers' process ids (the bench adds up their CPU time)."""
        processes = getattr(self.executor, "_processes", None) or {}
        return list(processes)

    def drop(self) -> None:
        """Forget a broken pool (a worker died); the next decision starts a new one."""
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        self._cut_lifeline()

    async def shutdown(self) -> None:
        executor, self.executor = self.executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
        self._cut_lifeline()

    def _cut_lifeline(self) -> None:
        lifeline, self._lifeline = self._lifeline, None
        if lifeline is not None:
            lifeline.close()


pool = _Pool()


def _start_worker(lifeline: Connection, threads: int) -> None:
    """In a worker: search on ``threads`` threads, and exit as soon as the bot process
    ends, even killed by SIGKILL.

    The bot holds the only writing end of ``lifeline``; when it dies the kernel closes it
    and the read below ends. (The worker's parent is the fork server, which itself waits
    for its children, so watching the parent would never notice.)
    """

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv()
        os._exit(0)

    use_search_threads(threads)
    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


@metrics.timed_think
async def think(view: Any, level: str, seed: int) -> Action:
    """:func:`choose`, where it costs the event loop nothing: easy and normal decide here
    (a few microseconds, less than a trip to another process), hard and expert in the
    process pool (the same function of the same view and seed, so the same action).

    This is the one place a bot thinks; the app times it around the call.
    """
    if level not in SEARCHING_LEVELS:
        return choose(view, level, seed)
    for _attempt in range(2):
        executor = pool.get()
        if executor is None:
            break
        loop = asyncio.get_running_loop()
        threads = pool.threads_for_next()
        pool.in_flight += 1
        try:
            action = await loop.run_in_executor(executor, choose_on, threads, view, level, seed)
        except BrokenProcessPool:
            log.warning("a thinking process died; starting a new pool")
            pool.drop()
            continue
        finally:
            pool.in_flight -= 1
        pool.decisions += 1
        return action
    if not pool.threads_here:  # thinking in a thread of this process: its searches too
        use_search_threads(search_threads())
        pool.threads_here = True
    return await asyncio.to_thread(choose, view, level, seed)
