"""Double-dummy solver: exact minimax of the remaining card points with every hand open.

Alpha-beta (fail-soft, principal variation search) with a transposition table at trick
boundaries, a bound by the points left, move ordering (table move first, then cheap
winners / point smears) and equivalent-card pruning (two cards of one hand, same suit,
same points, with no card outside that hand ranking between them, lead to the same
value, so only one is searched).  The value is always from the
*maximizing team's* side: its points minus the other team's over the cards still to be
played (the current trick included), plus the last-trick bonus, plus the capot bonus when
one team ends with every trick of the deal.

``minimax_values`` is the independent reference (plain minimax, no pruning, no table, no
equivalences) the tests compare against.

``solve`` and ``solve_root`` are what the search calls: they run the compiled port of
``Solver`` (``engine/ai/_dds.c``, built at install, about 60 times faster) and fall back to
``Solver`` itself where no C compiler was available.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.ai.tables import (
    ABOVE,
    CAPOT_BONUS,
    FULL,
    ORDER,
    POINTS,
    POWER,
    bits,
    last_trick_bonus,
    legal_mask,
    winner_index,
)

try:
    from engine.ai import _dds
except ImportError:  # built without a C compiler: the pure-Python solver does it all
    COMPILED = False
else:
    COMPILED = True

INF = 10_000
ASPIRATION = 16  # a root card's first window about the one before it (_dds.c's too)


class NodeLimit(Exception):
    """The solver used up its node budget (the caller falls back to something cheaper)."""


def solve_root(
    pos: Position, max_team: int, max_nodes: int | None = None, only: int = FULL
) -> tuple[dict[int, int], int]:
    """The exact value of every legal card in ``only`` (see ``Solver.root_values``) and
    the nodes searched.

    Raises ``NodeLimit`` past ``max_nodes``.
    """
    if not COMPILED:
        solver = Solver(pos.kind, pos.code, max_team, max_nodes)
        return solver.root_values(pos, only), solver.nodes
    # ``only`` is passed when it matters, so a core built before it still solves the rest
    extra = () if only & FULL == FULL else (only & FULL,)
    try:
        return _dds.root_values(*_state(pos, max_team, max_nodes), *extra)
    except _dds.NodeLimit:
        raise NodeLimit from None


def solve(pos: Position, max_team: int, max_nodes: int | None = None) -> tuple[int, int]:
    """The exact value of ``pos`` for ``max_team`` and the nodes searched."""
    if not COMPILED:
        solver = Solver(pos.kind, pos.code, max_team, max_nodes)
        return solver.value(pos), solver.nodes
    try:
        return _dds.value(*_state(pos, max_team, max_nodes))
    except _dds.NodeLimit:
        raise NodeLimit from None


def _state(
    pos: Position, max_team: int, max_nodes: int | None
) -> tuple[int, int, int, list[int], int, list[int], int, int]:
    """The compiled solver's arguments for ``pos``."""
    limit = -1 if max_nodes is None else max(0, max_nodes)
    return (pos.kind, pos.code, max_team, pos.hands, pos.leader, pos.trick, pos.won, limit)


@dataclass
class Position:
    """A position of trick play with every hand known.

    ``won`` has bit t set when team t already took a trick in this deal (for the capot).
    ``trick`` holds the cards of the current trick in play order, led by ``leader``.
    """

    kind: int
    code: int
    hands: list[int]
    leader: int
    trick: list[int] = field(default_factory=list)
    won: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def copy(self) -> Position:
        return Position(
            self.kind, self.code, list(self.hands), self.leader, list(self.trick), self.won
        )


