"""How a bot (or the AI standing in for an away player) picks its action.

One function, :func:`think`, so the AI can be swapped without touching the table logic.
It must be deterministic given ``seed``: a match resumed after a crash asks again with the
same seed and must get the same answer (the AI is called without a time budget for that
reason). The searching levels think in a worker thread, and the table is not held while
they do, so other tables keep moving and this table's players are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from bot import metrics
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


@metrics.timed_think
async def think(view: Any, level: str, seed: int) -> Action:
    """:func:`choose`, off the event loop for the levels that search."""
    if level in SEARCHING_LEVELS:
        return await asyncio.to_thread(choose, view, level, seed)
    return choose(view, level, seed)
