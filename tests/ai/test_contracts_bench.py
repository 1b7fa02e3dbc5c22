"""bench/studies/contracts.py: the lead split by whether both tables bid the same contract."""

from __future__ import annotations

import sys

import pytest

from bench.studies.contracts import auctions, breakdown, category, main

SAME_BY_A = (0, "H", 0, 1)


def test_the_same_contract_by_the_same_seat_on_the_same_deal_is_the_card_plays() -> None:
    assert category(SAME_BY_A, SAME_BY_A).startswith("same contract, A's seat")
    assert category((0, "H", 1, 1), (0, "H", 1, 1)).startswith("same contract, B's seat")


def test_anything_else_is_the_biddings() -> None:
    assert category(SAME_BY_A, (0, "S", 0, 1)) == "different contracts"
    assert category(SAME_BY_A, (0, "H", 2, 1)) == "different contracts"  # the partner took it
    assert category(SAME_BY_A, (1, "H", 0, 1)) == "one table threw in a deal the other played"
    assert category(None, None) == "one table threw in a deal the other played"


def test_every_lead_lands_in_its_decks_category() -> None:
    parts = breakdown(
        [10.0, -4.0, 6.0], [(SAME_BY_A, SAME_BY_A), (None, SAME_BY_A), (SAME_BY_A,) * 2]
    )
    assert parts["same contract, A's seat took it at the first table"] == [10.0, 6.0]
    assert parts["one table threw in a deal the other played"] == [-4.0]


def test_the_auctions_are_the_arenas() -> None:
    """Two levels that bid alike reach the same contract at both tables of a deck."""
    first, second = auctions(("classic", "hard", "hard", 7, 0))
    assert first == second and first is not None
    assert first[1] in "CDHS" and 0 <= first[2] < 4


def test_a_file_that_is_not_a_saved_run_is_refused_by_name(tmp_path, monkeypatch) -> None:
    bad = tmp_path / "leads.json"
    bad.write_text("not json")
    monkeypatch.setattr(sys, "argv", ["contracts.py", str(bad)])
    with pytest.raises(SystemExit, match=r"LEADS.json .*leads.json: cannot read it"):
        main()
    assert bad.read_text() == "not json"
