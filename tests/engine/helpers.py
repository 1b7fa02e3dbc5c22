"""Build decks that deal chosen hands, and small shortcuts for rule tests."""

from __future__ import annotations

from engine import Match, get_ruleset, legal_plays, mask_of, parse_card, parse_cards


def cards(text: str) -> list[int]:
    return parse_cards(text)


def legal(ruleset: str, contract: str, hand: str, trick: str = "") -> set[str]:
    """The legal cards of ``hand`` as texts (the player to move sits after the trick)."""
    h = parse_cards(hand)
    m = legal_plays(get_ruleset(ruleset), contract, mask_of(h), parse_cards(trick))
    return {t for t in hand.split() if m >> parse_card(t) & 1}


def _fill(hands: dict[int, list[int]], sizes: int = 8) -> dict[int, list[int]]:
    """Complete partial hands with the unused cards, lowest first."""
    used = {c for h in hands.values() for c in h}
    free = [c for c in range(32) if c not in used]
    out = {}
    for seat in range(4):
        h = list(hands.get(seat, []))
        while len(h) < sizes:
            h.append(free.pop(0))
        out[seat] = h
    return out


def french_deck(hands: dict[int, str], turned: str, taker: int, dealer: int = 0) -> list[int]:
    """A deck dealing these final 8-card hands when ``taker`` takes the turned card (which
    must be in the taker's hand). Partial hands are completed with unused cards."""
    t = parse_card(turned)
    given = {s: parse_cards(h) for s, h in hands.items()}
    if t not in given.get(taker, []):
        given.setdefault(taker, []).append(t)
    full = _fill(given)
    for s in range(4):  # the turned card is dealt last to the taker
        if s == taker:
            full[s].remove(t)
    order = [(dealer + i) % 4 for i in range(1, 5)]
    first = {s: full[s][:5] for s in range(4)}
    rest = {s: full[s][5:] for s in range(4)}
    deck: list[int] = []
    for s in order:
        deck += first[s][:3]
    for s in order:
        deck += first[s][3:5]
    deck.append(t)
    for s in order:
        deck += rest[s]
    assert sorted(deck) == list(range(32)), deck
    return deck


def bulgarian_deck(hands: dict[int, str], dealer: int = 0) -> list[int]:
    """A deck dealing these final 8-card hands in Bulgarian (3, 2, then 3 each)."""
    full = _fill({s: parse_cards(h) for s, h in hands.items()})
    order = [(dealer + i) % 4 for i in range(1, 5)]
    deck: list[int] = []
    for lo, hi in ((0, 3), (3, 5), (5, 8)):
        for s in order:
            deck += full[s][lo:hi]
    assert sorted(deck) == list(range(32))
    return deck


def eager(match: Match, seat: int, actions: list) -> object:
    """A chooser that takes or bids at once, then plays its first legal card."""
    for a in actions:
        if a.kind in ("take", "bid"):
            return a
    return actions[0]


def play_out(match: Match, choose=None) -> None:
    """Play the current deal to its end (a redeal ends it too), each seat taking its first
    legal action (or ``choose(match, seat, actions)``)."""
    k = match.deal_number
    while match.deal_number == k and match.to_move is not None:
        seat = match.to_move
        acts = match.legal_actions(seat)
        match.apply(seat, choose(match, seat, acts) if choose else acts[0])
