"""Bidding: a hand evaluation per contract, and the auction decisions of each level.

``strength(hand, contract)`` scores a hand in "bidding points" (roughly: how many of the
deal's tricks and points it controls).  The French auction (take / pass / name a suit)
and the Bulgarian one (suits, No Trump, All Trump, Contre, Recontre) both decide from it;
only the thresholds differ by level.  The expert level instead plays each candidate
contract out on sampled deals (``expert_bid``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import BID_VALUES
from engine.ai.tables import AT, CONTRACT_CODES, CONTRACT_TEXTS, NT, SUIT_MASK, bits
from engine.contract import BID_WORDS, CAPOT_BID
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.match import SeatView

# Weights by rank index (7 8 9 T J Q K A).
TRUMP_W = (1, 1, 8, 5, 11, 2.5, 3, 6)
SIDE_ACE = 5.0
SIDE_TEN_WITH_ACE = 3.0
SIDE_TEN_ALONE = 0.5


def strength(hand: int, code: int) -> float:
    """Bidding points of a hand for a contract (5 to 8 cards)."""
    if code < 4:
        trumps = hand & SUIT_MASK[code]
        s = sum(TRUMP_W[c & 7] for c in bits(trumps))
        n = trumps.bit_count()
        s += 2.5 * max(0, n - 2)
        if trumps >> (code * 8 + 5) & 1 and trumps >> (code * 8 + 6) & 1:
            s += 3  # belote
        for suit in range(4):
            if suit == code:
                continue
            s += _side(hand, suit)
        return s
    if code == NT:
        s = 0.0
        for suit in range(4):
            cards = hand >> (suit * 8) & 0xFF
            ace, ten, king = cards >> 7 & 1, cards >> 3 & 1, cards >> 6 & 1
            s += 8 * ace + (5 if ten and ace else 1.5 * ten) + (2 if king and ace and ten else 0)
            s += 0.8 * max(0, bin(cards).count("1") - 3) * (ace or ten)
        return s
    # All Trump: jacks and guarded nines take tricks.
    s = 0.0
    for suit in range(4):
        cards = hand >> (suit * 8) & 0xFF
        jack, nine, ace = cards >> 4 & 1, cards >> 2 & 1, cards >> 7 & 1
        s += 9 * jack + (6 if nine and jack else 2.5 * nine) + 1.5 * ace
        s += 0.8 * max(0, bin(cards).count("1") - 2) * jack
    return s


def _side(hand: int, suit: int) -> float:
    cards = hand >> (suit * 8) & 0xFF
    ace, ten = cards >> 7 & 1, cards >> 3 & 1
    s = SIDE_ACE * ace
    if ten:
        s += SIDE_TEN_WITH_ACE if ace else SIDE_TEN_ALONE
    return s


@dataclass(frozen=True)
class BidStyle:
    """Thresholds of one level.  French thresholds are for 6 cards (5 + the turned card),
    Bulgarian ones for the 5 cards held during the auction."""

    take: float
    name_suit: float
    bg_suit: float
    bg_nt: float
    bg_at: float
    contre: float
    recontre: float


EASY_STYLE = BidStyle(
    take=999, name_suit=999, bg_suit=999, bg_nt=999, bg_at=999, contre=999, recontre=999
)
NORMAL_STYLE = BidStyle(
    take=25, name_suit=27, bg_suit=22, bg_nt=26, bg_at=28, contre=24, recontre=30
)
HARD_STYLE = BidStyle(take=22, name_suit=24, bg_suit=19, bg_nt=23, bg_at=25, contre=21, recontre=27)


STYLES: dict[str, BidStyle] = {"normal": NORMAL_STYLE, "hard": HARD_STYLE}


def obvious(hand: int, code: int) -> bool:
    """Easy bids only an obvious hand: jack and nine of trump with a third trump."""
    if code < 4:
        t = hand & SUIT_MASK[code]
        return bool(t >> (code * 8 + 4) & 1 and t >> (code * 8 + 2) & 1 and t.bit_count() >= 3)
    if code == NT:
        return sum(hand >> (s * 8 + 7) & 1 for s in range(4)) >= 4
    return sum(hand >> (s * 8 + 4) & 1 for s in range(4)) >= 4


def auction_state(bids: Iterable[tuple[int, str]]) -> tuple[int | None, int | None, int]:
    """Bulgarian and Coinche: (contract code, seat that called it, multiplier) so far."""
    code, seat, mult, _value = coinche_state(bids)
    return code, seat, mult


def coinche_state(
    bids: Iterable[tuple[int, str]],
) -> tuple[int | None, int | None, int, int]:
    """(contract code, seat that bid it, multiplier, value) so far; the value is 0 outside
    Coinche (``bid H``) and before any bid."""
    code: int | None = None
    seat: int | None = None
    mult = 1
    value = 0
    for s, text in bids:
        if text.startswith("bid "):
            words = text.split()
            code, seat, mult = CONTRACT_CODES[words[-1]], s, 1
            value = BID_VALUES.get(words[1], 0) if len(words) == 3 else 0
        elif text in ("contre", "coinche"):
            mult = 2
        elif text in ("recontre", "surcoinche"):
            mult = 4
    return code, seat, mult, value


@dataclass(frozen=True)
class BidTurn:
    """One turn of the auction as its bidder saw it, all but the hand: enough to replay a
    level's decision on any hand (the expert weighs its worlds by how well they explain
    the others' bids, ``engine/ai/auction.py``)."""

    ruleset: str
    seat: int
    dealer: int
    turned: int | None
    bids: tuple[tuple[int, str], ...]  # the auction before this turn
    legal: tuple[str, ...]  # the action texts the bidder could choose, in the engine's order

    @classmethod
    def of_view(cls, view: SeatView) -> BidTurn:
        if view.seat is None:
            raise EngineError("The AI bids from a seat's view.")
        # in the view's order, not a set's: a set of strings iterates in an order that
        # changes from process to process (hash randomization), and ties go to the first
        legal = tuple(dict.fromkeys(a.text for a in view.legal))
        return cls(view.ruleset, view.seat, view.dealer, view.turned, tuple(view.bids), legal)


