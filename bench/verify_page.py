"""How long the browser check (web/verify) takes in a headless Chromium from the OS.

Run: python bench/verify_page.py [--runs N] [--deals-target N]
Prints, for a real match of each ruleset (dealt from the engine with drand round 2;
Coinche's with every table option), the median and best time from opening the page on
the transcript to its verdict (drand not asked); then for one long match (bulgarian to
100,000, the largest target a table may set: about 2,500 deals, played to the end by the
engine's legal moves at random), the page's time from "Check" to the verdict and the time
of `belote verify` on the same file; and the time of one BLS verification and one deck in
the page.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.proof.transcript import dumps, loads, transcript_from_match
from bot.proof.verify import verify_transcript
from engine import DeckInputs, Match
from engine.options import TARGET_RANGE
from tests.browser.conftest import Site, ThreadedRelay, chromium_path
from tests.fairdeal.conftest import make_transcript
from tests.fakes.drand_relay import REAL_BEACONS

IN_PAGE = """async ([runs, sig]) => {
    const r = window.BeloteVerify.recipe;
    const bls = [], deck = [];
    const maker = r.deckMaker(new Uint8Array(32), [new Uint8Array(16), null], 0, null);
    for (let i = 0; i < runs; i++) {
        let t0 = performance.now();
        if (!(await r.verifyBeacon(2, sig)).ok) throw new Error("round 2 does not verify");
        bls.push(performance.now() - t0);
        t0 = performance.now();
        maker.deck(i);
        deck.push(performance.now() - t0);
    }
    return [bls, deck];
}"""

CHECK = """async text => {
    const t0 = performance.now();
    await window.BeloteVerify.verify.check(text);
    return [performance.now() - t0, document.documentElement.dataset.verdict];
}"""


def long_match(target: int) -> str:
    """A bulgarian match to ``target`` points, every action a random legal one (seeded):
    contre and recontre make the deals count least, so the match is the longest."""
    rng = random.Random(5)
    beacon = REAL_BEACONS[2]
    inputs = DeckInputs(
        rng.randbytes(32),
        (rng.randbytes(16), None, rng.randbytes(16), rng.randbytes(16)),
        beacon.round,
        beacon.randomness,
    )
    match = Match("bulgarian", inputs=inputs, target=target)
    while match.winner is None:
        seat = match.to_move
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    t = transcript_from_match(
        match, match_id="long", names=("A", "B", "C", "D"), drand=beacon, target=target
    )
    return dumps(t)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    high = TARGET_RANGE[1]
    parser.add_argument("--deals-target", type=int, default=high, help="long match target")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site, relay = Site(), ThreadedRelay()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            page = browser.new_page()
            print(f"Chromium {browser.version}, headless")
            every = ("no_trump", "all_trump", "generale", "bid_only")
            for ruleset, seed, options in (
                ("club", 7, ()),
                ("classic", 11, ()),
                ("bulgarian", 3, ()),
                ("coinche", 10, every),
            ):
                t = make_transcript(
                    ruleset, seed=seed, pass_bias=0.5 * bool(options), options=options
                )
                url = site.put(f"{ruleset}.json", dumps(t))
                times = []
                for _ in range(args.runs):
                    page.goto("about:blank")
                    start = time.perf_counter()
                    page.goto(
                        f"{site.url}/verify/index.html?drand=off#url={urllib.parse.quote(url)}"
                    )
                    page.wait_for_selector('html[data-state="done"]', timeout=60_000)
                    times.append(time.perf_counter() - start)
                checks = page.locator("#checks li").count()
                print(
                    f"{ruleset:9} {len(t.deals):2} deals, {checks:2} checks: open to verdict "
                    f"median {statistics.median(times) * 1000:6.0f} ms, "
                    f"best {min(times) * 1000:6.0f} ms"
                )
            text = long_match(args.deals_target)
            deals = len(loads(text).deals)
            page.goto(f"{site.url}/verify/index.html?drand=off")
            page.wait_for_selector('html[data-state="idle"]')
            times, verdict = [], ""
            for _ in range(args.runs):
                ms, verdict = page.evaluate(CHECK, text)
                times.append(ms)
            print(
                f"long match: {deals} deals, {len(text) / 1e6:.1f} MB: Check to verdict "
                f"median {statistics.median(times) / 1000:.2f} s, best {min(times) / 1000:.2f} s "
                f"({verdict})"
            )
            signature = REAL_BEACONS[2].signature.hex()
            bls, deck = page.evaluate(IN_PAGE, [args.runs, signature])
            print(
                f"in the page: one BLS verification median {statistics.median(bls):.0f} ms "
                f"(first {bls[0]:.0f} ms), one deck median {statistics.median(deck):.3f} ms"
            )
            browser.close()
    finally:
        relay.close()
        site.close()
    # outside Playwright's sync API, which keeps an event loop in this thread
    start = time.perf_counter()
    report = asyncio.run(verify_transcript(loads(text)))
    print(f"long match: belote verify {time.perf_counter() - start:.2f} s ({report.verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