class Solver:
    """One solver per (contract, maximizing team); its table survives between calls.

    Reuse one solver for the root moves of one position (and its successors) so the table
    helps; the table is keyed by the four hands, so positions of other deals never collide
    in a wrong way, but a fresh solver per sample keeps memory small.
    """

    def __init__(self, kind: int, code: int, max_team: int, max_nodes: int | None = None) -> None:
        self.kind = kind
        self.code = code
        self.max_team = max_team
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        # Counting nodes (not time) keeps a capped search deterministic.
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62

    # -- public -------------------------------------------------------------------
    def value(self, pos: Position, alpha: int = -INF, beta: int = INF) -> int:
        """Minimax value of ``pos`` (maximizing team's points minus the others')."""
        hands = list(pos.hands)
        return self._search(hands, pos.leader, list(pos.trick), pos.won, alpha, beta)

    def root_values(self, pos: Position, only: int = FULL) -> dict[int, int]:
        """Exact value of every legal card of the player to move that ``only`` holds
        (equivalent cards, which must score the same, are solved once)."""
        out: dict[int, int] = {}
        value: int | None = None
        guess: int | None = None
        for card, fresh in root_cards(self.kind, self.code, pos):
            if not only >> card & 1:
                value = None
                continue
            if fresh or value is None:
                value = self.after(pos, card) if guess is None else self._near(pos, card, guess)
                guess = value
            out[card] = value
        return out

    def _near(self, pos: Position, card: int, guess: int) -> int:
        """The exact value of ``card``, searched first within ``ASPIRATION`` of the card
        solved before it: a hand's cards are seldom far apart, and the narrow window cuts
        more than a full one (4 to 9% fewer nodes at 24 to 32 cards left: bench/dds.py --root)."""
        lo, hi = guess - ASPIRATION, guess + ASPIRATION
        value = self.after(pos, card, lo, hi)
        if value <= lo:
            return self.after(pos, card, -INF, value + 1)
        if value >= hi:
            return self.after(pos, card, value - 1, INF)
        return value

    def after(self, pos: Position, card: int, alpha: int = -INF, beta: int = INF) -> int:
        """Value of ``pos`` once the player to move plays ``card``."""
        hands = list(pos.hands)
        seat = pos.to_move
        hands[seat] ^= 1 << card
        return self._child(hands, pos.leader, [*pos.trick, card], pos.won, alpha, beta)

    # -- search -------------------------------------------------------------------
    def _close(
        self, hands: list[int], leader: int, trick: list[int], won: int
    ) -> tuple[int, int, int]:
        code = self.code
        pts = POINTS[code]
        w = winner_index(code, trick)
        winner = (leader + w) % 4
        gain = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            gain += last_trick_bonus(code)
        team = winner & 1
        won |= 1 << team
        if team != self.max_team:
            gain = -gain
        return gain, winner, won

    def _search(
        self, hands: list[int], leader: int, trick: list[int], won: int, alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise NodeLimit
        n = len(trick)
        key = 0
        best_hint = -1
        if n == 0:
            if not (hands[0] | hands[1] | hands[2] | hands[3]):
                if won == 1 << self.max_team:
                    return CAPOT_BONUS
                if won == 1 << (1 - self.max_team):
                    return -CAPOT_BONUS
                return 0
            if n == 0 and (hands[0] & (hands[0] - 1)) == 0 and self._one_each(hands):
                return self._last_trick(hands, leader, won)
            # No line wins more than every point left (and the capot, while possible).
            left = _points_left(self.code, hands[0] | hands[1] | hands[2] | hands[3])
            most = left + (0 if won >> (1 - self.max_team) & 1 else CAPOT_BONUS)
            if most <= alpha:
                return most
            least = -left - (0 if won >> self.max_team & 1 else CAPOT_BONUS)
            if least >= beta:
                return least
            key = (
                hands[0]
                | hands[1] << 32
                | hands[2] << 64
                | hands[3] << 96
                | leader << 128
                | won << 130
            )
            entry = self.table.get(key)
            if entry is not None:
                lo, hi, best_hint = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        alpha0, beta0 = alpha, beta
        seat = (leader + n) % 4
        maximizing = (seat & 1) == self.max_team
        moves = self._moves(hands, seat, trick, best_hint)
        best = -INF if maximizing else INF
        best_move = -1
        hand = hands[seat]
        for i, card in enumerate(moves):
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            if i == 0 or beta - alpha <= 1:
                v = self._child(hands, leader, trick, won, alpha, beta)
            elif maximizing:
                # Principal variation search: prove a later move no better with a null
                # window, and search again only one that is.
                v = self._child(hands, leader, trick, won, alpha, alpha + 1)
                if alpha < v < beta:
                    v = self._child(hands, leader, trick, won, v, beta)
            else:
                v = self._child(hands, leader, trick, won, beta - 1, beta)
                if alpha < v < beta:
                    v = self._child(hands, leader, trick, won, alpha, v)
            trick.pop()
            hands[seat] = hand
            if maximizing:
                if v > best:
                    best, best_move = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best, best_move = v, card
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if n == 0:
            entry = self.table.get(key)
            lo, hi = (entry[0], entry[1]) if entry is not None else (-INF, INF)
            if best <= alpha0:
                hi = min(hi, best)
            elif best >= beta0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi, best_move)
        return best

    def _child(
        self, hands: list[int], leader: int, trick: list[int], won: int, alpha: int, beta: int
    ) -> int:
        """Search on after a card was added to ``trick`` (closing it when it is full)."""
        if len(trick) < 4:
            return self._search(hands, leader, trick, won, alpha, beta)
        gain, winner, won2 = self._close(hands, leader, trick, won)
        return gain + self._search(hands, winner, [], won2, alpha - gain, beta - gain)

    @staticmethod
    def _one_each(hands: list[int]) -> bool:
        return all(h and not h & (h - 1) for h in hands)

    def _last_trick(self, hands: list[int], leader: int, won: int) -> int:
        trick = [(hands[(leader + i) % 4]).bit_length() - 1 for i in range(4)]
        gain, _, won = self._close([0, 0, 0, 0], leader, trick, won)
        if won == 1 << self.max_team:
            return gain + CAPOT_BONUS
        if won == 1 << (1 - self.max_team):
            return gain - CAPOT_BONUS
        return gain

    def _moves(self, hands: list[int], seat: int, trick: list[int], hint: int) -> list[int]:
        """Legal cards, one per class of equivalent cards, best-first."""
        code = self.code
        hand = hands[seat]
        legal = legal_mask(self.kind, code, hand, trick)
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
        for c in trick:
            others |= 1 << c
        cache = _CLASS_CACHE
        moves: list[int] = []
        base = code << 18
        for suit in range(4):
            shift = suit * 8
            lg = (legal >> shift) & 0xFF
            if not lg:
                continue
            k = base | suit << 16 | lg << 8 | ((others >> shift) & 0xFF)
            kept = cache.get(k)
            if kept is None:
                kept = cache[k] = _classes(code, suit, lg, (others >> shift) & 0xFF)
            moves.extend(kept)
        if len(moves) > 1:
            power = POWER[code]
            pts = POINTS[code]
            if trick:
                w = winner_index(code, trick)
                win_card = trick[w]
                win_suit = win_card >> 3
                win_power = power[win_card]
                trump = code if code < 4 else -1
                if len(trick) - w == 2:
                    # Partner holds the trick: smear points, do not overtake.
                    moves.sort(
                        key=lambda c: (
                            (c >> 3 == win_suit and power[c] > win_power)
                            or (c >> 3 == trump != win_suit),
                            -pts[c],
                        )
                    )
                elif len(trick) == 3:
                    # Last to play: win with the richest card, else throw the poorest.
                    moves.sort(
                        key=lambda c: (
                            (0, -pts[c], power[c])
                            if (
                                (c >> 3 == win_suit and power[c] > win_power)
                                or (c >> 3 == trump != win_suit)
                            )
                            else (1, pts[c], 0)
                        )
                    )
                else:
                    moves.sort(
                        key=lambda c: (
                            (0, power[c])
                            if (
                                (c >> 3 == win_suit and power[c] > win_power)
                                or (c >> 3 == trump != win_suit)
                            )
                            else (1, pts[c])
                        )
                    )
            else:
                above = ABOVE[code]

                def lead_key(c: int) -> tuple[int, int]:
                    if not above[c] & others:  # master of its suit: cash it, richest first
                        return (0, -pts[c])
                    return (1, power[c])

                moves.sort(key=lead_key)
            if hint >= 0 and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        return moves


