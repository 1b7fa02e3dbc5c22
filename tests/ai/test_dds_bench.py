"""bench/dds.py: the solver's speed, and its nodes, which compare two builds of it."""

from __future__ import annotations

import random
import sys

from bench import dds
from engine.ai.solver import solve_root


def rows_of(out: str) -> dict[int, list[str]]:
    """The table's rows by cards left: median ms, p90 ms, nodes med, nodes all, knodes/s."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.split()[:1] == ["cards"]) + 1
    return {int(x.split()[0]): x.split()[1:] for x in lines[start:] if x.strip()}


def test_the_nodes_summed_are_those_of_the_positions_solved(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", ["dds.py", "--root", "--positions", "3", "--seed", "9"])
    dds.main()
    rows = rows_of(capsys.readouterr().out)
    assert sorted(rows) == [12, 16, 20, 24, 28, 32]
    for left, row in rows.items():
        rng = random.Random(f"9|{left}")
        nodes = [solve_root(dds.position(rng, left), 0)[1] for _ in range(3)]
        assert int(row[3]) == sum(nodes)  # the same positions, solved again: same nodes
        assert int(float(row[2])) == sorted(nodes)[1]
