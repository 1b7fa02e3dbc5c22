"""Expert bidding: play each candidate contract out on sampled deals and bid the best.

For every contract the seat may call (and for Contre / Recontre), the unseen cards are
dealt at random many times (the same deals for every candidate, so the comparison is
fair); each deal is played out by the normal level's rules and scored by the ruleset's
rules.  A call is made when its mean score beats passing (valued at 0: a redeal or an
auction left to the others) by a safety margin; otherwise the hand evaluation of the
hard level has the last word, which keeps the expert sane on hands the rollouts misjudge.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.ai.bidding import auction_state, heuristic_bid, strength
from engine.ai.scoring import deal_value
from engine.ai.search import rollout
from engine.ai.tables import CONTRACT_CODES, FULL, RULESET_KINDS, bits
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.match import SeatView

SAMPLES = 96  # deals played out by the rules of thumb per decision
MARGIN = 12.0
CONTRE_MARGIN = 20.0
VETO_MARGIN = 20.0  # French: pass a hand the evaluation would take if it loses this much
PROPOSE_MARGIN = 40.0  # French: call a hand the evaluation passes if it wins this much
REJECT_TRIES = 30
CALL_FLOOR = 15.0  # bidding points a caller surely has (5 cards)
PASS_CEILING = 30.0  # bidding points a player who passed on the turned card surely lacks


def _seat(view: SeatView) -> int:
    """The seat the AI bids for (a seat's view always has one)."""
    if view.seat is None:
        raise EngineError("The AI bids from a seat's view.")
    return view.seat


def _deals(view: SeatView, rng: random.Random, n: int) -> list[tuple[list[int], list[int]]]:
    """Full 8-card hands for every seat, mine holding my cards (and the turned card)."""
    me = _seat(view)
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    turned = view.turned
    pool_mask = FULL & ~hand
    if turned is not None:
        pool_mask &= ~(1 << turned)
    pool = bits(pool_mask)
    out = []
    for _ in range(n):
        for _attempt in range(REJECT_TRIES):
            cards = pool[:]
            rng.shuffle(cards)
            hands = [0, 0, 0, 0]
            hands[me] = hand
            i = 0
            for s in range(4):
                if s == me:
                    continue
                for c in cards[i : i + 5]:
                    hands[s] |= 1 << c
                i += 5
            if _fits_auction(view, hands):
                break
        out.append((hands, cards[i:]))
    return out


def _fits_auction(view: SeatView, hands: list[int]) -> bool:
    """Would the others have bid as they did with these 5 cards?  Loose bounds only: a
    call needs a fair hand for its contract, a pass on the turned card a not-too-strong
    one, so that samples follow the auction without trusting it blindly."""
    turned = view.turned
    for s, text in view.bids:
        if s == view.seat:
            continue
        if text.startswith("bid "):
            if strength(hands[s], CONTRACT_CODES[text[4:]]) < CALL_FLOOR:
                return False
        elif text == "pass" and turned is not None:
            full = hands[s] | (1 << turned)
            if strength(full, turned >> 3) >= PASS_CEILING:
                return False
    return True


def _complete(view: SeatView, hands: list[int], rest: list[int], taker: int) -> list[int]:
    """Deal the rest of the deck after the auction (the taker gets the turned card)."""
    h = list(hands)
    i = 0
    turned = view.turned
    for s in range(4):
        n = 3
        if turned is not None and s == taker:
            h[s] |= 1 << turned
            n = 2
        for c in rest[i : i + n]:
            h[s] |= 1 << c
        i += n
    return h


def _belotes(hands: list[int], code: int) -> list[int]:
    out = [0, 0]
    suits = range(4) if code == 5 else ([code] if code < 4 else [])
    for s in range(4):
        for suit in suits:
            if hands[s] >> (suit * 8 + 5) & 1 and hands[s] >> (suit * 8 + 6) & 1:
                out[s & 1] += 20
    return out


class _Outcomes:
    """How each sampled deal ends under a contract, played out once per (trump, taker):
    Contre and Recontre only change what the same outcome is worth.

    Rolled out by the rules of thumb, not solved double dummy: solving 32 deals exactly
    per contract bid more and measured no better (bench/arena.md).
    """

    def __init__(self, view: SeatView, deals: list[tuple[list[int], list[int]]]) -> None:
        self.view = view
        self.deals = deals
        self.kind = RULESET_KINDS[view.ruleset]
        self._cache: dict[tuple[int, int], list[tuple[int, list[int]]]] = {}

    def outcomes(self, code: int, taker: int) -> list[tuple[int, list[int]]]:
        """Per deal: my team's card points minus the other's, and the belotes."""
        key = (code, taker)
        if key not in self._cache:
            me = _seat(self.view)
            leader = (self.view.dealer + 1) % 4
            out = []
            for hands, rest in self.deals:
                h = _complete(self.view, hands, rest, taker)
                d = rollout(self.kind, code, taker, h, leader, [], 0, 0)
                out.append((d if me % 2 == 0 else -d, _belotes(h, code)))
            self._cache[key] = out
        return self._cache[key]

    def value(self, code: int, taker: int, mult: int) -> float:
        """My team's mean deal score minus the other's under this contract."""
        me = _seat(self.view)
        scores = [
            deal_value(self.kind, code, mult, taker & 1, me & 1, diff, (0, 0), belotes)
            for diff, belotes in self.outcomes(code, taker)
        ]
        return sum(scores) / len(scores)


def expert_bid(view: SeatView, rng: random.Random) -> str:
    """The expert's auction action text (one of ``view.legal``).

    Bulgarian: the sampled evaluation chooses among every call, Contre and Recontre.
    French (take / name a suit): see ``_french``.
    """
    if view.ruleset != "bulgarian":
        return _french(view, rng)
    legal = [a.text for a in view.legal]
    me = _seat(view)
    sampled = _Outcomes(view, _deals(view, rng, SAMPLES))
    options: list[tuple[float, str]] = []
    for text in legal:
        trump = _trump_called(view, text)
        if trump is not None:
            code, taker, mult = trump, me, 1
        elif text in ("contre", "recontre"):
            called, caller, mult = auction_state(view.bids)
            if called is None or caller is None:  # contre needs a contract: never offered
                continue
            code, taker = called, caller
            base = sampled.value(code, taker, mult)
            new = sampled.value(code, taker, 2 if text == "contre" else 4)
            if new > base + CONTRE_MARGIN and new > 0:
                options.append((new - base, text))
            continue
        else:
            continue
        options.append((sampled.value(code, taker, mult), text))
    if "pass" not in legal:  # the dealer must name a suit
        return max(options)[1] if options else legal[0]
    _code_now, bidder, _ = (
        auction_state(view.bids) if view.ruleset == "bulgarian" else (None, None, 1)
    )
    partner_holds = bidder is not None and bidder % 2 == me % 2
    best = max(options) if options else None
    if best is not None and best[0] > MARGIN + (25 if partner_holds else 0):
        return best[1]
    # Rollouts say pass: still take an evidently strong hand.
    hint = heuristic_bid(view, "hard")
    if hint != "pass" and hint in legal and any(t == hint and v > -MARGIN for v, t in options):
        return hint
    return "pass"


def _trump_called(view: SeatView, text: str) -> int | None:
    """The contract code an auction action calls (``take``: the turned suit), if any."""
    if text == "take" and view.turned is not None:
        return view.turned >> 3
    if text.startswith("bid "):
        return CONTRACT_CODES[text[4:]]
    return None


def _french(view: SeatView, rng: random.Random) -> str:
    """French auction: the hard evaluation proposes and the samples may veto; a hand it
    passes is still called when the samples value a contract highly (measured: proposing
    at a low margin over-bid, at ``PROPOSE_MARGIN`` it gained, see bench/arena.md)."""
    hint = heuristic_bid(view, "hard")
    legal = [a.text for a in view.legal]
    if "pass" not in legal:
        return hint
    sampled = _Outcomes(view, _deals(view, rng, SAMPLES))
    me = _seat(view)
    hinted = _trump_called(view, hint)
    if hinted is not None:
        value = sampled.value(hinted, me, 1)
        return "pass" if value < -VETO_MARGIN else hint
    calls = [(t, _trump_called(view, t)) for t in legal]
    values = [(sampled.value(code, me, 1), t) for t, code in calls if code is not None]
    best = max(values, key=lambda vt: vt[0], default=None)  # the first of equals, as bid
    return best[1] if best is not None and best[0] > PROPOSE_MARGIN else "pass"
