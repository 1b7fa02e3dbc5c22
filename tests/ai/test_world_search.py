"""The search core: uniform worlds, and the compiled path giving what the Python one gives."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest

from engine import Match
from engine.ai import choose_action, solver
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.search import best_card
from engine.ai.tables import AT, BULGARIAN, NT, belote_pairs
from engine.ai.world_search import (
    INFER_PLAYS,
    INFER_SOLVED,
    NO_RACE,
    POINTS,
    SCORE,
    SEARCH_COMPILED,
    Judge,
    Race,
    Totals,
    foreseen_melds,
    melds_to_foresee,
    play_likelihood,
    resample,
    solved_likelihood,
    space_of,
    wins_before,
    world_totals,
)
from engine.ai.worlds import NoWorld, SplitMix, draw_world, world_space
from engine.options import TableRules
from tests.ai.helpers import decks

needs_c = pytest.mark.skipif(not SEARCH_COMPILED, reason="the compiled core was not built")


def positions(count: int, min_actions: int = 8, max_actions: int = 60) -> list[Knowledge]:
    """Play-phase knowledge of the seat to move, from matches of the normal level."""
    out: list[Knowledge] = []
    for seed in itertools.count():
        if len(out) >= count:
            return out
        ruleset = ("classic", "club", "bulgarian", "coinche")[seed % 4]
        rules = (
            TableRules(ruleset, no_trump=True, all_trump=True) if ruleset == "coinche" else ruleset
        )
        m = Match(rules, decks=decks(seed))
        for _ in range(random.Random(seed).randrange(min_actions, max_actions)):
            if m.to_move is None or any(d.result for d in m.deals):
                break
            s = m.to_move
            m.apply(s, choose_action(m.view(s), "normal", seed))
        if m.to_move is None or any(d.result for d in m.deals):
            continue
        view = m.view(m.to_move)
        if view.phase.value == "play" and len({a.card for a in view.legal}) > 1:
            out.append(knowledge_from_view(view))
    return out


def test_splitmix_matches_its_reference_stream() -> None:
    # SplitMix64's published first outputs for seed 1234567.
    rng = SplitMix(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_worlds_are_uniform_over_the_consistent_deals() -> None:
    """Enumerate every deal a small, constrained view admits; the sampler draws each one
    about equally often and never another."""
    me = 0
    pool = 0
    cards = [0, 1, 2, 8, 9, 16, 17, 24, 25]
    for c in cards:
        pool |= 1 << c
    need = [0, 3, 3, 3]
    allowed = [0, ~0xFF & 0xFFFFFFFF, 0xFFFFFFFF, ~(0xFF << 8) & 0xFFFFFFFF]  # two voids
    fixed = [1 << 31, 0, 0, 0]
    space = world_space(me, 1 << 31, pool, need, allowed, fixed)
    everything = set()
    for a in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in a]
        for b in itertools.combinations(rest, 3):
            c3 = [c for c in rest if c not in b]
            hands = (
                1 << 31,
                sum(1 << c for c in a),
                sum(1 << c for c in b),
                sum(1 << c for c in c3),
            )
            if all(not hands[s] & ~allowed[s] for s in (1, 2, 3)):
                everything.add(hands)
    assert space.total == len(everything)
    rng = SplitMix(7)
    draws = 200 * len(everything)
    seen = Counter(tuple(draw_world(space, rng)) for _ in range(draws))
    assert set(seen) == everything
    # Each deal expected 200 times: a uniform sampler stays well within +-40% of that.
    assert min(seen.values()) > 120 and max(seen.values()) < 280


def test_no_world_when_the_constraints_admit_none() -> None:
    with pytest.raises(NoWorld):
        world_space(0, 0, 0b11, [0, 1, 1, 0], [0, 0b01, 0b01, 0], [0, 0, 0, 0])


def test_worlds_respect_the_view() -> None:
    for k in positions(12):
        space = space_of(k)
        rng = SplitMix(3)
        for _ in range(20):
            hands = draw_world(space, rng)
            assert hands[k.seat] == k.hand
            for s in range(4):
                assert hands[s].bit_count() == k.hand_sizes[s]
                if s != k.seat:
                    assert not hands[s] & k.excluded[s]
                    assert hands[s] & k.known[s] == k.known[s]
            assert (hands[0] | hands[1] | hands[2] | hands[3]) == k.hand | k.unseen


@needs_c
def test_compiled_core_gives_the_python_totals() -> None:
    """Same seed, same worlds, same weights, same values, same floating-point sums, also
    when the node budget runs out and the rest is played out by the rules of thumb."""
    checked = rolled_out = 0
    for i, k in enumerate(positions(30)):
        for objective in (SCORE, POINTS):
            for budget in (10**9, 3_000):
                c = world_totals(k, 16, 1000 + i, budget, True, objective, compiled=True)
                p = world_totals(k, 16, 1000 + i, budget, True, objective, compiled=False)
                assert c == p  # the weight of the worlds solved exactly too
                assert best_card(k.code, c) == best_card(k.code, p)
                if budget == 10**9:
                    assert c.exact == c.weight_sum
                rolled_out += c.exact < c.weight_sum
                checked += 1
    assert checked == 120
    assert rolled_out  # some budgets ran out, and the count says so
    assert any(k.bid for k in positions(30))  # Coinche's contracts, scored by their bid


@pytest.mark.skipif(not solver.COMPILED, reason="the compiled solver was not built")
def test_a_core_built_from_this_source_is_the_one_the_search_runs() -> None:
    """The check against a stale build (one without ``model_trick``) must not turn a
    fresh build off: that would only make every expert slower."""
    assert SEARCH_COMPILED


@needs_c
def test_compiled_core_foresees_the_belotes_python_does() -> None:
    checked = 0
    for i, k in enumerate(positions(18)):
        pairs = belote_pairs(k.code)
        for budget in (10**9, 3_000):
            c = world_totals(k, 12, 70 + i, budget, True, SCORE, compiled=True, belote_pairs=pairs)
            p = world_totals(k, 12, 70 + i, budget, True, SCORE, compiled=False, belote_pairs=pairs)
            assert c == p
            checked += 1
    assert checked == 36


def test_the_belote_pairs_are_the_king_and_queen_of_trump() -> None:
    hearts = 2
    (pair,) = belote_pairs(hearts)
    assert sorted(c & 7 for c in range(32) if pair >> c & 1) == [5, 6]  # Q and K
    assert all(c >> 3 == hearts for c in range(32) if pair >> c & 1)
    assert len(belote_pairs(AT)) == 4 and belote_pairs(NT) == ()


def test_a_belote_still_in_hand_is_worth_its_20_points_to_every_card() -> None:
    """In the French rulesets a team's belote is its own whatever the outcome: the seat
    that holds the king and queen of trump, neither played, sees every card 20 points
    better (or more, where the 20 make or set the contract)."""
    held = [
        k
        for k in positions(240, min_actions=8, max_actions=24)
        # one pair only (All Trump has four: another seat's would count against us)
        if any(k.hand & p == p for p in belote_pairs(k.code))
        and k.kind != BULGARIAN
        and k.code != AT
    ]
    assert len(held) >= 3
    for k in held[:4]:
        plain = world_totals(k, 12, 5, 10**9, True, SCORE)
        foreseen = world_totals(k, 12, 5, 10**9, True, SCORE, belote_pairs=belote_pairs(k.code))
        for c in plain.cards:
            assert foreseen.mean(c) >= plain.mean(c) + 20 - 1e-9


@needs_c
def test_compiled_core_matches_the_pure_python_solver(monkeypatch) -> None:
    """The whole fallback (Python sampler, likelihood and solver) on short positions."""
    ks = positions(6, min_actions=40, max_actions=56)
    compiled = [world_totals(k, 8, 5, 10**9, True, SCORE, compiled=True) for k in ks]
    monkeypatch.setattr(solver, "_dds", None)
    monkeypatch.setattr(solver, "COMPILED", False)
    python = [world_totals(k, 8, 5, 10**9, True, SCORE, compiled=False) for k in ks]
    assert [(t.cards, t.totals, t.weight_sum) for t in compiled] == [
        (t.cards, t.totals, t.weight_sum) for t in python
    ]


def test_weights_are_the_play_likelihood() -> None:
    for k in positions(5, min_actions=20):
        space = space_of(k)
        rng = SplitMix(11)
        expected = sum(play_likelihood(k, draw_world(space, rng)) for _ in range(10))
        got = world_totals(k, 10, 11, 10**9, True, SCORE, compiled=False).weight_sum
        assert got == pytest.approx(expected)
        flat = world_totals(k, 10, 11, 10**9, False, SCORE, compiled=False).weight_sum
        assert flat == 10.0


@needs_c
def test_compiled_rollout_plays_the_python_rules_of_thumb() -> None:
    """The C port of the normal level's play gives the same deal, card for card."""
    from engine.ai.rollout import _ROLLOUT, python_rollout
    from engine.ai.tables import RULESET_KINDS

    assert _ROLLOUT is not None
    rng = random.Random(5)
    checked = 0
    for k in positions(40, min_actions=8, max_actions=50):
        space = space_of(k)
        hands = draw_world(space, SplitMix(rng.getrandbits(64)))
        for code in {k.code, rng.randrange(6 if k.kind == RULESET_KINDS["bulgarian"] else 4)}:
            args = (k.kind, code, k.taker, hands, k.leader, list(k.trick), k.played, k.won)
            assert _ROLLOUT(*args) == python_rollout(*args)
            checked += 1
    assert checked >= 40


