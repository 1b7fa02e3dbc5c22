"""`belote verify` on Coinche: genuine matches (with and without the table options) pass
and say each deal's contract with its bid; each way of tampering with the auction, the
doubling, the play, the count or the options fails at the deal it touched, with a message
that says what is wrong. The tampered transcripts are the corpus's (tests/corpus/)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from adapters.cli import main
from bot.proof.transcript import Transcript, dump, dumps, loads
from bot.proof.verify import verify_transcript
from engine import Contract
from tests.corpus import HERE, corpus
from tests.fairdeal.conftest import make_transcript

CASES = {c["file"]: c for c in corpus()}
EVERY_OPTION = ("no_trump", "all_trump", "generale", "bid_only")


def played_contracts(t: Transcript) -> list[tuple[int, Contract]]:
    return [
        (n, c)
        for n, d in enumerate(t.deals, start=1)
        if (c := Contract.from_dict(d.contract)) is not None
    ]


@pytest.mark.parametrize("options", [(), EVERY_OPTION, ("no_trump", "generale")])
async def test_a_coinche_match_passes_and_names_each_contract(options) -> None:
    t = make_transcript("coinche", seed=10, pass_bias=0.5, options=options)
    assert t.options == dict.fromkeys(options, True)
    report = await verify_transcript(loads(dumps(t)))
    assert report.ok, report.text()
    table = report.check("table").message
    assert table.startswith("coinche" + "".join(f", {o}" for o in options) + ", 4 seats")
    contracts = played_contracts(t)
    assert contracts
    for n, contract in contracts:
        assert contract.bid is not None
        message = report.check(f"deal {n}: play").message
        # "contract 90 H coinche, taken by seat 2": the bid's value, as the table said it
        assert f"contract {contract.text}, taken by seat {contract.taker + 1};" in message


def test_the_fixtures_hold_what_coinche_has(coinche_transcript: Transcript) -> None:
    """The genuine Coinche matches, between them, bid every kind of contract, double and
    redouble, redeal, announce belote and see a side take every trick."""
    genuine = [loads(c["text"]) for name, c in CASES.items() if name.startswith("genuine-coin")]
    deals = [d for t in [*genuine, coinche_transcript] for d in t.deals]
    contracts = [d.contract for d in deals if d.contract is not None]
    assert {c["trump"] for c in contracts} == {"C", "D", "H", "S", "NT", "AT"}
    assert {c["multiplier"] for c in contracts} == {1, 2, 4}
    assert {250, 500} <= {c["bid"] for c in contracts}
    assert any(d.contract is None for d in deals)
    assert any(any(d.score["belotes"]) for d in deals if d.score)
    assert any(0 in d.score["tricks"] for d in deals if d.score)
    assert {o for t in genuine for o in t.options} == set(EVERY_OPTION)


# (corpus case, the check that fails, words its message holds)
TAMPERED = [
    ("bid-value-coinche-drand-6", "deal 3: play", "('bid 80 C' by seat 1) breaks the rules"),
    ("multiplier-coinche-drand-6", "deal 3: play", "'multiplier': 2, 'bid': 250}"),
    ("coinche-own-side-coinche-drand-6", "deal 1: play", "Only an opponent of the last bidder"),
    ("revoke-coinche-options-drand-12", "deal 3: play", "You must follow suit"),
    ("score-points-coinche-nodrand-4", "deal 8: score", "(points differs)"),
    ("options-removed-coinche-options-drand-12", "deal 1: play", "'bid generale C'"),
    ("options-added-coinche-drand-6", "deal 4: score", "(points differs)"),
    ("option-unknown-coinche-drand-6", "table", "Unknown option 'reverse_belote'"),
    ("option-ruleset-classic-drand-1", "table", "no_trump is for coinche tables only"),
]


@pytest.mark.parametrize(("name", "check", "says"), TAMPERED, ids=[t[0] for t in TAMPERED])
async def test_a_tampered_coinche_transcript_says_what_is_wrong(name, check, says) -> None:
    case = CASES[f"{name}.json"]
    report = await verify_transcript(loads(case["text"]))
    assert report.verdict == "unfair" and report.deal == case["deal"]
    failed = [c for c in report.checks if c.status == "fail"]
    assert [c.name for c in failed] == [check], report.text()
    assert says in failed[0].message
    if case["deal"] is not None:
        assert f"First wrong: deal {case['deal']}." in report.text()


async def test_a_target_no_table_may_set_is_refused(coinche_transcript: Transcript) -> None:
    report = await verify_transcript(dataclasses.replace(coinche_transcript, target=100_001))
    assert report.check("table").status == "fail"
    assert "from 1 to 100000" in report.check("table").message
    assert report.verdict == "unfair"
    assert not [c for c in report.checks if c.name.startswith("deal")]  # nothing else checked


def test_belote_verify_prints_the_bids(
    tmp_path: Path, coinche_transcript: Transcript, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "coinche.json"
    dump(coinche_transcript, path)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok     table: coinche, no_trump, all_trump, generale, bid_only, 4 seats" in out
    for n, contract in played_contracts(coinche_transcript):
        assert f"deal {n}: play: As the rules allow: contract {contract.text}," in out
    assert main(["verify", str(HERE / "option-unknown-coinche-drand-6.json")]) == 1
    assert "FAILED table: Unknown option 'reverse_belote'" in capsys.readouterr().out
