"""A learned model of how strong players choose a card: what their plays say of their hands.

A world in which a seat's past card is the card a strong player would often have chosen
from the hand that world gives it is more likely than one where it is a card such a player
seldom chooses.  The model scores every legal card of a decision from what that card is
to the hand (its points, whether it wins the trick or is the master of its suit, how long
its suit is in the hand, whether it ruffs or discards...) and what the decision is (the
place in the trick, the side, the trick's points...), by a small neural network (one
hidden layer), and turns the scores into probabilities by a softmax over the legal cards.
A linear score of the same features measured too blunt: it gave an ace that takes a rich
last trick even odds against a low card, where strong players take it every time.

The weights are fitted by ``bench/studies/policy_fit.py`` to the choices of information-set
double-dummy players in self-play (the sparring partner and the expert), and live in
``policy_weights.py``.  ``_dds.c`` computes the same features and probabilities (a test
checks the two against each other).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.ai.policy_weights import WEIGHTS
from engine.ai.tables import ABOVE, FULL, POINTS, POWER, SUIT_MASK, beats, winner_index

CARD_FEATURES = 24  # what the card is to the hand and the trick
CONTEXT_FEATURES = 11  # what the decision is (place in the trick, side, trick points...)
INPUTS = CARD_FEATURES + CONTEXT_FEATURES
HIDDEN = 24
SIZE = INPUTS * HIDDEN + 2 * HIDDEN  # first layer (input-major), its biases, the output
ACE, TEN = 7, 3  # rank indices (7 8 9 T J Q K A)


def card_features(
    code: int,
    seat: int,
    hand: int,
    legal: int,
    trick: list[int] | tuple[int, ...],
    gone: int,
    taker: int,
) -> list[tuple[int, list[float]]]:
    """For every legal card (ascending): the card and the model's inputs for it.

    ``gone`` is every card played before this decision (the current trick included), so
    ``FULL & ~hand & ~gone`` is what the player knew the others might hold.
    """
    pts, power, above = POINTS[code], POWER[code], ABOVE[code]
    out = FULL & ~hand & ~gone
    place = len(trick)
    attacker = (seat & 1) == (taker & 1)
    trumps = SUIT_MASK[code] if code < 4 else (FULL if code == 5 else 0)
    trumps_held = (hand & trumps).bit_count() if code < 4 else 0
    win_card, led, partner_wins, trick_pts = -1, -1, False, 0
    if place:
        w = winner_index(code, trick)
        win_card = trick[w]
        partner_wins = place - w == 2
        led = trick[0] >> 3
        trick_pts = sum(pts[c] for c in trick)
    context = [
        float(place == 0),
        float(place == 1),
        float(place == 2),
        float(place == 3),
        float(attacker),
        float(partner_wins),
        trick_pts / 10.0,
        float(place > 0 and code < 4 and led == code),
        legal.bit_count() / 8.0,
        trumps_held / 8.0,
        hand.bit_count() / 8.0,
    ]
    cards = [c for c in range(32) if legal >> c & 1]
    wins = {c: place > 0 and beats(code, c, win_card) for c in cards}
    rows = []
    for c in cards:
        suit = c >> 3
        in_suit = hand & SUIT_MASK[suit]
        held = in_suit.bit_count()
        higher = (in_suit & above[c]).bit_count()
        p = pts[c] / 10.0
        trump = bool(trumps >> c & 1)
        master = above[c] & out == 0
        other_master = any(
            above[x] & out == 0
            for x in range(suit * 8, suit * 8 + 8)
            if x != c and in_suit >> x & 1
        )
        bare_ten = (c & 7) == TEN and not trump and code != 5 and bool(out >> (suit * 8 + ACE) & 1)
        win = wins[c]
        cheapest = win and not any(
            wins[d] and d >> 3 == suit and power[d] < power[c] for d in cards
        )
        ruff = place > 0 and code < 4 and trump and led != suit
        discard = place > 0 and led != suit and not ruff
        lead = place == 0
        f = [
            p,  # its points (tens)
            float(trump),
            (power[c] & 7) / 7.0,  # its rank within its suit
            float(win),  # it takes the lead in the trick
            trick_pts / 10.0 if win else 0.0,  # ... and the points already in it
            p if win else 0.0,
            p if partner_wins else 0.0,  # points given to the partner's trick
            float(master),  # nothing the others may hold beats it in its suit
            p if master else 0.0,
            float(held - 1 - higher == 0),  # the lowest the hand holds in its suit
            float(higher == 0),  # the highest
            held / 8.0,  # how long its suit is in the hand
            float(held == 1),  # a singleton
            float(ruff),
            float(discard),
            p if discard else 0.0,
            held / 8.0 if discard else 0.0,
            float(other_master),  # the hand holds another master of that suit
            float(bare_ten),  # a ten while its ace is out
            (out & SUIT_MASK[suit]).bit_count() / 8.0 if lead else 0.0,  # a lead: cards out there
            trumps_held / 8.0 if lead and trump else 0.0,  # a trump lead: trumps held
            float(cheapest),  # the cheapest card of its suit that takes the lead
            float(partner_wins and win),  # it overtakes the partner
            float(master and not trump and lead),  # a plain master led
        ]
        rows.append((c, f + context))
    return rows


def card_score(inputs: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """The network's score of one card: one hidden layer of ``tanh`` units."""
    out = INPUTS * HIDDEN
    score = 0.0
    for j in range(HIDDEN):
        acc = weights[out + j]
        for i in range(INPUTS):
            acc += weights[i * HIDDEN + j] * inputs[i]
        score += weights[out + HIDDEN + j] * math.tanh(acc)
    return score


def card_probabilities(
    code: int,
    seat: int,
    hand: int,
    legal: int,
    trick: list[int] | tuple[int, ...],
    gone: int,
    taker: int,
    weights: Sequence[float] = WEIGHTS,
) -> dict[int, float]:
    """The model's probability of each legal card, for a strong player holding ``hand``."""
    scores = {
        c: card_score(x, weights)
        for c, x in card_features(code, seat, hand, legal, trick, gone, taker)
    }
    top = max(scores.values())
    z = sum(math.exp(s - top) for s in scores.values())
    return {c: math.exp(s - top) / z for c, s in scores.items()}


def card_probability(
    code: int,
    seat: int,
    hand: int,
    legal: int,
    trick: list[int] | tuple[int, ...],
    gone: int,
    taker: int,
    card: int,
    weights: Sequence[float] = WEIGHTS,
) -> float:
    """The model's probability that a strong player holding ``hand`` plays ``card``."""
    return card_probabilities(code, seat, hand, legal, trick, gone, taker, weights)[card]


__all__ = [
    "INPUTS",
    "SIZE",
    "card_features",
    "card_probabilities",
    "card_probability",
    "card_score",
]
