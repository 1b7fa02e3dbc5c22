"""Autocomplete suggestions, from what the core says a user may pick
(:meth:`bot.app.BeloteApp.choices`, read under the tables' locks).

Suggestions are a convenience: whatever the user finally sends goes through the core's
command entry point, which checks everything again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.platform import Choices

#: Discord shows at most 25 choices, each name at most 100 characters.
MAX_CHOICES = 25
MAX_NAME = 100


@dataclass(frozen=True)
class Suggestion:
    name: str  # what the user sees
    value: str  # what goes into the command


def tables_here(choices: Choices, current: str) -> list[Suggestion]:
    """The open tables of this channel, the user's own first."""
    out = []
    for t in choices.tables:
        label = f"{t.tid} · {t.ruleset} · {t.status} · {t.free}/4"
        if current.lower() in label.lower():
            out.append(Suggestion(label[:MAX_NAME], t.tid))
    return out[:MAX_CHOICES]


def legal_cards(choices: Choices, current: str) -> list[Suggestion]:
    """The cards the user may play now (one entry per card)."""
    return [Suggestion(c, c) for c in choices.cards if current.upper() in c][:MAX_CHOICES]


def legal_bids(choices: Choices, current: str) -> list[Suggestion]:
    """The bids the user may make now, as ``/bid`` words."""
    return [Suggestion(w, w) for w in choices.bids if current.lower() in w.lower()][:MAX_CHOICES]