def heuristic_bid(view: SeatView, level: str) -> str:
    """The action text a level chooses in the auction (always one of ``view.legal``)."""
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    return bid_on(hand, BidTurn.of_view(view), level)


def bid_on(hand: int, turn: BidTurn, level: str) -> str:
    """What ``level`` bids holding ``hand`` (the 5 cards of the auction) at ``turn``."""
    legal = dict.fromkeys(turn.legal)
    if turn.ruleset == "coinche":
        return _coinche(turn, level, legal, hand)
    if turn.ruleset != "bulgarian":
        return _french(turn, level, legal, hand)
    return _bulgarian(turn, level, legal, hand, turn.seat)


def _french(turn: BidTurn, level: str, legal: dict[str, None], hand: int) -> str:
    style = STYLES.get(level, HARD_STYLE)
    turned = turn.turned
    if turned is None:
        raise EngineError("The French auction is bid from a seat's view of the turned card.")
    full = hand | (1 << turned)
    turned_suit = turned >> 3
    if "take" in legal:
        if level == "easy":
            return "take" if obvious(full, turned_suit) else "pass"
        s = strength(full, turned_suit)
        # The taker's partner will not see the turned card: a dealer's team bonus.
        if s >= style.take - (1.5 if (turn.seat - turn.dealer) % 4 == 0 else 0):
            return "take"
        return "pass"
    options = [t for t in legal if t.startswith("bid ")]
    if not options:
        return "pass"
    best = max(options, key=lambda t: strength(full, CONTRACT_CODES[t[4:]]))
    code = CONTRACT_CODES[best[4:]]
    s = strength(full, code)
    if "pass" not in legal:
        return best  # the dealer must choose (club)
    if level == "easy":
        return best if obvious(full, code) else "pass"
    return best if s >= style.name_suit else "pass"


def _bulgarian(turn: BidTurn, level: str, legal: dict[str, None], hand: int, seat: int) -> str:
    code, bidder, _mult = auction_state(turn.bids)
    ours = bidder is not None and bidder % 2 == seat % 2
    if level == "easy":
        if "contre" in legal and code is not None and code < 4:
            t = hand & SUIT_MASK[code]
            if t >> (code * 8 + 4) & 1 and t >> (code * 8 + 2) & 1:
                return "contre"
        if ours:
            return "pass"
        for text in ("bid AT", "bid NT", "bid S", "bid H", "bid D", "bid C"):
            if text in legal and obvious(hand, CONTRACT_CODES[text[4:]]):
                return text
        return "pass"
    style = STYLES.get(level, HARD_STYLE)
    need = {NT: style.bg_nt, AT: style.bg_at}
    best_text, best_margin = "pass", 0.0
    for text in legal:
        if not text.startswith("bid "):
            continue
        c = CONTRACT_CODES[text[4:]]
        margin = strength(hand, c) - need.get(c, style.bg_suit)
        if ours:
            margin -= 6  # do not outbid the partner without a real reason
        if (
            margin >= 0
            and margin > best_margin - 1e-9
            and (best_text == "pass" or margin > best_margin)
        ):
            best_text, best_margin = text, margin
    if "contre" in legal and code is not None:
        # Beating their contract doubled is often worth more than a contract of our own.
        contre_margin = _defence(hand, code) - style.contre
        if contre_margin >= 0 and contre_margin >= best_margin:
            return "contre"
    if best_text != "pass":
        return best_text
    if "recontre" in legal and code is not None and strength(hand, code) >= style.recontre:
        return "recontre"
    return "pass"


