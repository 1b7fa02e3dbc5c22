"""`belote tournament simulate`: a whole event in fake time, one JSON object per line."""

from __future__ import annotations

import argparse
import json
import sys

from adapters.cli import types
from bot.tournaments.simulate import simulate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tournament", help="tournament tools")
    sub = parser.add_subparsers(dest="tournament_command", required=True)
    sim = sub.add_parser(
        "simulate", help="run a whole event with simulated results and print it as JSON lines"
    )
    sim.add_argument("--format", required=True, choices=["roundrobin", "swiss", "elimination"])
    sim.add_argument(
        "--entrants", required=True, type=types.whole(0, 10_000), help="teams or players, 2 or more"
    )
    sim.add_argument(
        "--rounds",
        type=types.whole(0, 1000),
        default=None,
        help="Swiss rounds (default: about log2 of N)",
    )
    sim.add_argument("--best-of", type=types.whole(0, 9), default=1, choices=[1, 3], dest="best_of")
    sim.add_argument("--seed", type=types.SEED, default=0)
    sim.add_argument(
        "--rotate-partners",
        action="store_true",
        help="round-robin of one table of four, partners changing every round",
    )
    sim.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    try:
        for line in simulate(
            args.format,
            args.entrants,
            rounds=args.rounds,
            best_of=args.best_of,
            seed=args.seed,
            rotate_partners=args.rotate_partners,
        ):
            sys.stdout.write(json.dumps(line, separators=(", ", ": ")) + "\n")
    except ValueError as exc:
        print(f"belote tournament simulate: {exc}", file=sys.stderr)
        return 2
    return 0
