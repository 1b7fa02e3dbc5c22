"""The searching bots think in a pool of processes and decide exactly as they would here.

A resumed match asks the same question with the same seed and must get the same answer,
wherever the question is answered: the pool runs the same pure function of (view, level,
seed) in another process, so a hard or expert bot plays the same card through the pool
as in this process, on auctions and tricks of every ruleset.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest

from bot.play import thinking
from engine import Match
from tests.ai.helpers import decks, play_until


def views(ruleset: str, count: int, seed: int):
    """Seat views at varied points of a match: auctions, first tricks, last tricks."""
    rng = random.Random(f"{ruleset}|{seed}")
    out = []
    for n in range(count):
        stop_at = rng.choice((0, 2, 5, 12, 20, 27, 30))
        m = play_until(
            Match(ruleset, decks=decks(seed * 100 + n)),
            ("normal",) * 4,
            seed,
            stop=lambda mm, k=stop_at: len(mm.deals[-1].actions) >= k,
        )
        if m.to_move is not None:
            out.append(m.view(m.to_move))
    return out


@pytest.fixture
async def pool():
    yield thinking.pool
    await thinking.pool.shutdown()


async def decide_in_pool(views_, level: str, seed: int) -> list:
    return await asyncio.gather(*(thinking.think(v, level, seed + i) for i, v in enumerate(views_)))


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
async def test_hard_decides_the_same_in_the_pool_as_here(pool, ruleset: str) -> None:
    vs = views(ruleset, 14, seed=1)
    assert len(vs) >= 10
    before = pool.decisions
    pooled = await decide_in_pool(vs, "hard", 7)
    here = [thinking.choose(v, "hard", 7 + i) for i, v in enumerate(vs)]
    assert pooled == here
    assert pool.decisions - before == len(vs)  # answered by the pool, not in this process
    assert pool.pids() and os.getpid() not in pool.pids()


@pytest.mark.parametrize("ruleset", ["club", "bulgarian"])
async def test_expert_decides_the_same_in_the_pool_as_here(pool, ruleset: str) -> None:
    vs = views(ruleset, 5, seed=2)
    assert len(vs) >= 3
    pooled = await decide_in_pool(vs, "expert", 11)
    here = [thinking.choose(v, "expert", 11 + i) for i, v in enumerate(vs)]
    assert pooled == here


async def test_the_same_question_asked_twice_gets_the_same_answer(pool) -> None:
    """What a restart does: the position and the seed again, maybe another worker."""
    vs = views("classic", 6, seed=3)
    first = await decide_in_pool(vs, "hard", 5)
    again = await decide_in_pool(vs, "hard", 5)
    assert first == again


async def test_a_dead_worker_is_replaced_and_the_bot_still_answers(pool) -> None:
    v = views("club", 1, seed=4)[0]
    expected = thinking.choose(v, "hard", 3)
    assert await thinking.think(v, "hard", 3) == expected
    for pid in pool.pids():
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    assert await thinking.think(v, "hard", 3) == expected


async def test_cheap_levels_decide_in_this_process(pool) -> None:
    """Easy and normal take microseconds: a trip to another process would cost more."""
    vs = views("club", 4, seed=5)
    before = pool.decisions
    for level in ("easy", "normal"):
        assert [await thinking.think(v, level, 1) for v in vs] == [
            thinking.choose(v, level, 1) for v in vs
        ]
    assert pool.decisions == before


async def test_no_pool_when_told_to_think_in_threads(pool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_THINKERS", "0")
    await pool.shutdown()
    v = views("classic", 1, seed=6)[0]
    before = pool.decisions
    assert await thinking.think(v, "hard", 2) == thinking.choose(v, "hard", 2)
    assert pool.decisions == before and pool.executor is None


CHILD = """
import asyncio, os, sys
from bot.play import thinking
from tests.core.test_thinking_pool import views

async def main():
    await thinking.think(views("club", 1, seed=4)[0], "hard", 3)
    print(" ".join(map(str, thinking.pool.pids())), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_no_thinking_process_outlives_a_bot_killed_by_sigkill() -> None:
    """A bot process killed with SIGKILL leaves no worker behind: each worker reads a
    pipe only the bot holds, and exits when the kernel closes it."""
    import subprocess
    import sys
    import time

    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    try:
        line = child.stdout.readline()
        workers = [int(p) for p in line.split()]
        assert workers, "the child's pool answered"
        assert all(_alive(p) for p in workers)
    finally:
        child.kill()
        child.wait()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


async def test_a_thinking_process_searches_on_the_threads_asked(pool, monkeypatch) -> None:
    """BELOTE_SEARCH_THREADS reaches the workers: each one's searches were given that many
    threads when it started (``set_search_threads`` answers with the count before)."""
    from engine.ai.world_search import SEARCH_COMPILED, set_search_threads

    if not SEARCH_COMPILED:
        pytest.skip("the compiled core was not built")
    monkeypatch.setenv("BELOTE_SEARCH_THREADS", "3")
    executor = pool.get()
    assert executor is not None
    loop = asyncio.get_running_loop()
    before = await loop.run_in_executor(executor, set_search_threads, 3)
    assert before == 3


def test_a_decision_takes_a_second_thread_only_from_an_idle_worker(monkeypatch) -> None:
    """Two threads halve an expert's answer when the other workers are idle; when they
    think too, the second thread would only contend with them for the cores."""
    monkeypatch.setattr(thinking, "CONFIGURED_THREADS", None)
    monkeypatch.setenv("BELOTE_SEARCH_THREADS", "2")
    two_workers = thinking._Pool()
    two_workers.workers = 2
    assert two_workers.threads_for_next() == 2
    two_workers.in_flight = 1
    assert two_workers.threads_for_next() == 1
    two_workers.in_flight = 5
    assert two_workers.threads_for_next() == 1
    four_workers = thinking._Pool()
    four_workers.workers, four_workers.in_flight = 4, 1
    assert four_workers.threads_for_next() == 2


async def test_the_worker_solves_on_the_threads_its_decision_was_given(pool, monkeypatch) -> None:
    """One thinking process: every decision is its only one, and it is given one thread
    whatever BELOTE_SEARCH_THREADS allows (the other cores belong to other processes)."""
    from engine.ai.world_search import SEARCH_COMPILED, set_search_threads

    if not SEARCH_COMPILED:
        pytest.skip("the compiled core was not built")
    monkeypatch.setattr(thinking, "CONFIGURED", None)
    monkeypatch.setattr(thinking, "CONFIGURED_THREADS", None)
    monkeypatch.setenv("BELOTE_THINKERS", "1")
    monkeypatch.setenv("BELOTE_SEARCH_THREADS", "3")
    executor = pool.get()
    assert executor is not None
    loop = asyncio.get_running_loop()
    assert await loop.run_in_executor(executor, set_search_threads, 3) == 3  # as it started
    view = views("classic", 6, seed=3)[-1]
    await thinking.think(view, "hard", 1)
    assert pool.in_flight == 0
    assert await loop.run_in_executor(executor, set_search_threads, 3) == 1