def _defence(hand: int, code: int) -> float:
    """How well a hand defends against a contract (for Contre)."""
    if code < 4:
        t = hand & SUIT_MASK[code]
        s = sum(TRUMP_W[c & 7] for c in bits(t)) + 2 * max(0, t.bit_count() - 1)
        for suit in range(4):
            if suit != code:
                s += _side(hand, suit)
        return s
    other = AT if code == NT else NT
    return strength(hand, code) + 0.3 * strength(hand, other)


# ---------------------------------------------------------------- Coinche
# A value's text as the engine writes it ("80".."160", "capot", "generale") and back.
# The side's card points (and belote) a hand foresees for each contract with a partner it
# knows nothing of: ``A + B x strength(hand)`` with the hand's 8 cards, fitted on 6,000
# random deals per contract played out by the rules of thumb (the search's playout), the
# taker's side's points as Coinche counts them (No Trump and All Trump by the standard
# tables, brought to 162).  The fit misses by about 32 points (standard deviation): a
# bid wants a margin.  ``AVERAGE`` is the estimate for an average hand.
COINCHE_FIT: dict[int, tuple[float, float]] = {
    0: (51.2, 2.25),
    1: (51.2, 2.25),
    2: (51.2, 2.25),
    3: (51.2, 2.25),
    NT: (64.4, 1.61),
    AT: (70.1, 1.49),
}
COINCHE_AVERAGE = {0: 85.0, 1: 85.0, 2: 85.0, 3: 85.0, NT: 81.5, AT: 91.4}
COINCHE_TAKERS_OVER = 5.0  # what takers foresee over their bid, as a defender reads it
COINCHE_AGAINST_A_BID = 10.0  # what an opponent's bid takes off our side's estimate


@dataclass(frozen=True)
class CoincheStyle:
    """How sure a level wants to be: a bid of ``v`` needs an estimate of ``v + margin``;
    a coinche needs the takers' estimate, less what this hand's defence takes off,
    ``coinche`` points under their bid; a surcoinche ours ``surcoinche`` points over it; a
    raise of the partner's contract counts ``support`` of what the hand adds to an
    average one."""

    margin: float
    coinche: float
    surcoinche: float
    support: float
    own_over_partner: float  # a contract of our own must foresee this much more


COINCHE_STYLES: dict[str, CoincheStyle] = {
    "normal": CoincheStyle(margin=15, coinche=30, surcoinche=40, support=0.9, own_over_partner=20),
    "hard": CoincheStyle(margin=10, coinche=25, surcoinche=35, support=1.0, own_over_partner=15),
}


def coinche_estimate(hand: int, code: int) -> float:
    """The side's card points and belote that ``hand`` (8 cards) foresees in contract
    ``code`` with an average partner."""
    a, b = COINCHE_FIT[code]
    return a + b * strength(hand, code)


def sure_capot(hand: int, code: int) -> bool:
    """A hand that takes every trick alone, near enough: five trumps or more with the
    jack and the nine, every other card an ace or a ten behind its ace (suits only)."""
    if code >= NT:
        return False
    trumps = hand & SUIT_MASK[code]
    jack_nine = trumps >> (code * 8 + 4) & 1 and trumps >> (code * 8 + 2) & 1
    if trumps.bit_count() < 5 or not jack_nine:
        return False
    for suit in range(4):
        if suit == code:
            continue
        cards = hand >> (suit * 8) & 0xFF
        if cards & ~0x88 or (cards & 0x08 and not cards & 0x80):
            return False
    return True