_CLASS_CACHE: dict[int, list[int]] = {}

# Points of every set of cards of one suit, per contract: [code][suit][8-bit set].
_BYTE_POINTS = tuple(
    tuple(
        tuple(
            sum(POINTS[code][suit * 8 + r] for r in range(8) if byte >> r & 1)
            for byte in range(256)
        )
        for suit in range(4)
    )
    for code in range(6)
)


def root_cards(kind: int, code: int, pos: Position) -> list[tuple[int, bool]]:
    """Every legal card of the player to move, in the order the roots are solved, and
    whether it must be solved: ``False`` for a card equivalent to the one before it (same
    suit, same points, none of the others' cards between them), which scores the same."""
    seat = pos.to_move
    hand = pos.hands[seat]
    legal = legal_mask(kind, code, hand, pos.trick)
    others = (pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]) & ~hand
    for c in pos.trick:
        others |= 1 << c
    pts = POINTS[code]
    out: list[tuple[int, bool]] = []
    for suit in range(4):
        have = False
        run_pts = -1
        for card in ORDER[code][suit]:
            bit = 1 << card
            if others & bit:
                have = False
            elif legal & bit:
                out.append((card, not have or pts[card] != run_pts))
                run_pts = pts[card]
                have = True
    return out


def _points_left(code: int, cards: int) -> int:
    """Card points of ``cards`` plus the last trick's bonus."""
    bp = _BYTE_POINTS[code]
    return (
        bp[0][cards & 0xFF]
        + bp[1][cards >> 8 & 0xFF]
        + bp[2][cards >> 16 & 0xFF]
        + bp[3][cards >> 24]
        + last_trick_bonus(code)
    )


