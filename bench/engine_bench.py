"""How fast the engine plays random full deals, against a naive implementation.

Prints three figures: random deals per second on the fast core (what `belote bench`
prints; bidding, play and scoring of each ruleset), whole deals per second through the
`Match` object (legal_actions / apply, events and all), and a plain object-per-card
Python implementation of classic random play for comparison. The last line is
`random deals/s: N` for the core.

    python bench/engine_bench.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from engine import Match, Phase, get_ruleset
from engine.simulate import run_random_deals

RULESETS = ("classic", "club", "bulgarian")


def bench_core(seconds: float, rng: random.Random) -> tuple[float, float]:
    """(all rulesets, classic only) deals per second."""
    deals = 0
    elapsed = 0.0
    classic = 0.0
    for name in RULESETS:
        rules = get_ruleset(name)
        start = time.perf_counter()
        n = 0
        while time.perf_counter() - start < seconds / len(RULESETS):
            n += run_random_deals(rules, 200, rng)[0]
        dt = time.perf_counter() - start
        print(f"  core, {name}: {n / dt:,.0f} deals/s")
        if name == "classic":
            classic = n / dt
        deals += n
        elapsed += dt
    return deals / elapsed, classic


def bench_match(seconds: float, rng: random.Random) -> float:
    deals = 0
    start = time.perf_counter()
    i = 0
    while time.perf_counter() - start < seconds:
        name = RULESETS[i % 3]
        decks = [rng.sample(range(32), 32) for _ in range(4)]
        m = Match(name, decks=lambda k, d=decks: d[k % 4])
        first = m.deal_number
        while m.deal_number == first and m.phase is not Phase.OVER:
            seat = m.to_move
            m.apply(seat, rng.choice(m.legal_actions(seat)))
        deals += 1
        i += 1
    return deals / (time.perf_counter() - start)


# ---------------------------------------------------------------- the naive version
@dataclass(frozen=True)
class NaiveCard:
    suit: str
    rank: str


N_TRUMP_ORDER = "78QKTA9J"
N_PLAIN_ORDER = "789JQKTA"
N_TRUMP_PTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
N_PLAIN_PTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def n_strength(card: NaiveCard, trump: str, led: str) -> int:
    if card.suit == trump:
        return 100 + N_TRUMP_ORDER.index(card.rank)
    if card.suit == led:
        return N_PLAIN_ORDER.index(card.rank)
    return -1


def n_legal(hand: list[NaiveCard], trick: list[NaiveCard], trump: str) -> list[NaiveCard]:
    if not trick:
        return hand
    led = trick[0].suit
    best = max(range(len(trick)), key=lambda i: n_strength(trick[i], trump, led))
    best_card = trick[best]
    follow = [c for c in hand if c.suit == led]
    if follow:
        if led == trump:
            higher = [
                c for c in follow if n_strength(c, trump, led) > n_strength(best_card, trump, led)
            ]
            return higher or follow
        return follow
    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return hand
    if len(trick) >= 2 and best == len(trick) - 2:
        return hand
    if best_card.suit == trump:
        higher = [
            c for c in trumps if n_strength(c, trump, led) > n_strength(best_card, trump, led)
        ]
        return higher or trumps
    return trumps


def naive_deal(rng: random.Random) -> tuple[int, int]:
    deck = [NaiveCard(s, r) for s in "CDHS" for r in "789TJQKA"]
    rng.shuffle(deck)
    turned = deck[20]
    taker = None
    for i in range(4):
        if rng.random() < 0.5:
            taker = (1 + i) % 4
            break
    trump = turned.suit
    if taker is None:
        taker = 0
        trump = rng.choice([s for s in "CDHS" if s != turned.suit])
    hands: list[list[NaiveCard]] = [[] for _ in range(4)]
    pos = 0
    for packet in (3, 2):
        for i in range(4):
            hands[(1 + i) % 4] += deck[pos : pos + packet]
            pos += packet
    hands[taker].append(turned)
    pos = 21
    for i in range(4):
        seat = (1 + i) % 4
        n = 2 if seat == taker else 3
        hands[seat] += deck[pos : pos + n]
        pos += n
    points = [0, 0]
    leader = 1
    for t in range(8):
        trick: list[NaiveCard] = []
        seats = []
        for j in range(4):
            seat = (leader + j) % 4
            card = rng.choice(n_legal(hands[seat], trick, trump))
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
        led = trick[0].suit
        w = max(range(4), key=lambda i: n_strength(trick[i], trump, led))
        pts = sum((N_TRUMP_PTS if c.suit == trump else N_PLAIN_PTS).get(c.rank, 0) for c in trick)
        if t == 7:
            pts += 10
        points[seats[w] % 2] += pts
        leader = seats[w]
    return points[0], points[1]


def bench_naive(seconds: float, rng: random.Random) -> float:
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            a, b = naive_deal(rng)
            assert a + b == 162
        deals += 50
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rng = random.Random(1)
    naive = bench_naive(args.seconds / 3, rng)
    print(f"naive object-per-card classic random deals/s: {naive:,.0f}")
    match = bench_match(args.seconds / 3, rng)
    print(f"random deals/s through Match (legal_actions/apply): {match:,.0f}")
    core, classic = bench_core(args.seconds / 3, rng)
    print(f"core vs naive, classic deals: {classic / naive:.1f}x")
    print(f"random deals/s: {core:.0f}")


if __name__ == "__main__":
    main()
