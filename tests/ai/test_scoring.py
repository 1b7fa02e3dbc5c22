"""The search's deal value agrees with the engine's scoring (raw points, before rounding)."""

from __future__ import annotations

import random

import pytest

from engine.ai.scoring import deal_value
from engine.ai.tables import BULGARIAN, CAPOT_BONUS, CLASSIC, NT, total_points
from engine.core import score_bulgarian, score_french


def random_split(rng: random.Random, code: int):
    """Raw card points per team (engine units: No Trump not doubled) and tricks."""
    raw_total = 130 if code == NT else total_points(code)
    capot = rng.random() < 0.1
    if capot:
        team = rng.randrange(2)
        cards = [0, 0]
        cards[team] = raw_total
        tricks = [0, 0]
        tricks[team] = 8
        return cards, tricks
    a = rng.randrange(0, raw_total + 1)
    return [a, raw_total - a], [4, 4]


@pytest.mark.parametrize("kind", [CLASSIC, BULGARIAN])
def test_deal_value_matches_engine_scoring(kind: int) -> None:
    rng = random.Random(kind)
    for _ in range(2000):
        code = rng.randrange(6) if kind == BULGARIAN else rng.randrange(4)
        cards, tricks = random_split(rng, code)
        melds = [rng.choice([0, 0, 20, 50, 100]), rng.choice([0, 0, 20])]
        belotes = [rng.choice([0, 20]), rng.choice([0, 20])]
        taker_team = rng.randrange(2)
        mult = rng.choice([1, 2, 4]) if kind == BULGARIAN else 1
        if kind == BULGARIAN:
            ds = score_bulgarian(code, mult, taker_team, cards, tricks, melds, belotes)
            tot = ds.totals
            ct, ot = taker_team, 1 - taker_team
            raw = [0, 0]
            if mult == 1:
                if ds.outcome == "made":
                    raw = list(tot)
                elif ds.outcome == "set":
                    raw[ot] = tot[0] + tot[1]
                else:
                    raw[ot] = tot[ot]
            elif ds.outcome in ("made", "set"):
                raw[ct if ds.outcome == "made" else ot] = (tot[0] + tot[1]) * mult
        else:
            raw = list(score_french(taker_team, cards, tricks, melds, belotes).points)
        factor = 2 if code == NT else 1
        for me in (0, 1):
            diff = (cards[me] - cards[1 - me]) * factor
            if tricks[1 - me] == 0:
                diff += CAPOT_BONUS
            elif tricks[me] == 0:
                diff -= CAPOT_BONUS
            got = deal_value(kind, code, mult, taker_team, me, diff, melds, belotes)
            assert got == raw[me] - raw[1 - me], (code, cards, tricks, melds, belotes, mult)
