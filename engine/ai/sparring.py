"""The sparring partner: a plain information-set double-dummy player, for the arena only.

It plays cards the textbook way and nothing more: deal the unseen cards ``worlds`` times
uniformly among the deals consistent with what legal play and announcements have shown
(voids and trump ceilings, the turned card, a belote's partner, shown melds), solve every
world double dummy for every legal card, and play the card with the best mean card
points (ties to the cheapest card).  No inference from how the others chose among their
legal cards, no model of the auction, no deal score: a fixed, independent yardstick that
the project's levels are measured against (``belote arena --b sparring``).

It deals by rejection (shuffle, deal, keep the deal only if every seat may hold its
cards), which is uniform by construction and shares no code with the expert's sampler
(``worlds.py``); after ``REJECT_TRIES`` misses it falls back to that exact sampler.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.solver import Position, solve_root
from engine.ai.tables import FULL, POINTS, POWER, bits, legal_mask
from engine.ai.worlds import SplitMix, draw_world
from engine.match import SeatView

SPARRING = "sparring"
DEFAULT_WORLDS = 10
REJECT_TRIES = 2000


def sparring_card(k: Knowledge, worlds: int, rng: random.Random) -> int:
    """The legal card with the best mean double-dummy card points over ``worlds`` deals."""
    cards = bits(legal_mask(k.kind, k.code, k.hand, k.trick))
    if len(cards) == 1:
        return cards[0]
    team = k.seat & 1
    totals = dict.fromkeys(cards, 0)
    for _ in range(worlds):
        hands = uniform_deal(k, rng)
        pos = Position(k.kind, k.code, hands, k.leader, list(k.trick), k.won)
        values, _nodes = solve_root(pos, team)
        for c in cards:
            totals[c] += values[c]
    pts, power = POINTS[k.code], POWER[k.code]
    return max(cards, key=lambda c: (totals[c], -pts[c], -power[c]))


def uniform_deal(k: Knowledge, rng: random.Random) -> list[int]:
    """One deal of the unseen cards, uniform among those ``k`` admits."""
    seats = [s for s in range(4) if s != k.seat]
    placed = k.known[seats[0]] | k.known[seats[1]] | k.known[seats[2]]
    pool = bits(k.unseen & ~placed)
    need = [k.hand_sizes[s] - k.known[s].bit_count() for s in seats]
    allowed = [FULL & ~k.excluded[s] for s in seats]
    for _ in range(REJECT_TRIES):
        rng.shuffle(pool)
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        i = 0
        ok = True
        for j, s in enumerate(seats):
            mask = 0
            for c in pool[i : i + need[j]]:
                mask |= 1 << c
            i += need[j]
            if mask & ~allowed[j]:
                ok = False
                break
            hands[s] = mask | k.known[s]
        if ok:
            return hands
    from engine.ai.world_search import space_of

    return draw_world(space_of(k), SplitMix(rng.getrandbits(64)))


def sparring_action(view: SeatView, worlds: int, rng: random.Random) -> Action:
    """The sparring partner's card as an engine action (belote and melds always said)."""
    legal = tuple(view.legal)
    card = sparring_card(knowledge_from_view(view), worlds, rng)
    options = [a for a in legal if a.card == card]
    return max(options, key=lambda a: (a.belote, a.melds))
