"""Card play by rules of thumb: the easy and normal levels, and the rollouts of hard.

Everything works on masks and needs only what a seat knows (its hand, the cards gone, the
trick), so the same function plays the normal level and plays out sampled deals quickly.
"""

from __future__ import annotations

from engine.ai.tables import FULL, POINTS, POWER, SUIT_MASK, beats, bits, winner_index


def lowest_card(code: int, legal: int) -> int:
    """Easy: the lowest legal card (fewest points, weakest, plain before trump)."""
    pts = POINTS[code]
    power = POWER[code]
    return min(bits(legal), key=lambda c: (power[c] >= 8, pts[c], power[c] & 7, c))


def _is_master(code: int, card: int, out: int) -> bool:
    """No card still held by the others ranks above ``card`` in its suit."""
    power = POWER[code]
    suit_out = out & SUIT_MASK[card >> 3]
    p = power[card]
    return not any(power[c] > p for c in bits(suit_out))


def normal_card(
    kind: int,
    code: int,
    seat: int,
    hand: int,
    legal: int,
    trick: list[int],
    played: int,
    taker: int,
) -> int:
    """Normal: judge the trick, keep top trumps, ruff when it pays, help the partner."""
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    pts = POINTS[code]
    power = POWER[code]
    out = FULL & ~hand & ~played  # cards the others may hold
    trump_mask = SUIT_MASK[code] if code < 4 else (FULL if code == 5 else 0)
    attackers = (seat & 1) == (taker & 1)
    if not trick:
        return _lead(code, hand, cards, out, trump_mask, attackers, seat == taker)
    w = winner_index(code, trick)
    win_card = trick[w]
    partner_wins = len(trick) - w == 2
    last = len(trick) == 3
    winners = [c for c in cards if beats(code, c, win_card)]
    losers = [c for c in cards if c not in winners]
    if partner_wins:
        safe = last or (
            _is_master(code, win_card, out)
            and (
                win_card >> 3 == code
                or code >= 4
                or not (out & trump_mask)
                or (len(trick) == 2 and _is_master(code, win_card, out))
            )
        )
        pool = losers or cards
        if all(trump_mask >> c & 1 for c in pool) and code < 4:
            # Made to trump over the partner (club rules): spend the cheapest trump.
            return min(pool, key=lambda c: (power[c], pts[c]))
        if safe:
            # Give points, but not a trump we may need later.
            return max(pool, key=lambda c: (not (trump_mask >> c & 1), pts[c], -power[c]))
        return min(pool, key=lambda c: (bool(trump_mask >> c & 1), pts[c], power[c]))
    if winners:
        trick_pts = sum(pts[c] for c in trick)
        if last:
            # Win as cheaply in trumps as possible, as richly in the led suit as possible.
            return max(
                winners,
                key=lambda c: (
                    not (trump_mask >> c & 1),
                    pts[c] if not (trump_mask >> c & 1) else -power[c],
                ),
            )
        masters = [c for c in winners if _is_master(code, c, out & ~_trick_mask(trick))]
        led = trick[0] >> 3
        if masters:
            plain = [c for c in masters if c >> 3 == led and not (trump_mask >> c & 1)]
            if plain:
                return max(plain, key=lambda c: pts[c])
            # A master trump: ruff with it only if the trick is worth it.
            if trick_pts >= 10 or len(winners) == len(cards):
                return min(masters, key=lambda c: power[c])
        ruffs = [c for c in winners if trump_mask >> c & 1 and c >> 3 != led]
        if ruffs and (trick_pts >= 10 or len(ruffs) == len(cards)):
            return min(ruffs, key=lambda c: power[c])
        if trick_pts >= 10 and len(trick) == 2:
            return min(winners, key=lambda c: (pts[c], power[c]))
        if not losers:
            return min(winners, key=lambda c: (power[c], pts[c]))
    pool = losers or cards
    return min(pool, key=lambda c: (bool(trump_mask >> c & 1), pts[c], power[c]))


def _trick_mask(trick: list[int]) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def _lead(
    code: int,
    hand: int,
    cards: list[int],
    out: int,
    trump_mask: int,
    attackers: bool,
    is_taker: bool,
) -> int:
    pts = POINTS[code]
    power = POWER[code]
    my_trumps = [c for c in cards if trump_mask >> c & 1]
    out_trumps = out & trump_mask
    if code < 4 and my_trumps and out_trumps and attackers:
        top = max(my_trumps, key=lambda c: power[c])
        if _is_master(code, top, out):
            return top
        if is_taker and len(my_trumps) >= 3:
            return min(my_trumps, key=lambda c: power[c])
    # A master card worth something, in a suit the others still hold (so it is not ruffed).
    masters = [
        c
        for c in cards
        if not (code < 4 and c >> 3 == code)
        and _is_master(code, c, out)
        and (code >= 4 or not out_trumps or (out & SUIT_MASK[c >> 3]).bit_count() >= 2)
    ]
    if masters:
        return max(masters, key=lambda c: (pts[c], power[c]))
    # Otherwise lead low from a side suit, never a lonely ten.
    side = [c for c in cards if not (code < 4 and c >> 3 == code)] or cards

    def risk(c: int) -> tuple[bool, int, int, int]:
        suit_cards = hand & SUIT_MASK[c >> 3]
        guarded_ten = pts[c] >= 10 and suit_cards.bit_count() == 1
        return (guarded_ten, pts[c], -suit_cards.bit_count(), power[c])

    return min(side, key=risk)
