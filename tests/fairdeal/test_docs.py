"""The self-contained checker printed in docs/fairdeal.md agrees with the engine.

It is an independent implementation of the recipe and of the dealing packets, written from
the published text: if it and the engine ever disagree, one of them is wrong.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot.proof.transcript import Transcript, dumps
from engine import DeckInputs, card_text, shuffled_deck

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairdeal.md"


@pytest.fixture(scope="module")
def checker_source() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/fairdeal.md lost its checker"
    return blocks[0]


@pytest.fixture(scope="module")
def checker(checker_source: str) -> ModuleType:
    module = ModuleType("fairdeal_check")
    exec(compile(checker_source, "fairdeal_check.py", "exec"), module.__dict__)
    return module


def test_doc_recipe_matches_engine(checker: ModuleType) -> None:
    rng = random.Random(5)
    for trial in range(40):
        seats = tuple(rng.choice([None, rng.randbytes(16)]) for _ in range(4))
        drand = trial % 2 == 0
        inputs = DeckInputs(
            rng.randbytes(32),
            seats,
            rng.randrange(1, 2**63) if drand else None,
            rng.randbytes(32) if drand else None,
        )
        k = rng.randrange(0, 40)
        doc_deck = checker.deck(
            inputs.server_seed,
            [s or b"" for s in seats],
            inputs.drand_round or 0,
            inputs.drand_value or bytes(32),
            k,
        )
        assert doc_deck == [card_text(c) for c in shuffled_deck(inputs, k)]


@pytest.mark.parametrize(
    "name",
    ["club_transcript", "bulgarian_transcript", "classic_redeal_transcript", "coinche_transcript"],
)
def test_doc_checker_passes_real_matches(
    name: str, request: pytest.FixtureRequest, checker: ModuleType
) -> None:
    t: Transcript = request.getfixturevalue(name)
    assert checker.check(json.loads(dumps(t))) == []


def test_doc_checker_catches_tampering(club_transcript: Transcript, checker: ModuleType) -> None:
    data = json.loads(dumps(club_transcript))
    hands = data["deals"][1]["hands"]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    data["commitment"] = "00" * 32
    problems = checker.check(data)
    assert problems == [
        "the server seed does not match the commitment",
        "deal 2 (deck k=1): the hands are not what the deck deals",
    ]


def test_doc_checker_as_a_script(
    tmp_path: Path, checker_source: str, club_transcript: Transcript
) -> None:
    script = tmp_path / "fairdeal_check.py"
    script.write_text(checker_source, encoding="utf-8")
    good = tmp_path / "match.json"
    good.write_text(dumps(club_transcript), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script), str(good)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0 and "all check" in run.stdout
    data = json.loads(dumps(club_transcript))
    data["deals"][0]["deck"].reverse()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script), str(bad)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 1 and "deal 1 (deck k=0): the deck is not the recipe's" in run.stdout


def test_recipe_name_is_the_engines_hmac_prefix() -> None:
    from bot.proof.transcript import RECIPE
    from engine.recipe import DOMAIN

    assert RECIPE.encode() == DOMAIN
