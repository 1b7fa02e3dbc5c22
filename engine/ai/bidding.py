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
    # a coinche of a suit contract: the defence's count must reach what the takers can
    # lose (162 less their bid) by this much
    coinche_count: float = 20.0


COINCHE_STYLES: dict[str, CoincheStyle] = {
    "normal": CoincheStyle(
        margin=15, coinche=30, surcoinche=40, support=0.9, own_over_partner=20, coinche_count=30
    ),
    "hard": CoincheStyle(
        margin=10, coinche=25, surcoinche=35, support=1.0, own_over_partner=15, coinche_count=20
    ),
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


# ---- reading the partner (issue 66): a simple count, in Coinche's points, of what a hand
# brings to a contract its partner bid, and of what it takes off the opponents' contract.
RAISE_JACK = 20  # the jack of the partner's trump
RAISE_NINE = 10  # the nine
RAISE_BELOTE = 20  # king and queen of trump: the belote is 20 to the side
RAISE_ACE = 10  # each ace of another suit
RAISE_AVERAGE = 10  # what the partner's bid already counted on an average partner
# A change of suit over the partner's bid: the hand must foresee this much more in its own
# suit than in the partner's, and hold at most one of the partner's trumps; once per side.
CHANGE_OVER = 30.0
# The simple count of a defence against a suit contract: the points its tricks carry.
DEFENCE_ACE = 22.0  # a side ace: a trick of its own, with what falls on it
DEFENCE_TEN = 10.0  # a side ten behind its ace: the second trick of the suit
DEFENCE_JACK = 25.0  # the jack of their trump
DEFENCE_NINE = 14.0  # the nine of their trump with another trump (or the jack)
# The partner's share of the defence: an average hand's (it holds 8 of the 24 cards this
# hand does not see), more when it bid (it holds something of its own).
DEFENCE_PARTNER = 15.0
DEFENCE_PARTNER_BID = 30.0


def names_suit(hand: int, code: int) -> bool:
    """May a hand name suit ``code`` itself (open it, or outbid the other side in it)?
    Only with a trump honour that wins tricks: the jack, or the nine with four trumps.
    The cards alone do not make a trump: A, 10, K, Q of a suit without its jack (or
    nine) lose their tricks to it (issue 66: 130H on 7H 8H QH KH, 80C on 9C 10C AC,
    set).  No Trump and All Trump keep the estimate alone."""
    if code >= NT:
        return True
    trumps = hand & SUIT_MASK[code]
    jack = trumps >> (code * 8 + 4) & 1
    nine = trumps >> (code * 8 + 2) & 1
    return bool(jack or (nine and trumps.bit_count() >= 4))


def raise_points(hand: int, code: int) -> int:
    """What ``hand`` adds to the partner's suit contract ``code`` by the usual count: the
    jack 20, the nine 10, the belote 20, each side ace 10; less the average the partner's
    bid already counted on (0 at least).  No Trump and All Trump: 10 a side ace only."""
    if code >= NT:
        aces = sum(hand >> (s * 8 + 7) & 1 for s in range(4))
        return max(0, RAISE_ACE * aces - RAISE_AVERAGE)
    trumps = hand & SUIT_MASK[code]
    pts = RAISE_JACK * (trumps >> (code * 8 + 4) & 1) + RAISE_NINE * (trumps >> (code * 8 + 2) & 1)
    if trumps >> (code * 8 + 5) & 1 and trumps >> (code * 8 + 6) & 1:
        pts += RAISE_BELOTE
    pts += RAISE_ACE * sum(hand >> (s * 8 + 7) & 1 for s in range(4) if s != code)
    return max(0, pts - RAISE_AVERAGE)


def defence_count(hand: int, code: int, partner_bid: bool) -> float:
    """The points a defence foresees against the suit contract ``code`` by counting its
    tricks (side aces, a ten behind its ace, the jack and a guarded nine of their trump)
    and the partner's share: an average hand's, more when it bid."""
    trumps = hand & SUIT_MASK[code]
    jack = trumps >> (code * 8 + 4) & 1
    nine = trumps >> (code * 8 + 2) & 1
    s = DEFENCE_JACK * jack
    if nine and (jack or trumps.bit_count() >= 2):
        s += DEFENCE_NINE
    for suit in range(4):
        if suit == code:
            continue
        cards = hand >> (suit * 8) & 0xFF
        if cards >> 7 & 1:
            s += DEFENCE_ACE + (DEFENCE_TEN if cards >> 3 & 1 else 0.0)
    return s + (DEFENCE_PARTNER_BID if partner_bid else DEFENCE_PARTNER)


def side_switches(bids: Iterable[tuple[int, str]], team: int) -> int:
    """How many times ``team``'s partners have bid another contract than the partner's
    last bid (``100C`` ... ``130S`` is one)."""
    last: dict[int, int] = {}
    n = 0
    for s, t in bids:
        b = parse_coinche_bid(t)
        if b is None:
            continue
        partner = last.get((s + 2) % 4)
        if s % 2 == team and partner is not None and partner != b[1]:
            n += 1
        last[s] = b[1]
    return n


@dataclass(frozen=True)
class PartnerRead:
    """What the auction tells a seat of its partner: the contract the partner bid last
    and its highest value there (None, 0 when it has not bid), whether this seat already
    bid that contract, and how often the side has changed suit."""

    contract: int | None
    value: int
    raised: bool
    switches: int

    @classmethod
    def of(cls, turn: BidTurn) -> PartnerRead:
        partner = (turn.seat + 2) % 4
        told = _bids_of(turn.bids, partner)
        if not told:
            return cls(None, 0, False, side_switches(turn.bids, turn.seat % 2))
        code = told[-1][1]
        value = max(v for v, k in told if k == code)
        raised = any(k == code for _v, k in _bids_of(turn.bids, turn.seat))
        return cls(code, value, raised, side_switches(turn.bids, turn.seat % 2))


def raise_limit(hand: int, read: PartnerRead) -> int:
    """The highest value this hand takes the partner's contract to: its bid plus what
    the hand adds, in tens (0 without a partner's bid)."""
    if read.contract is None:
        return 0
    return min(160, (read.value + raise_points(hand, read.contract)) // 10 * 10)


def may_change_suit(hand: int, code: int, read: PartnerRead) -> bool:
    """A bid of ``code`` over the partner's other contract: only with a hand that really
    plays better there (``CHANGE_OVER`` more foreseen than with the partner's trump, at
    most one of its trumps) and only if the side has not changed suit yet: a second change
    is a bidding war (issue 66: 100C ... 130S 140C 150S 160C, set 0 to 340)."""
    p = read.contract
    if p is None or p == code:
        return True
    if read.switches >= 1 or not names_suit(hand, code):
        return False
    if p < 4 and (hand & SUIT_MASK[p]).bit_count() > 1:
        return False
    support = read.value + raise_points(hand, p) + 10.0
    return coinche_estimate(hand, code) >= support + CHANGE_OVER


def _coinche(turn: BidTurn, level: str, legal: dict[str, None], hand: int) -> str:
    """Coinche, as partners (issue 66).  Open or outbid the other side by the least step
    (80, or ten over the standing bid) in the contract the hand foresees best when the
    foresight reaches the bid with the level's margin and the hand holds a trump honour
    (``names_suit``); raise the partner's contract up to what the hand adds to it
    (``raise_limit``: the jack 20, the nine 10, the belote 20, a side ace 10, less the
    average its bid counted on); change suit over the partner only with a hand that really
    plays better there, once a side (``may_change_suit``); coinche their suit contract
    when a count of the defence's tricks (``defence_count``) says they cannot make it.
    Easy bids 80 on an obvious hand only.

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
    read = PartnerRead.of(turn)
    theirs_bid = any(s % 2 != turn.seat % 2 and t.startswith("bid ") for s, t in turn.bids)

    def own(c: int) -> float:
        """This hand's estimate alone (less when the opponents bid: their side holds cards)."""
        return coinche_estimate(hand, c) - (COINCHE_AGAINST_A_BID if theirs_bid else 0.0)

    if mult > 1:  # coinched: nobody bids again; the side of the bid may surcoinche
        if code is None or "surcoinche" not in legal:
            return "pass"
        if read.contract == code:
            sure = raise_limit(hand, read) >= standing + style.surcoinche
        else:
            sure = own(code) >= standing + style.surcoinche
        return "surcoinche" if sure else "pass"
    if "coinche" in legal and code is not None and not ours:
        if code < 4:
            partner_bid = read.contract is not None
            defence = defence_count(hand, code, partner_bid)
            if defence >= 162 - standing + style.coinche_count:
                return "coinche"
        else:
            theirs = standing + COINCHE_TAKERS_OVER - _defence_over_average(hand, code)
            if theirs <= standing - style.coinche:
                return "coinche"
    for c in contracts:
        capot = coinche_bid_text(CAPOT_BID, c)
        if capot in legal and sure_capot(hand, c):
            return capot
    value = max(80, standing + 10)
    # A raise of the partner's contract by what this hand adds: to the limit while the
    # side holds the auction (once), by the least step over the opponents' bid.
    if read.contract is not None and read.contract in contracts and not read.raised:
        limit = raise_limit(hand, read)
        target = limit if ours else value
        text = coinche_bid_text(target, read.contract)
        if target >= value and target <= limit and text in legal:
            return text
    if ours and any(s == turn.seat for s, _v in _bids_by_seat(turn.bids)):
        return "pass"  # this hand spoke already; the partner's bid counted it
    best: tuple[float, str] = (0.0, "pass")
    for c in contracts:
        if c == read.contract or not names_suit(hand, c) or not may_change_suit(hand, c, read):
            continue
        text = coinche_bid_text(value, c)
        f = own(c)
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
