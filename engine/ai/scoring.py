"""What a deal's outcome is worth to one team, in raw points (before Bulgarian rounding).

The search compares moves by the deal's *score*, not by card points alone: a contract
that goes down gives everything away, so a point that makes the contract is worth more
than a point beyond it.  Units are the raw points the arena reports.

Coinche (``bid`` > 0) scores a contract by its value: made when the takers' card points
and belote reach the bid.  The search counts No Trump and All Trump by the standard
tables (the compiled core has fixed ones: ``tables.POINTS``), so their card points are
brought to Coinche's 162 in proportion before the count; a générale counts as the side's
capot (the search does not tell which partner took a trick).
"""

from __future__ import annotations

from engine.ai.tables import BULGARIAN, CAPOT_BONUS, total_points
from engine.contract import CAPOT_BID
from engine.core import BELOTE_POINTS

COINCHE_TOTAL = 162  # Coinche's card points in every contract, last trick included
COINCHE_CAPOT_POINTS = 252


def deal_value(
    kind: int,
    code: int,
    multiplier: int,
    taker_team: int,
    my_team: int,
    diff: int,
    melds: tuple[int, int] | list[int] = (0, 0),
    belotes: tuple[int, int] | list[int] = (0, 0),
    bid: int = 0,
) -> float:
    """My team's raw deal score minus the other's (Coinche's when ``bid`` > 0).

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
    if bid > 0:
        return coinche_value(code, multiplier, bid, tk, my_team, cards, capot, belotes)
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


def coinche_value(
    code: int,
    multiplier: int,
    bid: int,
    taker_team: int,
    my_team: int,
    cards: list[int],
    capot: int | None,
    belotes: tuple[int, int] | list[int],
) -> int:
    """Coinche's score of the contract ``bid`` for my team minus the other's, from each
    team's card points in the search's units (``cards``) and the side that took every
    trick (``capot``), as ``engine.core.score_coinche`` counts it (without ``bid_only``:
    the view does not carry the table's options).  ``_dds.c``'s ``coinche_value`` does the
    same integer steps."""
    total = total_points(code)
    tk, df = taker_team, 1 - taker_team
    if capot is not None:
        c = [0, 0]
        c[capot] = COINCHE_CAPOT_POINTS
    else:
        c = [cards[0] * COINCHE_TOTAL // total, cards[1] * COINCHE_TOTAL // total]
    made = capot == tk if bid >= CAPOT_BID else c[tk] + belotes[tk] >= bid
    pts = [0, 0]
    if made and multiplier == 1:
        pts[tk] = bid + c[tk]
        pts[df] = c[df]
    elif made:
        pts[tk] = (COINCHE_CAPOT_POINTS if capot == tk else 160) + bid * multiplier
    else:
        pts[df] = 160 + bid * multiplier
    return pts[my_team] + belotes[my_team] - pts[1 - my_team] - belotes[1 - my_team]


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
