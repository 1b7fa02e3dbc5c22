"""bench/studies/paired_bidding.py: a bidding change, played only where it bids otherwise."""

from __future__ import annotations

import pytest

import engine.ai.expert_bidding as expert_bidding
from bench.studies.paired_bidding import _use, calls, checked_settings


def test_a_setting_is_a_number_of_the_expert_bidding() -> None:
    assert checked_settings({"VETO_MARGIN": 10}) == {"VETO_MARGIN": 10.0}
    assert checked_settings({"PROPOSE_MARGIN.club": 30}) == {"PROPOSE_MARGIN.club": 30.0}
    with pytest.raises(SystemExit, match="not a number of expert_bidding"):
        checked_settings({"veto_margin": 20})
    with pytest.raises(SystemExit, match="not a number of expert_bidding"):
        checked_settings({"PROPOSE_MARGIN": 20})  # a table: one entry at a time
    with pytest.raises(SystemExit, match="not a number of expert_bidding"):
        checked_settings({"PROPOSE_MARGIN.bulgarian": 20})
    with pytest.raises(SystemExit, match="give a number"):
        checked_settings({"VETO_MARGIN": "high"})


def test_a_count_stays_a_whole_number() -> None:
    settings = checked_settings({"SAMPLES": 192})
    assert settings == {"SAMPLES": 192} and isinstance(settings["SAMPLES"], int)
    with pytest.raises(SystemExit, match="whole number"):
        checked_settings({"SAMPLES": 95.5})
    with pytest.raises(SystemExit, match="whole number"):
        checked_settings({"BID_NODES": 0})


def test_the_change_is_what_the_bidding_reads(monkeypatch) -> None:
    monkeypatch.setattr(expert_bidding, "VETO_MARGIN", expert_bidding.VETO_MARGIN)
    monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", expert_bidding.PROPOSE_MARGIN)
    before = dict(expert_bidding.PROPOSE_MARGIN)
    _use({"VETO_MARGIN": 5.0, "PROPOSE_MARGIN.club": 7.0})
    assert expert_bidding.VETO_MARGIN == 5.0
    assert {**before, "club": 7.0} == expert_bidding.PROPOSE_MARGIN


def test_the_calls_are_every_bid_until_the_first_card(monkeypatch) -> None:
    """Both tables' calls; the same margins give the same calls, and a margin that makes the
    expert call every hand it may changes some of them."""
    first, second = calls(("classic", "normal", 7, 3))
    assert first and second
    assert all(text.startswith(("pass", "bid", "take", "name")) for _d, _s, text in first), first
    assert calls(("classic", "normal", 7, 3)) == (first, second)
    changed = False
    shipped = expert_bidding.PROPOSE_MARGIN
    everything = {ruleset: -500.0 for ruleset in shipped}
    for i in range(6):
        before = calls(("classic", "normal", 7, i))
        monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", everything)
        after = calls(("classic", "normal", 7, i))
        monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", shipped)
        changed |= before != after
    assert changed
