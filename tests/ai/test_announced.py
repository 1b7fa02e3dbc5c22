"""What the others announced, and what they did not: melds shown after the first trick,
and a king or queen of a belote played without announcing it, weigh the worlds."""

from __future__ import annotations

import itertools

import pytest

from engine import Action, Match
from engine.ai import choose_action
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.tables import NT, belote_pairs, bits
from engine.ai.world_search import (
    ANNOUNCE_MISMATCH,
    INFER_ANNOUNCED,
    INFER_POLICY,
    SCORE,
    SEARCH_COMPILED,
    announced_likelihood,
    world_totals,
)
from engine.core import best_melds
from tests.ai.helpers import decks, play_until

needs_c = pytest.mark.skipif(not SEARCH_COMPILED, reason="the compiled core was not built")


def dealt(m: Match, seat: int) -> int:
    """The whole hand ``seat`` was dealt: what it holds and what it has played."""
    hand = m.hand_mask(seat)
    for t in m.view(seat).tricks:
        hand |= sum(1 << c for s, c in t.cards if s == seat)
    return hand | sum(1 << c for s, c in m.view(seat).trick if s == seat)


def truth(m: Match) -> list[int]:
    return [m.hand_mask(s) for s in range(4)]


def later_positions(ruleset: str, count: int, after: int = 12) -> list[tuple[Match, Knowledge]]:
    """Positions from the second trick on, of deals the hard level plays (it announces and
    declares whenever it can, as every bot does)."""
    out = []
    for seed in itertools.count():
        m = Match(ruleset, decks=decks(seed))
        m = play_until(
            m,
            ("hard",) * 4,
            seed,
            stop=lambda mm: mm.phase.value == "play" and len(mm.deals[-1].actions) >= after + 8,
        )
        if m.to_move is None or m.phase.value != "play":
            continue
        out.append((m, knowledge_from_view(m.view(m.to_move))))
        if len(out) == count:
            return out
    raise AssertionError("unreachable")


@pytest.mark.parametrize("ruleset", ["club", "bulgarian"])
def test_every_other_seat_showed_exactly_the_melds_it_was_dealt(ruleset: str) -> None:
    """From the second trick on each other seat's melds are known, none included: the
    deal as it truly lies always agrees with them, and a seat that showed none held none."""
    shown_none = 0
    for m, k in later_positions(ruleset, 12):
        if k.code == NT:
            assert k.shown_melds == (-1, -1, -1, -1)
            continue
        assert k.shown_melds[k.seat] == -1
        for s in range(4):
            if s == k.seat:
                continue
            melds = best_melds(dealt(m, s))
            cards = sum(1 << c for meld in melds for c in meld.cards)
            assert k.shown_melds[s] == sum(meld.points for meld in melds) << 32 | cards
            shown_none += k.shown_melds[s] == 0
        assert announced_likelihood(k, truth(m)) == 1.0
    assert shown_none > 0


def give_a_run(k: Knowledge, hands: list[int], silent: int, other: int) -> list[int] | None:
    """The world ``hands`` with three cards in a row of one suit moved to ``silent`` from
    ``other`` (which takes back as many of ``silent``'s cards), both seats' placed cards
    kept; None when their hands hold no such run between them."""
    for suit, low in itertools.product(range(4), range(6)):
        run = 0b111 << (8 * suit + low)
        moved = run & hands[other] & ~k.known[other]
        if not moved or run & ~(hands[silent] | moved):
            continue
        back = bits(hands[silent] & ~run & ~k.known[silent])[: moved.bit_count()]
        if len(back) < moved.bit_count():
            continue
        given = list(hands)
        given[silent] = hands[silent] & ~sum(1 << c for c in back) | moved
        given[other] = hands[other] & ~moved | sum(1 << c for c in back)
        return given
    return None


def test_a_world_that_gives_a_silent_seat_a_run_of_three_is_weighed_down() -> None:
    weighed = 0
    for m, k in later_positions("club", 20):
        for silent in (s for s in range(4) if s != k.seat and k.shown_melds[s] == 0):
            for other in (s for s in range(4) if s not in (k.seat, silent)):
                given = give_a_run(k, truth(m), silent, other)
                if given is None:
                    continue
                assert announced_likelihood(k, given) == ANNOUNCE_MISMATCH
                weighed += 1
    assert weighed >= 5


def belote_position() -> tuple[Match, int, int]:
    """A classic play where the seat to move may announce a belote with a king or queen
    of trump: (the match, the seat, that card)."""
    for seed in itertools.count():
        m = Match("classic", decks=decks(seed))
        while m.to_move is not None and not any(d.result for d in m.deals):
            s = m.to_move
            view = m.view(s)
            announcing = [a for a in view.legal if a.belote]
            if announcing:
                return m, s, announcing[0].card
            m.apply(s, choose_action(view, "normal", seed))
    raise AssertionError("unreachable")


def test_a_belote_announced_says_nothing_more() -> None:
    m, seat, card = belote_position()
    m.apply(seat, Action.play(card, belote=True))
    assert m.to_move is not None
    k = knowledge_from_view(m.view(m.to_move))
    assert k.unannounced[seat] == 0
    assert k.known[seat] >> (card ^ 3) & 1  # the other card is placed instead


def test_a_king_or_queen_played_without_a_belote_says_the_other_was_not_held() -> None:
    m, seat, card = belote_position()
    m.apply(seat, Action.play(card, belote=False))  # a person who forgot
    watcher = m.to_move
    assert watcher is not None and watcher != seat
    k = knowledge_from_view(m.view(watcher))
    other = card ^ 3
    assert 1 << card | 1 << other in belote_pairs(k.code)
    assert k.unannounced[seat] == 1 << other
    # the truth disagrees (the seat held both): weighed down, not ruled out, and the
    # search still finds worlds and a card
    assert announced_likelihood(k, truth(m)) == ANNOUNCE_MISMATCH
    found = world_totals(k, 8, 3, 10**6, INFER_POLICY | INFER_ANNOUNCED, SCORE)
    assert found.weight_sum > 0


def test_bots_announce_so_the_inference_holds_in_every_ruleset() -> None:
    """Positions of bots' deals: the cards said not held never are, in the truth."""
    inferred = 0
    for ruleset in ("classic", "club", "bulgarian"):
        for m, k in later_positions(ruleset, 10, after=16):
            for s in range(4):
                if s != k.seat:
                    assert dealt(m, s) & k.unannounced[s] == 0
                    inferred += k.unannounced[s] != 0
    assert inferred > 0


@needs_c
def test_compiled_core_weighs_what_was_announced_as_python_does() -> None:
    changed = 0
    for i, (_m, k) in enumerate(later_positions("club", 6) + later_positions("classic", 6, 16)):
        for oversample in (1, 4):
            args = (k, 8, 70 + i, 2_000_000, INFER_POLICY | INFER_ANNOUNCED, SCORE)
            c = world_totals(*args, compiled=True, oversample=oversample)
            p = world_totals(*args, compiled=False, oversample=oversample)
            assert c == p
            without = (k, 8, 70 + i, 2_000_000, INFER_POLICY, SCORE)
            changed += c != world_totals(*without, compiled=True, oversample=oversample)
    assert changed >= 4
