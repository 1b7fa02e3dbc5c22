"""bot.play.pacing: so many bot moves at once, the longest due first, none after a stop."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.pacing import Closed, TakeTurns


async def test_no_more_than_the_places_run_at_once() -> None:
    turns = TakeTurns(2)
    running, most = 0, 0

    async def move() -> None:
        nonlocal running, most
        async with turns.turn(0.0):
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.001)
            running -= 1

    await asyncio.gather(*(move() for _ in range(10)))
    assert most == 2
    assert turns.waiting == 0


async def test_the_longest_due_goes_first() -> None:
    turns = TakeTurns(1)
    order: list[float] = []
    gate = asyncio.Event()

    async def hold() -> None:
        async with turns.turn(0.0):
            await gate.wait()

    async def move(due: float) -> None:
        async with turns.turn(due):
            order.append(due)

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(move(d)) for d in (5.0, 1.0, 3.0, 2.0)]
    await asyncio.sleep(0)
    assert turns.waiting == 4
    gate.set()
    await asyncio.gather(holder, *waiting)
    assert order == [1.0, 2.0, 3.0, 5.0]


async def test_a_waiter_cancelled_gives_its_place_on() -> None:
    turns = TakeTurns(1)
    gate = asyncio.Event()
    done: list[str] = []

    async def hold() -> None:
        async with turns.turn(0.0):
            await gate.wait()

    async def move(name: str, due: float) -> None:
        async with turns.turn(due):
            done.append(name)

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    first = asyncio.create_task(move("first", 1.0))
    second = asyncio.create_task(move("second", 2.0))
    await asyncio.sleep(0)
    gate.set()
    await asyncio.sleep(0)  # the holder leaves: "first" is handed the place...
    first.cancel()  # ...and cancelled before it runs
    await asyncio.gather(holder, second)
    with pytest.raises(asyncio.CancelledError):
        await first
    assert done == ["second"]
    async with turns.turn(0.0):  # the place came back
        pass


async def test_after_close_nobody_waiting_moves_and_nobody_new_enters() -> None:
    turns = TakeTurns(1)
    gate = asyncio.Event()
    moved: list[str] = []

    async def hold() -> None:
        async with turns.turn(0.0):
            await gate.wait()
            moved.append("holder")

    async def move() -> None:
        async with turns.turn(1.0):
            moved.append("waiter")

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(move())
    await asyncio.sleep(0)
    turns.close()
    gate.set()
    await holder  # a move under way finishes
    with pytest.raises(Closed):
        await waiter
    with pytest.raises(Closed):
        async with turns.turn(0.0):
            moved.append("late")
    assert moved == ["holder"]


def test_at_least_one_place() -> None:
    with pytest.raises(ValueError):
        TakeTurns(0)


async def test_narrowed_lets_fewer_run_until_it_ends_and_lingers() -> None:
    turns = TakeTurns(4, while_busy=1)
    running, most = 0, 0

    async def move() -> None:
        nonlocal running, most
        async with turns.turn(0.0):
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.001)
            running -= 1

    with turns.narrowed(linger=0.05):
        await asyncio.gather(*(move() for _ in range(6)))
    assert most == 1
    await asyncio.gather(*(move() for _ in range(6)))  # still within the linger
    assert most == 1
    await asyncio.sleep(0.06)
    await asyncio.gather(*(move() for _ in range(6)))
    assert most == 4


async def test_the_urgent_go_first_and_are_not_held_back_while_narrowed() -> None:
    turns = TakeTurns(3, while_busy=1)
    order: list[str] = []
    gate = asyncio.Event()
    running, most_urgent = 0, 0

    async def hold() -> None:
        async with turns.turn(0.0):
            await gate.wait()

    async def move(name: str, due: float, urgent: bool) -> None:
        nonlocal running, most_urgent
        async with turns.turn(due, urgent):
            order.append(name)
            if urgent:
                running += 1
                most_urgent = max(most_urgent, running)
            await asyncio.sleep(0.001)
            if urgent:
                running -= 1

    with turns.narrowed():
        holder = asyncio.create_task(hold())
        await asyncio.sleep(0)
        moves = [
            asyncio.create_task(move("plain", 1.0, False)),
            asyncio.create_task(move("taken1", 5.0, True)),
            asyncio.create_task(move("taken2", 6.0, True)),
        ]
        await asyncio.sleep(0.01)
        assert order == ["taken1", "taken2"]  # beside the holder, past the narrowing
        assert most_urgent == 2
        gate.set()
        await asyncio.gather(holder, *moves)
    assert order == ["taken1", "taken2", "plain"]


async def test_fewer_at_once_while_crowded() -> None:
    turns = TakeTurns(6, when_crowded=2)
    running, most = 0, 0

    async def move() -> None:
        nonlocal running, most
        async with turns.turn(0.0):
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.001)
            running -= 1

    turns.crowded = True
    await asyncio.gather(*(move() for _ in range(10)))
    assert most == 2
    turns.crowded = False
    await asyncio.gather(*(move() for _ in range(10)))
    assert most == 6
