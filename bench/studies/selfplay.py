"""The card decisions of self-play tables, for the scripts that learn from them or score them.

``bench/studies/policy_fit.py`` fits the learned policy to these decisions and
``bench/studies/regret.py`` scores a level's cards in them; both play the same two tables of a
duplicate deck, card play only (every seat bids as the arena's fixed bidder, so both
tables play the same contract).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.actions import Action
from engine.ai.arena import MAX_REDEALS, arena_action, deck_source, table_seed
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.tables import legal_mask
from engine.match import Match, SeatView

# Four sparring partners, and two experts against two sparring partners.
TABLES = (("sparring",) * 4, ("expert", "sparring", "expert", "sparring"))


@dataclass(frozen=True)
class Choice:
    """A card decision with more than one legal card, as a seat of a table met it."""

    match: Match  # as it stands before the card (it moves on with the next choice)
    view: SeatView
    knowledge: Knowledge
    legal: int  # the legal cards, a mask
    action: Action  # what the seat's level played
    level: str
    seed: int  # the table's AI seed


def card_choices(ruleset: str, seed: int, i: int) -> Iterator[Choice]:
    """Every card decision with a choice at both tables of duplicate deck ``i``, in play
    order, until the first deal is scored."""
    for t, levels in enumerate(TABLES):
        m = Match(ruleset, decks=deck_source(seed, i))
        play_seed = table_seed(seed, i, t)
        while m.to_move is not None and len(m.deals) <= MAX_REDEALS:
            seat = m.to_move
            view = m.view(seat)
            action = arena_action(view, levels[seat], play_seed, None, True)
            if view.legal and view.legal[0].kind == "play":
                k = knowledge_from_view(view)
                legal = legal_mask(k.kind, k.code, k.hand, k.trick)
                if legal & (legal - 1):
                    yield Choice(m, view, k, legal, action, levels[seat], play_seed)
            m.apply(seat, action)
            if any(d.result is not None for d in m.deals):
                break
