"""bench/paired_bidding.py: a bidding change, played only where it bids otherwise."""

from __future__ import annotations

import pytest

import engine.ai.expert_bidding as expert_bidding
from bench.paired_bidding import _use, calls, checked_settings


def test_a_setting_is_a_number_of_the_expert_bidding() -> None:
    assert checked_settings({"PROPOSE_MARGIN": 20}) == {"PROPOSE_MARGIN": 20.0}
    with pytest.raises(SystemExit, match="not a number of expert_bidding"):
        checked_settings({"propose_margin": 20})
    with pytest.raises(SystemExit, match="not a number of expert_bidding"):
        checked_settings({"Match": 1})
    with pytest.raises(SystemExit, match="give a number"):
        checked_settings({"VETO_MARGIN": "high"})


def test_the_change_is_what_the_bidding_reads(monkeypatch) -> None:
    monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", expert_bidding.PROPOSE_MARGIN)
    _use({"PROPOSE_MARGIN": 5.0})
    assert expert_bidding.PROPOSE_MARGIN == 5.0


def test_the_calls_are_every_bid_until_the_first_card(monkeypatch) -> None:
    """Both tables' calls; the same margins give the same calls, and a margin that makes the
    expert call every hand it may changes some of them."""
    first, second = calls(("classic", "normal", 7, 3))
    assert first and second
    assert all(text.startswith(("pass", "bid", "take", "name")) for _d, _s, text in first), first
    assert calls(("classic", "normal", 7, 3)) == (first, second)
    changed = False
    shipped = expert_bidding.PROPOSE_MARGIN
    for i in range(6):
        before = calls(("classic", "normal", 7, i))
        monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", -500.0)
        after = calls(("classic", "normal", 7, i))
        monkeypatch.setattr(expert_bidding, "PROPOSE_MARGIN", shipped)
        changed |= before != after
    assert changed
