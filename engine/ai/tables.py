"""The AI's own mask-based model of trick play: card order, points, legal plays, winners.

The engine's rules are the truth; this module is a compact, allocation-free copy of the
trick-play part of them that the search can call millions of times.  A test checks it
against the engine on random positions.  Cards are ints 0..31 (``suit * 8 + rank``, ranks
``7 8 9 T J Q K A``), hands are 32-bit masks.  A *contract code* is 0..3 for a trump suit
(C D H S), 4 for No Trump and 5 for All Trump.
"""

from __future__ import annotations

from engine.cards import cards_of, count
from engine.rulesets import RULESETS
from engine.simulate import BELOTE_MASK

NT = 4
AT = 5
CONTRACT_CODES = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": NT, "AT": AT}
CONTRACT_TEXTS = ("C", "D", "H", "S", "NT", "AT")

# Ruleset kinds for the play rules.
CLASSIC = 0
CLUB = 1
BULGARIAN = 2
# Each ruleset's family by its play rules (Coinche plays as classic).
RULESET_KINDS = {
    name: {"classic": CLASSIC, "club": CLUB, "bulgarian": BULGARIAN}[rules.legal]
    for name, rules in RULESETS.items()
}

FULL = (1 << 32) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))

# Strength within a suit by rank index (7 8 9 T J Q K A): higher wins.
TRUMP_POWER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
PLAIN_POWER = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)


def belote_pairs(code: int) -> tuple[int, ...]:
    """The king and queen masks that make a belote under contract ``code``, a suit each
    (the rules' ``BELOTE_MASK`` split by suit): the trump suit's, every suit's in All
    Trump, none in No Trump."""
    return tuple(m for suit in SUIT_MASK if (m := BELOTE_MASK[code] & suit))


def is_trump_card(code: int, card: int) -> bool:
    """Whether ``card`` is a trump under contract ``code`` (every card in All Trump)."""
    return code == AT or (code < 4 and card >> 3 == code)


def _build(
    code: int,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    power = []
    points = []
    above = []
    for card in range(32):
        suit, rank = card >> 3, card & 7
        trump = is_trump_card(code, card)
        p = TRUMP_POWER[rank] if trump else PLAIN_POWER[rank]
        power.append(p + (8 if trump and code < 4 else 0))
        pts = TRUMP_POINTS[rank] if trump else PLAIN_POINTS[rank]
        points.append(pts * 2 if code == NT else pts)
    for card in range(32):
        suit = card >> 3
        m = 0
        for other in range(suit * 8, suit * 8 + 8):
            if power[other] > power[card]:
                m |= 1 << other
        above.append(m)
    # Cards of each suit from the strongest down.
    order = tuple(tuple(sorted(range(s * 8, s * 8 + 8), key=lambda c: -power[c])) for s in range(4))
    return tuple(power), tuple(points), tuple(above), order


_TABLES = [_build(code) for code in range(6)]
POWER = tuple(t[0] for t in _TABLES)
POINTS = tuple(t[1] for t in _TABLES)
ABOVE = tuple(t[2] for t in _TABLES)
ORDER = tuple(t[3] for t in _TABLES)


def last_trick_bonus(code: int) -> int:
    return 20 if code == NT else 10


def total_points(code: int) -> int:
    """Card points plus last trick in deal units (No Trump already doubled)."""
    return 260 if code == NT else (258 if code == AT else 162)


CAPOT_BONUS = 90


# The mask helpers are the engine's own, under the names the AI reads best.
bits = cards_of
popcount = count


def winner_index(code: int, trick: list[int] | tuple[int, ...]) -> int:
    """Index in ``trick`` of the card that holds it."""
    power = POWER[code]
    led = trick[0] >> 3
    best = 0
    best_key = power[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        s = c >> 3
        if s in (led, code):
            k = power[c]
            if k > best_key:
                best_key = k
                best = i
    return best


def beats(code: int, card: int, win_card: int) -> bool:
    """Whether ``card`` played now would take the trick from ``win_card``, its best so far."""
    power = POWER[code]
    if card >> 3 == win_card >> 3:
        return power[card] > power[win_card]
    return code < 4 and card >> 3 == code


def legal_mask(kind: int, code: int, hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (cards so far, in order)."""
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    if follow:
        if code == AT or led == code:
            # Trump led (every suit in All Trump): beat the best card of the suit if you can.
            power = POWER[code]
            top = -1
            top_card = trick[0]
            for c in trick:
                if c >> 3 == led and power[c] > top:
                    top = power[c]
                    top_card = c
            higher = follow & ABOVE[code][top_card]
            return higher or follow
        return follow
    if code >= NT:
        return hand
    trumps = hand & SUIT_MASK[code]
    if not trumps:
        return hand
    w = winner_index(code, trick)
    win_card = trick[w]
    win_trump = win_card >> 3 == code
    partner_winning = len(trick) - w == 2
    if kind == CLUB:
        if win_trump:
            return (trumps & ABOVE[code][win_card]) or trumps
        return trumps
    if partner_winning:
        return hand
    if win_trump:
        higher = trumps & ABOVE[code][win_card]
        if higher:
            return higher
        return trumps if kind == CLASSIC else hand
    return trumps


def trick_points(code: int, trick: list[int] | tuple[int, ...]) -> int:
    pts = POINTS[code]
    return sum(pts[c] for c in trick)
