"""`belote deck`, `belote legal`, `belote bench`: the engine from the command line.

Other tools check these outputs, so stdout holds only the answer; errors go to stderr with
exit code 2.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from adapters.cli import types
from engine import (
    CONTRACT_TEXTS,
    DeckInputs,
    EngineError,
    cards_text,
    get_ruleset,
    legal_plays,
    parse_cards,
    shuffled_deck,
)
from engine.simulate import run_random_deals


def _fail(message: str) -> int:
    print(f"belote: {message}", file=sys.stderr)
    return 2


def _cmd_deck(args: argparse.Namespace) -> int:
    try:
        server, seats, drand_value = args.server_seed, tuple(args.seat or ()), args.drand_value
        if args.deal < 0 or args.deal >= 1 << 32:
            return _fail("--deal must be from 0 to 2^32 - 1.")
        inputs = DeckInputs(server, seats, args.drand_round, drand_value, args.size)
        deck = shuffled_deck(inputs, args.deal)
    except EngineError as exc:
        return _fail(str(exc))
    print(cards_text(deck))
    return 0


def _cmd_legal(args: argparse.Namespace) -> int:
    try:
        rules = get_ruleset(args.ruleset)
        contract = args.contract.strip().upper()
        if contract not in CONTRACT_TEXTS:
            return _fail(f"Unknown contract {args.contract!r}: use C, D, H, S, NT or AT.")
        if contract not in rules.contracts:
            return _fail(f"{rules.name} has no {contract} contract.")
        hand = parse_cards(args.hand)
        trick = parse_cards(args.trick)
    except EngineError as exc:
        return _fail(str(exc))
    if not hand:
        return _fail("--hand holds no card.")
    if len(set(hand)) != len(hand) or len(set(trick)) != len(trick):
        return _fail("A card appears twice.")
    if set(hand) & set(trick):
        return _fail("A card is both in the hand and in the trick.")
    if len(trick) > 3:
        return _fail("A trick holds at most 3 cards before yours.")
    hand_mask = 0
    for c in hand:
        hand_mask |= 1 << c
    mask = legal_plays(rules, contract, hand_mask, trick)
    print(cards_text(c for c in hand if mask >> c & 1))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        return _fail("--seconds must be positive.")
    rng = random.Random(args.seed)
    rulesets = [get_ruleset(n) for n in ("classic", "club", "bulgarian")]
    per = args.seconds / len(rulesets)
    total_deals = 0
    total_time = 0.0
    for rules in rulesets:
        deals = 0
        start = time.perf_counter()
        while True:
            scored, _ = run_random_deals(rules, 500, rng)
            deals += scored
            elapsed = time.perf_counter() - start
            if elapsed >= per:
                break
        print(f"{rules.name}: {deals / elapsed:,.0f} deals/s")
        total_deals += deals
        total_time += elapsed
    from adapters.cli.ai_commands import compiled_playout_rate

    rate = compiled_playout_rate(min(1.0, args.seconds))
    if rate is not None:  # before the last line, which scripts read
        print(f"compiled playout (engine/ai/_dds.c, rules of thumb): {rate:,.0f} random deals/s")
    print(f"random deals/s: {total_deals / total_time:.0f}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "deck",
        help="print the deck of one deal of the fair-deal recipe",
        description="Print deal K's deck (deck[0] first) from the recipe's inputs.",
    )
    p.add_argument(
        "--server-seed",
        type=types.server_seed,
        required=True,
        metavar="HEX",
        help="32-byte server seed",
    )
    p.add_argument(
        "--seat",
        type=types.seat_seed,
        action="append",
        metavar="HEX|none",
        help="a seat's 16-byte seed, or none; once per seat, in seat order (2 to 4)",
    )
    p.add_argument("--drand-round", type=types.whole(0, 10**15), metavar="N")
    p.add_argument(
        "--drand-value", type=types.drand_value, metavar="HEX", help="drand's 32-byte value"
    )
    p.add_argument(
        "--deal", type=types.whole(0, 2**32 - 1), required=True, metavar="K", help="deal, from 0"
    )
    p.add_argument("--size", type=types.whole(0, 99), choices=(32, 24), default=32)
    p.set_defaults(func=_cmd_deck)

    p = subparsers.add_parser(
        "legal",
        help="print the legal cards of a hand",
        description="Print the cards of --hand the player may play on --trick.",
    )
    p.add_argument("--ruleset", required=True, help="classic, club or bulgarian")
    p.add_argument("--contract", required=True, help="C, D, H, S, NT or AT")
    p.add_argument("--hand", required=True, metavar="CARDS", help='e.g. "AD 9H TS"')
    p.add_argument(
        "--trick",
        default="",
        metavar="CARDS",
        help="cards already in the trick, in order (empty: you lead)",
    )
    p.set_defaults(func=_cmd_legal)

    p = subparsers.add_parser(
        "bench",
        help="play random full deals and print the rate",
        description="Play random full deals (bidding, play, scoring) on the engine's core.",
    )
    p.add_argument("--seconds", type=types.seconds(0, 3600), default=3.0)
    p.add_argument("--seed", type=types.SEED, default=1, help=argparse.SUPPRESS)
    p.set_defaults(func=_cmd_bench)
