"""The page holds up to anything: numbers of any size, any JSON shape, a 50 MB file; it
never stays on "Checking…" and never throws; and on every odd shape it says what
`belote verify` says (the same verdict, the same deal)."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import threading
from typing import Any

import pytest

from bot.proof.transcript import TranscriptError, loads
from bot.proof.verify import verify_transcript
from tests.corpus import corpus

GENUINE = {c["file"]: c["text"] for c in corpus() if c["file"].startswith("genuine-")}
ODD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    3_000_000_000_000,
    2**53 + 1,
    10**30,
    1e308,
    "",
    "x" * 300,
    "<b>bold</b>",
    [],
    [[]],
    {},
    {"a": [1, {"b": None}]},
    [0, "pass"],
]


def mutations(n: int, seed: int = 1) -> list[str]:
    """``n`` genuine transcripts, each with one value somewhere replaced by an odd one."""
    rng = random.Random(seed)
    out = []
    texts = list(GENUINE.values())
    for _ in range(n):
        data = json.loads(rng.choice(texts))
        node: Any = data
        path = []
        while isinstance(node, dict | list) and node and (not path or rng.random() < 0.75):
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        parent, key = path[-1]
        parent[key] = copy.deepcopy(rng.choice(ODD))
        out.append(json.dumps(data, ensure_ascii=False))
    return out


CARDS = [r + s for s in "CDHS" for r in "789TJQKA"]
ACTIONS = [
    "pass",
    "take",
    "contre",
    "recontre",
    *(f"bid {c}" for c in ("C", "D", "H", "S", "NT", "AT")),
    # Coinche's calls, some of them never legal ("bid 85 H", "bid 170 S")
    "coinche",
    "surcoinche",
    *(f"bid {v} {c}" for v in (80, 90, 120, 160) for c in ("C", "H", "NT", "AT")),
    *(f"bid {v} S" for v in ("capot", "250", "generale", "Générale", "500", "85", "170")),
    *(f"play {c}" for c in CARDS),
    *(f"play {c} belote" for c in CARDS),
    *(f"play {c} melds" for c in CARDS),
]


def action_mutations(n: int, seed: int = 2) -> list[str]:
    """``n`` genuine transcripts, each with one action replaced by another (most break the
    rules, some do not: then the count or a later action differs), or its seat changed."""
    rng = random.Random(seed)
    out = []
    texts = list(GENUINE.values())
    for _ in range(n):
        data = json.loads(rng.choice(texts))
        deal = rng.choice(data["deals"])
        action = rng.choice(deal["actions"])
        if rng.random() < 0.8:
            action[1] = rng.choice(ACTIONS)
        else:
            action[0] = rng.randrange(4)
        out.append(json.dumps(data, ensure_ascii=False))
    return out


async def python_answers(texts: list[str]) -> list[tuple[str, str]]:
    out = []
    for text in texts:
        try:
            report = await verify_transcript(loads(text))
        except TranscriptError:
            out.append(("error", ""))
            continue
        verdict = report.verdict.replace(" ", "-")
        out.append((verdict, "" if report.deal is None else str(report.deal)))
    return out


def in_thread(coro: Any) -> Any:
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(asyncio.run(coro)))
    worker.start()
    worker.join(timeout=600)
    return out[0]


@pytest.fixture()
def idle(page, site):
    page.goto(f"{site.url}/verify/index.html?drand=off&lang=en")
    page.wait_for_selector('html[data-state="idle"]')
    return page


def answer(page, text: str) -> tuple[str, str]:
    page.evaluate("text => window.BeloteVerify.verify.check(text)", text)
    page.wait_for_selector('html[data-state="done"]')
    assert page.text_content("#summary") != "Checking…"
    return page.get_attribute("html", "data-verdict"), page.get_attribute("html", "data-deal")


def test_any_json_shape_gets_the_verdict_belote_verify_gives(idle):
    texts = mutations(300)
    want = in_thread(python_answers(texts))
    got = [answer(idle, text) for text in texts]
    wrong = [(t[:200], w, g) for t, w, g in zip(texts, want, got, strict=True) if w != g]
    assert not wrong, wrong[:3]
    assert not idle.errors, idle.errors
    assert {v for v, _ in got} >= {"error", "unfair", "fair"}  # the mutations reach all three


def test_any_changed_action_gets_the_verdict_belote_verify_gives(idle):
    """The rules in the page (engine.js) against the engine's, action by action."""
    texts = action_mutations(300)
    want = in_thread(python_answers(texts))
    got = [answer(idle, text) for text in texts]
    wrong = [(w, g) for w, g in zip(want, got, strict=True) if w != g]
    assert not wrong, wrong[:5]
    assert sum(v == "unfair" for v, _ in got) > 250
    assert not idle.errors, idle.errors


def test_the_pages_count_is_the_engines_on_many_matches(idle):
    """Matches of every ruleset played to the end at random: every deal's count, in the
    page, is the engine's (card points, last trick, melds, belote, capot, contre,
    hanging points, rounding; Coinche's bids, coinche and surcoinche, under each option)."""
    from tests.corpus.generate import NAMES, genuine
    from tests.fakes.drand_relay import REAL_BEACONS

    option_sets = [
        (),
        ("no_trump", "all_trump", "generale", "bid_only"),
        ("no_trump",),
        ("all_trump", "bid_only"),
        ("generale",),
    ]
    for i in range(60):
        ruleset = ("classic", "club", "bulgarian", "coinche")[i % 4]
        options = option_sets[i // 4 % 5] if ruleset == "coinche" else ()
        beacon = REAL_BEACONS[2] if i % 2 else None
        t = genuine(ruleset, beacon, 500 + i, (0.0, 0.3, 0.7)[i % 3], NAMES, options)
        verdict, deal = answer(idle, json.dumps(t))
        assert (verdict, deal) == ("fair", ""), (t["match"], idle.text_content("#summary"))


def test_a_drand_round_beyond_any_date_is_shown_and_checked(idle, site):
    data = json.loads(GENUINE["genuine-club-drand-1.json"])
    for round_ in (3_000_000_000_000, 2**53 - 1, 2**53 + 1, 10**30):
        data["drand"]["round"] = round_
        text = json.dumps(data)
        # by address, by file and by paste alike
        url = site.put(f"round-{round_}.json", text)
        idle.goto(f"{site.url}/verify/index.html?drand=off#url={url}")
        idle.wait_for_selector('html[data-state="done"]')
        assert idle.get_attribute("html", "data-verdict") == "unfair"
        assert "Invalid time value" not in idle.text_content("body")
        assert answer(idle, text)[0] == "unfair"
    assert not idle.errors, idle.errors


def test_a_50_mb_file(idle, tmp_path):
    data = json.loads(GENUINE["genuine-bulgarian-drand-1.json"])
    data["note"] = "x" * 50_000_000  # a field the checkers do not read
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert path.stat().st_size > 50_000_000
    idle.set_input_files("#file", str(path))
    idle.wait_for_selector('html[data-state="done"]', timeout=60_000)
    assert idle.get_attribute("html", "data-verdict") == "fair"
    assert not idle.errors


@pytest.mark.parametrize(
    "text",
    ["", "   ", "null", "1e999", '{"seats": 1e999}', "[" * 100_000 + "]" * 100_000, "\ufeff{}"],
)
def test_nothing_leaves_the_page_waiting(idle, text):
    verdict, _ = answer(idle, text)
    assert verdict == "error"
    assert idle.text_content("#summary").startswith("This is not a match transcript")
    assert not idle.errors
