"""What one seat knows about a deal, read from its ``SeatView`` only.

Besides its own hand and the public history, a seat can deduce a lot from the play: a
player who did not follow suit is void in it, a player who did not trump (or overtrump)
when the rules would have made him holds no trump (or none higher than the card to beat).
Those deductions are made exactly, by asking the play model whether the card played would
still have been legal had the player also held card ``x``: when not, ``x`` was never in
that hand.  Announcements place cards too: the turned card goes to the taker, a belote
announced with one of K/Q places the other, and melds shown after the first trick place
their cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from engine.ai.auction import SeenBid, others_bids
from engine.ai.tables import (
    CONTRACT_CODES,
    FULL,
    POINTS,
    RULESET_KINDS,
    last_trick_bonus,
    legal_mask,
)
from engine.errors import EngineError

if TYPE_CHECKING:
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

    def note_plays(cards: list[tuple[int, int]]) -> None:
        nonlocal gone
        prefix: list[int] = []
        for s, c in cards:
            if prefix:
                excluded[s] |= _excluded_by(kind, code, c, prefix)
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
    )


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
