"""bench/studies/pooled.py: one change's paired runs on several seeds, read as one sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.studies.pooled import read_seeds, report

CHANGE = {"infer_auction": True}


def saved(tmp_path: Path, seed: int, shipped: list[float], changed: list[float], **key) -> str:
    """A file as ``bench/studies/paired.py --save`` writes it."""
    record = {"ruleset": "classic", "b": "sparring", "seed": seed, "deals": len(shipped)}
    record |= {"code": "abc1234", "settings": CHANGE, "shipped": shipped, "changed": changed}
    record |= key
    path = tmp_path / f"leads{seed}.json"
    path.write_text(json.dumps(record))
    return str(path)


def test_every_deck_of_every_seed_counts_once(tmp_path: Path) -> None:
    a = saved(tmp_path, 1, [10, 0, -4], [12, 0, -4])
    b = saved(tmp_path, 2, [5, 5], [1, 9])
    key, seeds = read_seeds([a, b])
    lines = report(key, seeds)
    assert lines[0].startswith("seed 1, 3 decks: +0.67")
    assert lines[0].endswith("1 decks differ")
    assert lines[1].startswith("seed 2, 2 decks: +0.00") and lines[1].endswith("2 decks differ")
    # five decks: shipped mean 16 / 5, changed 18 / 5, gains (2, 0, 0, -4, 4) / 5
    assert "shipped expert vs sparring: +3.20 card points" in lines[2]
    assert "expert with infer_auction=true vs sparring: +3.60" in lines[3]
    assert lines[4].startswith("classic, 5 decks of 2 seed(s): infer_auction=true gains +0.40")


def test_only_the_same_change_on_different_seeds_is_pooled(tmp_path: Path) -> None:
    a = saved(tmp_path, 1, [1, 2], [2, 3])
    with pytest.raises(SystemExit, match="seed 1 is given twice"):
        read_seeds([a, a])
    other = saved(tmp_path, 2, [1, 2], [2, 3], settings={"oversample": 8})
    with pytest.raises(SystemExit, match="its settings is"):
        read_seeds([a, other])
    club = saved(tmp_path, 3, [1, 2], [2, 3], ruleset="club")
    with pytest.raises(SystemExit, match="its ruleset is 'club', not 'classic'"):
        read_seeds([a, club])
    with pytest.raises(SystemExit, match="at least one file"):
        read_seeds([])
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"ruleset": "classic", "b": "sparring", "settings": CHANGE}))
    with pytest.raises(SystemExit, match=r"not a bench/studies/paired\.py --save file"):
        read_seeds([a, str(broken)])


def test_hard_s_runs_pool_under_hard_s_name_and_never_with_the_expert_s(tmp_path: Path) -> None:
    a = saved(tmp_path, 1, [1, 2], [2, 3], a="hard")
    b = saved(tmp_path, 2, [0, 0], [1, -1], a="hard")
    lines = report(*read_seeds([a, b]))
    assert "shipped hard vs sparring: +0.75" in lines[2]
    assert "hard with infer_auction=true vs sparring: +1.25" in lines[3]
    expert = saved(tmp_path, 3, [1], [1])
    with pytest.raises(SystemExit, match="its a is None, not 'hard'"):
        read_seeds([a, expert])
