"""bench/expert_speed.py: times the expert's decisions, with its plan changed if asked."""

from __future__ import annotations

import sys

import engine.ai.player as player
from bench import expert_speed


def test_a_changed_plan_is_the_one_timed(monkeypatch, capsys) -> None:
    monkeypatch.setattr(player, "LEVEL_SPECS", dict(player.LEVEL_SPECS))
    argv = ["expert_speed.py", "--deals", "1", "--threads", "1"]
    argv += ["--set", "tiers=[[32, 4, true, 0, 2]]", "--set", "race_margin=5"]
    monkeypatch.setattr(sys, "argv", argv)
    expert_speed.main()
    plan = player.LEVEL_SPECS["expert"].play
    assert isinstance(plan, player.SearchPlan)
    assert plan.tiers[0].samples == 4 and plan.tiers[0].race == 2 and plan.race_margin == 5
    out = capsys.readouterr().out
    assert "card decisions with a choice, 1 deals" in out
    assert "solver nodes: mean" in out


def shares_of(out: str) -> dict[str, str]:
    """The line's shares, by trick: {"the opening lead": "53%", "1 (the follows)": ...}."""
    line = next(x for x in out.splitlines() if x.startswith("the worlds' weight solved exactly"))
    return dict(part.split(": ") for part in line.split(", by trick: ")[1].split(", "))


def test_it_says_how_much_of_the_worlds_weight_was_solved_and_not_rolled_out(
    monkeypatch, capsys
) -> None:
    monkeypatch.setattr(player, "LEVEL_SPECS", dict(player.LEVEL_SPECS))
    argv = ["expert_speed.py", "--deals", "1", "--threads", "1", "--set", "tiers=[[32, 4, true]]"]
    monkeypatch.setattr(sys, "argv", argv)
    expert_speed.main()
    solved = shares_of(capsys.readouterr().out)
    assert "the opening lead" in solved
    assert list(solved.values())[-1] == "100%"  # the last tricks never run out of nodes
    monkeypatch.setattr(sys, "argv", [*argv, "--set", "node_budget=1"])
    expert_speed.main()
    rolled = shares_of(capsys.readouterr().out)
    assert rolled.keys() == solved.keys()
    assert set(rolled.values()) == {"0%"}  # one node solves no world: all rolled out