def _classes(code: int, suit: int, legal8: int, others8: int) -> list[int]:
    """One card per run of equivalent legal cards of one suit (strongest first)."""
    pts = POINTS[code]
    out = []
    run_pts = -1
    for c in ORDER[code][suit]:
        bit = 1 << (c & 7)
        if others8 & bit:
            run_pts = -1
        elif legal8 & bit and pts[c] != run_pts:
            out.append(c)
            run_pts = pts[c]
    return out


def minimax_values(pos: Position, max_team: int) -> dict[int, int]:
    """Reference: plain minimax of every legal card, no pruning, table or equivalences."""
    kind, code = pos.kind, pos.code
    pts = POINTS[code]

    def search(hands: list[int], leader: int, trick: list[int], won: int) -> int:
        if not trick and not (hands[0] | hands[1] | hands[2] | hands[3]):
            if won == 1 << max_team:
                return CAPOT_BONUS
            if won == 1 << (1 - max_team):
                return -CAPOT_BONUS
            return 0
        seat = (leader + len(trick)) % 4
        values = []
        for card in bits(legal_mask(kind, code, hands[seat], trick)):
            h = list(hands)
            h[seat] ^= 1 << card
            t = [*trick, card]
            if len(t) == 4:
                w = (leader + winner_index(code, t)) % 4
                gain = sum(pts[c] for c in t)
                if not (h[0] | h[1] | h[2] | h[3]):
                    gain += last_trick_bonus(code)
                if w & 1 != max_team:
                    gain = -gain
                values.append(gain + search(h, w, [], won | 1 << (w & 1)))
            else:
                values.append(search(h, leader, t, won))
        return max(values) if seat & 1 == max_team else min(values)

    seat = pos.to_move
    out = {}
    for card in bits(legal_mask(kind, code, pos.hands[seat], pos.trick)):
        h = list(pos.hands)
        h[seat] ^= 1 << card
        t = [*pos.trick, card]
        if len(t) == 4:
            w = (pos.leader + winner_index(code, t)) % 4
            gain = sum(pts[c] for c in t)
            if not (h[0] | h[1] | h[2] | h[3]):
                gain += last_trick_bonus(code)
            if w & 1 != max_team:
                gain = -gain
            out[card] = gain + search(h, w, [], pos.won | 1 << (w & 1))
        else:
            out[card] = search(h, pos.leader, t, pos.won)
    return out
