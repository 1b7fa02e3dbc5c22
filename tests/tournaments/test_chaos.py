"""Whole events under random seat misses, slow tables, withdrawals, organiser drops and
restarts: every event ends, never repeats a Swiss pairing, leaves no table or deadline."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ops.clock import FakeClock
from bot.tournaments.model import SEAT_SECONDS, Format, Numbers
from tests.tournaments.test_runner import FakeHost, Rig


async def _run(tmp: Path, fmt: Format, players: int, seed: int) -> None:
    rng = random.Random(seed)
    clock, host = FakeClock(), FakeHost()
    rig = Rig(tmp / f"chaos-{seed}-{fmt.value}-{players}.db", clock, host)
    await rig.boot()
    teams = players // 2
    numbers = Numbers(rounds=min(3, teams - 1 + teams % 2), best_of=rng.choice([1, 3]))
    t = await rig.svc.create("u1", "test:g/c", fmt, "Chaos", "club", numbers)
    for i in range(1, players + 1):
        await rig.svc.join(t.id, f"u{i}", f"P{i}")
    await rig.svc.start_event(t.id, "u1", False)
    tid = t.id
    for _step in range(200):
        t = rig.svc.get(tid)
        if t.status != "running":
            break
        roll = rng.random()
        if roll < 0.05:
            await rig.crash()
            clock.set(clock.now() + rng.choice([0, 30, SEAT_SECONDS + 1]))
            await rig.boot()
            continue
        if roll < 0.10:
            active = [u for u, p in t.players.items() if p.status == "in"]
            if active:
                who = rng.choice(active)
                if rng.random() < 0.5:
                    await rig.svc.withdraw(tid, who)
                else:
                    await rig.svc.drop(tid, "u1", False, who)
            continue
        live = host.live()
        for ref in live:
            req = host.opened[ref]
            for u in (*req.team_a, *req.team_b):
                if rng.random() < 0.97:
                    await rig.svc.on_seated(ref, u)
        if rng.random() < 0.15:
            await rig.scheduler.advance(numbers.round_minutes * 60)  # tables run out of time
            continue
        await rig.scheduler.advance(SEAT_SECONDS)
        for ref in host.live():
            host.ended.add(ref)
            await rig.svc.on_match_end(ref, rng.choice([0, 1, 1, 0, None]), 900, 800)
    t = rig.svc.get(tid)
    assert t.status == "over", "the event must end"
    ev = t.event
    assert all(m.decided for m in ev.matches)
    assert all(slot.done for slot in t.tables.values())
    assert not rig.scheduler.pending() and not t.deadlines
    if fmt is Format.SWISS:
        pairs = [frozenset((*m.a, *m.b)) for m in ev.matches]
        assert len(pairs) == len(set(pairs))
        sat = [e for b in ev.byes.values() for e in b]
        assert len(sat) == len(set(sat))
    table = ev.standings()
    assert sorted(s.entrant for s in table) == ev.entrants
    await rig.db.close()


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    fmt=st.sampled_from([Format.ROUNDROBIN, Format.SWISS, Format.ELIMINATION]),
    players=st.sampled_from([4, 6, 8, 10, 12, 14]),
    seed=st.integers(min_value=0, max_value=10**6),
)
async def test_events_survive_chaos(tmp_path: Path, fmt: Format, players: int, seed: int) -> None:
    await _run(tmp_path, fmt, players, seed)
