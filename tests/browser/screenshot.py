"""The picture of the browser check in the docs: ``python -m tests.browser.screenshot``
writes docs/pictures/verify.png (a club match, the replay in the middle of a trick)."""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "docs" / "pictures" / "verify.png"


def shoot(page: Any, site: Any, relay: Any, transcript: Any, out: Path, steps: int = 6) -> None:
    """Open the page on ``transcript``, let every check run, step the replay of the first
    deal ``steps`` cards on, and save a full-page PNG at ``out``."""
    url = site.put("screenshot.json", transcript)
    page.goto(
        f"{site.url}/verify/index.html?relay={urllib.parse.quote(relay.url)}"
        f"#url={urllib.parse.quote(url)}"
    )
    page.wait_for_selector('html[data-state="done"]', timeout=30_000)
    page.evaluate("document.querySelector('#inputs').open = false")
    for _ in range(steps):
        page.click("#step")
    page.screenshot(path=str(out), full_page=True)


def main(out: Path = OUT) -> int:
    from playwright.sync_api import sync_playwright

    from bot.proof.transcript import dumps
    from tests.browser.conftest import Site, ThreadedRelay, chromium_path
    from tests.fairdeal.conftest import make_transcript

    site, relay = Site(), ThreadedRelay()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            shoot(page, site, relay, dumps(make_transcript("club")), out)
            browser.close()
    finally:
        relay.close()
        site.close()
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
