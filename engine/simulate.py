"""Random full deals on the fast core, for the benchmark and for AI playouts.

The engine has no randomness of its own: the caller passes a ``random.Random``. Each deal
is dealt as the rules say, bid at random among the legal calls, played at random among the
legal cards (belote always announced, melds always declared) and scored with the same core
functions the Match uses.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from engine.contract import AT, NT
from engine.core import (
    HIGHER,
    LAST_TRICK,
    LEGAL_KIND,
    ORDER,
    POINTS,
    SUIT_MASK,
    TRUMP_MASK,
    DealScore,
    best_melds,
    counting_melds,
    has_meld,
    score_bulgarian,
    score_french,
)
from engine.core import LEGAL_CLASSIC as _CLASSIC
from engine.core import LEGAL_CLUB as _CLUB
from engine.rulesets import Ruleset

# Kings and queens that may make a belote under each contract.
BELOTE_MASK: tuple[int, ...] = tuple(
    0
    if code == NT
    else sum(1 << (s * 8 + r) for s in range(4) for r in (5, 6) if code == AT or s == code)
    for code in range(6)
)


def _first_hands(deck: list[int], dealer: int) -> list[int]:
    hands = [0, 0, 0, 0]
    pos = 0
    for packet in (3, 2):
        for i in range(1, 5):
            seat = (dealer + i) & 3
            for c in deck[pos : pos + packet]:
                hands[seat] |= 1 << c
            pos += packet
    return hands


def _random_french_auction(
    rules: Ruleset, turned: int, dealer: int, rnd: Callable[[], float]
) -> tuple[int, int] | None:
    for i in range(1, 5):
        if rnd() < 0.5:
            return turned >> 3, (dealer + i) & 3
    others = [s for s in range(4) if s != turned >> 3]
    for i in range(1, 5):
        seat = (dealer + i) & 3
        if i == 4 and rules.dealer_must_choose:
            return others[int(rnd() * 3)], seat
        pick = int(rnd() * 4)
        if pick < 3:
            return others[pick], seat
    return None


def _random_bulgarian_auction(dealer: int, rnd: Callable[[], float]) -> tuple[int, int, int] | None:
    code = -1
    bidder = -1
    mult = 1
    passes = 0
    seat = (dealer + 1) & 3
    while True:
        # options: pass, each higher call, contre / recontre when allowed
        n_bids = 5 - code
        extra = 0
        if code >= 0:
            same = (seat ^ bidder) & 1 == 0
            if (mult == 1 and not same) or (mult == 2 and same):
                extra = 1
        pick = int(rnd() * (1 + n_bids + extra))
        if pick == 0:
            passes += 1
            if code < 0 and passes == 4:
                return None
            if code >= 0 and passes == 3:
                return code, bidder, mult
        elif pick <= n_bids:
            code += pick
            bidder = seat
            mult = 1
            passes = 0
        else:
            mult *= 2
            passes = 0
        seat = (seat + 1) & 3


def random_deal(
    rules: Ruleset,
    deck: list[int],
    dealer: int,
    rng: Random,
    trace: list[tuple[Any, ...]] | None = None,
) -> DealScore | None:
    """Play one deal at random; None when everybody passed (a redeal). ``trace``, when
    given, receives ("contract", code, taker, multiplier), ("melds", seat) for each
    declaration and ("play", seat, card, legal mask, belote) for each card, so that tests
    can replay the deal through ``Match`` and compare."""
    rnd = rng.random
    hands = _first_hands(deck, dealer)
    if rules.auction == "french":
        turned = deck[20]
        taken = _random_french_auction(rules, turned, dealer, rnd)
        if taken is None:
            return None
        code, taker = taken
        mult = 1
        hands[taker] |= 1 << turned
        pos = 21
        for i in range(1, 5):
            seat = (dealer + i) & 3
            n = 2 if seat == taker else 3
            for c in deck[pos : pos + n]:
                hands[seat] |= 1 << c
            pos += n
    else:
        got = _random_bulgarian_auction(dealer, rnd)
        if got is None:
            return None
        code, taker, mult = got
        pos = 20
        for i in range(1, 5):
            seat = (dealer + i) & 3
            for c in deck[pos : pos + 3]:
                hands[seat] |= 1 << c
            pos += 3
    kind = LEGAL_KIND[rules.legal]
    if trace is not None:
        trace.append(("contract", code, taker, mult))
    melds = [0, 0]
    if rules.has_melds and code != NT:
        declared = []
        for i in range(1, 5):
            seat = (dealer + i) & 3
            if has_meld(hands[seat]):
                declared.append((seat, best_melds(hands[seat])))
                if trace is not None:
                    trace.append(("melds", seat))
        if declared:
            for s, meld, counts in counting_melds(rules, code, declared):
                if counts:
                    melds[s & 1] += meld.points
    order = ORDER[code]
    points = POINTS[code]
    higher = HIGHER[code]
    trump_mask = TRUMP_MASK[code]
    bel_mask = BELOTE_MASK[code]
    card_pts = [0, 0]
    tricks = [0, 0]
    belotes = [0, 0]
    leader = (dealer + 1) & 3
    for t in range(8):
        seat = leader
        # the lead: any card
        m = hands[seat]
        n = m.bit_count()
        if n > 1:
            i = int(rnd() * n)
            while i:
                m &= m - 1
                i -= 1
        if trace is not None:
            trace.append(("play", seat, (m & -m).bit_length() - 1, hands[seat], False))
        card = (m & -m).bit_length() - 1
        hands[seat] ^= 1 << card
        if bel_mask >> card & 1 and hands[seat] >> (card ^ 3) & 1:
            belotes[seat & 1] += 20
            if trace is not None:
                trace[-1] = (*trace[-1][:4], True)
        lead = best = card
        lead_suit = SUIT_MASK[lead >> 3]
        trump_led = trump_mask >> lead & 1
        best_seat = seat
        pts = points[card]
        for _ in range(3):
            seat = (seat + 1) & 3
            h = hands[seat]
            # legal cards: the rule of core.legal_given, inlined for speed
            follow = h & lead_suit
            if follow:
                m = (follow & higher[best]) or follow if trump_led else follow
            elif code >= NT or not h & trump_mask:
                m = h
            else:
                trumps = h & trump_mask
                if kind == _CLUB:
                    m = (trumps & higher[best]) or trumps if best >> 3 == code else trumps
                elif best_seat == (seat + 2) & 3:
                    m = h
                elif best >> 3 == code:
                    m = (trumps & higher[best]) or (trumps if kind == _CLASSIC else h)
                else:
                    m = trumps
            legal_m = m
            n = m.bit_count()
            if n > 1:
                i = int(rnd() * n)
                while i:
                    m &= m - 1
                    i -= 1
            card = (m & -m).bit_length() - 1
            hands[seat] = h ^ (1 << card)
            bel = (
                bel_mask >> card & 1
                and h >> (card ^ 3) & 1
                and (code != AT or card >> 3 == lead >> 3)
            )
            if bel:
                belotes[seat & 1] += 20
            if trace is not None:
                trace.append(("play", seat, card, legal_m, bool(bel)))
            pts += points[card]
            if card >> 3 == best >> 3:
                if order[card] > order[best]:
                    best = card
                    best_seat = seat
            elif card >> 3 == code:
                best = card
                best_seat = seat
        if t == 7:
            pts += LAST_TRICK
        card_pts[best_seat & 1] += pts
        tricks[best_seat & 1] += 1
        leader = best_seat
    if rules.auction == "french":
        return score_french(taker & 1, card_pts, tricks, melds, belotes)
    return score_bulgarian(code, mult, taker & 1, card_pts, tricks, melds, belotes)


def run_random_deals(rules: Ruleset, count: int, rng: Random) -> tuple[int, int]:
    """Play ``count`` random deals (redeals included in the count of tries); returns
    (deals scored, redeals)."""
    deck = list(range(32))
    shuffle = rng.shuffle
    scored = redeals = 0
    for k in range(count):
        shuffle(deck)
        if random_deal(rules, deck, k & 3, rng) is None:
            redeals += 1
        else:
            scored += 1
    return scored, redeals
