"""No level reads hidden cards: swap them for any others consistent with the view and the
decision stays the same.  And every level is deterministic for a given seed."""

from __future__ import annotations

import random

import pytest

from engine import Match
from engine.ai import choose_action
from engine.errors import IllegalAction
from engine.options import TableRules
from tests.ai.helpers import decks, play_until

LEVEL_RULESETS = [
    (level, ruleset)
    for level in ("easy", "normal", "hard", "expert")
    for ruleset in ("classic", "club", "bulgarian", "coinche")
]


def replay_with_other_hidden_cards(match: Match, seat: int, rng: random.Random) -> Match | None:
    """The same public history and the same hand for ``seat``, other hidden cards.

    The cards still hidden from ``seat`` (in the other hands) are shuffled among the deck
    positions they occupy; the history is replayed; None if a past action became illegal.
    """
    deck = list(match.deals[-1].deck)
    turned = match.deals[-1].turned  # public, even once in the taker's hand
    hidden = [c for s in range(4) if s != seat for c in match.hand(s) if c != turned]
    positions = [deck.index(c) for c in hidden]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    if shuffled == hidden:
        return None
    for p, c in zip(positions, shuffled, strict=True):
        deck[p] = c
    k = match.deal_number
    earlier = [list(d.deck) for d in match.deals[:-1]]
    other = Match(match.table_rules, decks=[*earlier, deck], target=match.target)
    try:
        for s, text in match.actions:
            other.apply(s, text)
    except IllegalAction:
        return None
    assert other.deal_number == k
    return other


@pytest.mark.parametrize(("level", "ruleset"), LEVEL_RULESETS)
def test_decision_ignores_hidden_cards(level: str, ruleset: str) -> None:
    rng = random.Random(f"{level}{ruleset}")
    checked = plays = 0
    for seed in range(60):
        if checked >= (3 if level == "expert" else 6) and plays >= 2:
            break
        stop_at = rng.randrange(2, 40)
        # Coinche with every contract and générale on every other deal
        rules = TableRules(ruleset)
        if ruleset == "coinche":
            rules = rules.with_changes(no_trump=True, all_trump=True, generale=bool(seed % 2))
        m = Match(rules, decks=decks(seed))
        fast = "normal" if level in ("hard", "expert") else level
        m = play_until(m, (fast,) * 4, seed, stop=lambda mm, n=stop_at: len(mm.actions) >= n)
        if m.to_move is None or any(d.result is not None for d in m.deals):
            continue
        seat = m.to_move
        if (
            level == "expert"
            and m.view(seat).phase.value == "play"
            and 16 < sum(m.view(seat).hand_sizes) <= 24
        ):
            continue  # keep the expert's part of the test short (no mid-deal solves)
        other = replay_with_other_hidden_cards(m, seat, rng)
        if other is None:
            continue
        if [other.hand(s) for s in range(4)] == [m.hand(s) for s in range(4)]:
            continue  # the shuffle only moved cards within a hand
        view, view2 = m.view(seat), other.view(seat)
        if view != view2:
            continue  # e.g. a shown meld changed: not consistent with what the seat saw
        assert choose_action(view, level, seed) == choose_action(view2, level, seed)
        checked += 1
        plays += view.phase.value == "play" and len({a.card for a in view.legal}) > 1
    assert checked >= 2 and plays >= 2


@pytest.mark.parametrize("ruleset", ["bulgarian", "coinche"])
@pytest.mark.parametrize(
    "level", ["normal", "hard", pytest.param("expert", marks=pytest.mark.slow)]
)
def test_same_seed_same_game(level: str, ruleset: str) -> None:
    """A match of AIs replays exactly: same seed, same actions."""
    rules = TableRules(ruleset, no_trump=True) if ruleset == "coinche" else TableRules(ruleset)

    def run() -> list[tuple[int, str]]:
        m = play_until(Match(rules, decks=decks(3)), (level, "normal") * 2, 9)
        return list(m.actions)

    assert run() == run()


def test_seed_changes_sampling() -> None:
    """Different seeds draw different samples (the seed is really used)."""
    m = play_until(
        Match("club", decks=decks(4)),
        ("normal",) * 4,
        4,
        stop=lambda mm: len(mm.deals[-1].actions) >= 6 and mm.phase.value == "play",
    )
    from engine.ai.knowledge import knowledge_from_view
    from engine.ai.player import position_rng
    from engine.ai.search import draw

    view = m.view(m.to_move)
    k = knowledge_from_view(view)
    a = draw(k, position_rng(view, "hard", 1))
    b = draw(k, position_rng(view, "hard", 2))
    assert a != b
    assert draw(k, position_rng(view, "hard", 1)) == a


def test_sparring_partner_ignores_hidden_cards() -> None:
    """The arena's sparring partner reads the view only, like the levels."""
    from engine.ai.arena import arena_action

    rng = random.Random("sparring")
    plays = 0
    for seed in range(80):
        if plays >= 4:
            break
        m = Match("club" if seed % 2 else "coinche", decks=decks(seed))
        stop_at = rng.randrange(12, 44)
        m = play_until(m, ("normal",) * 4, seed, stop=lambda mm, n=stop_at: len(mm.actions) >= n)
        if m.to_move is None or any(d.result is not None for d in m.deals):
            continue
        view = m.view(m.to_move)
        if view.phase.value != "play" or len({a.card for a in view.legal}) < 2:
            continue
        other = replay_with_other_hidden_cards(m, m.to_move, rng)
        if other is None or other.view(m.to_move) != view:
            continue
        if [other.hand(s) for s in range(4)] == [m.hand(s) for s in range(4)]:
            continue
        assert arena_action(view, "sparring", seed) == arena_action(
            other.view(m.to_move), "sparring", seed
        )
        plays += 1
    assert plays >= 4
