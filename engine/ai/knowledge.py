"""What one seat knows about a deal, read from its ``SeatView`` only.

Besides its own hand and the public history, a seat can deduce a lot from the play: a
player who did not follow suit is void in it, a player who did not trump (or overtrump)
when the rules would have made him holds no trump (or none higher than the card to beat).
Those deductions are made exactly, by asking the play model whether the card played would
still have been legal had the player also held card ``x``: when not, ``x`` was never in
that hand.  Announcements place cards too: the turned card goes to the taker, a belote
announced with one of K/Q places the other, and melds shown after the first trick place
their cards.  What was not announced says something too, but only of players who always
announce (every bot does; a person may forget), so it is kept apart (``shown_melds``,
``unannounced``) for the search to weigh its worlds by, never to rule a world out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from engine.ai.auction import SeenBid, others_bids
from engine.ai.tables import (
    AT,
    CONTRACT_CODES,
    FULL,
    NT,
    POINTS,
    RULESET_KINDS,
    last_trick_bonus,
    legal_mask,
)
from engine.errors import EngineError
from engine.rulesets import get_ruleset
from engine.simulate import BELOTE_MASK

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.core import Meld
    from engine.match import SeatView


@dataclass
class Knowledge:
    """The play-phase state as one seat sees it, in masks."""

    seat: int
    kind: int
    code: int
    taker: int
    multiplier: int
    hand: int
    played: int  # cards gone in finished tricks and the current trick
    trick: list[int]  # cards of the current trick, in order
    leader: int  # seat that led the current trick
    hand_sizes: tuple[int, int, int, int]
    excluded: list[int]  # per seat: cards it cannot hold
    known: list[int]  # per seat: cards it is known to hold (still in hand)
    points: list[int]  # card points (deal units, No Trump doubled) taken by each team
    won: int  # bit t: team t took a trick
    tricks_done: int
    belote_pts: list[int]
    meld_pts: list[int]
    ruleset: str
    # Every card played this deal, in order: (seat, card, trick so far, cards gone before).
    history: list[tuple[int, int, tuple[int, ...], int]] = field(default_factory=list)
    turned: int | None = None  # the French turned card (it went to the taker)
    dealer: int = 0
    bids: tuple[tuple[int, str], ...] = ()  # the auction of this deal, in order
    bid: int = 0  # Coinche: the contract's value (the deal is scored by it); 0 elsewhere
    # What the others did not announce, for the worlds to agree with (``INFER_ANNOUNCED``):
    # per seat, the melds it showed after the first trick, as ``points << 32 | cards``
    # (0: it showed none), or -1 when not known (the seat's own, before the melds are
    # shown, or a deal without melds) ...
    shown_melds: tuple[int, int, int, int] = (-1, -1, -1, -1)
    # ... and the cards it did not hold when it played a king or queen of a belote
    # without announcing it (the other card of the pair, still unplayed then).
    unannounced: tuple[int, int, int, int] = (0, 0, 0, 0)

    @cached_property
    def seen(self) -> tuple[SeenBid, ...]:
        """The other seats' bids, with what each could choose (replayed only when the
        search weighs worlds by the auction: most decisions never ask)."""
        return others_bids(self.ruleset, self.seat, self.dealer, self.turned, self.bids)

    @property
    def unseen(self) -> int:
        """Cards held by the three other seats."""
        return FULL & ~self.hand & ~self.played

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def cards_left(self) -> int:
        """Cards still in hands (all seats)."""
        return sum(self.hand_sizes)


def knowledge_from_view(view: SeatView) -> Knowledge:
    """Build the play-phase knowledge of ``view.seat`` (view must be in the play phase)."""
    contract = view.contract
    seat = view.seat
    if contract is None or seat is None:
        raise EngineError("The AI plays from a seat's view in the play phase.")
    code = CONTRACT_CODES[contract.trump]
    kind = RULESET_KINDS[view.ruleset]
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    excluded = [0, 0, 0, 0]
    known = [0, 0, 0, 0]
    played = 0
    points = [0, 0]
    won = 0
    pts = POINTS[code]

    history: list[tuple[int, int, tuple[int, ...], int]] = []
    gone = 0

    unannounced = [0, 0, 0, 0]
    announced = set(view.belotes)

    def note_plays(cards: list[tuple[int, int]]) -> None:
        nonlocal gone
        prefix: list[int] = []
        for s, c in cards:
            if prefix:
                excluded[s] |= _excluded_by(kind, code, c, prefix)
            if (s, c) not in announced:
                unannounced[s] |= _belote_unheld(code, c, prefix, gone)
            history.append((s, c, tuple(prefix), gone))
            prefix.append(c)
            gone |= 1 << c

    for t in view.tricks:
        cards = list(t.cards)
        note_plays(cards)
        trick_cards = [c for _, c in cards]
        for c in trick_cards:
            played |= 1 << c
        winner = t.winner
        team = winner & 1
        points[team] += sum(pts[c] for c in trick_cards)
        won |= 1 << team
    if len(view.tricks) == 8:
        # The deal is over; the last trick bonus belongs to the last winner.
        points[view.tricks[-1].winner & 1] += last_trick_bonus(code)
    current = list(view.trick)
    note_plays(current)
    trick = [c for _, c in current]
    for c in trick:
        played |= 1 << c
    if current:
        leader = current[0][0]
    elif view.to_move is not None:
        leader = view.to_move
    else:
        leader = view.leader if view.leader is not None else 0
    # Cards placed by announcements.
    if view.turned is not None and not (played >> view.turned & 1):
        known[contract.taker] |= 1 << view.turned
    belote_pts = [0, 0]
    for s, c in view.belotes:
        belote_pts[s & 1] += 20
        other = c ^ 3  # Q <-> K of the same suit
        if not (played >> other & 1):
            known[s] |= 1 << other
    meld_pts = [0, 0]
    for s, meld, counts in view.melds:
        if counts:
            meld_pts[s & 1] += meld.points
        for c in meld.cards:
            if not (played >> c & 1):
                known[s] |= 1 << c
    known[seat] = hand
    for s in range(4):
        if s != seat:
            known[s] &= ~hand
            excluded[s] |= hand | played
            excluded[s] &= ~known[s]
    return Knowledge(
        seat=seat,
        kind=kind,
        code=code,
        taker=contract.taker,
        multiplier=contract.multiplier,
        hand=hand,
        played=played,
        trick=trick,
        leader=leader,
        hand_sizes=view.hand_sizes,
        excluded=excluded,
        known=known,
        points=points,
        won=won,
        tricks_done=len(view.tricks),
        belote_pts=belote_pts,
        meld_pts=meld_pts,
        ruleset=view.ruleset,
        history=history,
        turned=view.turned,
        dealer=view.dealer,
        bids=tuple(view.bids),
        bid=contract.bid or 0,
        shown_melds=_shown_melds(view, seat, code),
        unannounced=(unannounced[0], unannounced[1], unannounced[2], unannounced[3]),
    )


def _belote_unheld(code: int, card: int, prefix: list[int], gone: int) -> int:
    """The card a seat did not hold when it played ``card`` on ``prefix`` without a belote:
    the other of a king and queen that make one, when that one was still unplayed and the
    rules would have let the seat announce with ``card`` had it held both (in All Trump,
    only on a lead or in the suit led).  Every bot announces whenever it can; a person may
    forget, which is why the worlds only weigh this (``ANNOUNCE_MISMATCH``)."""
    if not BELOTE_MASK[code] >> card & 1:
        return 0
    other = card ^ 3  # Q <-> K of the same suit
    if gone >> other & 1:
        return 0
    if code == AT and prefix and prefix[0] >> 3 != card >> 3:
        return 0
    return 1 << other


def melds_signature(melds: Iterable[Meld]) -> int:
    """Melds as one number, ``points << 32 | cards``: equal for the melds a seat showed
    and those a world's hand would have made it show (0: none)."""
    points = cards = 0
    for meld in melds:
        points += meld.points
        for c in meld.cards:
            cards |= 1 << c
    return points << 32 | cards


def _shown_melds(view: SeatView, seat: int, code: int) -> tuple[int, int, int, int]:
    """Each other seat's melds shown after the first trick (``melds_signature``; -1: not
    known)."""
    if code == NT or not view.tricks or not get_ruleset(view.ruleset).has_melds:
        return (-1, -1, -1, -1)
    shown = [melds_signature(m for s, m, _counts in view.melds if s == x) for x in range(4)]
    shown[seat] = -1
    return (shown[0], shown[1], shown[2], shown[3])


_EXCL_CACHE: dict[tuple[int, int, int, tuple[int, ...]], int] = {}


def _excluded_by(kind: int, code: int, card: int, prefix: list[int]) -> int:
    """Cards that the player of ``card`` on ``prefix`` cannot have held at that moment."""
    key = (kind, code, card, tuple(prefix))
    hit = _EXCL_CACHE.get(key)
    if hit is not None:
        return hit
    out = 0
    bit = 1 << card
    for x in range(32):
        if x == card or x in prefix:
            continue
        if not legal_mask(kind, code, bit | (1 << x), prefix) & bit:
            out |= 1 << x
    if len(_EXCL_CACHE) < 100_000:
        _EXCL_CACHE[key] = out
    return out
