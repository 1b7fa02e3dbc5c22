"""The fast core: lookup tables and mask arithmetic for legal plays, tricks, melds, scores.

Cards are ints 0..31 (``suit * 8 + rank``, rank order 7 8 9 T J Q K A) and hands are 32-bit
masks. Contracts are coded 0..3 (the trump suit), 4 (No Trump), 5 (All Trump) internally;
the public functions also take the contract text. Nothing here allocates per card on the
hot path, so the AI can search and the benchmark can play many deals a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import card_text
from engine.contract import AT, CAPOT_BID, GENERALE_BID, NT, TRUMP_CODE, Contract
from engine.errors import EngineError
from engine.rulesets import Ruleset

# ---------------------------------------------------------------- tables
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASK: tuple[int, ...] = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
# Strength within a suit, by rank index (7 8 9 T J Q K A).
TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)

# TRUMP_MASK[code]: the cards that are trump under a contract (none in NT, all in AT).
TRUMP_MASK: tuple[int, ...] = (*SUIT_MASK, 0, (1 << 32) - 1)


def _is_trump(code: int, card: int) -> bool:
    return bool(TRUMP_MASK[code] >> card & 1)


# ORDER[code][card]: strength of a card within its suit under that contract.
ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP_ORDER if _is_trump(code, c) else PLAIN_ORDER)[c & 7] for c in range(32))
    for code in range(6)
)
# POINTS[code][card]: raw card points (No Trump doubling is applied at scoring).
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP_POINTS if _is_trump(code, c) else PLAIN_POINTS)[c & 7] for c in range(32))
    for code in range(6)
)
# Coinche's No Trump and All Trump count 162 like a suit contract (38 a suit + 10):
# No Trump A T K Q J = 19 10 4 3 2; All Trump J 9 A T K Q = 14 9 6 5 3 1.
COINCHE_NT_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
COINCHE_AT_POINTS = (0, 0, 9, 5, 14, 1, 3, 6)
COINCHE_POINTS: tuple[tuple[int, ...], ...] = (
    *POINTS[:4],
    tuple(COINCHE_NT_POINTS[c & 7] for c in range(32)),
    tuple(COINCHE_AT_POINTS[c & 7] for c in range(32)),
)


def points_table(rules: Ruleset) -> tuple[tuple[int, ...], ...]:
    """``table[code][card]``: each card's points under a contract in this ruleset."""
    return COINCHE_POINTS if rules.auction == "coinche" else POINTS


# HIGHER[code][card]: mask of the cards of the same suit that beat it.
HIGHER: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << d for d in range(32) if d >> 3 == c >> 3 and ORDER[code][d] > ORDER[code][c])
        for c in range(32)
    )
    for code in range(6)
)
# Play-obligation families, as ints for speed.
LEGAL_CLASSIC, LEGAL_CLUB, LEGAL_BULGARIAN = 0, 1, 2
LEGAL_KIND = {"classic": LEGAL_CLASSIC, "club": LEGAL_CLUB, "bulgarian": LEGAL_BULGARIAN}

LAST_TRICK = 10
BELOTE_POINTS = 20


def contract_code(trump: str | int) -> int:
    if isinstance(trump, int):
        return trump
    return TRUMP_CODE[trump]


# ---------------------------------------------------------------- tricks
def winner_index(code: int, trick: list[int]) -> int:
    """Index in ``trick`` of the card that wins it so far (code-based, no allocation)."""
    order = ORDER[code]
    best = trick[0]
    bi = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if c >> 3 == best >> 3:
            if order[c] > order[best]:
                best = c
                bi = i
        elif c >> 3 == code:  # a trump on a plain card (suit contracts only)
            best = c
            bi = i
    return bi


def trick_winner(trump: str | int, trick: list[int]) -> int:
    """Index in the trick of the winning card."""
    return winner_index(contract_code(trump), trick)


