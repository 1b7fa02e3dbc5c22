"""The expert's card-play decision time: mean, p95 and max, wall clock and CPU, and nodes.

    python bench/expert_speed.py [--deals N] [--seed S] [--threads T] [--python]
                                 [--set FIELD=JSON ...]

Positions come from whole deals of the three rulesets played by the normal level (every
card decision with a choice); at each one the expert's ``choose_action`` is timed (its
knowledge, the compiled search core: worlds, weights, solves, scoring).  Nodes are the
solver's, a figure the machine's load does not change, so ``nodes / (nodes a second)``
on a quiet machine tells what the times would be there.  ``--python`` times the
pure-Python search path (the compiled solver still does the solving) on the same
positions, to show what moving sampling, weighing and scoring to C saved.  ``--threads``:
how many threads a decision solves its worlds on (default: what the bot's thinking
processes use, ``bot.play.thinking.search_threads``); the CPU time and the nodes do not
depend on it, the wall time does.  ``--set``: the expert's search plan changed as
``bench/studies/paired.py`` changes it (a field of ``SearchPlan``, the value as JSON), to see what
a change costs before measuring what it wins.  Last, by trick, the share of the worlds'
weight that was solved exactly: past its node budget a decision rolls the rest out by the
rules of thumb, so the early tricks' figures say how much of the plan is double dummy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.studies.paired import changed_plan, parse_settings, use_plan
from bot.play.thinking import search_threads
from engine import Match
from engine.ai import choose_action
from engine.ai.knowledge import knowledge_from_view
from engine.ai.player import position_rng
from engine.ai.search import plan_totals
from engine.ai.world_search import SEARCH_COMPILED, set_search_threads


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def trick_name(trick: int) -> str:
    """The trick a share is of, counted from 1; -1 is the opening lead, set apart from the
    rest of the first trick (it alone spends a whole 32-card budget)."""
    if trick < 0:
        return "the opening lead"
    return "1 (the follows)" if trick == 0 else str(trick + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=search_threads())
    parser.add_argument("--python", action="store_true", help="the pure-Python search path")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=JSON")
    args = parser.parse_args()
    settings = parse_settings(args.set)
    use_plan(settings)
    plan = changed_plan(settings)
    compiled = SEARCH_COMPILED and not args.python
    set_search_threads(args.threads)
    threads = f", {args.threads} thread(s) a decision" if compiled else ""
    print(f"search core: {'compiled (engine/ai/_dds.c)' if compiled else 'pure Python'}{threads}")
    walls: list[float] = []
    cpus: list[float] = []
    nodes: list[int] = []
    # trick (-1: the opening lead) -> [the weight solved exactly, the weight in all]
    exact: dict[int, list[float]] = {}
    for i in range(args.deals):
        ruleset = ("classic", "club", "bulgarian")[i % 3]
        rng = random.Random(f"{args.seed}|{i}")
        m = Match(ruleset, decks=lambda k, r=rng: r.sample(range(32), 32))
        while m.to_move is not None and not any(d.result for d in m.deals):
            seat = m.to_move
            view = m.view(seat)
            if view.phase.value == "play" and len({a.card for a in view.legal}) > 1:
                k = knowledge_from_view(view)
                tier = plan.decision_tier(k)
                seed = position_rng(view, "expert", args.seed).getrandbits(64)
                w0, c0 = time.perf_counter(), time.process_time()
                if compiled:
                    choose_action(view, "expert", args.seed)
                else:
                    found = plan_totals(k, plan, tier, seed, False)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                if compiled:  # the same search again, untimed, for its node count
                    found = plan_totals(k, plan, tier, seed)
                nodes.append(found.nodes)
                trick = len(view.tricks) if view.tricks or view.trick else -1
                share = exact.setdefault(trick, [0.0, 0.0])
                share[0] += found.exact
                share[1] += found.weight_sum
            m.apply(seat, choose_action(view, "normal", args.seed))
    n = len(walls)
    print(f"{n} card decisions with a choice, {args.deals} deals")
    print(
        f"wall: mean {sum(walls) / n * 1000:.0f} ms, p95 {percentile(walls, 0.95) * 1000:.0f} ms, "
        f"max {max(walls) * 1000:.0f} ms"
    )
    print(
        f"cpu: mean {sum(cpus) / n * 1000:.0f} ms, p95 {percentile(cpus, 0.95) * 1000:.0f} ms, "
        f"max {max(cpus) * 1000:.0f} ms"
    )
    rate = sum(nodes) / sum(cpus) / 1e6 if compiled else 0.0
    print(
        f"solver nodes: mean {sum(nodes) / n / 1e6:.2f} M, "
        f"p95 {percentile(nodes, 0.95) / 1e6:.2f} M, "
        f"max {max(nodes) / 1e6:.2f} M" + (f"; {rate:.1f} M nodes per CPU second" if rate else "")
    )
    shares = ", ".join(
        f"{trick_name(t)}: {100 * e / d:.0f}%" for t, (e, d) in sorted(exact.items())
    )
    print(f"the worlds' weight solved exactly (the rest rolled out), by trick: {shares}")


if __name__ == "__main__":
    main()
