"""The whole corpus (tests/corpus/) through ``bot.proof.verify``: each transcript gets the
verdict and the deal its index says. tests/browser/test_corpus.py holds the page to the
same index, so the two checkers can never drift apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.proof.transcript import TranscriptError, loads
from bot.proof.verify import verify_transcript
from tests.corpus import HERE, corpus

CASES = corpus()


async def verdict_of(text: str):
    try:
        t = loads(text)
    except TranscriptError:
        return "error", None, []
    report = await verify_transcript(t)
    return report.verdict, report.deal, report.deals


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
async def test_the_verifier_gives_each_transcript_its_verdict(case):
    verdict, deal, deals = await verdict_of(case["text"])
    assert verdict == case["verdict"], case["what"]
    if case["ambiguous"]:
        assert case["deal"] in deals, (case["what"], deals)
    else:
        assert deal == case["deal"], case["what"]


def test_the_corpus_covers_every_ruleset_and_kind():
    genuine = [c for c in CASES if c["file"].startswith("genuine-")]
    rulesets = ("classic", "club", "bulgarian", "coinche")
    assert {r for c in genuine for r in rulesets if r in c["file"]} == set(rulesets)
    assert any("-drand-" in c["file"] for c in genuine)
    assert any("-nodrand-" in c["file"] for c in genuine)
    with_options = [c for c in genuine if '"options"' in c["text"]]
    assert {c["file"] for c in with_options} == {
        "genuine-coinche-options-drand-12.json",
        "genuine-coinche-options-nodrand-8.json",
    }
    kinds = {c["file"].split("-")[0] for c in CASES}
    for kind in ("deck24", "revoke", "thrown", "last", "no", "score", "inject", "drand"):
        assert kind in kinds
    # Coinche's own: a bid's value, the multiplier, a coinche by the bidding side, the
    # options removed, added, unknown or of another ruleset
    for kind in ("bid", "multiplier", "coinche", "options", "option"):
        assert kind in kinds
    for ruleset in rulesets:  # every kind of tampering reaches every ruleset
        assert sum(ruleset in c["file"] and c["verdict"] == "unfair" for c in CASES) > 60
    assert sum(c["verdict"] == "unfair" for c in CASES) > 200


def test_the_corpus_is_what_the_generator_writes(tmp_path: Path):
    """Regenerated from the engine, the files are the same: nobody edited one by hand."""
    script = HERE / "generate.py"
    copy = tmp_path / "corpus"
    copy.mkdir()
    (copy / "generate.py").write_text(script.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(copy / "generate.py")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=HERE.parents[1],
        env={"PYTHONPATH": str(HERE.parents[1]), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    for case in CASES:
        assert (copy / case["file"]).read_text(encoding="utf-8") == case["text"], case["file"]
