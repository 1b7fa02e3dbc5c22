"""Run a whole event with simulated results, for `belote tournament simulate`.

Entrants are numbered 1..N from the highest rated down; a simulated match favours the
higher rated (Elo odds over a 600-point spread), a few end level, and the scores look
like Belote matches to 1000. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from bot.tournaments.formats import make_event
from bot.tournaments.model import Format, Match, NoPairing, Numbers, Outcome

DRAW_CHANCE = 0.08


def sim_ratings(entrants: int) -> dict[int, float]:
    spread = 600.0 / max(1, entrants - 1)
    return {e: round(1800.0 - spread * (e - 1), 1) for e in range(1, entrants + 1)}


def play(m: Match, ratings: dict[int, float], rng: random.Random) -> tuple[Outcome, int, int]:
    ra = sum(ratings[e] for e in m.a) / len(m.a)
    rb = sum(ratings[e] for e in m.b) / len(m.b)
    if rng.random() < DRAW_CHANCE:
        level = rng.randrange(90, 100) * 10
        return Outcome.DRAW, level, level
    p_a = 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))
    win, lose = rng.randrange(100, 131) * 10, rng.randrange(30, 100) * 10
    if rng.random() < p_a:
        return Outcome.A, win, lose
    return Outcome.B, lose, win


def _side(side: tuple[int, ...]) -> int | list[int]:
    return side[0] if len(side) == 1 else list(side)


def simulate(
    fmt: Format | str,
    entrants: int,
    *,
    rounds: int | None = None,
    best_of: int = 1,
    seed: int = 0,
    numbers: Numbers | None = None,
    rotate_partners: bool = False,
) -> Iterator[dict[str, Any]]:
    """Yield one dict per round, then the standings (or why the event ended early)."""
    rng = random.Random(seed)
    ratings = sim_ratings(entrants)
    base = numbers or Numbers()
    if rounds is None and Format(fmt) is Format.SWISS:
        # about log2(N) rounds, as many as the field allows without a rematch
        rounds = min(max(1, (entrants - 1).bit_length()), entrants - 1 + entrants % 2)
    numbers = Numbers(
        **{
            **base.to_json(),
            "rounds": rounds if rounds is not None else base.rounds,
            "best_of": best_of,
            "rotate_partners": rotate_partners,
        }
    )
    event = make_event(fmt, entrants, numbers, ratings)
    while not event.is_over():
        try:
            plan = event.start_round()
        except NoPairing as exc:
            yield {"ended": str(exc), "round": event.round + 1}
            break
        while event.pending():
            for m in event.pending():
                outcome, sa, sb = play(m, ratings, rng)
                event.record(m.id, outcome, sa, sb)
        yield {
            "round": plan.round,
            "pairings": [[_side(a), _side(b)] for a, b in plan.pairings],
            "byes": list(plan.byes),
            "results": [
                [_side(m.a), _side(m.b), m.outcome.value]
                for m in event.round_matches(plan.round)
                if m.outcome is not None
            ],
        }
    yield {
        "standings": [
            {"entrant": s.entrant, "points": s.points, "tiebreaks": list(s.tiebreaks)}
            for s in event.standings()
        ]
    }
