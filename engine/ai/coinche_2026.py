"""The Coinche bidders as they were before issue 66, kept as the arena's baseline.

``belote arena --ruleset coinche --a expert --b expert-2026`` (and ``hard`` /
``hard-2026``) plays the partner-aware bidding against these copies on the same decks:
the baseline levels play their cards exactly as ``expert`` / ``hard`` do (same plan, same
seeds) and bid Coinche as the code of December 2026 did, so a duel measures the bidding
alone.  Nothing else uses them; outside Coinche they bid as the present level.  Frozen on
purpose: change the present bidders, not these.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.ai.bidding import (
    COINCHE_AGAINST_A_BID,
    COINCHE_AVERAGE,
    COINCHE_TAKERS_OVER,
    BidTurn,
    CoincheStyle,
    coinche_bid_text,
    coinche_estimate,
    coinche_state,
    parse_coinche_bid,
    sure_capot,
)
from engine.ai.tables import CONTRACT_TEXTS, FULL, bits
from engine.contract import CAPOT_BID, GENERALE_BID

if TYPE_CHECKING:
    from engine.match import SeatView

# The baseline levels and the present level each one plays its cards as.
BASELINES = {"hard-2026": "hard", "expert-2026": "expert"}

STYLES_2026: dict[str, CoincheStyle] = {
    "hard": CoincheStyle(margin=10, coinche=25, surcoinche=35, support=1.0, own_over_partner=15),
}
SAMPLES_2026 = 128
MARGIN_2026 = 10.0
DOUBLE_MARGIN_2026 = {"coinche": 25.0, "surcoinche": 40.0}
FIT_SLACK_2026 = 10.0
DEFENCE_2026 = 10.0
REJECT_TRIES_2026 = 30


def baseline_bid(view: SeatView, level: str, rng: random.Random) -> str:
    """The Coinche auction action of baseline ``level`` (``hard-2026`` / ``expert-2026``)."""
    if level == "expert-2026":
        return _expert(view, rng)
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    turn = BidTurn.of_view(view)
    return _hard(turn, dict.fromkeys(turn.legal), hand)


def _bids_of(bids: tuple[tuple[int, str], ...], seat: int) -> list[tuple[int, int]]:
    return [b for s, t in bids if s == seat and (b := parse_coinche_bid(t)) is not None]


def _hard(turn: BidTurn, legal: dict[str, None], hand: int) -> str:
    """``bidding._coinche`` for hard as it was (see its docstring there in git history)."""
    code, bidder, mult, standing = coinche_state(turn.bids)
    ours = bidder is not None and bidder % 2 == turn.seat % 2
    contracts = [c for c in range(6) if any(t.endswith(" " + CONTRACT_TEXTS[c]) for t in legal)]
    style = STYLES_2026["hard"]
    partner = (turn.seat + 2) % 4
    theirs_bid = any(s % 2 != turn.seat % 2 and t.startswith("bid ") for s, t in turn.bids)

    def foresee(c: int) -> float:
        own = coinche_estimate(hand, c) - (COINCHE_AGAINST_A_BID if theirs_bid else 0.0)
        told = [v for v, k in _bids_of(turn.bids, partner) if k == c]
        if told:
            return max(told) + style.margin + style.support * (own - COINCHE_AVERAGE[c])
        return own

    if mult > 1:
        sure = code is not None and foresee(code) >= standing + style.surcoinche
        return "surcoinche" if "surcoinche" in legal and sure else "pass"
    if "coinche" in legal and code is not None and not ours:
        over = max(0.0, coinche_estimate(hand, code) - COINCHE_AVERAGE[code])
        if standing + COINCHE_TAKERS_OVER - over <= standing - style.coinche:
            return "coinche"
    for c in contracts:
        capot = coinche_bid_text(CAPOT_BID, c)
        if capot in legal and sure_capot(hand, c):
            return capot
    if ours:
        if any(s == turn.seat for s, t in turn.bids if parse_coinche_bid(t) is not None):
            return "pass"
        floor = (foresee(code) if code is not None and code in contracts else 0.0) + (
            style.own_over_partner
        )
    else:
        floor = 0.0
    value = max(80, standing + 10)
    best: tuple[float, str] = (floor, "pass")
    for c in contracts:
        text = coinche_bid_text(value, c)
        f = foresee(c)
        if text in legal and f >= value + style.margin and f > best[0]:
            best = (f, text)
    return best[1]


def _fits(view: SeatView, hands: list[int]) -> bool:
    """The loose fit of a sampled deal to the auction, as it was."""
    called = None
    for s, text in view.bids:
        bid = parse_coinche_bid(text)
        called = bid[1] if bid is not None else called
        if s == view.seat:
            continue
        if bid is not None:
            value, code = bid
            if coinche_estimate(hands[s], code) < min(value, 160) - FIT_SLACK_2026:
                return False
        elif (
            text == "coinche"
            and called is not None
            and coinche_estimate(hands[s], called) < COINCHE_AVERAGE[called] + DEFENCE_2026
        ):
            return False
    return True


def _expert(view: SeatView, rng: random.Random) -> str:
    """``expert_bidding._coinche`` as it was: every legal bid, coinche and surcoinche
    valued on 128 loosely fitting sampled deals against a pass."""
    from engine.ai.expert_bidding import _Outcomes  # the playouts, unchanged by issue 66

    me = view.seat
    assert me is not None
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    pool = bits(FULL & ~hand)
    deals = []
    for _ in range(SAMPLES_2026):
        for _attempt in range(REJECT_TRIES_2026):
            cards = pool[:]
            rng.shuffle(cards)
            hands = [0, 0, 0, 0]
            hands[me] = hand
            i = 0
            for s in range(4):
                if s == me:
                    continue
                for c in cards[i : i + 8]:
                    hands[s] |= 1 << c
                i += 8
            if _fits(view, hands):
                break
        deals.append((hands, cards[i:]))
    legal = [a.text for a in view.legal]
    code, bidder, mult, standing = coinche_state(view.bids)
    sampled = _Outcomes(view, deals)
    passing = 0.0
    if code is not None and bidder is not None:
        passing = sampled.value(code, bidder, mult, standing)
    best_value, best_text = passing, "pass"
    for text in legal:
        bid = parse_coinche_bid(text)
        if bid is not None and bid[0] != GENERALE_BID:
            gain = sampled.value(bid[1], me, 1, bid[0]) - MARGIN_2026
        elif text in ("coinche", "surcoinche") and code is not None and bidder is not None:
            doubled = 2 if text == "coinche" else 4
            gain = sampled.value(code, bidder, doubled, standing) - DOUBLE_MARGIN_2026[text]
        else:
            continue
        if gain > best_value:
            best_value, best_text = gain, text
    return best_text
