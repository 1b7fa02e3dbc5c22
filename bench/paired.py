"""A change to the expert's card play, measured deck by deck against the shipped expert.

    python bench/paired.py --set foresee_belote=true [--set FIELD=JSON ...]
                           [--ruleset R] [--b LEVEL] [--deals N] [--seed S] [--jobs J]

Two arenas on the same decks: the shipped expert against ``--b`` (default hard, whole
deals), and the expert with its search plan changed by every ``--set`` (a field of
``engine.ai.search.SearchPlan`` and its value as JSON; ``tiers`` as a list of
``[cards, samples, exact]``) against the same opponent.  A deal's play depends only on the
seats' views and seeds, so a deck on which the change alters no decision scores exactly
the same in both: the per-deck differences are zero there, and their mean and 95%
interval measure the change with much less noise than the two arenas' own intervals.
It prints both arenas' results, then the paired difference and how many decks differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.ai.player as player
from engine.ai.arena import mean_ci95, play_deck
from engine.ai.search import SearchPlan, Tier


def changed_plan(settings: dict[str, object]) -> SearchPlan:
    """The shipped expert plan with ``settings`` applied."""
    fields = {f.name for f in dataclasses.fields(SearchPlan)}
    values = dict(settings)
    for name in values:
        if name not in fields:
            raise SystemExit(f"--set {name}: not a SearchPlan field ({', '.join(sorted(fields))})")
    if "tiers" in values:
        try:
            values["tiers"] = tuple(Tier(*t) for t in values["tiers"])  # type: ignore[attr-defined]
        except TypeError:
            raise SystemExit("--set tiers: a list of [cards, samples, exact]") from None
    return dataclasses.replace(player.EXPERT_PLAN, **values)  # type: ignore[arg-type]


def _use_plan(settings: dict[str, object]) -> None:
    """Make ``expert`` play ``settings``' plan in this process (a worker's initializer)."""
    if settings:
        plan = changed_plan(settings)
        player.LEVEL_SPECS["expert"] = player.Level(player.LEVEL_SPECS["expert"].bidding, plan)


def _deck(job: tuple[str, str, int, int]) -> float:
    ruleset, b, seed, i = job
    lead, _stats = play_deck(ruleset, "expert", b, seed, i, play_only=b == "sparring")
    return lead


def arena_leads(
    ruleset: str, b: str, deals: int, seed: int, jobs: int, settings: dict[str, object]
) -> list[float]:
    """Each deck's lead of the expert (with ``settings``) over ``b``."""
    work = [(ruleset, b, seed, i) for i in range(deals)]
    with ProcessPoolExecutor(jobs, initializer=_use_plan, initargs=(settings,)) as pool:
        return list(pool.map(_deck, work))


def parse_settings(items: list[str]) -> dict[str, object]:
    settings: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set {item}: write FIELD=VALUE, the value as JSON")
        try:
            settings[name] = json.loads(value)
        except json.JSONDecodeError as e:
            raise SystemExit(f"--set {item}: the value is not JSON ({e.msg})") from None
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=JSON")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings = parse_settings(args.set)
    if not settings:
        raise SystemExit("give at least one --set FIELD=JSON: the change to measure")
    changed_plan(settings)  # a bad field fails here, before any deck is played
    unit = "card points" if args.b == "sparring" else "points"
    shipped = arena_leads(args.ruleset, args.b, args.deals, args.seed, args.jobs, {})
    changed = arena_leads(args.ruleset, args.b, args.deals, args.seed, args.jobs, settings)
    label = " ".join(args.set)
    for name, leads in (("shipped expert", shipped), (f"expert with {label}", changed)):
        m, ci = mean_ci95(leads)
        print(f"{name} vs {args.b}: {m:+.1f} {unit} per deal (95% CI +-{ci:.1f})")
    diffs = [c - s for c, s in zip(changed, shipped, strict=True)]
    m, ci = mean_ci95(diffs)
    differ = sum(1 for d in diffs if d)
    print(
        f"{args.ruleset}, {args.deals} decks of seed {args.seed}: {label} gains {m:+.2f} "
        f"{unit} per deal (95% CI +-{ci:.2f}), paired; {differ} decks differ"
    )


if __name__ == "__main__":
    main()
