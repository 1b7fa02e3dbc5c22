"""What the others' bids say of their hands: the expert's model of the auction.

Every seat bid on the five cards it held before the rest was dealt.  Given a world (the
whole hand each seat was dealt), the expert asks, for every way of choosing those five
cards from it, whether the hard level's evaluation would have bid what the seat bid; the
world's *auction likelihood* is the share of such choices that agree, each disagreeing
bid counting ``MISMATCH`` instead of 1.  The hard evaluation is the model because it is
what most players do: take or call on strength, pass without it.  A world in which the
taker holds no trump honour, or in which a player who passed holds the jack and nine of
the turned suit, becomes unlikely, not impossible (``MISMATCH`` > 0), so a player who
bids otherwise only blurs the picture.

``seen_bids`` replays the auction to recover what each bidder could choose (the legal
calls at that turn, as the engine offers them); ``auction_likelihood`` is the Python
reference of the compiled core's weighting (``_dds.c``: the same choices in the same
order, the same floating-point operations), and ``bid_rows`` is what the core reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from engine.ai.bidding import BidTurn, auction_state, bid_on
from engine.ai.tables import CONTRACT_CODES, CONTRACT_TEXTS, bits
from engine.rulesets import get_ruleset

if TYPE_CHECKING:
    from engine.match import SeatView

MISMATCH = 0.15  # likelihood factor of a bid the hard evaluation would not have made
MODEL = "hard"  # whose bidding the others are assumed to follow
AUCTION_CARDS = 5  # cards held during the auction, in every ruleset

# How a bid is told to the compiled core.
PASS, TAKE, CONTRE, RECONTRE = -1, -2, 6, 7
TAKE_ROUND, NAME_ROUND, BULGARIAN_ROUND = 0, 1, 2


@dataclass(frozen=True)
class SeenBid:
    """A bid another seat made, with everything it saw when it made it but its hand."""

    turn: BidTurn
    said: str


def legal_texts(
    ruleset: str, dealer: int, turned: int | None, before: Sequence[tuple[int, str]], seat: int
) -> tuple[str, ...]:
    """The calls ``seat`` could make after ``before``, in the engine's order."""
    rules = get_ruleset(ruleset)
    if rules.auction == "french":
        if len(before) < 4:  # the first round (a take ends the auction)
            return ("pass", "take")
        turned_suit = "CDHS"[turned >> 3] if turned is not None else None
        bids = tuple(f"bid {s}" for s in "CDHS" if s != turned_suit)
        if rules.dealer_must_choose and seat == dealer and len(before) == 7:
            return bids
        return ("pass", *bids)
    code, bidder, mult = auction_state(before)
    low = -1 if code is None else code
    out = ["pass", *(f"bid {t}" for t in CONTRACT_TEXTS[low + 1 :])]
    if code is not None and bidder is not None:
        same_team = seat % 2 == bidder % 2
        if mult == 1 and not same_team:
            out.append("contre")
        elif mult == 2 and same_team:
            out.append("recontre")
    return tuple(out)


def seen_bids(view: SeatView) -> tuple[SeenBid, ...]:
    """The other seats' bids of this deal, each with what its bidder could choose."""
    assert view.seat is not None  # a seat's view
    return others_bids(view.ruleset, view.seat, view.dealer, view.turned, tuple(view.bids))


def others_bids(
    ruleset: str, me: int, dealer: int, turned: int | None, bids: tuple[tuple[int, str], ...]
) -> tuple[SeenBid, ...]:
    """:func:`seen_bids` from the auction's public facts (none in Coinche: the bids of an
    8-card hand have no model here yet, so they weigh no world)."""
    if get_ruleset(ruleset).auction == "coinche":
        return ()
    out: list[SeenBid] = []
    for i, (seat, said) in enumerate(bids):
        if seat == me:
            continue
        legal = legal_texts(ruleset, dealer, turned, bids[:i], seat)
        out.append(SeenBid(BidTurn(ruleset, seat, dealer, turned, bids[:i], legal), said))
    return tuple(out)


def auction_likelihood(seen: Sequence[SeenBid], dealt: Sequence[int], turned: int | None) -> float:
    """How plausible the hands ``dealt`` (each seat's whole hand, cards played included)
    make the bids ``seen`` (see the module docstring)."""
    weight = 1.0
    for seat in range(4):
        mine = tuple(b for b in seen if b.turn.seat == seat)
        if mine:
            pool = dealt[seat] & ~(1 << turned) if turned is not None else dealt[seat]
            weight *= _seat_likelihood(mine, pool)
    return weight


@lru_cache(maxsize=65536)
def _seat_likelihood(bids: tuple[SeenBid, ...], pool: int) -> float:
    cards = bits(pool)
    total = 0.0
    count = 0
    for five in combinations(cards, AUCTION_CARDS):
        hand = 0
        for c in five:
            hand |= 1 << c
        m = 1.0
        for b in bids:
            if bid_on(hand, b.turn, MODEL) != b.said:
                m *= MISMATCH
        total += m
        count += 1
    return total / count if count else 1.0


def bid_rows(seen: Sequence[SeenBid]) -> list[tuple[int, ...]]:
    """The bids as the compiled core reads them: (seat, round, turned, dealer's bonus,
    pass legal, contre legal, recontre legal, contract so far, ours, said, *options)."""
    rows = []
    for b in seen:
        t = b.turn
        legal = set(t.legal)
        if t.ruleset == "bulgarian":
            rnd = BULGARIAN_ROUND
        else:
            rnd = TAKE_ROUND if "take" in legal else NAME_ROUND
        code, bidder, _mult = auction_state(t.bids)
        ours = int(bidder is not None and bidder % 2 == t.seat % 2)
        options = [CONTRACT_CODES[x[4:]] for x in t.legal if x.startswith("bid ")]
        rows.append(
            (
                t.seat,
                rnd,
                t.turned if t.turned is not None else -1,
                int((t.seat - t.dealer) % 4 == 0),
                int("pass" in legal),
                int("contre" in legal),
                int("recontre" in legal),
                -1 if code is None else code,
                ours,
                said_code(b.said),
                *options,
            )
        )
    return rows


def said_code(text: str) -> int:
    if text == "pass":
        return PASS
    if text == "take":
        return TAKE
    if text == "contre":
        return CONTRE
    if text == "recontre":
        return RECONTRE
    return CONTRACT_CODES[text[4:]]


__all__ = [
    "MISMATCH",
    "SeenBid",
    "auction_likelihood",
    "bid_rows",
    "legal_texts",
    "others_bids",
    "seen_bids",
]