def card_points(card: int, trump: str | int) -> int:
    """Raw points of a card under a contract (before No Trump doubling)."""
    return POINTS[contract_code(trump)][card]


def legal_given(
    kind: int, code: int, hand: int, lead: int, best: int, partner_winning: bool
) -> int:
    """Mask of the legal cards of ``hand`` when ``lead`` was led and ``best`` wins the trick
    so far (``partner_winning``: the partner of the player to move played it). The simulator
    and the AI track ``best`` as the trick grows, so this is the whole rule in mask
    arithmetic."""
    follow = hand & SUIT_MASK[lead >> 3]
    if follow:
        if TRUMP_MASK[code] >> lead & 1:  # trump led (any suit in All Trump): beat the best
            return (follow & HIGHER[code][best]) or follow
        return follow
    if code >= NT:  # No Trump / All Trump: void means any card
        return hand
    trumps = hand & SUIT_MASK[code]
    if not trumps:
        return hand
    if kind == LEGAL_CLUB:  # always trump, overtrump if you can, partner or not
        if best >> 3 == code:
            return (trumps & HIGHER[code][best]) or trumps
        return trumps
    if partner_winning:  # classic and bulgarian: free when the partner holds the trick
        return hand
    if best >> 3 == code:  # an opponent has trumped
        if kind == LEGAL_CLASSIC:  # overtrump if you can, else still trump (undertrump)
            return (trumps & HIGHER[code][best]) or trumps
        return (trumps & HIGHER[code][best]) or hand  # bulgarian: discard if you cannot beat
    return trumps


def legal_mask(kind: int, code: int, hand: int, trick: list[int]) -> int:
    """Mask of the legal cards of ``hand``; ``trick`` holds the cards already played, the
    partner of the player to move having played ``trick[-2]``."""
    n = len(trick)
    if n == 0:
        return hand
    order = ORDER[code]
    best = trick[0]
    bi = 0
    for i in range(1, n):
        c = trick[i]
        if c >> 3 == best >> 3:
            if order[c] > order[best]:
                best = c
                bi = i
        elif c >> 3 == code:
            best = c
            bi = i
    return legal_given(kind, code, hand, trick[0], best, n >= 2 and bi == n - 2)


def legal_plays(
    rules: Ruleset,
    trump: str | int,
    hand: int,
    trick: list[int],
    trick_seats: list[int] | None = None,
    seat: int | None = None,
) -> int:
    """Mask of the legal cards. Seats are implied: the player to move sits after the last
    card of the trick and its partner played the one before last (``trick_seats`` and
    ``seat`` are accepted for readability and checked only for consistency)."""
    bad_seats = bool(trick_seats) and (
        len(trick_seats or ()) != len(trick)
        or (seat is not None and trick_seats is not None and seat != (trick_seats[-1] + 1) % 4)
    )
    if bad_seats:
        raise EngineError("The trick's seats do not match its cards and the seat to move.")
    return legal_mask(LEGAL_KIND[rules.legal], contract_code(trump), hand, trick)


# ---------------------------------------------------------------- melds
@dataclass(frozen=True)
class Meld:
    """A declared combination: a run of one suit or four of a rank."""

    kind: str  # "sequence" or "carre"
    cards: tuple[int, ...]
    points: int
    length: int  # run length (4 for a carre)
    top: int  # rank index of the top card in natural order (7 8 9 T J Q K A)
    suit: int | None  # None for a carre

    @property
    def name(self) -> str:
        if self.kind == "carre" or self.suit is None:
            return f"carre of {'789TJQKA'[self.top]}"
        n = {3: "tierce", 4: "quarte"}.get(self.length, "quinte")
        if self.length > 5:
            n = f"run of {self.length}"
        return f"{n} to {card_text(self.suit * 8 + self.top)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": [card_text(c) for c in self.cards],
            "points": self.points,
            "name": self.name,
        }


