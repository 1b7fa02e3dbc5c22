"""A card counts in one meld only: the partition found is the one that scores most, checked
against a brute force over every set of disjoint melds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import best_melds

RUN_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}
CARRE_POINTS = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}


def candidates(hand: int) -> list[tuple[int, int]]:
    """(cards mask, points) of every meld the hand could show."""
    out = []
    for r, pts in CARRE_POINTS.items():
        m = sum(1 << (s * 8 + r) for s in range(4))
        if hand & m == m:
            out.append((m, pts))
    for s in range(4):
        for low in range(8):
            for length in range(3, 9 - low):
                m = sum(1 << (s * 8 + r) for r in range(low, low + length))
                if hand & m == m:
                    out.append((m, RUN_POINTS[length]))
    return out


def brute_best(hand: int) -> int:
    cands = candidates(hand)

    def go(i: int, used: int) -> int:
        if i == len(cands):
            return 0
        m, pts = cands[i]
        best = go(i + 1, used)
        if not used & m:
            best = max(best, pts + go(i + 1, used | m))
        return best

    return go(0, 0)


@settings(max_examples=1500, deadline=None)
@given(st.sets(st.integers(0, 31), min_size=8, max_size=8))
def test_the_partition_that_scores_most(cards):
    hand = sum(1 << c for c in cards)
    melds = best_melds(hand)
    used = 0
    for m in melds:
        mask = sum(1 << c for c in m.cards)
        assert not used & mask, "a card counts in one meld only"
        assert hand & mask == mask
        used |= mask
    assert sum(m.points for m in melds) == brute_best(hand)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 7), min_size=3, max_size=8), st.integers(0, 3))
def test_heavy_hands_with_long_runs_and_carres(ranks, suit):
    cards = {suit * 8 + r for r in ranks}
    cards |= {s * 8 + 4 for s in range(4)}  # add the jacks: a carre may cross the run
    cards = set(sorted(cards)[:8])
    hand = sum(1 << c for c in cards)
    assert sum(m.points for m in best_melds(hand)) == brute_best(hand)
