"""The core's mask arithmetic against a plain reference written from the play sections of
docs/rules.md (#classic-play, #club-play, #bulgarian-play), over random hands and tricks of
every ruleset and contract."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_ruleset, legal_plays, mask_of

TRUMP_ORDER = "78QKTA9J"  # weakest first
PLAIN_ORDER = "789JQKTA"


def suit(c: int) -> str:
    return "CDHS"[c // 8]


def rank(c: int) -> str:
    return "789TJQKA"[c % 8]


def is_trump(c: int, contract: str) -> bool:
    return contract == "AT" or suit(c) == contract


def strength(c: int, contract: str) -> int:
    return (TRUMP_ORDER if is_trump(c, contract) else PLAIN_ORDER).index(rank(c))


def winner(trick: list[int], contract: str) -> int:
    """Highest card of the led suit, unless a trump is played (suit contracts)."""
    led = suit(trick[0])
    trumps = [i for i, c in enumerate(trick) if contract in "CDHS" and suit(c) == contract]
    pool = trumps or [i for i, c in enumerate(trick) if suit(c) == led]
    return max(pool, key=lambda i: strength(trick[i], contract))


def reference(ruleset: str, contract: str, hand: list[int], trick: list[int]) -> set[int]:
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    w = winner(trick, contract)
    partner_winning = len(trick) >= 2 and w == len(trick) - 2
    opponents = [trick[i] for i in range(len(trick)) if (len(trick) - i) % 2 == 1]
    if follow:
        if is_trump(trick[0], contract):
            top = max((c for c in trick if suit(c) == led), key=lambda c: strength(c, contract))
            higher = [c for c in follow if strength(c, contract) > strength(top, contract)]
            return set(higher or follow)
        return set(follow)
    if contract in ("NT", "AT"):
        return set(hand)
    trumps = [c for c in hand if suit(c) == contract]
    played_trumps = [c for c in trick if suit(c) == contract]
    top_trump = max(played_trumps, key=lambda c: strength(c, contract), default=None)
    higher = [
        c
        for c in trumps
        if top_trump is None or strength(c, contract) > strength(top_trump, contract)
    ]
    if ruleset == "club":
        # you must trump, and overtrump if you can, even when your partner holds the trick
        if not trumps:
            return set(hand)
        return set(higher or trumps)
    if ruleset == "classic":
        if partner_winning or not trumps:
            return set(hand)
        if any(suit(c) == contract for c in opponents):  # an opponent has trumped
            return set(higher or trumps)  # overtrump if you can, else still trump
        return set(trumps)
    # bulgarian suit contract
    if partner_winning or not trumps:
        return set(hand)
    if top_trump is not None:  # an opponent's trump wins
        return set(higher) if higher else set(hand)
    return set(trumps)


@st.composite
def positions(draw):
    ruleset = draw(st.sampled_from(["classic", "club", "bulgarian"]))
    contracts = ["C", "D", "H", "S"] + (["NT", "AT"] if ruleset == "bulgarian" else [])
    contract = draw(st.sampled_from(contracts))
    cards = draw(st.permutations(range(32)))
    n_trick = draw(st.integers(0, 3))
    n_hand = draw(st.integers(1, 8))
    return ruleset, contract, list(cards[n_trick : n_trick + n_hand]), list(cards[:n_trick])


@settings(max_examples=3000, deadline=None)
@given(positions())
def test_legal_plays_match_the_rules_as_written(pos):
    ruleset, contract, hand, trick = pos
    mask = legal_plays(get_ruleset(ruleset), contract, mask_of(hand), trick)
    got = {c for c in hand if mask >> c & 1}
    assert got == reference(ruleset, contract, hand, trick)


@settings(max_examples=500, deadline=None)
@given(st.permutations(range(32)), st.sampled_from(["C", "D", "H", "S", "NT", "AT"]))
def test_trick_winner_matches_the_rules_as_written(cards, contract):
    from engine import trick_winner

    trick = list(cards[:4])
    assert trick_winner(contract, trick) == winner(trick, contract)
