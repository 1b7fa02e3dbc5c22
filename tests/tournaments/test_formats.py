"""The pure layer: schedules, pairings, brackets, standings and result rules."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.elimination import (
    Elimination,
    bracket_order,
    bracket_size,
    meeting_result,
)
from bot.tournaments.formats import load_event, make_event
from bot.tournaments.model import Match, NoPairing, Numbers, Outcome
from bot.tournaments.roundrobin import RoundRobin, circle_schedule
from bot.tournaments.simulate import play, sim_ratings, simulate
from bot.tournaments.swiss import Swiss, pair_swiss

# --- round-robin ----------------------------------------------------------------------


@given(st.integers(min_value=2, max_value=30))
def test_circle_everyone_meets_everyone_once(n: int) -> None:
    rounds = circle_schedule(list(range(1, n + 1)))
    assert len(rounds) == n - 1 + n % 2
    met = [tuple(sorted(p)) for pairs, _ in rounds for p in pairs]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    sat = [s for _, s in rounds if s is not None]
    assert sorted(sat) == (list(range(1, n + 1)) if n % 2 else [])
    for pairs, sits in rounds:
        seen = [e for p in pairs for e in p] + ([sits] if sits else [])
        assert sorted(seen) == list(range(1, n + 1))  # everyone once a round


def test_rotating_partners_each_partner_once() -> None:
    ev = RoundRobin(4, Numbers(rotate_partners=True))
    partners: list[tuple[int, int]] = []
    against: dict[tuple[int, int], int] = {}
    while not ev.is_over():
        plan = ev.start_round()
        for a, b in plan.pairings:
            partners += [a, b]
            for x in a:
                for y in b:
                    key = (min(x, y), max(x, y))
                    against[key] = against.get(key, 0) + 1
        for m in ev.pending():
            ev.record(m.id, Outcome.A, 1000, 500)
    assert ev.round == 3
    assert sorted(partners) == sorted(itertools.combinations(range(1, 5), 2))
    assert set(against.values()) == {2} and len(against) == 6


def test_rotating_partners_needs_four() -> None:
    with pytest.raises(ValueError):
        RoundRobin(6, Numbers(rotate_partners=True))


def _play_rr(n: int, results: dict[tuple[int, int], tuple[Outcome, int, int]]) -> RoundRobin:
    ev = RoundRobin(n, Numbers(win=3, draw=1, loss=0))
    while not ev.is_over():
        ev.start_round()
        for m in ev.pending():
            outcome, sa, sb = results[(m.a[0], m.b[0])]
            ev.record(m.id, outcome, sa, sb)
    return ev


def test_roundrobin_sitting_out_scores_a_win_and_draws_count() -> None:
    results = {(a, b): (Outcome.DRAW, 800, 800) for a, b in itertools.combinations(range(1, 4), 2)}
    ev = _play_rr(3, results)
    table = {s.entrant: s.points for s in ev.standings()}
    assert table == {1: 3 + 1 + 1, 2: 5, 3: 5}


def test_roundrobin_level_on_points_the_match_between_them_decides() -> None:
    # 1 beats 2, 2 beats 3, 3 beats 1, 4 loses all: 1, 2, 3 level on 6 points.
    # Between the three, each won once: the score difference decides: 3, then 2, then 1.
    r = {
        (1, 2): (Outcome.A, 1001, 990),
        (2, 3): (Outcome.A, 1010, 900),
        (1, 3): (Outcome.B, 500, 1200),
        (1, 4): (Outcome.A, 1000, 900),
        (2, 4): (Outcome.A, 1000, 900),
        (3, 4): (Outcome.A, 1000, 900),
    }
    order = [s.entrant for s in _play_rr(4, r).standings()]
    assert order == [3, 2, 1, 4]
    # Two level: the match between them decides even against a worse difference.
    r2 = {
        (1, 2): (Outcome.B, 990, 1000),
        (1, 3): (Outcome.A, 1500, 0),
        (2, 3): (Outcome.B, 900, 1000),
        (1, 4): (Outcome.A, 1000, 900),
        (2, 4): (Outcome.A, 1000, 900),
        (3, 4): (Outcome.B, 900, 1000),
    }
    table = _play_rr(4, r2).standings()
    assert [s.points for s in table][:2] == [6, 6]
    assert [s.entrant for s in table][:2] == [2, 1]  # 1 has the better difference, 2 won


def test_roundrobin_withdrawal_keeps_points_and_forfeits_the_rest() -> None:
    ev = RoundRobin(4)
    ev.start_round()
    for m in ev.pending():
        ev.record(m.id, Outcome.A, 1000, 0)
    winner_1 = ev.round_matches(1)[0].a[0]
    ev.withdraw(winner_1)
    ev.start_round()
    mine = [m for m in ev.round_matches() if winner_1 in (*m.a, *m.b)]
    assert len(mine) == 1 and mine[0].forfeit and mine[0].won_by(winner_1) is False
    pts = {s.entrant: s for s in ev.standings()}
    assert pts[winner_1].points == 3 and pts[winner_1].withdrawn


# --- Swiss ----------------------------------------------------------------------------


def test_swiss_pairs_equal_points_top_half_against_bottom_half() -> None:
    order = list(range(1, 9))
    points = {e: 3 if e <= 4 else 0 for e in order}
    result = pair_swiss(order, points, {}, ())
    assert result.pairs == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert result.bye is None


def test_swiss_repair_finds_the_only_pairing() -> None:
    # 1 has met everyone but 6: the greedy 1-2 must be undone.
    order = list(range(1, 7))
    met = {1: {2, 3, 4, 5}, 2: {1}, 3: {1}, 4: {1}, 5: {1}}
    result = pair_swiss(order, dict.fromkeys(order, 0), met, ())
    assert (1, 6) in result.pairs
    assert all(b not in met.get(a, set()) for a, b in result.pairs)


def test_swiss_says_when_no_pairing_exists() -> None:
    order = [1, 2, 3, 4]
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}}  # 4 would need two opponents at once
    with pytest.raises(NoPairing):
        pair_swiss(order, dict.fromkeys(order, 0), met, ())


def test_swiss_bye_goes_to_the_lowest_who_has_not_sat_out() -> None:
    order = [1, 2, 3, 4, 5]
    result = pair_swiss(order, {1: 6, 2: 3, 3: 3, 4: 0, 5: 3}, {}, had_bye={5})
    assert result.bye == 4


def test_swiss_too_many_rounds_is_refused() -> None:
    with pytest.raises(ValueError):
        Swiss(6, Numbers(rounds=6))
    Swiss(7, Numbers(rounds=7))


def test_swiss_standings_opponents_points_then_rating() -> None:
    ev = Swiss(4, Numbers(rounds=2, win=3, draw=1, loss=0), {1: 1500, 2: 1400, 3: 1300, 4: 1200})
    ev.start_round()  # 1-3, 2-4
    for m in ev.pending():
        ev.record(m.id, Outcome.A if m.a == (1,) else Outcome.B)  # 1 and 4 win
    ev.start_round()  # 1-4; 2 and 3 level on opponents' points: 2 is rated higher
    pairs = {(m.a[0], m.b[0]) for m in ev.pending()}
    assert pairs == {(1, 4), (2, 3)}
    for m in ev.pending():
        ev.record(m.id, Outcome.A)  # 1 and 2 win
    table = ev.standings()
    # 4 and 2 level on 3 points; 4 met 2 (3) and 1 (6): 9; 2 met 4 (3) and 3 (0): 3.
    assert [(s.entrant, s.points) for s in table] == [(1, 6), (4, 3), (2, 3), (3, 0)]
    assert table[1].tiebreaks == (9, 1200) and table[2].tiebreaks == (3, 1400)


# --- elimination ----------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=7))
def test_bracket_order_keeps_top_seeds_apart(k: int) -> None:
    size = 2**k
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    block = size
    top = 1
    while block >= 1:  # the top `top` seeds each sit in a different block of `block`
        blocks = {order.index(s) // block for s in range(1, top + 1)}
        assert len(blocks) == top
        block //= 2
        top *= 2
    for i in range(0, size - 1, 2):
        assert order[i] + order[i + 1] == size + 1


def test_bracket_order_of_eight() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_size(5) == 8 and bracket_size(8) == 8


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=40),
    best_of=st.sampled_from([1, 3]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_elimination_byes_to_top_seeds_and_one_champion(n: int, best_of: int, seed: int) -> None:
    lines = list(simulate("elimination", n, best_of=best_of, seed=seed))
    rounds, table = lines[:-1], lines[-1]["standings"]
    size = bracket_size(n)
    assert len(rounds) == max(1, (size - 1).bit_length())
    assert sorted(rounds[0]["byes"]) == list(range(1, size - n + 1))
    for r in rounds:
        for a, b in r["pairings"]:
            if {a, b} == {1, 2}:
                assert r is rounds[-1]  # seeds 1 and 2 meet only in the final
    final = rounds[-1]
    assert len(final["pairings"]) == 1
    champion = table[0]["entrant"]
    assert champion in final["pairings"][0]
    needed = best_of // 2 + 1
    if n > 1:
        a, b = final["pairings"][0]
        wins = sum(
            1
            for x, y, o in final["results"]
            if (o == "a" and x == champion) or (o == "b" and y == champion)
        )
        level = wins < needed
        assert not level or champion == min(a, b)  # a level final goes to the higher placed


def _m(outcome: Outcome, forfeit: bool = False) -> Match:
    return Match(1, 1, (1,), (2,), outcome, forfeit=forfeit)


def test_meeting_rules() -> None:
    assert meeting_result([_m(Outcome.A)], 1, False) == "a"
    assert meeting_result([_m(Outcome.DRAW)], 1, False) == "next"  # replayed
    assert meeting_result([_m(Outcome.DRAW)], 1, True) == "a"  # a level final: higher placed
    assert meeting_result([_m(Outcome.DRAW), _m(Outcome.B)], 1, False) == "b"
    assert meeting_result([_m(Outcome.A), _m(Outcome.B)], 3, False) == "next"
    assert meeting_result([_m(Outcome.A), _m(Outcome.B), _m(Outcome.B)], 3, False) == "b"
    assert meeting_result([_m(Outcome.A), _m(Outcome.B), _m(Outcome.DRAW)], 3, False) == "next"
    assert meeting_result([_m(Outcome.DRAW), _m(Outcome.DRAW)], 3, True) == "a"
    assert meeting_result([_m(Outcome.BOTH_LOSE)], 3, False) == "none"
    assert meeting_result([_m(Outcome.B, forfeit=True)], 3, False) == "b"
    assert meeting_result([Match(1, 1, (1,), (2,))], 1, False) == "pending"


def test_elimination_both_lose_gives_a_walkover() -> None:
    ev = Elimination(4)
    ev.start_round()  # 1-4, 2-3
    m14, m23 = ev.pending()
    ev.record(m14.id, Outcome.BOTH_LOSE)
    ev.record(m23.id, Outcome.A)
    plan = ev.start_round()
    assert plan.pairings == [] and plan.byes == [2]
    assert ev.finished and ev.champion == 2
    assert ev.standings()[0].entrant == 2


def test_elimination_correction_rereads_the_meeting() -> None:
    ev = Elimination(2, Numbers(best_of=3))
    ev.start_round()
    first = ev.pending()[0]
    ev.record(first.id, Outcome.A)
    second = ev.pending()[0]
    ev.record(second.id, Outcome.A)
    assert ev.finished and ev.champion == 1
    ev.correct(second.id, Outcome.B)
    assert not ev.finished and len(ev.pending()) == 1
    ev.record(ev.pending()[0].id, Outcome.B)
    assert ev.champion == 2


# --- common ----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["roundrobin", "swiss", "elimination"])
def test_state_survives_json_mid_event(fmt: str) -> None:
    rng = random.Random(3)
    ratings = sim_ratings(9)
    ev = make_event(fmt, 9, Numbers(rounds=4, best_of=3), ratings)
    ev.start_round()
    for m in ev.pending()[:2]:
        ev.record(m.id, *play(m, ratings, rng))
    ev.withdraw(9)
    copy = load_event(json.loads(json.dumps(ev.to_json())))
    assert copy.to_json() == ev.to_json()
    while not ev.is_over():
        for e in (ev, copy):
            while e.pending():
                for m in e.pending():
                    e.record(m.id, Outcome.A, 1000, 900)
        if ev.is_over():
            break
        ev.start_round()
        copy.start_round()
    assert copy.standings() == ev.standings()


def test_simulate_is_deterministic_and_well_formed() -> None:
    a = list(simulate("swiss", 21, rounds=5, seed=7))
    b = list(simulate("swiss", 21, rounds=5, seed=7))
    assert a == b
    assert [line["round"] for line in a[:-1]] == [1, 2, 3, 4, 5]
    for line in a[:-1]:
        assert len(line["results"]) == len(line["pairings"])
        assert all(o in ("a", "b", "draw") for _, _, o in line["results"])
    assert len(a[-1]["standings"]) == 21
    points = [row["points"] for row in a[-1]["standings"]]
    assert points == sorted(points, reverse=True)


def test_simulate_favours_the_higher_rated() -> None:
    rr = list(simulate("roundrobin", 12, seed=5))
    order = [row["entrant"] for row in rr[-1]["standings"]]
    assert order.index(1) < order.index(12)
    assert sum(order[:6]) < sum(order[6:])
