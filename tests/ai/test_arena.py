"""The duplicate arena: luck cancels, the summary line has the promised shape."""

from __future__ import annotations

import re
import time

import pytest

from adapters.cli import main
from engine.ai.arena import run_arena


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_a_level_against_itself_scores_exactly_zero(ruleset: str) -> None:
    """Same cards, same (deterministic) play from both seats: every deck nets 0."""
    report = run_arena(ruleset, "normal", "normal", 4, seed=3)
    assert report.per_deck == [0.0] * 4


def test_normal_beats_easy_on_a_few_decks() -> None:
    report = run_arena("classic", "normal", "easy", 12, seed=1)
    assert report.mean > 0
    assert report.stats["normal"].contracts + report.stats["easy"].contracts > 0


def test_cli_prints_the_summary_line_last(capsys) -> None:
    code = main(
        [
            "arena",
            "--ruleset",
            "club",
            "--a",
            "normal",
            "--b",
            "easy",
            "--deals",
            "3",
            "--seed",
            "2",
            "--quiet",
        ]
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"normal vs easy: [+-]\d+\.\d points per deal \(95% CI \+-\d+\.\d\) over 3 deals",
        lines[-1],
    )
    assert any("p95" in line for line in lines)
    assert any("made" in line or "took no contract" in line for line in lines)


def test_cli_refuses_zero_deals(capsys) -> None:
    assert main(["arena", "--a", "easy", "--b", "easy", "--deals", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_decks_shared_among_processes_give_the_same_report() -> None:
    """Every deck depends only on the seed and its index, so --jobs changes nothing."""
    alone = run_arena("bulgarian", "normal", "easy", 6, seed=5, clock=time.perf_counter)
    shared = run_arena("bulgarian", "normal", "easy", 6, seed=5, clock=time.perf_counter, jobs=2)
    assert shared.per_deck == alone.per_deck
    for level in ("normal", "easy"):
        a, b = alone.stats[level].summary(), shared.stats[level].summary()
        for figure in ("decisions", "contracts", "deals", "made", "margin", "contres"):
            assert a[figure] == b[figure]
        assert a["decisions"] > 0


def test_cli_refuses_zero_jobs(capsys) -> None:
    assert main(["arena", "--a", "easy", "--b", "easy", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_card_play_only_tables_play_the_same_contract() -> None:
    """Every seat bids as the fixed bidder, so both tables of a deck (teams swapped) reach
    the same contract by the same seat; only the card play may differ."""
    from engine.ai.arena import LevelStats, deck_source, play_deal

    for i in range(4):
        contracts = []
        for levels in (("expert", "sparring") * 2, ("sparring", "expert") * 2):
            stats = {"expert": LevelStats(), "sparring": LevelStats()}
            record = play_deal("club", levels, deck_source(8, i), 8, None, stats, play_only=True)
            assert record is not None and record.result is not None
            bids = [(s, t) for s, t in record.actions if not t.startswith("play")]
            contracts.append((record.result.contract.to_dict(), bids))
        assert contracts[0] == contracts[1]


def test_card_play_only_against_itself_scores_exactly_zero() -> None:
    """(The searching levels draw other samples at the two tables: only a level without
    randomness nets exactly 0 against itself.)"""
    report = run_arena("bulgarian", "normal", "normal", 3, seed=4, play_only=True)
    assert report.per_deck == [0.0, 0.0, 0.0]
    assert report.card_play_only


def test_cli_duels_the_sparring_partner_in_card_points(capsys) -> None:
    code = main(
        [
            *("arena", "--ruleset", "classic", "--a", "normal", "--b", "sparring"),
            *("--worlds", "3", "--deals", "2", "--seed", "1", "--quiet"),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "card play only" in out
    assert re.search(r"normal vs sparring: [+-]\d+\.\d card points per deal", out)


def test_thrown_in_deals_are_counted() -> None:
    """Easy bids only obvious hands: some decks are thrown in before the first scored deal."""
    report = run_arena("classic", "easy", "easy", 10, seed=2)
    assert report.stats["easy"].thrown_in > 0
    assert any("thrown in" in line for line in report.lines())


def test_club_deals_are_never_thrown_in() -> None:
    """In club the dealer must name a suit when the others passed: nothing is redealt, and
    the next deal, already dealt once a deal is scored, is not counted as thrown in."""
    report = run_arena("club", "easy", "easy", 4, seed=2)
    assert report.stats["easy"].thrown_in == 0
    assert not any("thrown in" in line for line in report.lines())
