"""The match: a state machine over deals (bidding, play, scoring) driven by seat actions.

``legal_actions(seat)`` lists what a seat may do, ``apply(seat, action)`` checks and plays
it and returns events, ``view(seat)`` holds only what that seat may know, and the log
(ruleset, deck inputs, actions) rebuilds the exact match. A rejected action changes
nothing: every check runs before the first change.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import COINCHE_VALUES, PLAY_ACTIONS, Action
from engine.cards import (
    SUIT_NAMES,
    SUIT_SINGULAR,
    SUITS,
    card_text,
    cards_of,
    cards_text,
    parse_card,
)
from engine.contract import AT, CONTRACT_TEXTS, GENERALE_BID, NT, TRUMP_CODE, Contract
from engine.core import (
    BELOTE_POINTS,
    HIGHER,
    LAST_TRICK,
    LEGAL_KIND,
    SUIT_MASK,
    TRUMP_MASK,
    Meld,
    best_melds,
    counting_melds,
    legal_mask,
    points_table,
    score_bulgarian,
    score_coinche,
    score_french,
    winner_index,
)
from engine.errors import EngineError, IllegalAction, InvalidSeed, MatchOver, NotYourTurn
from engine.events import (
    Bid,
    CardPlayed,
    ContractMade,
    DealEnded,
    DealResult,
    Dealt,
    Event,
    MatchEnded,
    MeldsShown,
    Redealt,
    Trick,
    TrickWon,
)
from engine.options import TableRules
from engine.recipe import DeckInputs, shuffled_deck
from engine.rulesets import Ruleset, get_ruleset
from engine.simulate import BELOTE_MASK

LOG_FORMAT = "belote-match/1"


class Phase(enum.StrEnum):
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


@dataclass
class DealRecord:
    """One deal as it happened (engine-side truth: holds every hand and the deck)."""

    k: int
    dealer: int
    deck: list[int]
    turned: int | None
    hands: list[list[int]]  # the cards dealt to each seat (8, or 5 on a redeal)
    contract: Contract | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    result: DealResult | None = None


@dataclass(frozen=True)
class SeatView:
    seat: int | None
    ruleset: str
    target: int
    phase: Phase
    k: int
    dealer: int
    to_move: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, int, int, int]
    turned: int | None
    bids: tuple[tuple[int, str], ...]
    contract: Contract | None
    trick: tuple[tuple[int, int], ...]
    leader: int | None
    tricks: tuple[Trick, ...]
    belotes: tuple[tuple[int, int], ...]
    melds: tuple[tuple[int, Meld, bool], ...]
    scores: tuple[int, int]
    hanging: int
    last_result: DealResult | None
    legal: tuple[Action, ...]


DeckSource = Callable[[int], Sequence[int]] | Sequence[Sequence[int]]


class Match:
    """A 4-seat match of one ruleset. Give exactly one of ``inputs`` (the fair-deal recipe)
    or ``decks`` (a callable ``k -> deck`` or a list of decks). ``ruleset`` may be a
    :class:`TableRules` (the ruleset with its options and target); ``target``, when given,
    overrides the target it names."""

    def __init__(
        self,
        ruleset: str | Ruleset | TableRules = "club",
        inputs: DeckInputs | None = None,
        target: int | None = None,
        decks: DeckSource | None = None,
    ) -> None:
        if isinstance(ruleset, TableRules):
            self.table_rules = ruleset
            target = ruleset.target if target is None else target
            self.rules = ruleset.rules
        else:
            self.rules = get_ruleset(ruleset)
            self.table_rules = TableRules(self.rules.name)
        if (inputs is None) == (decks is None):
            raise EngineError("Give the match either deck inputs or decks, not both.")
        if inputs is not None:
            if not isinstance(inputs, DeckInputs):
                raise InvalidSeed("Deck inputs must be a DeckInputs.")
            if len(inputs.seat_seeds) != 4 or inputs.size != 32:
                raise InvalidSeed("A match is played by 4 seats with the 32-card deck.")
        if target is not None and (not isinstance(target, int) or target <= 0):
            raise EngineError("The target must be a positive whole number.")
        if target is not None and target != self.table_rules.target:
            self.table_rules = self.table_rules.with_changes(target=target)
        self.target = target if target is not None else self.rules.target
        self.inputs = inputs
        self._decks = decks
        self._decks_used: list[list[int]] = []
        self._kind = LEGAL_KIND[self.rules.legal]
        self._points = points_table(self.rules)
        opts = self.table_rules
        self._contracts = self.rules.contracts + ("NT",) * opts.no_trump + ("AT",) * opts.all_trump
        self._bid_values = tuple(v for v in COINCHE_VALUES if v != GENERALE_BID or opts.generale)
        self.scores: tuple[int, int] = (0, 0)
        self.hanging = 0
        self.deals: list[DealRecord] = []
        self.actions: list[tuple[int, str]] = []
        self.phase = Phase.BIDDING
        self.winner: int | None = None
        self.to_move: int | None = None
        self._start_events = self._start_deal()

    # ------------------------------------------------------------ public reads
    @property
    def ruleset(self) -> str:
        return self.rules.name

    @property
    def deal_number(self) -> int:
        return self.k

    def hand(self, seat: int) -> list[int]:
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def contract(self) -> Contract | None:
        return self._contract

    def _live_contract(self) -> Contract:
        """The contract, asked only once the auction is over (play, scoring)."""
        if self._contract is None:
            raise EngineError("The auction is not over: there is no contract yet.")
        return self._contract

    def _turned_card(self) -> int:
        """The turned card, asked only in the rulesets that turn one up."""
        if self.turned is None:
            raise EngineError(f"Nothing is turned up in {self.ruleset}.")
        return self.turned

    @property
    def current_trick(self) -> list[tuple[int, int]]:
        return list(zip(self._trick_seats, self._trick, strict=True))

    @property
    def start_events(self) -> list[Event]:
        """The events of the first deal (emitted when the match was built)."""
        return list(self._start_events)

    # ------------------------------------------------------------ deals
    def _deck_for(self, k: int) -> list[int]:
        if k < len(self._decks_used):
            return self._decks_used[k]
        if self.inputs is not None:
            deck = shuffled_deck(self.inputs, k)
        elif callable(self._decks):
            deck = list(self._decks(k))
        elif self._decks is not None and k < len(self._decks):
            deck = list(self._decks[k])
        else:
            raise EngineError(f"No deck given for deal {k}.")
        if sorted(deck) != list(range(32)):
            raise EngineError(f"The deck of deal {k} is not the 32 cards once each.")
        self._decks_used.append(deck)
        return deck

    def _start_deal(self) -> list[Event]:
        k = len(self.deals)
        self.k = k
        self.dealer = k % 4
        deck = self._deck_for(k)
        self._deck = deck
        hands = [0, 0, 0, 0]
        pos = 0
        for packet in self.rules.packets:
            for i in range(1, 5):
                seat = (self.dealer + i) % 4
                for c in deck[pos : pos + packet]:
                    hands[seat] |= 1 << c
                pos += packet
        self._hands = hands
        self.turned = deck[20] if self.rules.turned_card else None
        self._record = DealRecord(k, self.dealer, list(deck), self.turned, [])
        self.deals.append(self._record)
        self._bids: list[tuple[int, str]] = []
        self._round = 1
        self._passes = 0
        self._contract: Contract | None = None
        self._bid_code: int | None = None  # bulgarian: highest call so far
        self._bid_seat: int | None = None
        self._bid_value = 0  # coinche: the standing bid's value (0: none yet)
        self._mult = 1
        self._trick: list[int] = []
        self._trick_seats: list[int] = []
        self._tricks: list[Trick] = []
        self._leader: int | None = None
        self._card_pts = [0, 0]
        self._tricks_won = [0, 0]
        self._belotes: list[tuple[int, int]] = []
        self._belote_pts = [0, 0]
        self._declared: list[tuple[int, tuple[Meld, ...]]] = []
        self._melds_public: tuple[tuple[int, Meld, bool], ...] = ()
        self._meld_pts = [0, 0]
        self.phase = Phase.BIDDING
        self.to_move = (self.dealer + 1) % 4
        return [Dealt(k, self.dealer, self.turned)]

    def _finish_dealing(self) -> None:
        """Deal the rest after the auction (French: the taker gets the turned card + 2)."""
        deck = self._deck
        taker = self._live_contract().taker
        if self.rules.turned_card:
            self._hands[taker] |= 1 << self._turned_card()
            pos = 21
        else:
            pos = 4 * sum(self.rules.packets)
        for i in range(1, 5 if pos < 32 else 1):
            seat = (self.dealer + i) % 4
            n = 2 if (self.rules.turned_card and seat == taker) else 3
            for c in deck[pos : pos + n]:
                self._hands[seat] |= 1 << c
            pos += n
        self._record.hands = [cards_of(h) for h in self._hands]
        self._record.contract = self._contract
        self.phase = Phase.PLAY
        self._leader = (self.dealer + 1) % 4
        self.to_move = self._leader

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.OVER or seat != self.to_move:
            return []
        if self.phase is Phase.BIDDING:
            return self._legal_bids(seat)
        return self._legal_play_actions(seat)

    def _legal_bids(self, seat: int) -> list[Action]:
        if self.rules.auction == "french":
            if self._round == 1:
                return [Action.pass_(), Action.take()]
            turned_suit = CONTRACT_TEXTS[self._turned_card() >> 3]
            bids = [Action.bid(s) for s in "CDHS" if s != turned_suit]
            if self.rules.dealer_must_choose and seat == self.dealer and self._passes == 7:
                return bids
            return [Action.pass_(), *bids]
        if self.rules.auction == "coinche":
            return self._legal_coinche_bids(seat)
        out = [Action.pass_()]
        low = -1 if self._bid_code is None else self._bid_code
        out += [Action.bid(t) for t in CONTRACT_TEXTS[low + 1 :]]
        if self._bid_code is not None and self._bid_seat is not None:
            same_team = seat % 2 == self._bid_seat % 2
            if self._mult == 1 and not same_team:
                out.append(Action.contre())
            elif self._mult == 2 and same_team:
                out.append(Action.recontre())
        return out

    def _legal_coinche_bids(self, seat: int) -> list[Action]:
        """Pass; any higher bid while nobody has coinched; coinche by an opponent of the
        standing bidder; surcoinche by the bidding side once coinched."""
        out = [Action.pass_()]
        if self._mult == 1:
            out += [
                Action.bid(t, v)
                for v in self._bid_values
                if v > self._bid_value
                for t in self._contracts
            ]
        if self._bid_seat is not None:
            same_team = seat % 2 == self._bid_seat % 2
            if self._mult == 1 and not same_team:
                out.append(Action.coinche())
            elif self._mult == 2 and same_team:
                out.append(Action.surcoinche())
        return out

    def _coinche_refusal(self, seat: int, action: Action) -> IllegalAction:
        """Why a Coinche call is not allowed now, with the rule's reason."""
        standing = self._bid_seat is not None
        same_team = standing and seat % 2 == (self._bid_seat or 0) % 2
        if action.kind == "coinche":
            if not standing:
                return IllegalAction("There is no bid to coinche yet.", "coinche-no-bid")
            if self._mult > 1:
                return IllegalAction("The bid is already coinched.", "coinche-twice")
            return IllegalAction(
                "Only an opponent of the last bidder may coinche.", "coinche-own-side"
            )
        if action.kind == "surcoinche":
            if self._mult == 2 and not same_team:
                return IllegalAction("Only the bidding side may surcoinche.", "surcoinche-defence")
            return IllegalAction(
                "Surcoinche answers a coinche of your side's bid.", "surcoinche-no-coinche"
            )
        if action.kind == "bid":
            if action.value is None:
                return IllegalAction(
                    "Say the value and the suit of your bid, e.g. bid 80 H.", "bid-value"
                )
            if self._mult > 1:
                return IllegalAction(
                    "After a coinche no one bids again: pass or surcoinche.",
                    "bid-after-coinche",
                )
            if action.contract not in self._contracts:
                return IllegalAction(
                    f"{action.contract} is not a contract at this table.", "bid-contract"
                )
            if action.value not in self._bid_values:
                return IllegalAction("A bid is 80 to 160 in tens, or capot.", "bid-range")
            return IllegalAction("A bid must be higher than the standing bid.", "bid-higher")
        return IllegalAction("Bid, pass, coinche or surcoinche.", "bid-kind")

    def _legal_mask(self, seat: int) -> int:
        return legal_mask(self._kind, self._live_contract().code, self._hands[seat], self._trick)

    def _can_belote(self, seat: int, card: int) -> bool:
        return bool(self._belote_mask(seat) >> card & 1)

    def _can_meld(self, seat: int) -> bool:
        return (
            self.rules.has_melds
            and self._live_contract().code != NT
            and not self._tricks
            and bool(best_melds(self._hands[seat]))
        )

    def _belote_mask(self, seat: int) -> int:
        """The cards of the seat's hand that may be played with a belote announcement."""
        hand = self._hands[seat]
        code = self._live_contract().code
        kq = BELOTE_MASK[code] & hand
        # keep a king or queen only when its partner card is in the hand too
        kq &= (kq << 1 & 0x40404040) | (kq >> 1 & 0x20202020)
        if code == AT and self._trick:
            kq &= SUIT_MASK[self._trick[0] >> 3]
        return kq

    def _legal_play_actions(self, seat: int) -> list[Action]:
        mask = self._legal_mask(seat)
        melds = self._can_meld(seat)
        bel = self._belote_mask(seat) & mask
        out = []
        plays = PLAY_ACTIONS
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            i = c * 4
            out.append(plays[i])
            if melds:
                out.append(plays[i + 2])
            if bel & low:
                out.append(plays[i + 1])
                if melds:
                    out.append(plays[i + 3])
        return out

    # ------------------------------------------------------------ apply
    def refusal(self, seat: int, action: Action) -> EngineError | None:
        """Why ``seat`` may not make ``action`` now (None: it may); changes nothing. The
        error's message is the engine's English, its ``reason`` (an ``IllegalAction``'s)
        the rule in a word (see :class:`engine.errors.IllegalAction`)."""
        if self.phase is Phase.OVER:
            return MatchOver("The match is over.")
        if seat != self.to_move:
            return NotYourTurn(f"It is seat {self.to_move}'s turn, not seat {seat}'s.")
        try:
            if self.phase is Phase.BIDDING:
                self._check_bid(seat, action)
            else:
                self._check_play(seat, action)
        except IllegalAction as exc:
            return exc
        return None

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Check and play one action. Raises (and changes nothing) when it is not allowed."""
        if self.phase is Phase.OVER:
            raise MatchOver("The match is over.")
        if not isinstance(action, Action):
            action = Action.parse(action)
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise NotYourTurn(f"No seat {seat!r} at this table (seats are 0-3).")
        if seat != self.to_move:
            raise NotYourTurn(f"It is seat {self.to_move}'s turn, not seat {seat}'s.")
        if self.phase is Phase.BIDDING:
            self._check_bid(seat, action)
            events = self._apply_bid(seat, action)
        else:
            self._check_play(seat, action)
            events = self._apply_play(seat, action)
        return events

    def _check_bid(self, seat: int, action: Action) -> None:
        if action.kind == "play":
            raise IllegalAction("The bidding is not over yet.")
        if action not in self._legal_bids(seat):
            if self.rules.auction == "coinche":
                raise self._coinche_refusal(seat, action)
            if action.kind == "pass":
                raise IllegalAction("The dealer must name a trump now.")
            if action.kind in ("contre", "recontre"):
                raise IllegalAction(f"You cannot say {action.kind} now.")
            if action.kind in ("coinche", "surcoinche"):
                raise IllegalAction(f"Nobody says {action.kind} in {self.ruleset}.")
            if action.kind == "bid" and action.value is not None:
                raise IllegalAction(
                    f"A bid has no value in {self.ruleset}: name the trump, e.g. bid H."
                )
            if action.kind == "take" and not self.rules.turned_card:
                raise IllegalAction("Nothing is turned up in this ruleset: bid or pass.")
            if action.kind == "take":
                raise IllegalAction("The turned card can only be taken in the first round.")
            if self.rules.auction == "french" and self._round == 1:
                raise IllegalAction("First round: take the turned suit or pass.")
            if action.contract not in self.rules.contracts:
                raise IllegalAction(f"{action.contract} is not a contract in {self.ruleset}.")
            if self.rules.auction == "french":
                raise IllegalAction("Second round: name a suit other than the turned one.")
            raise IllegalAction("A call must be higher than the current contract.")

    def _record_action(self, seat: int, action: Action) -> None:
        text = action.text
        self.actions.append((seat, text))
        self._record.actions.append((seat, text))

    def _apply_bid(self, seat: int, action: Action) -> list[Event]:
        self._record_action(seat, action)
        self._bids.append((seat, action.text))
        events: list[Event] = [Bid(seat, action.text)]
        nxt = (seat + 1) % 4
        if self.rules.auction == "french":
            if action.kind == "pass":
                self._passes += 1
                if self._passes == 8:
                    return events + self._redeal()
                if self._passes == 4:
                    self._round = 2
                self.to_move = nxt
                return events
            if action.kind == "take":
                trump = CONTRACT_TEXTS[self._turned_card() >> 3]
            elif action.contract is not None:
                trump = action.contract
            else:
                raise IllegalAction("Name the suit of your bid.")
            self._contract = Contract(trump, seat, 1)
            return events + self._close_auction()
        if self.rules.auction == "coinche":
            return events + self._apply_coinche_bid(seat, action)
        # bulgarian
        if action.kind == "pass":
            self._passes += 1
            if self._bid_code is None and self._passes == 4:
                return events + self._redeal()
            if self._bid_code is not None and self._bid_seat is not None and self._passes == 3:
                self._contract = Contract(
                    CONTRACT_TEXTS[self._bid_code], self._bid_seat, self._mult
                )
                return events + self._close_auction()
        else:
            self._passes = 0
            if action.kind == "bid" and action.contract is not None:
                self._bid_code = TRUMP_CODE[action.contract]
                self._bid_seat = seat
                self._mult = 1
            elif action.kind == "contre":
                self._mult = 2
            else:
                self._mult = 4
        self.to_move = nxt
        return events

    def _apply_coinche_bid(self, seat: int, action: Action) -> list[Event]:
        """Four passes with no bid: redeal; three passes after a bid or a coinche: play;
        a surcoinche: play at once."""
        if action.kind == "pass":
            self._passes += 1
            if self._bid_seat is None and self._passes == 4:
                return self._redeal()
            if self._bid_seat is None or self._passes < 3:
                self.to_move = (seat + 1) % 4
                return []
        elif action.kind == "bid" and action.contract is not None and action.value is not None:
            self._passes = 0
            self._bid_code = TRUMP_CODE[action.contract]
            self._bid_seat = seat
            self._bid_value = action.value
            self.to_move = (seat + 1) % 4
            return []
        elif action.kind == "coinche":
            self._passes = 0
            self._mult = 2
            self.to_move = (seat + 1) % 4
            return []
        else:  # surcoinche
            self._mult = 4
        assert self._bid_code is not None and self._bid_seat is not None
        trump = CONTRACT_TEXTS[self._bid_code]
        self._contract = Contract(trump, self._bid_seat, self._mult, self._bid_value)
        return self._close_auction()

    def _close_auction(self) -> list[Event]:
        c = self._live_contract()
        self._finish_dealing()
        return [ContractMade(c)]

    def _redeal(self) -> list[Event]:
        self._record.hands = [cards_of(h) for h in self._hands]
        return [Redealt(self.k), *self._start_deal()]

    def _check_play(self, seat: int, action: Action) -> None:
        card = action.card
        if action.kind != "play" or card is None:
            raise IllegalAction("The bidding is over: play a card.")
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(f"You do not hold {card_text(card)}.")
        mask = self._legal_mask(seat)
        if not mask >> card & 1:
            raise self._why_illegal(seat, card, mask)
        if action.belote and not self._can_belote(seat, card):
            raise IllegalAction(
                "Belote needs the king and queen of trump, announced with the first."
            )
        if action.melds and not self._can_meld(seat):
            raise IllegalAction("You have no melds to declare now (only with your first card).")

    def _why_illegal(self, seat: int, card: int, mask: int) -> IllegalAction:
        lead = self._trick[0]
        ls = lead >> 3
        hand = self._hands[seat]
        code = self._live_contract().code
        if hand & SUIT_MASK[ls] and card >> 3 != ls:
            return IllegalAction(
                f"You must follow suit: play a {SUIT_SINGULAR[ls]}.", f"follow-{SUITS[ls]}"
            )
        if card >> 3 == ls:
            return IllegalAction(
                f"You must beat the highest {SUIT_SINGULAR[ls]} if you can.", f"beat-{SUITS[ls]}"
            )
        if code < 4 and mask & TRUMP_MASK[code]:
            if mask & TRUMP_MASK[code] != hand & TRUMP_MASK[code]:
                return IllegalAction("You must overtrump: play a higher trump.", "overtrump")
            return IllegalAction(
                f"You must trump: play a {SUIT_SINGULAR[code]}.", f"trump-{SUITS[code]}"
            )
        return IllegalAction(
            f"You cannot play {card_text(card)} now: play one of {cards_text(cards_of(mask))}."
        )

    def _apply_play(self, seat: int, action: Action) -> list[Event]:
        card = action.card
        assert card is not None  # _check_play refused an action without a card
        self._record_action(seat, action)
        events: list[Event] = [CardPlayed(seat, card, action.belote, action.melds)]
        if action.melds:
            self._declared.append((seat, best_melds(self._hands[seat])))
        if action.belote:
            self._belotes.append((seat, card))
            self._belote_pts[seat % 2] += BELOTE_POINTS
        self._hands[seat] &= ~(1 << card)
        if not self._trick:
            self._leader = seat
        self._trick.append(card)
        self._trick_seats.append(seat)
        if len(self._trick) < 4:
            self.to_move = (seat + 1) % 4
            return events
        code = self._live_contract().code
        w = self._trick_seats[winner_index(code, self._trick)]
        pts = sum(self._points[code][c] for c in self._trick)
        last = len(self._tricks) == 7
        if last:
            pts += LAST_TRICK
        self._card_pts[w % 2] += pts
        self._tricks_won[w % 2] += 1
        leader = self._trick_seats[0]
        trick = Trick(leader, tuple(zip(self._trick_seats, self._trick, strict=True)), w, pts)
        self._tricks.append(trick)
        events.append(TrickWon(trick))
        self._trick = []
        self._trick_seats = []
        if len(self._tricks) == 1 and self.rules.has_melds and self._declared:
            counted = counting_melds(self.rules, code, self._declared)
            self._melds_public = tuple(counted)
            for s, m, counts in counted:
                if counts:
                    self._meld_pts[s % 2] += m.points
            events.append(MeldsShown(self._melds_public))
        if last:
            return events + self._end_deal()
        self._leader = w
        self.to_move = w
        return events

    def _end_deal(self) -> list[Event]:
        c = self._live_contract()
        if self.rules.auction == "coinche":
            ds = score_coinche(
                c,
                self._card_pts,
                self._tricks_won,
                self._belote_pts,
                all(t.winner == c.taker for t in self._tricks),
                self.table_rules.bid_only,
            )
        elif self.rules.auction == "french":
            ds = score_french(
                c.taker_team, self._card_pts, self._tricks_won, self._meld_pts, self._belote_pts
            )
        else:
            ds = score_bulgarian(
                c.code,
                c.multiplier,
                c.taker_team,
                self._card_pts,
                self._tricks_won,
                self._meld_pts,
                self._belote_pts,
            )
        paid = [0, 0]
        if self.hanging and ds.outcome in ("made", "set"):
            # the deal's winner: more points, or on a rounding tie the team that made it
            p0, p1 = ds.points
            if p0 != p1:
                paid[0 if p0 > p1 else 1] = self.hanging
                self.hanging = 0
            elif ds.outcome == "made":
                paid[c.taker_team] = self.hanging
                self.hanging = 0
        self.hanging += ds.held
        s0 = self.scores[0] + ds.points[0] + paid[0]
        s1 = self.scores[1] + ds.points[1] + paid[1]
        self.scores = (s0, s1)
        capot = 0 if self._tricks_won[1] == 0 else 1 if self._tricks_won[0] == 0 else None
        result = DealResult(
            k=self.k,
            contract=c,
            card_points=(self._card_pts[0], self._card_pts[1]),
            tricks=(self._tricks_won[0], self._tricks_won[1]),
            melds=(self._meld_pts[0], self._meld_pts[1]),
            belotes=(self._belote_pts[0], self._belote_pts[1]),
            totals=ds.totals,
            outcome=ds.outcome,
            points=ds.points,
            held=ds.held,
            paid=(paid[0], paid[1]),
            scores=self.scores,
            capot=capot,
        )
        self._record.result = result
        self.last_result = result
        events: list[Event] = [DealEnded(result)]
        if self._match_is_won(capot):
            self.winner = 0 if s0 > s1 else 1
            self.phase = Phase.OVER
            self.to_move = None
            events.append(MatchEnded(self.winner, self.scores))
            return events
        return events + self._start_deal()

    def _match_is_won(self, capot: int | None) -> bool:
        s0, s1 = self.scores
        if max(s0, s1) < self.target or s0 == s1:
            return False
        return not (self.rules.name == "bulgarian" and capot is not None)

    last_result: DealResult | None = None

    # ------------------------------------------------------------ views
    def view(self, seat: int | None) -> SeatView:
        if seat is not None and seat not in (0, 1, 2, 3):
            raise NotYourTurn(f"No seat {seat!r} at this table (seats are 0-3).")
        hand = () if seat is None else tuple(cards_of(self._hands[seat]))
        legal = () if seat is None else tuple(self.legal_actions(seat))
        return SeatView(
            seat=seat,
            ruleset=self.rules.name,
            target=self.target,
            phase=self.phase,
            k=self.k,
            dealer=self.dealer,
            to_move=self.to_move,
            hand=hand,
            hand_sizes=(
                self._hands[0].bit_count(),
                self._hands[1].bit_count(),
                self._hands[2].bit_count(),
                self._hands[3].bit_count(),
            ),
            turned=self.turned,
            bids=tuple(self._bids),
            contract=self._contract,
            trick=tuple(zip(self._trick_seats, self._trick, strict=True)),
            leader=self._leader,
            tricks=tuple(self._tricks),
            belotes=tuple(self._belotes),
            melds=self._melds_public,
            scores=self.scores,
            hanging=self.hanging,
            last_result=self.last_result,
            legal=legal,
        )

    # ------------------------------------------------------------ log
    def to_log(self) -> dict[str, Any]:
        """JSON-safe log. With recipe inputs it holds the server seed: keep it private until
        the reveal. With given decks it holds the decks used so far."""
        log: dict[str, Any] = {
            "format": LOG_FORMAT,
            "ruleset": self.rules.name,
            "target": self.target,
        }
        if self.table_rules.options:  # absent when none is set: older logs read the same
            log["options"] = self.table_rules.options
        return log | {
            "inputs": None if self.inputs is None else self.inputs.to_dict(),
            "decks": None if self.inputs is not None else [cards_text(d) for d in self._decks_used],
            "actions": [[s, t] for s, t in self.actions],
        }

    @classmethod
    def from_log(cls, log: dict[str, Any]) -> Match:
        if not isinstance(log, dict) or log.get("format") != LOG_FORMAT:
            raise EngineError("Not a match log.")
        try:
            rules = TableRules.from_dict({"ruleset": log["ruleset"], "options": log.get("options")})
            if log.get("inputs") is not None:
                m = cls(rules, inputs=DeckInputs.from_dict(log["inputs"]), target=log["target"])
            else:
                decks = [[parse_card(t) for t in d.split()] for d in log["decks"]]
                m = cls(rules, decks=decks, target=log["target"])
            for seat, text in log["actions"]:
                m.apply(seat, text)
        except (KeyError, TypeError, AttributeError) as exc:
            raise EngineError("Malformed match log.") from exc
        return m

    def to_json(self) -> str:
        return json.dumps(self.to_log(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            log = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise EngineError("Not a match log (bad JSON).") from exc
        return cls.from_log(log)

    def __repr__(self) -> str:
        return (
            f"Match({self.rules.name!r}, k={self.k}, phase={self.phase.value}, "
            f"scores={self.scores}, to_move={self.to_move})"
        )


__all__ = [
    "HIGHER",
    "SUIT_NAMES",
    "DealRecord",
    "DealResult",
    "Event",
    "Match",
    "Phase",
    "SeatView",
    "Trick",
]
