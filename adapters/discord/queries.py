"""Read-only looks into the core's state, for autocomplete suggestions only.

Suggestions are a convenience: whatever the user finally sends goes through the core's
command entry point, which checks everything again. Any surprise here gives no
suggestions rather than an error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Suggestion:
    name: str  # what the user sees
    value: str  # what goes into the command


def _tables(app: Any, channel_id: str) -> list[Any]:
    tables = getattr(app, "tables", {}) or {}
    return [
        t
        for t in tables.values()
        if getattr(t, "channel", None) == channel_id and getattr(t, "status", "") != "closed"
    ]


def tables_here(app: Any, channel_id: str, user_id: str, current: str) -> list[Suggestion]:
    """The open tables of this channel, the user's own first."""
    try:
        found = sorted(
            _tables(app, channel_id),
            key=lambda t: (t.seat_of(user_id) is None, t.id),
        )
        out = []
        for t in found:
            label = f"{t.tid} · {t.settings.ruleset} · {t.status} · {len(t.free_seats())}/4"
            if current.lower() in label.lower():
                out.append(Suggestion(label[:100], t.tid))
        return out[:25]
    except Exception:
        log.debug("no table suggestions", exc_info=True)
        return []


def _my_actions(app: Any, channel_id: str, user_id: str) -> list[Any]:
    for t in _tables(app, channel_id):
        seat = t.seat_of(user_id)
        run = getattr(t, "run", None)
        if seat is None or run is None or getattr(run, "match", None) is None:
            continue
        if getattr(run, "over", False) or run.to_move != seat:
            continue
        return list(run.match.legal_actions(seat))
    return []


def legal_cards(app: Any, channel_id: str, user_id: str, current: str) -> list[Suggestion]:
    """The cards the user may play now (one entry per card)."""
    try:
        from engine import card_text

        cards: list[str] = []
        for action in _my_actions(app, channel_id, user_id):
            if action.kind == "play":
                text = card_text(action.card)
                if text not in cards and current.upper() in text:
                    cards.append(text)
        return [Suggestion(c, c) for c in cards][:25]
    except Exception:
        log.debug("no card suggestions", exc_info=True)
        return []


def legal_bids(app: Any, channel_id: str, user_id: str, current: str) -> list[Suggestion]:
    """The bids the user may make now, as ``/bid`` words."""
    try:
        words: list[str] = []
        for action in _my_actions(app, channel_id, user_id):
            if action.kind == "bid":
                words.append(action.contract)
            elif action.kind in ("pass", "take", "contre", "recontre"):
                words.append(action.kind)
        return [Suggestion(w, w) for w in words if current.lower() in w.lower()][:25]
    except Exception:
        log.debug("no bid suggestions", exc_info=True)
        return []
