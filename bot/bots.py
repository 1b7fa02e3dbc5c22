"""How a bot (or the AI standing in for an away player) picks its action.

One function, :func:`choose_action`, so the AI package can be swapped in without touching
the table logic. It must be deterministic given ``seed``: a match resumed after a crash
asks again with the same seed and must get the same answer.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from engine import Action, Match

log = logging.getLogger(__name__)

Chooser = Callable[[Any, str, int], Action]


def _engine_ai() -> Chooser | None:
    try:
        from engine.ai import choose_action as ai_choose  # type: ignore[attr-defined]
    except ImportError:
        return None
    return ai_choose


def fallback_choice(legal: list[Action], seed: int) -> Action:
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


def choose_action(match: Match, seat: int, level: str, seed: int) -> Action:
    """The action ``seat`` takes: the engine's AI when present, else a seeded random one."""
    legal = match.legal_actions(seat)
    if not legal:
        raise ValueError("no legal action for this seat")
    ai = _engine_ai()
    if ai is not None:
        try:
            action = ai(match.view(seat), level, seed)
            if action in legal:
                return action
            log.warning("AI chose an illegal action; using the fallback")
        except Exception:
            log.exception("AI failed; using the fallback")
    return fallback_choice(legal, seed)
