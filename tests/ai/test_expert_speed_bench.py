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
