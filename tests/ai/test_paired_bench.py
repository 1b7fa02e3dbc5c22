"""bench/studies/paired.py: a change to the expert's plan, measured deck by deck."""

from __future__ import annotations

import json

import pytest

import engine.ai.player as player
from bench.studies.paired import arena_leads, changed_plan, parse_settings, saved_shipped, use_plan
from engine.ai.player import EXPERT_PLAN


def test_a_setting_is_a_plan_field_with_a_json_value() -> None:
    settings = parse_settings(["foresee_belote=true", "tiers=[[32, 48, true]]"])
    plan = changed_plan(settings)
    assert plan.foresee_belote is True
    assert plan.tiers[0].cards == 32 and plan.tiers[0].samples == 48
    assert plan.node_budget == EXPERT_PLAN.node_budget  # the rest as shipped
    with pytest.raises(SystemExit, match="not a SearchPlan field"):
        changed_plan({"worlds_count": 3})
    with pytest.raises(SystemExit, match=r"\[cards, samples, exact, tail, race, budget\]"):
        changed_plan({"tiers": 3})
    raced = changed_plan(parse_settings(["tiers=[[32, 48, true, 0, 8, 9000000]]"]))
    assert (raced.tiers[0].race, raced.tiers[0].budget) == (8, 9_000_000)
    leads = changed_plan(parse_settings(["lead_tiers=[[24, 256, true], [32, 48, true]]"]))
    assert leads.lead_tiers[0].samples == 256 and leads.tiers == EXPERT_PLAN.tiers
    with pytest.raises(SystemExit, match="--set lead_tiers"):
        changed_plan({"lead_tiers": [["many"] * 7]})
    with pytest.raises(SystemExit, match="FIELD=VALUE"):
        parse_settings(["foresee_belote"])
    with pytest.raises(SystemExit, match="not JSON"):
        parse_settings(["points_weight=half"])


def test_a_change_that_changes_nothing_leaves_every_deck_as_it_was() -> None:
    """The pairing is exact: the shipped value set again plays every deck the same."""
    shipped = arena_leads("classic", "normal", 1, 7, 1, {})
    again = arena_leads("classic", "normal", 1, 7, 1, {"points_weight": EXPERT_PLAN.points_weight})
    assert again == shipped


def test_the_changed_plan_is_the_one_the_expert_plays(monkeypatch) -> None:
    monkeypatch.setitem(player.LEVEL_SPECS, "expert", player.LEVEL_SPECS["expert"])
    use_plan({"points_weight": 0.5})
    plan = player.LEVEL_SPECS["expert"].play
    assert plan != EXPERT_PLAN and plan == changed_plan({"points_weight": 0.5})


def test_saved_shipped_leads_are_only_taken_for_the_same_decks(tmp_path) -> None:
    saved = tmp_path / "leads.json"
    key = {"ruleset": "club", "b": "hard", "seed": 2028, "deals": 2}
    saved.write_text(json.dumps({**key, "shipped": [10, -4.5], "changed": [0, 0]}))
    assert saved_shipped(str(saved), key) == [10.0, -4.5]
    with pytest.raises(SystemExit, match="its seed is 2028, not 5151"):
        saved_shipped(str(saved), {**key, "seed": 5151})
    with pytest.raises(SystemExit, match="cannot read it"):
        saved_shipped(str(tmp_path / "missing.json"), key)


def test_hard_s_plan_can_be_the_one_changed(monkeypatch) -> None:
    """``--a hard``: the change goes to hard's plan, the expert's stays as shipped."""
    monkeypatch.setitem(player.LEVEL_SPECS, "hard", player.LEVEL_SPECS["hard"])
    monkeypatch.setitem(player.LEVEL_SPECS, "expert", player.LEVEL_SPECS["expert"])
    use_plan({"node_budget": 120_000}, "hard")
    plan = player.LEVEL_SPECS["hard"].play
    assert plan == changed_plan({"node_budget": 120_000}, "hard")
    assert plan != player.HARD_PLAN and plan.tiers == player.HARD_PLAN.tiers
    assert player.LEVEL_SPECS["expert"].play == EXPERT_PLAN
    with pytest.raises(SystemExit, match="plays no search plan"):
        changed_plan({"node_budget": 1}, "normal")


def test_hard_s_shipped_leads_are_never_taken_for_the_expert_s(tmp_path) -> None:
    saved = tmp_path / "hard.json"
    key = {"ruleset": "classic", "b": "sparring", "seed": 5151, "deals": 1}
    saved.write_text(json.dumps({**key, "a": "hard", "shipped": [2.0], "changed": [3.0]}))
    assert saved_shipped(str(saved), {**key, "a": "hard"}) == [2.0]
    with pytest.raises(SystemExit, match="its a is 'hard', not None"):
        saved_shipped(str(saved), {**key, "a": None})  # the expert's run