def test_bench_reports_the_compiled_playout(capsys) -> None:
    from adapters.cli import main

    assert main(["bench", "--seconds", "0.3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("random deals/s: ")
    if SEARCH_COMPILED:
        line = next(x for x in lines if x.startswith("compiled playout"))
        assert int(line.split(": ")[1].split()[0].replace(",", "")) > 0


@needs_c
def test_expert_decides_the_same_on_either_path(monkeypatch) -> None:
    """The expert's action through the compiled core and through the Python fallback."""
    from engine.ai import world_search

    views = []
    for seed in range(40):
        if len(views) >= 6:
            break
        m = Match(("classic", "club", "bulgarian")[seed % 3], decks=decks(50 + seed))
        for _ in range(random.Random(seed).randrange(30, 52)):
            if m.to_move is None or any(d.result for d in m.deals):
                break
            s = m.to_move
            m.apply(s, choose_action(m.view(s), "normal", seed))
        if m.to_move is None or any(d.result for d in m.deals):
            continue
        view = m.view(m.to_move)
        if view.phase.value == "play" and len({a.card for a in view.legal}) > 1:
            views.append((view, seed))
    assert len(views) >= 4
    compiled = [choose_action(v, "expert", s) for v, s in views]
    monkeypatch.setattr(world_search, "SEARCH_COMPILED", False)
    assert [choose_action(v, "expert", s) for v, s in views] == compiled


@needs_c
def test_compiled_core_judges_the_latest_cards_as_python_does() -> None:
    """The solver's judgement of the others' latest cards: the same solves, the same
    weights, the same totals, also when its node budget cuts the worlds short."""
    checked = 0
    for i, k in enumerate(positions(24, min_actions=14)):
        for judge in (Judge(3, 28, 20.0, 10**9), Judge(6, 32, 8.0, 40_000)):
            infer = INFER_PLAYS | INFER_SOLVED
            c = world_totals(k, 12, 900 + i, 10**9, infer, SCORE, compiled=True, judge=judge)
            p = world_totals(k, 12, 900 + i, 10**9, infer, SCORE, compiled=False, judge=judge)
            assert c == p
            checked += 1
    assert checked == 48


def test_a_world_where_a_card_was_thrown_away_is_less_likely() -> None:
    """Judged by the solver, a world counts less the worse the others' latest cards were
    in it; every world is judged alike and the weight never exceeds the plays' own."""
    lowered = 0
    for k in positions(10, min_actions=18):
        if not any(s != k.seat for s, _c, _p, _g in k.history):
            continue
        space = space_of(k)
        rng = SplitMix(21)
        judge = Judge(depth=4, max_cards=32, tau=10.0, budget=10**9)
        won = wins_before(k)
        for _ in range(6):
            hands = draw_world(space, rng)
            w = solved_likelihood(k, hands, judge, won, [10**9])
            assert 0.0 < w <= 1.0
            lowered += w < 1.0
    assert lowered > 0


def test_resampling_picks_worlds_in_proportion_to_their_weights() -> None:
    """Four picks among worlds weighed 0, 1 and 3: the first never, the last three times
    (systematic resampling: within one of the expected count, whatever the draw)."""
    for seed in range(20):
        assert resample([0.0, 1.0, 3.0], 4, SplitMix(seed)) == [(1, 1), (2, 3)]
        picks = resample([0.5, 0.25, 0.25, 2.0], 6, SplitMix(seed))
        counts = dict(picks)
        assert sum(counts.values()) == 6
        assert counts[3] in (4, 5) and counts.get(0, 0) in (0, 1, 2)


def test_resampling_without_any_weight_spreads_the_picks() -> None:
    assert resample([0.0, 0.0, 0.0], 5, SplitMix(1)) == [(0, 2), (1, 2), (2, 1)]


@needs_c
def test_compiled_core_resamples_the_worlds_as_python_does() -> None:
    """Oversampled worlds: the same draws, weights, picks and totals on both paths."""
    from engine.ai.world_search import INFER_POLICY

    for i, k in enumerate(positions(16, min_actions=14)):
        infer = INFER_POLICY if i % 2 else INFER_PLAYS
        for oversample in (2, 5):
            c = world_totals(
                k, 8, 300 + i, 10**9, infer, SCORE, compiled=True, oversample=oversample
            )
            p = world_totals(
                k, 8, 300 + i, 10**9, infer, SCORE, compiled=False, oversample=oversample
            )
            assert c == p
            assert c.weight_sum == 8.0


def first_trick_positions(count: int) -> list[Knowledge]:
    """Club and Bulgarian positions of the first trick (every place in it), where melds are
    still to be shown, played by the normal level."""
    out: list[Knowledge] = []
    for seed in itertools.count(500):
        if len(out) >= count:
            return out
        m = Match(("club", "bulgarian")[seed % 2], decks=decks(seed))
        place = seed % 4
        while m.to_move is not None and not any(d.result for d in m.deals):
            view = m.view(m.to_move)
            if view.phase.value == "play" and len(view.trick) == place:
                break
            m.apply(m.to_move, choose_action(view, "normal", seed))
        if m.to_move is None or any(d.result for d in m.deals):
            continue
        view = m.view(m.to_move)
        k = knowledge_from_view(view)
        if view.phase.value == "play" and not view.tricks and melds_to_foresee(k):
            out.append(k)
    return out


def test_club_scores_only_the_team_with_the_best_meld() -> None:
    """A quarte (50) beats a tierce (20): only the quarte's team scores, and it scores
    its partner's tierce as well."""
    k = next(k for k in first_trick_positions(4) if k.ruleset == "club")
    k = dataclasses.replace(k, code=0, leader=0, history=[], meld_pts=[0, 0])
    s = 8  # diamonds: 7 8 9 T J Q K A are cards 8..15
    hands = [
        1 << s | 1 << s + 1 | 1 << s + 2,  # seat 0: a tierce 7 8 9
        1 << 16 | 1 << 17 | 1 << 18 | 1 << 19,  # seat 1: a quarte in hearts
        0,
        1 << 24 | 1 << 25 | 1 << 26,  # seat 3 (seat 1's partner): a tierce in spades
    ]
    assert foreseen_melds(k, hands) == [0, 70]


def test_bulgarian_carres_count_for_both_teams_and_equal_sequences_for_neither() -> None:
    k = next(k for k in first_trick_positions(4) if k.ruleset == "bulgarian")
    k = dataclasses.replace(k, code=0, leader=0, history=[], meld_pts=[0, 0])
    jacks = sum(1 << (8 * s + 4) for s in range(4))
    hands = [jacks, 1 << 8 | 1 << 9 | 1 << 10, 0, 1 << 16 | 1 << 17 | 1 << 18]
    hands[0] |= 1 << 24 | 1 << 25 | 1 << 26  # 7 8 9 of spades: a tierce, equal to theirs
    assert foreseen_melds(k, hands) == [200, 0]


@needs_c
def test_compiled_core_foresees_the_melds_python_does() -> None:
    """In the first trick of club and Bulgarian, every world's declared melds, counted by
    the engine's own rules on the Python path, give the same totals in C."""
    changed = 0
    for i, k in enumerate(first_trick_positions(16)):
        for budget in (10**9, 3_000):
            args = (k, 10, 90 + i, budget, True, SCORE)
            c = world_totals(*args, compiled=True, foresee_melds=True)
            p = world_totals(*args, compiled=False, foresee_melds=True)
            assert c == p
            changed += c != world_totals(*args, compiled=True)
    assert changed >= 8  # the melds moved most of these positions' totals


def test_melds_are_foreseen_only_in_the_first_trick() -> None:
    later = [k for k in positions(30) if k.tricks_done and k.kind != 0]
    assert later and not any(melds_to_foresee(k) for k in later)
    with pytest.raises(ValueError, match="first trick"):
        world_totals(later[0], 4, 1, 10**6, True, SCORE, foresee_melds=True)


@needs_c
def test_compiled_core_weighs_late_worlds_by_the_policy_as_python_does() -> None:
    """Late in a deal many drawn worlds give a seat the same hand, and the C core keeps
    each seat's policy factors per hand: the weights must stay Python's to the bit."""
    from engine.ai.world_search import INFER_POLICY

    for i, k in enumerate(positions(10, min_actions=44, max_actions=60)):
        c = world_totals(k, 16, 40 + i, 10**9, INFER_POLICY, SCORE, compiled=True, oversample=8)
        p = world_totals(k, 16, 40 + i, 10**9, INFER_POLICY, SCORE, compiled=False, oversample=8)
        assert c == p


@needs_c
def test_the_compiled_core_refuses_melds_where_there_are_none() -> None:
    """Classic has no melds: the core says so rather than counting any."""
    from engine.ai import _dds

    k = next(k for k in positions(12) if k.kind == 0)
    sp = space_of(k)
    args = (
        k.kind, k.code, k.seat, k.taker, k.multiplier, list(sp.fixed), list(sp.seats),
        list(sp.need), [(m, list(cs)) for m, cs in sp.classes], k.leader, list(k.trick),
        k.played, k.won, [(s, c, list(p), g) for s, c, p, g in k.history],
        0, [0, 0], [0, 0], 4, 1, 10**6, INFER_PLAYS, SCORE, 0.05,
        [], -1, 1.0, 0, 32, 20.0, 0, (), 1.0, 1, (),
    )  # fmt: skip
    with pytest.raises(ValueError, match="melds exist in club and bulgarian"):
        _dds.search_worlds(*args, 1)
    assert _dds.search_worlds(*args, 0)[0]  # the same call without melds searches


@needs_c
@pytest.mark.parametrize("model", [1, 2])
def test_compiled_core_plays_the_rest_of_the_trick_by_the_policy_as_python_does(model) -> None:
    """``model_trick``: the others answer each card as the learned policy draws it from
    their world's hand, then everyone is solved double dummy.  The C core and Python (its
    own solver: the node counts of two tables differ, the values do not) draw the same
    cards and reach the same totals; and the answers do change some values (the modeled
    trick is not the double-dummy one)."""
    from engine.ai.world_search import INFER_POLICY

    changed = mid_trick = 0
    for i, k in enumerate(positions(24, min_actions=30, max_actions=60)):
        mid_trick += len(k.trick) < 3
        args = (k, 12, 60 + i, 10**9, INFER_POLICY, SCORE)
        c = world_totals(*args, compiled=True, model_trick=model)
        p = world_totals(*args, compiled=False, model_trick=model)
        assert (c.cards, c.totals, c.weight_sum) == (p.cards, p.totals, p.weight_sum)
        changed += c.totals != world_totals(*args, compiled=True).totals
    assert mid_trick >= 10
    assert changed > 0


def test_model_trick_is_one_of_its_modes() -> None:
    k = positions(1)[0]
    with pytest.raises(ValueError, match="model_trick"):
        world_totals(k, 4, 1, 10**9, INFER_PLAYS, SCORE, compiled=False, model_trick=3)


@needs_c
def test_more_threads_give_the_same_totals() -> None:
    """Worlds solved on several threads: the same values, the same worlds rolled out when
    the node budget runs short (the budget spent as one thread in order spends it), the
    same sums; also with the judge's and the modeled trick's sequential parts."""
    from engine.ai.world_search import INFER_POLICY, set_search_threads

    early = positions(12, min_actions=4, max_actions=12)  # the first tricks: dear solves
    late = positions(12, min_actions=20)
    plans: list[dict[str, object]] = [
        {"infer": INFER_POLICY, "oversample": 4},
        {"infer": INFER_PLAYS},
        {"infer": INFER_POLICY | INFER_SOLVED, "judge": Judge(2, 28, 20.0, 40_000)},
        {"infer": INFER_POLICY, "model_trick": 1},
        {"infer": INFER_POLICY, "oversample": 4, "race": Race(6, 10.0)},
    ]
    rolled_out_some = 0
    try:
        for i, k in enumerate(early + late):
            plan = plans[i % len(plans)]
            unbounded = None
            for budget in (10**9, 150_000, 2_000):
                found = []
                for threads in (1, 2, 4):
                    set_search_threads(threads)
                    found.append(world_totals(k, 20, 40 + i, budget, objective=SCORE, **plan))  # type: ignore[arg-type]
                assert found[0] == found[1] == found[2]
                unbounded = unbounded or found[0]
                rolled_out_some += found[0].totals != unbounded.totals
    finally:
        set_search_threads(1)
    assert rolled_out_some  # some budgets did run out, so the replay in order was tested


@needs_c
def test_a_world_drawn_twice_is_solved_once_and_counted_as_if_solved_again() -> None:
    """Late in a deal fewer deals fit the view than the worlds drawn, so some repeat, and
    the C core solves a repeat once: its values, the nodes it spends of the budget and the
    worlds rolled out when the budget runs short must stay those of solving it again
    (Python's path, which does), on one thread or two, with or without a race."""
    from engine.ai.world_search import INFER_POLICY, set_search_threads

    samples, checked = 48, 0
    try:
        for i, k in enumerate(positions(30, min_actions=36, max_actions=50)):
            if space_of(k).total >= samples:
                continue  # no repeat is certain
            full = world_totals(k, samples, 9 + i, 10**9, INFER_POLICY, SCORE, False)
            for budget in (10**9, full.nodes // 2, full.nodes // 5):
                for race in (NO_RACE, Race(8, 5.0)):
                    python = world_totals(
                        k, samples, 9 + i, budget, INFER_POLICY, SCORE, False, race=race
                    )
                    for threads in (1, 2):
                        set_search_threads(threads)
                        compiled = world_totals(
                            k, samples, 9 + i, budget, INFER_POLICY, SCORE, True, race=race
                        )
                        assert compiled == python
            checked += 1
    finally:
        set_search_threads(1)
    assert checked >= 5


def test_threads_are_asked_for_within_bounds() -> None:
    from engine.ai.world_search import set_search_threads

    for bad in (0, 9):
        with pytest.raises(ValueError, match="threads"):
            set_search_threads(bad)


# -- the race: cards clearly worse are solved no more -----------------------------------


@needs_c
def test_compiled_core_races_the_cards_as_python_does() -> None:
    """The same cards dropped after the same worlds, the same values and sums, also when
    the node budget runs out (the dropped cards are then not rolled out either)."""
    from engine.ai.world_search import INFER_POLICY

    dropped_some = 0
    for i, k in enumerate(positions(12, min_actions=4, max_actions=30)):
        for budget in (10**9, 400_000, 3_000):
            for race in (Race(4, 0.0), Race(6, 20.0)):
                plan = {"oversample": 4, "race": race}
                c = world_totals(k, 16, 7 + i, budget, INFER_POLICY, SCORE, True, **plan)  # type: ignore[arg-type]
                p = world_totals(k, 16, 7 + i, budget, INFER_POLICY, SCORE, False, **plan)  # type: ignore[arg-type]
                assert c == p
                dropped_some += bool(c.dropped)
    assert dropped_some


def test_a_race_changes_no_kept_card_only_the_work() -> None:
    """Solved to the end, a kept card's total is the one it has without a race (a solve
    is exact whatever was solved before it); a dropped card was more than the margin
    below the best over the worlds before the cut, and keeps that mean."""
    margin = 15.0
    raced_some = 0
    for i, k in enumerate(positions(16, min_actions=4, max_actions=30)):
        plain = world_totals(k, 12, 50 + i, 10**9, INFER_PLAYS, SCORE)
        raced = world_totals(k, 12, 50 + i, 10**9, INFER_PLAYS, SCORE, race=Race(4, margin))
        early = world_totals(k, 4, 50 + i, 10**9, INFER_PLAYS, SCORE)  # the same first worlds
        best_early = max(early.mean(c) for c in early.cards)
        for card, a, b in zip(raced.cards, raced.totals, plain.totals, strict=True):
            if card in raced.dropped:
                assert best_early - early.mean(card) > margin
                assert raced.mean(card) == pytest.approx(early.mean(card))
            else:
                assert a == b
                assert best_early - early.mean(card) <= margin
        assert raced.nodes <= plain.nodes
        assert best_card(k.code, raced) not in raced.dropped
        raced_some += raced.nodes < plain.nodes
    assert raced_some


def test_a_dropped_card_is_never_chosen() -> None:
    found = Totals((3, 9), (50.0, 20.0), 1.0, 0, dropped=(3,))
    assert best_card(0, found) == 9


def test_no_race_beside_the_modeled_trick() -> None:
    k = positions(1)[0]
    with pytest.raises(ValueError, match="race"):
        world_totals(k, 8, 1, 10**6, race=Race(4, 10.0), model_trick=1)
    with pytest.raises(ValueError, match="race"):
        world_totals(k, 8, 1, 10**6, race=Race(4, -1.0))
