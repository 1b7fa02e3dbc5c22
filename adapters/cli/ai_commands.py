"""`belote arena`: duplicate matches between two AI levels, with timings and bidding figures."""

from __future__ import annotations

import argparse
import sys
import time

from adapters.cli import types
from engine.ai.arena import ARENA_LEVELS, PLAY_ONLY_BIDDER, ArenaReport, run_arena
from engine.ai.sparring import DEFAULT_WORLDS
from engine.rulesets import RULESETS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena",
        help="play duplicate deals between two AI levels",
        description=(
            "Every deck is played twice with the teams swapping seats, so luck cancels. "
            "Prints decision times per level, how often each level's contracts are made, "
            "and last: 'A vs B: +X points per deal (95% CI +-Y) over N deals' in raw deal "
            "points (before rounding to tens). 'sparring' is an information-set double-dummy "
            "player (uniform worlds, no inference) to duel in card play only: every seat "
            f"then bids as {PLAY_ONLY_BIDDER}, and the lead is in card points. "
            "'hard-2026' and 'expert-2026' play as hard and expert and bid Coinche as "
            "they did before issue 66: the baseline of that measurement."
        ),
    )
    p.add_argument("--ruleset", choices=sorted(RULESETS), default="club")
    p.add_argument("--a", choices=ARENA_LEVELS, required=True, help="level of team A")
    p.add_argument("--b", choices=ARENA_LEVELS, required=True, help="level of team B")
    p.add_argument(
        "--worlds",
        type=types.whole(1, 1000),
        default=DEFAULT_WORLDS,
        help="deals the sparring partner solves a decision",
    )
    p.add_argument(
        "--play-only",
        action="store_true",
        help=f"card play only: every seat bids as {PLAY_ONLY_BIDDER} (always so with sparring)",
    )
    p.add_argument(
        "--deals", type=types.whole(0, 10**6), default=20, help="decks (each played twice)"
    )
    p.add_argument("--seed", type=types.SEED, default=0)
    p.add_argument(
        "--budget",
        type=types.seconds(0, 3600),
        default=None,
        help="time budget per decision in seconds for hard/expert (default: none, "
        "fixed sample counts, fully reproducible)",
    )
    p.add_argument(
        "--jobs",
        type=types.whole(0, 1024),
        default=1,
        help="processes playing decks in parallel (same results as one process)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=_arena)


def _arena(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("--deals must be at least 1.", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("--jobs must be at least 1.", file=sys.stderr)
        return 2

    def progress(report: ArenaReport) -> None:
        if not args.quiet:
            n = len(report.per_deck)
            ci = f"+-{report.ci95:.1f}" if n > 1 else "n/a"
            print(
                f"  deal {n}/{args.deals}: {report.mean:+.1f} (95% CI {ci})",
                file=sys.stderr,
                flush=True,
            )

    report = run_arena(
        args.ruleset,
        args.a,
        args.b,
        args.deals,
        args.seed,
        clock=time.perf_counter,
        progress=progress,
        budget_s=args.budget,
        jobs=args.jobs,
        play_only=args.play_only,
        worlds=args.worlds,
    )
    for line in report.lines():
        print(line)
    return 0


def compiled_playout_rate(seconds: float) -> float | None:
    """Random deals a second through the compiled playout (dealt at random, played out by
    the rules of thumb, as the search's rollouts), over the three rulesets; None when the
    compiled core was not built.  ``belote bench`` prints it."""
    try:
        from engine.ai._dds import playouts
    except ImportError:
        return None
    deals = 0
    start = time.perf_counter()
    kind = 0
    while True:
        playouts(kind, 2000, deals + 1)
        deals += 2000
        kind = (kind + 1) % 3
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return deals / elapsed