CARRE_POINTS = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}  # 9, T, J, Q, K, A


def _run_melds(suit: int, low: int, length: int) -> list[Meld]:
    """Best split of one run: 3 = 20, 4 = 50, 5-7 = 100 (one meld), 8 = quinte + tierce."""
    if length < 3:
        return []
    if length == 8:
        return _run_melds(suit, 3, 5) + _run_melds(suit, 0, 3)
    pts = 20 if length == 3 else 50 if length == 4 else 100
    cards = tuple(suit * 8 + r for r in range(low, low + length))
    return [Meld("sequence", cards, pts, length, low + length - 1, suit)]


def _runs8(bits: int) -> tuple[tuple[int, int], ...]:
    """(low rank, length) of every run of 3+ in one suit's 8 bits."""
    out = []
    r = 0
    while r < 8:
        if bits >> r & 1:
            start = r
            while r < 8 and bits >> r & 1:
                r += 1
            if r - start >= 3:
                out.append((start, r - start))
        else:
            r += 1
    return tuple(out)


RUNS8: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs8(b) for b in range(256))
# Bits where a run of three can start without leaving its suit (ranks 7..Q of each suit).
_RUN3_START = sum(0x3F << (8 * s) for s in range(4))


def has_meld(hand: int) -> bool:
    """Quick test: does the hand hold a tierce or a carre of 9 or higher?"""
    if hand & (hand >> 1) & (hand >> 2) & _RUN3_START:
        return True
    return bool(hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC)


def _sequences(hand: int) -> list[Meld]:
    out: list[Meld] = []
    for s in range(4):
        for low, length in RUNS8[hand >> (8 * s) & 0xFF]:
            out += _run_melds(s, low, length)
    return out


_MELD_CACHE: dict[int, tuple[Meld, ...]] = {}


def best_melds(hand: int) -> tuple[Meld, ...]:
    """The partition of the hand into melds that scores most (a card in one meld only)."""
    cached = _MELD_CACHE.get(hand)
    if cached is not None:
        return cached
    if not has_meld(hand):
        return ()
    carres = [
        Meld("carre", tuple(s * 8 + r for s in range(4)), CARRE_POINTS[r], 4, r, None)
        for r in range(2, 8)
        if hand & RANK_MASK[r] == RANK_MASK[r]
    ]
    best: tuple[Meld, ...] = ()
    best_pts = -1
    for pick in range(1 << len(carres)):  # at most 2 carres in 8 cards
        chosen = [m for i, m in enumerate(carres) if pick >> i & 1]
        rest = hand
        for m in chosen:
            rest &= ~RANK_MASK[m.top]
        melds = tuple(chosen + _sequences(rest))
        pts = sum(m.points for m in melds)
        if pts > best_pts:
            best, best_pts = melds, pts
    if len(_MELD_CACHE) < 200_000:
        _MELD_CACHE[hand] = best
    return best


def find_melds(hand: int, trump: str | int, rules: Ruleset | None = None) -> list[Meld]:
    """The melds a hand can declare under a contract ([] where melds do not apply)."""
    code = contract_code(trump)
    if rules is not None and not rules.has_melds:
        return []
    if code == NT:
        return []
    return list(best_melds(hand))


def meld_key_club(m: Meld, code: int) -> tuple[int, int, int, int]:
    """Club: points, then longer run, then higher top card, then trump over plain."""
    run = m.length if m.kind == "sequence" else 0
    trump = 1 if (m.suit is not None and (m.suit == code or code == AT)) else 0
    return (m.points, run, m.top, trump)


def sequence_key_bulgarian(m: Meld) -> tuple[int, int]:
    """Bulgarian sequences: length, then top card."""
    return (m.length, m.top)