def parse_coinche_bid(text: str) -> tuple[int, int] | None:
    """(value, contract code) of a Coinche bid's text (``bid 90 H``), else None."""
    words = text.split()
    if len(words) != 3 or words[0] != "bid" or words[1] not in BID_VALUES:
        return None
    return BID_VALUES[words[1]], CONTRACT_CODES[words[2]]


def coinche_bid_text(value: int, code: int) -> str:
    """``bid 90 H``, ``bid capot S``: the engine's text of a Coinche bid."""
    return f"bid {BID_WORDS.get(value, str(value))} {CONTRACT_TEXTS[code]}"


def _coinche(turn: BidTurn, level: str, legal: dict[str, None], hand: int) -> str:
    """Coinche: outbid by the least step (80, or ten over the standing bid) the contract
    the hand foresees best, when that foresight reaches the bid with the level's margin
    (the partner's bid raises the estimate of its contract); coinche a contract the hand
    clearly beats, surcoinche rarely.  Easy bids 80 on an obvious hand only.

    The least step, not the highest ten the estimate reaches: the estimate misses by some
    32 points, and ten points more of a bid made are worth far less than the chance of a
    set they cost (160 and the bid to the defence)."""
    code, bidder, mult, standing = coinche_state(turn.bids)
    ours = bidder is not None and bidder % 2 == turn.seat % 2
    contracts = [c for c in range(6) if any(t.endswith(" " + CONTRACT_TEXTS[c]) for t in legal)]
    if level == "easy":
        if "coinche" in legal and code is not None and code < 4:
            t = hand & SUIT_MASK[code]
            if t >> (code * 8 + 4) & 1 and t >> (code * 8 + 2) & 1:
                return "coinche"
        if ours or standing >= 80:
            return "pass"
        for c in sorted(contracts, key=lambda c: -strength(hand, c)):
            text = coinche_bid_text(80, c)
            if text in legal and obvious(hand, c):
                return text
        return "pass"
    style = COINCHE_STYLES.get(level, COINCHE_STYLES["hard"])
    partner = (turn.seat + 2) % 4
    theirs_bid = any(s % 2 != turn.seat % 2 and t.startswith("bid ") for s, t in turn.bids)

    def foresee(c: int) -> float:
        """Our side's points in contract ``c``: this hand's estimate (less when the
        opponents bid: their side holds cards), or on a contract the partner bid, its
        highest bid there (it foresaw that and the margin with an average partner) and
        what this hand adds to an average one."""
        own = coinche_estimate(hand, c) - (COINCHE_AGAINST_A_BID if theirs_bid else 0.0)
        told = [v for v, k in _bids_of(turn.bids, partner) if k == c]
        if told:
            return max(told) + style.margin + style.support * (own - COINCHE_AVERAGE[c])
        return own

    if mult > 1:  # coinched: nobody bids again; the side of the bid may surcoinche
        sure = code is not None and foresee(code) >= standing + style.surcoinche
        return "surcoinche" if "surcoinche" in legal and sure else "pass"
    if "coinche" in legal and code is not None and not ours:
        # The takers foresee a little over their bid; this hand's defence takes off what
        # it holds over an average hand in their contract.
        theirs = standing + COINCHE_TAKERS_OVER - _defence_over_average(hand, code)
        if theirs <= standing - style.coinche:
            return "coinche"
    for c in contracts:
        capot = coinche_bid_text(CAPOT_BID, c)
        if capot in legal and sure_capot(hand, c):
            return capot
    if ours:  # our side holds the auction: a contract of our own only if clearly better
        if any(s == turn.seat for s, _v in _bids_by_seat(turn.bids)):
            return "pass"  # this hand spoke already; the partner's bid counted it
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


def _bids_of(bids: Iterable[tuple[int, str]], seat: int) -> list[tuple[int, int]]:
    """(value, contract code) of every Coinche bid ``seat`` made."""
    return [b for s, t in bids if s == seat and (b := parse_coinche_bid(t)) is not None]


def _bids_by_seat(bids: Iterable[tuple[int, str]]) -> list[tuple[int, int]]:
    """(seat, value) of every Coinche bid, in order."""
    return [(s, b[0]) for s, t in bids if (b := parse_coinche_bid(t)) is not None]


def _defence_over_average(hand: int, code: int) -> float:
    """What a defender's hand takes off the takers' points against contract ``code``,
    over an average hand: its own estimate as if it held the contract, less an average
    one's, at least 0 (a weak defender does not help the takers)."""
    return max(0.0, coinche_estimate(hand, code) - COINCHE_AVERAGE[code])
