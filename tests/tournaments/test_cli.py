"""`belote tournament simulate`: one JSON object per line, rounds then standings."""

from __future__ import annotations

import itertools
import json

import pytest

from adapters.cli import main


def run(capsys, *argv: str) -> list[dict]:
    code = main(["tournament", "simulate", *argv])
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def test_roundrobin_everyone_meets_everyone_once(capsys) -> None:
    lines = run(capsys, "--format", "roundrobin", "--entrants", "7", "--seed", "3")
    rounds, last = lines[:-1], lines[-1]
    assert [r["round"] for r in rounds] == list(range(1, 8))
    met = sorted(tuple(sorted(p)) for r in rounds for p in r["pairings"])
    assert met == list(itertools.combinations(range(1, 8), 2))
    assert sorted(b for r in rounds for b in r["byes"]) == list(range(1, 8))
    for r in rounds:
        assert [[a, b] for a, b, _ in r["results"]] == r["pairings"]
    assert set(last) == {"standings"}
    assert all(set(row) == {"entrant", "points", "tiebreaks"} for row in last["standings"])
    assert sorted(row["entrant"] for row in last["standings"]) == list(range(1, 8))


def test_swiss_never_repeats(capsys) -> None:
    lines = run(capsys, "--format", "swiss", "--entrants", "33", "--rounds", "6", "--seed", "9")
    pairs = [frozenset(p) for r in lines[:-1] for p in r["pairings"]]
    assert len(pairs) == len(set(pairs)) == 6 * 16
    byes = [b for r in lines[:-1] for b in r["byes"]]
    assert len(byes) == len(set(byes)) == 6


def test_elimination_best_of_three(capsys) -> None:
    lines = run(capsys, "--format", "elimination", "--entrants", "5", "--best-of", "3")
    assert lines[0]["byes"] == [1, 2, 3]
    assert lines[0]["pairings"] == [[4, 5]]
    assert len(lines) == 1 + 3 + 1 - 1  # 3 rounds (8-bracket) then the standings
    final = lines[-2]
    assert len(final["pairings"]) == 1
    assert len(final["results"]) >= 2


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "swiss", "--entrants", "4", "--rounds", "4"],
        ["--format", "roundrobin", "--entrants", "1"],
    ],
)
def test_impossible_setups_are_refused(capsys, argv: list[str]) -> None:
    assert main(["tournament", "simulate", *argv]) == 2
    assert "belote tournament simulate:" in capsys.readouterr().err