def counting_melds(
    rules: Ruleset, code: int, declared: list[tuple[int, tuple[Meld, ...]]]
) -> list[tuple[int, Meld, bool]]:
    """Which declared melds count. ``declared`` is (seat, melds) in declaration (play)
    order; returns (seat, meld, counts) for every declared meld."""
    out: list[tuple[int, Meld, bool]] = []
    if rules.legal == "bulgarian":
        best: list[tuple[int, int] | None] = [None, None]
        for seat, melds in declared:
            for m in melds:
                if m.kind == "sequence":
                    k = sequence_key_bulgarian(m)
                    t = seat % 2
                    bt = best[t]
                    if bt is None or k > bt:
                        best[t] = k
        b0, b1 = best
        seq_team: int | None
        if b0 is None and b1 is None:
            seq_team = None
        elif b1 is None or (b0 is not None and b0 > b1):
            seq_team = 0
        elif b0 is None or b1 > b0:
            seq_team = 1
        else:
            seq_team = None  # equal best: nobody scores sequences
        for seat, melds in declared:
            for m in melds:
                counts = m.kind == "carre" or seat % 2 == seq_team
                out.append((seat, m, counts))
        return out
    # club: only the team with the best meld scores its melds; ties to the first declarer
    best_key: tuple[int, int, int, int] | None = None
    best_team = None
    for seat, melds in declared:
        for m in melds:
            ck = meld_key_club(m, code)
            if best_key is None or ck > best_key:
                best_key, best_team = ck, seat % 2
    for seat, melds in declared:
        for m in melds:
            out.append((seat, m, seat % 2 == best_team))
    return out


# ---------------------------------------------------------------- scoring
@dataclass(frozen=True)
class DealScore:
    """The outcome of one deal's count, before hanging points from earlier deals."""

    totals: tuple[int, int]  # each team's points (cards + last trick + capot + melds + belote)
    points: tuple[int, int]  # what each team scores now (match units)
    outcome: str  # "made", "set", "dispute" (French) / "hanging" (Bulgarian)
    held: int  # points put aside for the winner of the next deal


def score_french(
    taker_team: int,
    card_pts: tuple[int, int] | list[int],
    tricks: tuple[int, int] | list[int],
    melds: tuple[int, int] | list[int],
    belotes: tuple[int, int] | list[int],
) -> DealScore:
    """classic / club: capot 252; takers must score more than the defenders, melds and
    belote included; set: defenders 162 (252 on their capot) plus the counting melds, each
    team its belote; level: dispute, the takers' cards and melds are held."""
    cards = list(card_pts)
    capot = 0 if tricks[1] == 0 else 1 if tricks[0] == 0 else None
    if capot is not None:
        cards[capot] = 252
        cards[1 - capot] = 0
    tk, df = taker_team, 1 - taker_team
    tot = [cards[i] + melds[i] + belotes[i] for i in (0, 1)]
    pts = [0, 0]
    held = 0
    if tot[tk] > tot[df]:
        pts = tot[:]
        outcome = "made"
    elif tot[tk] < tot[df]:
        pts[df] = (252 if capot == df else 162) + melds[0] + melds[1] + belotes[df]
        pts[tk] = belotes[tk]
        outcome = "set"
    else:
        pts[df] = tot[df]
        pts[tk] = belotes[tk]
        held = cards[tk] + melds[tk]
        outcome = "dispute"
    return DealScore((tot[0], tot[1]), (pts[0], pts[1]), outcome, held)


