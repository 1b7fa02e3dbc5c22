"""The web table (web/table) in a real Chromium against the real core: four people, each in
a browser context of their own, play whole matches through the page; one switches to the
chat's commands mid-match; a socket that drops mid-trick, or loses an ack, reconnects and
nothing is lost or doubled; bad links are refused with a reason and no hand; a watcher sees
no hand; a name with markup shows as text; the transcript passes ``belote verify``."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.show.texts import action_command
from tests.browser.web_bot import PEOPLE, WebBot

SEAT_OF = {n: i for i, n in enumerate(PEOPLE)}


@pytest.fixture()
def bot(tmp_path) -> Iterator[WebBot]:
    b = WebBot(tmp_path / "web.db")
    yield b
    b.close()


class Person:
    """One person's browser context and page, its errors kept."""

    def __init__(self, browser: Any, url: str, *, width: int = 360, height: int = 640, **kw):
        self.context = browser.new_context(viewport={"width": width, "height": height}, **kw)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on(
            "websocket", lambda ws: ws.on("framereceived", lambda f: self.frames.append(str(f)))
        )
        if url:
            self.page.goto(url)

    def live(self) -> None:
        self.page.wait_for_selector('html[data-state="live"]', timeout=10_000)

    def at(self, seq: int, timeout: float = 10_000) -> None:
        """Until the page shows the view of log position ``seq``."""
        self.page.wait_for_selector(f'body[data-seq="{seq}"]', state="attached", timeout=timeout)

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")

    def close(self) -> None:
        self.context.close()


def until(what: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("it never happened")


def run_state(bot: WebBot, tid: int) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        run = bot.table(tid).run
        mover = run.to_move
        return {
            "seq": run.seq,
            "over": run.over,
            "mover": mover,
            "phase": run.phase,
            "trick": len(run.match.view(None).trick) if run.match else 0,
            "bid": bool(run.match and any(str(b) != "pass" for _s, b in run.match.view(None).bids)),
            "hands": [len(run.match.view(s).hand) for s in range(4)] if run.match else [],
        }

    return bot.call(read)


def tap_move(person: Person, state: dict[str, Any]) -> None:
    """The move a person makes with a tap: in the auction the first bid when nobody has bid
    yet (Coinche: its value, then its suit), else pass; in the play the first lit card."""
    page = person.page
    if page.get_attribute("body", "data-phase") == "auction":
        if not state["bid"]:
            if page.locator("#choices button.value").count():
                page.locator("#choices button.value").first.click()
                page.locator("#choices button.suit").first.click()
            else:
                page.locator('#choices button[data-action]:not([data-action="pass"])').first.click()
        else:
            page.locator('#choices button[data-action="pass"]').click()
    else:
        page.locator('#hand .card[data-legal="yes"]').first.click()


def chat_move(bot: WebBot, tid: int, who: str) -> None:
    """The move as the chat's buttons make it: the core's command, not the page."""

    def command() -> str:
        run = bot.table(tid).run
        legal = run.match.legal_actions(run.to_move)
        plain = [a for a in legal if not a.belote] or legal
        return action_command(plain[0])

    replies = bot.cmd(who, f"{bot.call(command)}")
    assert all(r.ok for r in replies), [r.text for r in replies]


def play_match(bot: WebBot, tid: int, people: dict[int, Person], chat: dict[int, range]) -> int:
    """Every move of the match from the pages (a seat's moves numbered in ``chat`` by the
    chat's commands instead); the number of moves made."""
    moves = [0, 0, 0, 0]
    for _ in range(2000):
        s = run_state(bot, tid)
        if s["over"]:
            return sum(moves)
        if s["mover"] is None or s["phase"] not in ("play",):
            time.sleep(0.02)
            continue
        seat = s["mover"]
        who = people[seat]
        before = s["seq"]
        if moves[seat] in chat.get(seat, ()):
            chat_move(bot, tid, PEOPLE[seat])
            s2 = run_state(bot, tid)
            who.at(s2["seq"])  # the page follows a move made in the chat
            assert len(who.hand()) == s2["hands"][seat]
        else:
            who.page.wait_for_selector('body[data-my-turn="yes"]', timeout=10_000)
            who.at(before)
            tap_move(who, s)
            until(lambda: run_state(bot, tid)["seq"] > before)
        moves[seat] += 1
    raise AssertionError("the match did not end")


def verify_file(path: str) -> tuple[int, str]:
    """``belote verify PATH`` (in a thread: Playwright keeps an event loop in this one)."""
    import contextlib
    import io

    from adapters.cli import main

    out: list[Any] = []

    def go() -> None:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = main(["verify", path])
        out.append((code, buf.getvalue()))

    t = threading.Thread(target=go)
    t.start()
    t.join(120)
    return out[0]


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian", "coinche"])
def test_four_people_play_a_whole_match_through_the_page(browser, bot, tmp_path, ruleset):
    tid = bot.seat_table(ruleset)
    people = {
        i: Person(browser, bot.link(n), locale="fr-FR" if i == 2 else "en-US")
        for i, n in enumerate(PEOPLE)
    }
    for p in people.values():
        p.live()
    # the link is gone from the address bar at once
    assert all("#k=" not in p.page.url for p in people.values())
    # bob plays his third to fifth moves from the chat, the rest from the page
    moves = play_match(bot, tid, people, chat={1: range(2, 5)})
    assert moves >= 32
    match = bot.call(lambda: bot.table(tid).run.id)
    for i, p in people.items():
        p.page.wait_for_selector("#over:not([hidden])", timeout=10_000)
        seed = p.page.text_content("#seed")
        assert seed and len(seed) == 64
        href = p.page.get_attribute("#verify-link", "href")
        assert href == f"{bot.url}/verify/#url={bot.url}/table/transcripts/m{match}.json"
        assert not p.errors, p.errors
    # the page's own language: fr from the link's person? the socket's welcome says en, the
    # browser's locale does not override the person's language in the chat
    with urllib.request.urlopen(href.split("#url=")[1]) as r:
        transcript = json.loads(r.read())
    assert transcript["server_seed"] == seed
    path = tmp_path / "m.json"
    path.write_text(json.dumps(transcript))
    code, text = verify_file(str(path))
    assert code == 0, text
    for p in people.values():
        p.close()
