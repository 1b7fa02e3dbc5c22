"""One change measured on several seeds: the ``bench/studies/paired.py --save`` files pooled.

    python bench/studies/pooled.py LEADS.json [LEADS.json ...]

A change worth a point or two a deal is inside the noise of any one seed's 100 to 300
decks, and earlier sessions pooled their seeds by hand.  This reads the files that
``bench/studies/paired.py --save`` wrote for the same change (the same ``--set``, ruleset and
opponent) on different seeds, prints each seed's paired gain, and then every deck of
every seed as one sample: the shipped expert's lead, the changed one's, and the paired
gain with its 95% interval.  Decks are drawn independently on every seed, so pooling
them is the arena's own measure over more decks.

It refuses files of different changes, rulesets or opponents, and the same seed twice
(the same decks would count twice).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.studies.paired import lead_lines, saved_record, unit_of
from engine.ai.arena import mean_ci95

SAME = ("ruleset", "a", "b", "settings")  # what every pooled file must share (no "a": expert)


@dataclass(frozen=True)
class SeedLeads:
    """One ``--save`` file: the decks of one seed, played by both plans of a level."""

    seed: int
    shipped: list[float]
    changed: list[float]

    @property
    def gains(self) -> list[float]:
        return [c - s for c, s in zip(self.changed, self.shipped, strict=True)]


def read_seeds(paths: list[str]) -> tuple[dict[str, object], list[SeedLeads]]:
    """The files' shared key (ruleset, opponent, change) and each seed's leads."""
    if not paths:
        raise SystemExit("give at least one file that bench/studies/paired.py --save wrote")
    key: dict[str, object] = {}  # the first file's, which every other must share
    seeds: list[SeedLeads] = []
    for path in paths:
        data = saved_record(path, key, "file")
        key = key or {name: data.get(name) for name in SAME}
        try:
            leads = SeedLeads(
                int(data["seed"]),
                [float(x) for x in data["shipped"]],
                [float(x) for x in data["changed"]],
            )
        except (KeyError, TypeError, ValueError):
            raise SystemExit(f"file {path}: not a bench/studies/paired.py --save file") from None
        if len(leads.shipped) != len(leads.changed):
            raise SystemExit(f"file {path}: the two arenas did not play the same decks")
        if any(s.seed == leads.seed for s in seeds):
            raise SystemExit(f"file {path}: seed {leads.seed} is given twice")
        seeds.append(leads)
    return key, seeds


def report(key: dict[str, object], seeds: list[SeedLeads]) -> list[str]:
    """The lines ``main`` prints."""
    b = str(key["b"])
    settings = key["settings"] if isinstance(key["settings"], dict) else {}
    change = " ".join(f"{name}={json.dumps(value)}" for name, value in settings.items())
    lines = []
    for s in seeds:
        m, ci = mean_ci95(s.gains)
        differ = sum(1 for g in s.gains if g)
        lines.append(
            f"seed {s.seed}, {len(s.gains)} decks: {m:+.2f} (+-{ci:.2f}), {differ} decks differ"
        )
    shipped = [x for s in seeds for x in s.shipped]
    changed = [x for s in seeds for x in s.changed]
    gains = [g for s in seeds for g in s.gains]
    decks = f"{len(gains)} decks of {len(seeds)} seed(s)"
    lines += lead_lines(b, change, shipped, changed, digits=2, a=str(key.get("a") or "expert"))
    m, ci = mean_ci95(gains)
    lines.append(
        f"{key['ruleset']}, {decks}: {change} gains {m:+.2f} {unit_of(b)} per deal "
        f"(95% CI +-{ci:.2f}), paired"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="LEADS.json")
    args = parser.parse_args()
    key, seeds = read_seeds(args.files)
    print("\n".join(report(key, seeds)))


if __name__ == "__main__":
    main()
