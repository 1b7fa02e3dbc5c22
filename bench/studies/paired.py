"""A change to the expert's card play, measured deck by deck against the shipped expert.

    python bench/studies/paired.py --set foresee_belote=true [--set FIELD=JSON ...]
                           [--ruleset R] [--a LEVEL] [--b LEVEL] [--deals N] [--seed S]
                           [--jobs J] [--save FILE] [--shipped FILE]

Two arenas on the same decks: the shipped expert against ``--b`` (default hard, whole
deals), and the expert with its search plan changed by every ``--set`` (a field of
``engine.ai.search.SearchPlan`` and its value as JSON; ``tiers`` as a list of
``[cards, samples, exact, tail, race, budget]``, the last three optional) against the
same opponent.  A deal's play depends only on the seats' views and seeds, so a deck on
which the change alters no decision scores exactly the same in both: the per-deck
differences are zero there, and their mean and 95% interval measure the change with much
less noise than the two arenas' own intervals.
It prints both arenas' results, then the paired difference and how many decks differ.
``--a hard`` measures a change to hard's plan the same way (hard against ``--b``).

``--save FILE`` writes both arenas' per-deck leads as JSON; ``--shipped FILE`` takes the
shipped expert's leads from such a file (the same ruleset, opponent, seed and decks)
instead of playing them again, which halves the time of every further change measured on
those decks.  The shipped leads are only as good as the code they were played with: save
them again after any change to the engine or the AI.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine.ai.player as player
from engine.ai.arena import mean_ci95, play_deck
from engine.ai.search import SearchPlan, Tier


def changed_plan(settings: dict[str, object], level: str = "expert") -> SearchPlan:
    """``level``'s shipped plan with ``settings`` applied."""
    fields = {f.name for f in dataclasses.fields(SearchPlan)}
    values = dict(settings)
    for name in values:
        if name not in fields:
            raise SystemExit(f"--set {name}: not a SearchPlan field ({', '.join(sorted(fields))})")
    for name in [n for n in ("tiers", "lead_tiers") if n in values]:
        try:
            values[name] = tuple(Tier(*t) for t in values[name])  # type: ignore[attr-defined]
        except TypeError:
            shape = "a list of [cards, samples, exact, tail, race, budget]"
            raise SystemExit(f"--set {name}: {shape}") from None
    shipped = player.LEVEL_SPECS[level].play
    if not isinstance(shipped, SearchPlan):
        raise SystemExit(f"--a {level}: that level plays no search plan (choose hard or expert)")
    return dataclasses.replace(shipped, **values)  # type: ignore[arg-type]


def use_plan(settings: dict[str, object], level: str = "expert") -> None:
    """Make ``level`` play ``settings``' plan in this process (a worker's initializer)."""
    if settings:
        plan = changed_plan(settings, level)
        player.LEVEL_SPECS[level] = player.Level(player.LEVEL_SPECS[level].bidding, plan)


def _deck(job: tuple[str, str, str, int, int]) -> float:
    ruleset, a, b, seed, i = job
    lead, _stats = play_deck(ruleset, a, b, seed, i, play_only=b == "sparring")
    return lead


def arena_leads(
    ruleset: str,
    b: str,
    deals: int,
    seed: int,
    jobs: int,
    settings: dict[str, object],
    a: str = "expert",
) -> list[float]:
    """Each deck's lead of ``a`` (with ``settings``) over ``b``."""
    work = [(ruleset, a, b, seed, i) for i in range(deals)]
    with ProcessPoolExecutor(jobs, initializer=use_plan, initargs=(settings, a)) as pool:
        return list(pool.map(_deck, work))


def code_version() -> str:
    """The commit the leads were played with, marked when the work tree had changes."""
    root = Path(__file__).resolve().parents[2]

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+changes" if git("status", "--porcelain", "engine") else "")


def saved_record(path: str, key: dict[str, object], given_as: str = "--shipped") -> dict[str, Any]:
    """A ``--save`` file, which must be of the decks ``key`` names (``given_as``: how the
    command line named it, for the message)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise SystemExit(f"{given_as} {path}: cannot read it ({e})") from None
    for name, value in key.items():
        if data.get(name) != value:
            raise SystemExit(f"{given_as} {path}: its {name} is {data.get(name)!r}, not {value!r}")
    return data


def saved_shipped(path: str, key: dict[str, object]) -> list[float]:
    """The shipped leads of a ``--save`` file, which must be of the same decks."""
    return [float(x) for x in saved_record(path, key)["shipped"]]


def unit_of(b: str) -> str:
    """What a duel against ``b`` counts: card points with the sparring partner (card play
    only), deal points otherwise."""
    return "card points" if b == "sparring" else "points"


def lead_lines(
    b: str,
    label: str,
    shipped: list[float],
    changed: list[float],
    digits: int = 1,
    a: str = "expert",
) -> list[str]:
    """The shipped and the changed ``a``'s leads over ``b``, a line each."""
    lines = []
    for name, leads in ((f"shipped {a}", shipped), (f"{a} with {label}", changed)):
        m, ci = mean_ci95(leads)
        lines.append(
            f"{name} vs {b}: {m:+.{digits}f} {unit_of(b)} per deal (95% CI +-{ci:.{digits}f})"
        )
    return lines


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
    parser.add_argument("--a", default="expert", choices=("hard", "expert"))
    parser.add_argument("--b", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", metavar="FILE", help="write both arenas' per-deck leads")
    parser.add_argument("--shipped", metavar="FILE", help="the shipped leads of a --save")
    args = parser.parse_args()
    settings = parse_settings(args.set)
    if not settings:
        raise SystemExit("give at least one --set FIELD=JSON: the change to measure")
    changed_plan(settings, args.a)  # a bad field fails here, before any deck is played
    unit = unit_of(args.b)
    # hard's runs are marked "a": hard (the expert's, written before --a, are not), and
    # --shipped takes only a file of the same level
    a = None if args.a == "expert" else args.a
    key = {"ruleset": args.ruleset, "a": a, "b": args.b, "seed": args.seed, "deals": args.deals}
    run = (args.ruleset, args.b, args.deals, args.seed, args.jobs)
    shipped = saved_shipped(args.shipped, key) if args.shipped else arena_leads(*run, {}, args.a)
    changed = arena_leads(*run, settings, args.a)
    if args.save:
        record = {name: value for name, value in key.items() if value is not None}
        record |= {"code": code_version(), "settings": settings}
        record |= {"shipped": shipped, "changed": changed}
        Path(args.save).write_text(json.dumps(record) + "\n")
    label = " ".join(args.set)
    print("\n".join(lead_lines(args.b, label, shipped, changed, a=args.a)))
    diffs = [c - s for c, s in zip(changed, shipped, strict=True)]
    m, ci = mean_ci95(diffs)
    differ = sum(1 for d in diffs if d)
    print(
        f"{args.ruleset}, {args.deals} decks of seed {args.seed}: {label} gains {m:+.2f} "
        f"{unit} per deal (95% CI +-{ci:.2f}), paired; {differ} decks differ"
    )


if __name__ == "__main__":
    main()
