"""The web table's pictures in the docs: ``python -m tests.browser.web_screenshot`` writes
docs/pictures/web-table-{phone,desktop}-{light,dark}.png: a Coinche match in the middle
of a trick, seen by the person to move (their legal cards lit), at 360x640 and 1280x720."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "docs" / "pictures"
NAMES = ("Ada", "Boris", "Chloé", "Dimitar")
SIZES = {"phone": (360, 640), "desktop": (1280, 720)}


def scene(bot: Any, browser: Any) -> tuple[int, dict[int, Any]]:
    """Four people at a Coinche table, played by their pages up to two cards of a trick."""
    from tests.browser.test_web_table import Person, mid_trick

    tid = bot.seat_table("coinche", target=1000, names=NAMES)
    people = {i: Person(browser, bot.link(n)) for i, n in enumerate(NAMES)}
    for p in people.values():
        p.live()
    mid_trick(bot, tid, people, cards=2)
    for _ in range(2):  # one trick done: the last trick and the tricks taken show
        mid_trick(bot, tid, people, cards=0)
        mid_trick(bot, tid, people, cards=2)
    for p in people.values():
        p.close()
    return tid, people


def shoot(bot: Any, browser: Any, out: Path = OUT) -> list[Path]:
    from tests.browser.test_web_table import Person, run_state

    tid, _ = scene(bot, browser)
    s = run_state(bot, tid)
    who = NAMES[s["mover"]]
    made = []
    for size, (w, h) in SIZES.items():
        for scheme in ("light", "dark"):
            p = Person(browser, bot.link(who), width=w, height=h, color_scheme=scheme)
            p.live()
            p.at(s["seq"])
            p.page.wait_for_selector('body[data-my-turn="yes"]')
            p.page.wait_for_timeout(600)  # the cards' transition done
            path = out / f"web-table-{size}-{scheme}.png"
            p.page.screenshot(path=str(path))
            made.append(path)
            p.close()
    return made


def main(out: Path = OUT) -> int:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import chromium_path
    from tests.browser.web_bot import WebBot

    with tempfile.TemporaryDirectory() as tmp:
        bot = WebBot(Path(tmp) / "shots.db")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
                for path in shoot(bot, browser, out):
                    print(f"wrote {path}")
                browser.close()
        finally:
            bot.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
