"""Expert bidding: play each candidate contract out on sampled deals and bid the best.

For every contract the seat may call (and for Contre / Recontre), the unseen cards are
dealt at random many times (the same deals for every candidate, so the comparison is
fair); each deal is played out by the normal level's rules and, as far as a node budget
allows, solved double dummy by the same compiled solver the card play searches with, and
scored by the ruleset's rules.  Neither estimate is what strong players make of a deal:
the rules of thumb are about right on average, the solver flatters the taker by some 25
points (it finds every missing card), and their blend predicts best (``DD_WEIGHT``, see
docs/ai.md).  A call is made when its mean score beats passing (valued at 0: a redeal or an
auction left to the others) by a safety margin; otherwise the hand evaluation of the
hard level has the last word, which keeps the expert sane on hands the rollouts misjudge.

Coinche (``_coinche``): every seat holds its 8 cards in the auction, so a sampled deal is
whole from the start; each legal bid (trump and value), coinche and surcoinche is valued
by Coinche's score on the deals played out, against what a pass leaves (the standing
contract as it is, or a redeal), and the best mean wins by a margin.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.ai.auction import AUCTION_CARDS, auction_likelihood, seen_bids
from engine.ai.bidding import (
    COINCHE_AVERAGE,
    BidTurn,
    PartnerRead,
    auction_state,
    bid_on,
    coinche_estimate,
    coinche_state,
    heuristic_bid,
    may_change_suit,
    names_suit,
    parse_coinche_bid,
    raise_limit,
    raise_points,
    strength,
)
from engine.ai.rollout import rollout
from engine.ai.scoring import belote_points, deal_value
from engine.ai.solver import COMPILED, NodeLimit, Position, solve
from engine.ai.tables import CONTRACT_CODES, FULL, RULESET_KINDS, SUIT_MASK, belote_pairs, bits
from engine.ai.world_search import resample
from engine.ai.worlds import SplitMix
from engine.contract import GENERALE_BID
from engine.core import counting_melds, find_melds
from engine.errors import EngineError
from engine.rulesets import Ruleset, get_ruleset

if TYPE_CHECKING:
    from engine.match import SeatView

SAMPLES = 96  # deals played out by the rules of thumb per decision (Bulgarian)
# French: twice as many.  Measured against hard (bench/studies/paired_bidding.py --set
# FRENCH_SAMPLES=192, 600 decks each): classic +2.67 and +0.47, club +1.30 points a deal,
# for a few ms a decision (the solver's budget, not the playouts, is most of its time).
FRENCH_SAMPLES = 192
MARGIN = 12.0
CONTRE_MARGIN = 20.0
VETO_MARGIN = 20.0  # French: pass a hand the evaluation would take if it loses this much
# French: call a hand the evaluation passes if the samples value a contract this much
# over a pass (classic measured better at 20 than at 40 on 1,500 decks, club not:
# bench/studies/arena.md)
PROPOSE_MARGIN = {"classic": 20.0, "club": 40.0}
REJECT_TRIES = 30
# Deals drawn per deal foreseen, weighed by the others' bids and resampled (1: none)
BID_OVERSAMPLE = 1
CALL_FLOOR = 15.0  # bidding points a caller surely has (5 cards)
PASS_CEILING = 30.0  # bidding points a player who passed on the turned card surely lacks
# How a deal's card points are foreseen: DD_WEIGHT x (the solver's value, less its
# flattery of the taker) + the rest x the rules of thumb's playout.  Measured against what
# four information-set double-dummy players made of 150 deals (`python
# bench/studies/bid_foresight.py --ruleset R`), classic / bulgarian: the playouts alone miss by
# 41 / 52 points (standard deviation), the solver alone by 58 / 55 and is 33 / 23 points
# too high for the taker, a blend of a quarter to a half of the solver misses by 38-40 /
# 44-46.
DD_WEIGHT = {"classic": 0.5, "club": 0.5, "bulgarian": 0.25}
DD_FLATTERY = 25  # points the solver gives the taker's team over real play
BID_NODES = 4_000_000  # the solver's nodes a bidding decision (the first deals get solved)
# The rulesets whose foresight counts the melds (Bulgarian measured no better with them:
# docs/ai.md, session 8)
MELDS_FORESEEN = ("club",)
# The rounds of the French auction in which a pass is valued by foreseeing the rest of the
# auction (elsewhere it counts 0, as a redeal would)
PASS_FORESEEN: dict[str, tuple[int, ...]] = {"club": (1, 2)}
# Coinche: deals played out per decision; what a bid must foresee over a pass, and a
# coinche or surcoinche over not doubling; how far under its bid a bidder's hand may be
# foreseen in a sampled deal (``coinche_estimate``: the sample follows the auction loosely).
COINCHE_SAMPLES = 128
COINCHE_MARGIN = 10.0
COINCHE_DOUBLE_MARGIN = {"coinche": 25.0, "surcoinche": 40.0}
COINCHE_FIT_SLACK = 10.0
COINCHE_DEFENCE = 10.0  # a seat that coinched foresees this much over an average hand
PARTNER_FIT_SLACK = 0.0  # the partner's bid: its estimate at least its value
HONOUR_MISFIT = 20.0  # a suit named without its jack or nine is this far from the bid
COINCHE_TRIES = 60  # deals drawn at most for one sample; the one that fits best is kept
RAISE_SLACK = 20  # a raise's hand may add this much less than the raise says
PASS_OVER = 30.0  # a pass: no suit with its jack foreseen this much over the next bid
PASS_SUPPORT = 30  # a pass over the partner's contract: at most this much to add to it


def _seat(view: SeatView) -> int:
    """The seat the AI bids for (a seat's view always has one)."""
    if view.seat is None:
        raise EngineError("The AI bids from a seat's view.")
    return view.seat


def _deals(view: SeatView, rng: random.Random, n: int) -> list[tuple[list[int], list[int]]]:
    """``n`` deals of the unseen cards: each seat's 5 auction cards, then the rest of the
    deck in the order it will be dealt.

    With ``BID_OVERSAMPLE`` > 1, that many times the deals are drawn and weighed by how
    well their auction hands explain the others' bids (``auction.auction_likelihood``,
    the card play's model of the auction), and ``n`` are picked among them in proportion
    to those weights: the bids foresee the deal on the hands the auction points to, as
    the card play searches the worlds it does (the same systematic resampling,
    ``world_search.resample``).  A deal picked twice keeps its auction
    hands and gets the rest of the deck shuffled anew.
    """
    me = _seat(view)
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    pool_mask = FULL & ~hand
    if view.turned is not None:
        pool_mask &= ~(1 << view.turned)
    pool = bits(pool_mask)
    drawn = [_deal(view, me, hand, pool, rng) for _ in range(n * BID_OVERSAMPLE)]
    if view.ruleset == "coinche":  # no bid model of 8-card hands: the loose fit only
        return drawn
    if BID_OVERSAMPLE <= 1:
        return drawn
    seen = seen_bids(view)
    weights = [auction_likelihood(seen, hands, view.turned) for hands, _rest in drawn]
    out = []
    for i, times in resample(weights, n, SplitMix(rng.getrandbits(64))):
        hands, rest = drawn[i]
        out.append((hands, rest))
        for _ in range(times - 1):
            again = rest[:]
            rng.shuffle(again)
            out.append((hands, again))
    return out


def _deal(
    view: SeatView, me: int, hand: int, pool: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """One deal of the ``pool`` (the cards neither in ``me``'s ``hand`` nor turned) that
    loosely fits the auction (``_fits_auction``).  Coinche keeps the best fitting of up
    to ``COINCHE_TRIES`` draws (``_coinche_misfit``): a long auction that no draw fits
    exactly must not fall back on a deal that ignores it (issue 66: the others then look
    weak, and their contracts get coinched)."""
    if view.ruleset == "coinche":
        return _coinche_deal(view, me, hand, pool, rng)
    for _attempt in range(REJECT_TRIES):
        cards = pool[:]
        rng.shuffle(cards)
        hands = [0, 0, 0, 0]
        hands[me] = hand
        size = 8 if view.ruleset == "coinche" else AUCTION_CARDS  # cards held in the auction
        i = 0
        for s in range(4):
            if s == me:
                continue
            for c in cards[i : i + size]:
                hands[s] |= 1 << c
            i += size
        if _fits_auction(view, hands):
            break
    return hands, cards[i:]


def _coinche_deal(
    view: SeatView, me: int, hand: int, pool: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """A Coinche deal (8 cards a seat, nothing left to deal) that fits the auction best
    among up to ``COINCHE_TRIES`` draws."""
    best: tuple[float, list[int]] | None = None
    for _attempt in range(COINCHE_TRIES):
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
        miss = _coinche_misfit(view, hands)
        if best is None or miss < best[0]:
            best = (miss, hands)
        if miss == 0:
            break
    assert best is not None
    return best[1], []


def _fits_auction(view: SeatView, hands: list[int]) -> bool:
    """Would the others have bid as they did with these 5 cards?  Loose bounds only: a
    call needs a fair hand for its contract, a pass on the turned card a not-too-strong
    one, so that samples follow the auction without trusting it blindly."""
    turned = view.turned
    if view.ruleset == "coinche":
        return _coinche_misfit(view, hands) == 0
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


def _coinche_misfit(view: SeatView, hands: list[int]) -> float:
    """Coinche: how far these 8-card hands are from explaining the others' bids, in
    points (0: they would have bid as they did).  Loosely, as any table bids (issue 66
    reads the partner, and the opponents too):

    - a bid naming a contract: the hand's estimate at most ``COINCHE_FIT_SLACK`` under
      its value (the partner's, which bids as this level does, not under it), and in a
      suit a trump honour (its jack or nine: ``HONOUR_MISFIT`` short without);
    - a raise of the partner's contract: the hand adds to it (``raise_points``) about
      what the raise says, ``RAISE_SLACK`` less;
    - a pass where the seat could bid: no suit with its jack it would surely have
      outbid in (``PASS_OVER`` over the least next bid), and, over its partner's
      standing contract, no more support than ``PASS_SUPPORT`` (it would have raised);
    - a coinche: the defence holds the contract's cards.
    """
    me = _seat(view)
    miss = 0.0
    called: int | None = None
    standing = 0
    holder: int | None = None
    doubled = False
    last: dict[int, int] = {}
    for s, text in view.bids:
        bid = parse_coinche_bid(text)
        other = s != me
        if bid is not None:
            value, code = bid
            partner_last = last.get((s + 2) % 4)
            if other and partner_last == code and code < 4:
                told = max(v for t, (v, k) in _coinche_bids(view.bids, s + 2) if k == code)
                miss += max(0, value - told - RAISE_SLACK - raise_points(hands[s], code))
            elif other:
                slack = PARTNER_FIT_SLACK if s % 2 == me % 2 else COINCHE_FIT_SLACK
                miss += max(0.0, min(value, 160) - slack - coinche_estimate(hands[s], code))
                if code < 4 and not hands[s] & SUIT_MASK[code] & (0x14 << (code * 8)):
                    miss += HONOUR_MISFIT  # neither its jack nor its nine
            called, standing, holder = code, value, s
            last[s] = code
        elif text == "coinche":
            doubled = True
            if other and called is not None:
                # a coinche says the defence holds their contract's cards
                need = COINCHE_AVERAGE[called] + COINCHE_DEFENCE
                miss += max(0.0, need - coinche_estimate(hands[s], called))
        elif text == "pass" and other and not doubled and standing < 160:
            floor = max(80, standing + 10) + PASS_OVER
            for c in range(4):
                jack = hands[s] & SUIT_MASK[c] & (0x10 << (c * 8))
                if jack and c != called:
                    miss += max(0.0, coinche_estimate(hands[s], c) - floor)
            if called is not None and called < 4 and holder is not None and holder % 2 == s % 2:
                miss += max(0, raise_points(hands[s], called) - PASS_SUPPORT)
    return miss


def _coinche_bids(
    bids: tuple[tuple[int, str], ...], seat: int
) -> list[tuple[int, tuple[int, int]]]:
    """(seat, (value, contract)) of ``seat``'s Coinche bids (``seat`` taken modulo 4)."""
    return [(s, b) for s, t in bids if s == seat % 4 and (b := parse_coinche_bid(t)) is not None]


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


def _melds(rules: Ruleset, code: int, hands: list[int], leader: int) -> list[int]:
    """Each team's meld points that count when every seat declares its best melds (in
    play order, which breaks club's ties): a carre of jacks or a quinte can make a
    contract that the cards alone would lose."""
    if rules.name not in MELDS_FORESEEN:
        return [0, 0]
    seats = [(leader + i) % 4 for i in range(4)]
    declared = [(s, melds) for s in seats if (melds := tuple(find_melds(hands[s], code, rules)))]
    out = [0, 0]
    for seat, meld, counts in counting_melds(rules, code, declared):
        if counts:
            out[seat & 1] += meld.points
    return out


class _Outcomes:
    """How each sampled deal ends under a contract, foreseen once per (trump, taker):
    Contre and Recontre only change what the same outcome is worth.

    Every deal is played out by the rules of thumb; the first ones are also solved double
    dummy, as many as ``BID_NODES`` allows for every candidate alike (``solve_first``), and
    those deals count the blend of both (see the module docstring).
    """

    def __init__(self, view: SeatView, deals: list[tuple[list[int], list[int]]]) -> None:
        self.view = view
        self.deals = deals
        self.kind = RULESET_KINDS[view.ruleset]
        self.rules = get_ruleset(view.ruleset)
        self._cache: dict[tuple[int, int], list[tuple[float, list[int], list[int]]]] = {}
        self._solved: dict[tuple[int, int], list[int]] = {}

    def _hands(self, i: int, taker: int) -> list[int]:
        hands, rest = self.deals[i]
        return _complete(self.view, hands, rest, taker)

    def solve_first(self, keys: list[tuple[int, int]]) -> None:
        """Solve the deals in order for every (trump, taker) of ``keys`` while the node
        budget lasts; a deal counts solved only once it is solved for every key."""
        if not COMPILED or not keys:
            return
        me = _seat(self.view)
        leader = (self.view.dealer + 1) % 4
        left = BID_NODES
        solved: dict[tuple[int, int], list[int]] = {key: [] for key in keys}
        for i in range(len(self.deals)):
            values = []
            try:
                for code, taker in keys:
                    pos = Position(self.kind, code, self._hands(i, taker), leader, [], 0)
                    value, nodes = solve(pos, me & 1, left)
                    left -= nodes
                    values.append(value)
            except NodeLimit:
                break
            for key, value in zip(keys, values, strict=True):
                solved[key].append(value)
            if left <= 0:
                break
        self._solved = solved
        self._cache.clear()

    def outcomes(self, code: int, taker: int) -> list[tuple[float, list[int], list[int]]]:
        """Per deal: my team's card points minus the other's as foreseen, the belotes and
        the melds that count (by team)."""
        key = (code, taker)
        if key not in self._cache:
            me = _seat(self.view)
            leader = (self.view.dealer + 1) % 4
            solved = self._solved.get(key, [])
            weight = DD_WEIGHT.get(self.view.ruleset, 0.5)
            flattery = DD_FLATTERY if taker % 2 == me % 2 else -DD_FLATTERY
            out: list[tuple[float, list[int], list[int]]] = []
            pairs = belote_pairs(code)
            for i in range(len(self.deals)):
                h = self._hands(i, taker)
                d = rollout(self.kind, code, taker, h, leader, [], 0, 0)
                played = float(d if me % 2 == 0 else -d)
                if i < len(solved):
                    played = weight * (solved[i] - flattery) + (1 - weight) * played
                out.append((played, belote_points(h, pairs), _melds(self.rules, code, h, leader)))
            self._cache[key] = out
        return self._cache[key]

    def score(self, i: int, code: int, taker: int, mult: int, bid: int = 0) -> float:
        """My team's deal score minus the other's on deal ``i`` under this contract
        (Coinche's, of the value ``bid``, when given)."""
        me = _seat(self.view)
        diff, belotes, melds = self.outcomes(code, taker)[i]
        return deal_value(
            self.kind, code, mult, taker & 1, me & 1, round(diff), melds, belotes, bid
        )

    def value(self, code: int, taker: int, mult: int, bid: int = 0) -> float:
        """My team's mean deal score minus the other's under this contract."""
        n = len(self.deals)
        return sum(self.score(i, code, taker, mult, bid) for i in range(n)) / n

    def passing(self) -> float:
        """French auction: what a pass is worth, foreseen on each deal.

        The rest of the auction is bid as the hard evaluation would on the deal's hands
        (this seat's own round-2 turn too, after a pass in round 1); the first to take or
        name a suit takes.  If nobody does, the deal is thrown in (worth 0) or, in club, the
        dealer must name the suit its hand is best for.  So a pass that leaves the
        opponents' dealer a forced contract is worth something, and one that leaves it to
        the partner costs something.
        """
        view = self.view
        me = _seat(view)
        turned = view.turned
        if turned is None:
            raise EngineError("The French auction is bid from a seat's view of the turned card.")
        names = tuple(f"bid {n}" for n, c in CONTRACT_CODES.items() if c < 4 and c != turned >> 3)
        total = 0.0
        for i, (hands, _rest) in enumerate(self.deals):
            bids = (*view.bids, (me, "pass"))
            seat = me
            while len(bids) < 8:
                seat = (seat + 1) % 4
                if len(bids) < 4:
                    legal: tuple[str, ...] = ("pass", "take")
                elif len(bids) == 7 and self.rules.dealer_must_choose:
                    legal = names  # the dealer must name a suit
                else:
                    legal = ("pass", *names)
                turn = BidTurn(view.ruleset, seat, view.dealer, turned, bids, legal)
                call = _trump_called(view, bid_on(hands[seat], turn, "hard"))
                if call is not None:
                    total += self.score(i, call, seat, 1)
                    break
                bids = (*bids, (seat, "pass"))
        return total / len(self.deals)


def expert_bid(view: SeatView, rng: random.Random) -> str:
    """The expert's auction action text (one of ``view.legal``).

    Bulgarian: the sampled evaluation chooses among every call, Contre and Recontre.
    French (take / name a suit): see ``_french``.  The deals are solved only when the
    playouts leave the decision within ``BORDER`` points of its threshold: a clear pass or
    a clear call does not need the solver.
    """
    if view.ruleset == "coinche":
        return _coinche(view, rng)
    if view.ruleset != "bulgarian":
        return _french(view, rng)
    legal = [a.text for a in view.legal]
    me = _seat(view)
    sampled = _Outcomes(view, _deals(view, rng, SAMPLES))
    _code_now, bidder, _ = auction_state(view.bids)
    partner_holds = bidder is not None and bidder % 2 == me % 2
    threshold = MARGIN + (25 if partner_holds else 0)
    options, doubles = _bulgarian_options(view, sampled, legal, me)
    best = max(options) if options else None
    close = best is not None and abs(best[0] - threshold) < BORDER
    if close or any(abs(gain - CONTRE_MARGIN) < BORDER for gain, _t in doubles):
        sampled.solve_first(_contracts(view, legal, me))
        options, doubles = _bulgarian_options(view, sampled, legal, me)
    options += [(gain, text) for gain, text in doubles if gain > CONTRE_MARGIN]
    if "pass" not in legal:  # the dealer must name a suit
        return max(options)[1] if options else legal[0]
    best = max(options) if options else None
    if best is not None and best[0] > threshold:
        return best[1]
    # Rollouts say pass: still take an evidently strong hand.
    hint = heuristic_bid(view, "hard")
    if hint != "pass" and hint in legal and any(t == hint and v > -MARGIN for v, t in options):
        return hint
    return "pass"


BORDER = 30.0  # points from a threshold within which the deals are also solved


def _bulgarian_options(
    view: SeatView, sampled: _Outcomes, legal: list[str], me: int
) -> tuple[list[tuple[float, str]], list[tuple[float, str]]]:
    """Each call's mean value, and what each Contre / Recontre would gain by doubling
    (only where the doubled contract is worth something to us)."""
    options: list[tuple[float, str]] = []
    doubles: list[tuple[float, str]] = []
    for text in legal:
        trump = _trump_called(view, text)
        if trump is not None:
            options.append((sampled.value(trump, me, 1), text))
        elif text in ("contre", "recontre"):
            called, caller, mult = auction_state(view.bids)
            if called is None or caller is None:  # contre needs a contract: never offered
                continue
            base = sampled.value(called, caller, mult)
            new = sampled.value(called, caller, 2 if text == "contre" else 4)
            if new > 0:
                doubles.append((new - base, text))
    return options, doubles


def _contracts(view: SeatView, legal: list[str], me: int) -> list[tuple[int, int]]:
    """The (trump, taker) of every candidate call: the seat's own calls, and the
    contract a Contre or Recontre would double."""
    keys: list[tuple[int, int]] = []
    for text in legal:
        trump = _trump_called(view, text)
        if trump is not None:
            keys.append((trump, me))
        elif text in ("contre", "recontre"):
            called, caller, _mult = auction_state(view.bids)
            if called is not None and caller is not None:
                keys.append((called, caller))
    return list(dict.fromkeys(keys))


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
    at a low margin over-bid, at ``PROPOSE_MARGIN`` it gained, see bench/studies/arena.md)."""
    hint = heuristic_bid(view, "hard")
    legal = [a.text for a in view.legal]
    calls = [(t, code) for t in legal if (code := _trump_called(view, t)) is not None]
    me = _seat(view)

    def best_call() -> tuple[float, str] | None:
        values = [(sampled.value(code, me, 1), t) for t, code in calls]
        return max(values, key=lambda vt: vt[0], default=None)  # the first of equals, as bid

    if "pass" not in legal:  # the club dealer must name a suit: the one the samples favour
        sampled = _Outcomes(view, _deals(view, rng, FRENCH_SAMPLES))
        sampled.solve_first([(code, me) for _t, code in calls])
        best = best_call()
        return best[1] if best is not None else hint
    sampled = _Outcomes(view, _deals(view, rng, FRENCH_SAMPLES))
    second_round = "take" not in legal
    foreseen = PASS_FORESEEN.get(view.ruleset, ())
    passing = sampled.passing() if (2 if second_round else 1) in foreseen else 0.0
    hinted = _trump_called(view, hint)
    if hinted is not None:
        value = sampled.value(hinted, me, 1) - passing
        if abs(value + VETO_MARGIN) < BORDER:
            sampled.solve_first([(hinted, me)])
            value = sampled.value(hinted, me, 1) - passing
        return "pass" if value < -VETO_MARGIN else hint
    best = best_call()
    margin = PROPOSE_MARGIN[view.ruleset]
    if best is not None and abs(best[0] - passing - margin) < BORDER:
        sampled.solve_first([(code, me) for _t, code in calls])
        best = best_call()
    return best[1] if best is not None and best[0] - passing > margin else "pass"


def _coinche(view: SeatView, rng: random.Random) -> str:
    """Coinche: each legal bid, coinche and surcoinche valued by Coinche's score on the
    same sampled deals (fitting the auction: ``_fits_coinche``), against a pass (the
    standing contract as it stands; before any bid, a redeal: 0).  A bid must foresee
    ``COINCHE_MARGIN`` more than the pass, a coinche or surcoinche
    ``COINCHE_DOUBLE_MARGIN`` more; générale is left to people.

    As partners (issue 66), the bids the samples may choose are those hard's judgement
    allows: a suit named by this hand needs a trump honour (``names_suit``), a change
    of suit over the partner a hand that really plays better there, once a side
    (``may_change_suit``), a raise of the partner's contract no more than ten over what
    the hand adds to it (``raise_limit``).  And where the samples say pass but hard's
    count raises the partner's contract, the raise is made unless the samples value it
    under the pass: the samples see a partner's hand only loosely."""
    me = _seat(view)
    legal = [a.text for a in view.legal]
    code, bidder, mult, standing = coinche_state(view.bids)
    turn = BidTurn.of_view(view)
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    read = PartnerRead.of(turn)
    limit = raise_limit(hand, read)
    sampled = _Outcomes(view, _deals(view, rng, COINCHE_SAMPLES))
    passing = 0.0
    if code is not None and bidder is not None:
        passing = sampled.value(code, bidder, mult, standing)
    best_value, best_text = passing, "pass"
    values: dict[str, float] = {}
    for text in legal:
        bid = parse_coinche_bid(text)
        if bid is not None and bid[0] != GENERALE_BID:
            if bid[1] == read.contract:
                if bid[0] > limit + 10:
                    continue
            elif not (names_suit(hand, bid[1]) and may_change_suit(hand, bid[1], read)):
                continue
            # A raise is valued with the partner as the taker: its hand holds the trumps
            # the samples gave it, and the rules of thumb play a taker's hand as one.
            taker = (me + 2) % 4 if bid[1] == read.contract else me
            values[text] = sampled.value(bid[1], taker, 1, bid[0])
            gain = values[text] - COINCHE_MARGIN
        elif text in ("coinche", "surcoinche") and code is not None and bidder is not None:
            doubled = 2 if text == "coinche" else 4
            gain = sampled.value(code, bidder, doubled, standing) - COINCHE_DOUBLE_MARGIN[text]
        else:
            continue
        if gain > best_value:
            best_value, best_text = gain, text
    if best_text == "pass" and read.contract is not None:
        hint = bid_on(hand, turn, "hard")
        raised = parse_coinche_bid(hint)
        is_raise = raised is not None and raised[1] == read.contract
        if is_raise and hint in values and values[hint] >= passing:
            return hint
    return best_text