def score_coinche(
    contract: Contract,
    card_pts: tuple[int, int] | list[int],
    tricks: tuple[int, int] | list[int],
    belotes: tuple[int, int] | list[int],
    taker_took_all: bool,
    bid_only: bool = False,
) -> DealScore:
    """Coinche: the takers make a bid of points when their card points and belote reach it,
    capot when their side takes every trick, générale when the taker alone does. Made, not
    coinched: takers bid + card points (``bid_only``: the bid), defence its card points.
    Coinched x2 / surcoinched x4, made: takers 160 (252 on their capot) + bid x multiplier,
    defence nothing. Failed: defence 160 + bid x multiplier, takers nothing. Belotes always
    go to whoever announced them, on top."""
    tk, df = contract.taker_team, 1 - contract.taker_team
    cards = list(card_pts)
    if tricks[df] == 0:
        cards[tk], cards[df] = 252, 0
    elif tricks[tk] == 0:
        cards[df], cards[tk] = 252, 0
    bid = contract.bid or 0
    mult = contract.multiplier
    if bid == GENERALE_BID:
        made = taker_took_all
    elif bid == CAPOT_BID:
        made = tricks[df] == 0
    else:
        made = cards[tk] + belotes[tk] >= bid
    pts = [0, 0]
    if made and mult == 1:
        pts[tk] = bid + (0 if bid_only else cards[tk])
        pts[df] = cards[df]
    elif made:
        pts[tk] = (252 if tricks[df] == 0 else 160) + bid * mult
    else:
        pts[df] = 160 + bid * mult
    pts[0] += belotes[0]
    pts[1] += belotes[1]
    totals = (cards[0] + belotes[0], cards[1] + belotes[1])
    return DealScore(totals, (pts[0], pts[1]), "made" if made else "set", 0)


# Bulgarian rounding per contract code: (rounds up from, special ending, smaller goes up?)
_ROUND_UP_FROM = (6, 6, 6, 6, 6, 5)
_BOTH_END = (6, 6, 6, 6, 5, 4)
_SMALLER_UP = (False, False, False, False, True, True)


def round_one(x: int, code: int) -> int:
    """A single Bulgarian total in tens (suits and NT up from 6, All Trump up from 5)."""
    return x // 10 + (x % 10 >= _ROUND_UP_FROM[code])


def round_pair(a: int, b: int, code: int) -> tuple[int, int]:
    """Both teams' totals in tens, with the both-end-in-the-limit exception."""
    ra, rb = round_one(a, code), round_one(b, code)
    if a != b and a % 10 == b % 10 == _BOTH_END[code]:
        small_up = _SMALLER_UP[code]
        if a < b:
            ra = a // 10 + small_up
        else:
            rb = b // 10 + small_up
    return ra, rb


def score_bulgarian(
    code: int,
    multiplier: int,
    contract_team: int,
    card_pts: tuple[int, int] | list[int],
    tricks: tuple[int, int] | list[int],
    melds: tuple[int, int] | list[int],
    belotes: tuple[int, int] | list[int],
) -> DealScore:
    """Bulgarian: No Trump doubles cards and last trick; capot +90; the contract team must
    score more, else the whole deal goes over; Contre/Recontre: whoever scores more takes
    the whole deal x2/x4; equal totals hang. Results in tens."""
    f = 2 if code == NT else 1
    tot = [card_pts[i] * f + melds[i] + belotes[i] for i in (0, 1)]
    if tricks[1] == 0:
        tot[0] += 90
    elif tricks[0] == 0:
        tot[1] += 90
    ct, ot = contract_team, 1 - contract_team
    pts = [0, 0]
    held = 0
    if multiplier == 1:
        if tot[ct] > tot[ot]:
            pts = list(round_pair(tot[0], tot[1], code))
            outcome = "made"
        elif tot[ct] < tot[ot]:
            pts[ot] = round_one(tot[0] + tot[1], code)
            outcome = "set"
        else:
            r = round_pair(tot[0], tot[1], code)
            pts[ot] = r[ot]
            held = r[ct]
            outcome = "hanging"
    else:
        whole = round_one((tot[0] + tot[1]) * multiplier, code)
        if tot[ct] > tot[ot]:
            pts[ct] = whole
            outcome = "made"
        elif tot[ct] < tot[ot]:
            pts[ot] = whole
            outcome = "set"
        else:
            held = whole
            outcome = "hanging"
    return DealScore((tot[0], tot[1]), (pts[0], pts[1]), outcome, held)
