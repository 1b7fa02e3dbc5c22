"""What a deal's outcome is worth to one team, in raw points (before Bulgarian rounding).

The search compares moves by the deal's *score*, not by card points alone: a contract
that goes down gives everything away, so a point that makes the contract is worth more
than a point beyond it.  Units are the raw points the arena reports.
"""

from __future__ import annotations

from engine.ai.tables import BULGARIAN, CAPOT_BONUS, total_points
from engine.core import BELOTE_POINTS


def deal_value(
    kind: int,
    code: int,
    multiplier: int,
    taker_team: int,
    my_team: int,
    diff: int,
    melds: tuple[int, int] | list[int] = (0, 0),
    belotes: tuple[int, int] | list[int] = (0, 0),
) -> float:
    """My team's raw deal score minus the other's.

    ``diff`` is my team's card points minus the other's for the whole deal (deal units, No
    Trump doubled, last trick in), plus or minus the capot bonus when a team took every
    trick, exactly as the solver counts it.  ``melds`` / ``belotes`` are indexed by team.
    """
    total = total_points(code)
    capot = None
    if diff >= total + CAPOT_BONUS:
        capot, diff = my_team, total
    elif diff <= -(total + CAPOT_BONUS):
        capot, diff = 1 - my_team, -total
    mine = (total + diff) // 2
    cards = [0, 0]
    cards[my_team] = mine
    cards[1 - my_team] = total - mine
    if capot is not None:
        cards[capot] = total + CAPOT_BONUS
        cards[1 - capot] = 0
    tk, df = taker_team, 1 - taker_team
    tot = [cards[t] + melds[t] + belotes[t] for t in (0, 1)]
    pts = [0, 0]
    if kind == BULGARIAN:
        if multiplier == 1:
            if tot[tk] > tot[df]:
                pts = tot
            elif tot[tk] < tot[df]:
                pts[df] = tot[0] + tot[1]
            else:
                pts[df] = tot[df]
        else:
            whole = (tot[0] + tot[1]) * multiplier
            if tot[tk] > tot[df]:
                pts[tk] = whole
            elif tot[tk] < tot[df]:
                pts[df] = whole
    else:
        if tot[tk] > tot[df]:
            pts = tot
        elif tot[tk] < tot[df]:
            pts[df] = cards[0] + cards[1] + melds[0] + melds[1] + belotes[df]
            pts[tk] = belotes[tk]
        else:
            pts[df] = tot[df]
            pts[tk] = belotes[tk]
    return pts[my_team] - pts[1 - my_team]


def belote_points(
    hands: list[int], pairs: tuple[int, ...], announced: tuple[int, int] | list[int] = (0, 0)
) -> list[int]:
    """Each team's belote points: those ``announced``, and one belote for every pair
    (``tables.belote_pairs``) that a seat of ``hands`` still holds whole, since it
    announces with the first of the two."""
    belotes = list(announced)
    for pair in pairs:
        for s in range(4):
            if hands[s] & pair == pair:
                belotes[s & 1] += BELOTE_POINTS
    return belotes
