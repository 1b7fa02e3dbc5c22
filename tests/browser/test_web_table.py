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
        # a console error: a file refused by the page's policy, a script that failed
        self.page.on(
            "console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}")
        )
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


def until(what: Callable[[], Any], timeout: float = 10.0, page: Any = None) -> Any:
    """``what()`` once it is true; ``page``: a page whose handlers (its routes) must run
    while we wait (Playwright's sync API runs them only inside its own calls)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        if page is not None:
            page.wait_for_timeout(20)
        else:
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
            "contract": bool(run.match and run.match.view(None).contract is not None),
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
    """The move as a chat's button makes it (the table, the view's position, the seat and
    the action, through the core's one entry point), not through the page."""

    def button() -> str:
        run = bot.table(tid).run
        legal = run.match.legal_actions(run.to_move)
        plain = [a for a in legal if not a.belote] or legal
        return f"t{tid}:{run.seq}:{run.to_move}:{plain[0].text}"

    replies = bot.run(bot.h.press(who, bot.call(button)))
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
            assert s2["seq"] == before + 1  # the chat's move counted, once
            who.at(s2["seq"])  # the page follows a move made in the chat
            assert len(who.hand()) == s2["hands"][seat]
        else:
            who.page.wait_for_selector('body[data-my-turn="yes"]', timeout=10_000)
            who.at(before)
            tap_move(who, s)
            until(lambda before=before: run_state(bot, tid)["seq"] > before)
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
    for p in people.values():
        p.page.wait_for_selector("#over:not([hidden])", timeout=10_000)
        seed = p.page.text_content("#seed")
        assert seed and len(seed) == 64
        href = p.page.get_attribute("#verify-link", "href")
        assert href == f"{bot.url}/verify/#url={bot.url}/table/transcripts/m{match}.json"
        assert not p.errors, p.errors
    with urllib.request.urlopen(href.split("#url=")[1]) as r:
        transcript = json.loads(r.read())
    assert transcript["server_seed"] == seed
    path = tmp_path / "m.json"
    path.write_text(json.dumps(transcript))
    code, text = verify_file(str(path))
    assert code == 0, text
    # the page's link opens the browser check of that very match, and it says fair
    check = people[0].page
    check.goto(href.replace("/verify/#", "/verify/?drand=off#"))
    check.wait_for_selector('html[data-state="done"]', timeout=30_000)
    assert check.get_attribute("html", "data-verdict") == "fair"
    for p in people.values():
        p.close()


def mid_trick(bot: WebBot, tid: int, people: dict[int, Person], cards: int = 2) -> dict[str, Any]:
    """Play from the pages until ``cards`` cards lie on the table; the state then."""
    for _ in range(200):
        s = run_state(bot, tid)
        played = s["contract"] and s["hands"] and sum(s["hands"]) < 32
        if s["phase"] == "play" and s["trick"] == cards and played:
            return s
        who = people[s["mover"]]
        who.page.wait_for_selector('body[data-my-turn="yes"]', timeout=10_000)
        who.at(s["seq"])
        tap_move(who, s)
        until(lambda before=s["seq"]: run_state(bot, tid)["seq"] > before)
    raise AssertionError("no trick came")


def drop_socket(bot: WebBot, tid: int, name: str, code: int = 1012) -> None:
    """The server closes that person's socket (a restart, a proxy that cut it)."""

    async def go() -> None:
        for s in list(bot.web.hub._by_table.get(tid, ())):
            if s.user.id == f"test:{name}":
                await s.close(code=code, message=b"cut")

    bot.run(go())


def four(browser: Any, bot: WebBot, tid: int, **kw: Any) -> dict[int, Person]:
    people = {i: Person(browser, bot.link(n), **kw) for i, n in enumerate(PEOPLE)}
    for p in people.values():
        p.live()
    return people


def test_a_socket_cut_mid_trick_reconnects_and_plays_on_with_nothing_lost(browser, bot):
    tid = bot.seat_table("club")
    people = four(browser, bot, tid)
    s = mid_trick(bot, tid, people)
    mover = s["mover"]
    who = people[mover]
    hand = who.hand()
    drop_socket(bot, tid, PEOPLE[mover])
    who.page.wait_for_selector('html[data-state="reconnecting"]', timeout=5_000)
    who.live()  # back by itself, with the session token (the link opened once only)
    who.at(s["seq"])
    assert who.hand() == hand and run_state(bot, tid)["seq"] == s["seq"]
    tap_move(who, s)
    until(lambda: run_state(bot, tid)["seq"] == s["seq"] + 1)
    after = run_state(bot, tid)
    assert after["hands"][mover] == s["hands"][mover] - 1
    # and the match goes on to its end from the pages
    play_match(bot, tid, people, chat={})
    assert not any(p.errors for p in people.values())


def test_a_move_whose_ack_was_lost_is_sent_again_and_applied_once(browser, bot):
    tid = bot.seat_table("classic")
    cut = {"armed": False, "done": False}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))

        def down(m: Any) -> None:
            if cut["armed"] and not cut["done"] and '"type":"ack"' in str(m):
                cut["done"] = True  # the move reached the bot; its answer is lost with the line
                ws.close(code=4000, reason="line lost")
                return
            ws.send(m)

        server.on_message(down)

    people = {}
    for i, n in enumerate(PEOPLE):
        p = Person(browser, "")
        p.page.route_web_socket("**/table/ws", route)
        p.page.goto(bot.link(n))
        people[i] = p
    for p in people.values():
        p.live()
    s = mid_trick(bot, tid, people, cards=1)
    who = people[s["mover"]]
    who.page.wait_for_selector('body[data-my-turn="yes"]')
    cut["armed"] = True
    tap_move(who, s)
    until(lambda: cut["done"], page=who.page)
    who.page.wait_for_selector('html[data-state="reconnecting"]', timeout=5_000)
    who.live()
    # the page sent its move again (same sequence number): the bot answered, applied it once
    after = until(lambda: (st := run_state(bot, tid))["mover"] != s["mover"] and st, page=who.page)
    who.page.wait_for_timeout(500)
    assert run_state(bot, tid)["seq"] == s["seq"] + 1
    assert after["hands"][s["mover"]] == s["hands"][s["mover"]] - 1
    who.at(s["seq"] + 1)
    assert len(who.hand()) == s["hands"][s["mover"]] - 1
    assert who.page.evaluate("sessionStorage.getItem('belote-table:pending')") is None


class Line:
    """A page's line to the bot through a route, that the test can take down: while
    ``down``, every new socket is cut at once (the network is gone) and the page keeps
    trying; once up again, sockets reach the bot."""

    def __init__(self, page: Any) -> None:
        self.down = False
        page.route_web_socket("**/table/ws", self._route)

    def _route(self, ws: Any) -> None:
        if self.down:
            ws.close(code=4000, reason="no network")
            return
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: ws.send(m))


def test_a_move_queued_offline_and_made_meanwhile_in_the_chat_is_refused_and_changes_nothing(
    browser, bot
):
    tid = bot.seat_table("bulgarian")
    people = {}
    lines = {}
    for i, n in enumerate(PEOPLE):
        people[i] = Person(browser, "")
        lines[i] = Line(people[i].page)
        people[i].page.goto(bot.link(n))
    for p in people.values():
        p.live()
    s = mid_trick(bot, tid, people, cards=0)  # a trick's lead: every card may be played
    mover = s["mover"]
    who = people[mover]
    who.at(s["seq"])
    lines[mover].down = True
    drop_socket(bot, tid, PEOPLE[mover])
    who.page.wait_for_selector('html[data-state="reconnecting"]', timeout=5_000)
    lit = who.page.locator('#hand .card[data-legal="yes"]')
    who.page.wait_for_timeout(1600)  # the trick just taken is held a moment, then the hand
    if lit.count() < 2:
        pytest.skip("one card to play: the chat could only play the tapped one")
    lit.last.click()  # kept until the line is back
    assert who.page.evaluate("sessionStorage.getItem('belote-table:pending')")
    assert "line is back" in who.page.text_content("#prompt")
    chat_move(bot, tid, PEOPLE[mover])  # the same turn, another card, from the chat meanwhile
    seq = run_state(bot, tid)["seq"]
    lines[mover].down = False
    who.live()
    who.page.wait_for_selector("#toast:not([hidden])", timeout=10_000)
    assert who.page.text_content("#toast")  # the bot's reason, in the person's language
    who.page.wait_for_timeout(300)
    assert run_state(bot, tid)["seq"] == seq  # the page's stale move did nothing
    assert who.page.evaluate("sessionStorage.getItem('belote-table:pending')") is None
    assert not who.errors, who.errors


def forged(url: str) -> str:
    body, _, tag = url.partition("#k=")[2].partition(".")
    return url.split("#k=")[0] + "#k=" + body + "." + ("A" if tag[0] != "A" else "B") + tag[1:]


def test_a_forged_an_expired_and_a_used_link_are_refused_with_a_reason_and_no_hand(browser, bot):
    from tests.web.harness import KEY

    tid = bot.seat_table("club")
    first = Person(browser, bot.link("alice"))
    first.live()
    used = first.page.url  # the address bar has lost the token; the link itself:
    link = bot.link("bob")
    opened = Person(browser, link)
    opened.live()
    again = Person(browser, link)  # the same seat link, opened a second time
    from bot.play.seat_links import SeatLinks

    now = bot.call(lambda: bot.h.clock.now())
    old = SeatLinks(KEY).token(
        "seat", "test:carol", "carol", "en", "test:room", tid, now - 3 * 3600
    )
    expired = Person(browser, f"{bot.url}/table/#k={old}")
    bad = Person(browser, forged(bot.link("dave")))
    none = Person(browser, f"{bot.url}/table/")
    cases = {
        "used": (again, "opened already"),
        "expired": (expired, "expired"),
        "forged": (bad, "not valid"),
        "none": (none, "/web"),
    }
    for name, (p, words) in cases.items():
        p.page.wait_for_selector("#message:not([hidden])", timeout=10_000)
        text = p.page.text_content("#message")
        assert words in text, (name, text)
        assert p.page.locator("#hand .card").count() == 0, name
        assert not p.page.locator("#play").is_visible(), name
        assert all('"hand":["' not in f for f in p.frames), name
        assert not p.errors, (name, p.errors)
    assert "#k=" not in used and "#k=" not in again.page.url
    for p in (first, opened, again, expired, bad, none):
        p.close()


def test_a_watcher_sees_the_table_and_no_hand(browser, bot):
    tid = bot.seat_table("coinche", names=("alice", "bob"))
    watch = bot.link("erin", f"t{tid}")
    watcher = Person(browser, watch)
    watcher.live()
    watcher.page.wait_for_selector('.seat[data-seat="1"] .name')
    assert watcher.page.get_attribute("body", "data-seated") == "no"
    names = watcher.page.eval_on_selector_all(".seat .name", "els => els.map(e => e.textContent)")
    assert "alice" in names and "bob" in names
    assert watcher.page.locator("#hand .card").count() == 0
    assert watcher.page.locator("#choices button").count() == 0
    views = [json.loads(f)["view"] for f in watcher.frames if '"type":"view"' in f]
    assert views and all(v["hand"] == [] and v["choices"] == [] for v in views)
    watcher.close()


def test_a_name_with_markup_shows_as_text(browser, bot):
    from tests.core.harness import user

    evil = '<img src=x onerror="alert(1)">'
    [r] = bot.cmd("alice", "/table create club --target 1")
    assert r.ok
    [r] = bot.run(bot.h.cmd(user(evil), "/join"))
    assert r.ok, r.text
    for _ in range(2):
        bot.cmd("alice", "/addbot")
    bot.cmd("alice", "/start")
    p = Person(browser, bot.link("alice"))
    p.live()
    p.page.wait_for_selector('.seat[data-seat="2"] .name')
    assert p.page.text_content('.seat[data-seat="2"] .name') == evil
    assert p.page.locator("#felt img, #side img").count() == 0
    time.sleep(0.3)
    assert not p.dialogs and not p.errors
    p.close()


@pytest.mark.parametrize("size", [(320, 568), (360, 640), (400, 800), (1280, 720)], ids=str)
def test_the_page_fits_without_scrolling_sideways_and_plays_by_keyboard(browser, bot, size):
    tid = bot.seat_table("classic", target=1)
    people = four(browser, bot, tid, width=size[0], height=size[1])
    s = mid_trick(bot, tid, people, cards=1)
    who = people[s["mover"]]
    who.at(s["seq"])
    page = who.page
    page.wait_for_selector('body[data-my-turn="yes"]')
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0
    smallest = page.eval_on_selector_all(
        "#hand .card", "els => Math.min(...els.map(e => e.getBoundingClientRect().width))"
    )
    assert smallest >= 38
    legal = page.eval_on_selector_all('#hand .card[data-legal="yes"]', "els => els.length")
    assert legal >= 1
    # keyboard: focus the first card, arrow to the first lit one, Enter plays it
    page.locator("#hand .card").first.focus()
    cards = who.hand()
    target = page.eval_on_selector_all(
        "#hand .card", "els => els.findIndex(e => e.dataset.legal === 'yes')"
    )
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == cards[target]
    page.keyboard.press("Enter")
    until(lambda: run_state(bot, tid)["seq"] == s["seq"] + 1)
    who.at(s["seq"] + 1)
    assert cards[target] not in who.hand()


def test_a_table_that_closes_is_said_gone_after_a_few_tries(browser, bot):
    tid = bot.seat_table("club")
    people = four(browser, bot, tid)
    mid_trick(bot, tid, people, cards=1)
    [r] = bot.cmd("alice", f"/close t{tid}")
    assert r.ok, r.text
    for p in people.values():
        p.page.wait_for_selector('html[data-state="gone"]', timeout=20_000)
        assert "not running any more" in p.page.text_content("#message")
        assert p.page.locator("#felt .seat .name").count() == 4  # the last view stays
        assert not p.errors, p.errors


def test_the_last_trick_on_demand_and_the_timer_counting_down(browser, bot):
    tid = bot.seat_table("coinche")
    people = four(browser, bot, tid)
    mid_trick(bot, tid, people, cards=2)
    mid_trick(bot, tid, people, cards=0)  # a trick done
    s = mid_trick(bot, tid, people, cards=1)
    page = people[0].page
    people[0].at(s["seq"])
    assert page.locator("#trick .card").count() == 1
    from tests.core.harness import user

    last = bot.call(lambda: bot.h.app.table_view(user("alice"), tid))
    page.click("#last-btn")
    assert page.locator("#trick .card").count() == 4
    winner = last.seats[last.last_trick_winner - 1].name
    assert page.text_content("#contract").startswith(f"Won by {winner}")
    assert sorted(
        page.eval_on_selector_all("#trick .card", "e => e.map(c => c.dataset.card)")
    ) == sorted(p.card for p in last.last_trick)
    page.click("#last-btn")
    assert page.locator("#trick .card").count() == 1
    # the mover's seat counts its time down on the device (the core's clock stands still)
    timer = page.locator(".seat.to-move .timer")
    first = int(timer.text_content().split()[0])
    page.wait_for_timeout(2300)
    assert int(timer.text_content().split()[0]) <= first - 2


def test_the_page_is_small_and_has_no_inline_code():
    import re

    from adapters.web.server import PAGE_DIR, POLICY

    files = [f for f in PAGE_DIR.rglob("*") if f.is_file()]
    assert sum(f.stat().st_size for f in files) < 150_000
    html = (PAGE_DIR / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # every script a file
    assert not re.search(r"\sstyle=|<style|\son[a-z]+=", html)
    assert "default-src 'none'" in POLICY and "'unsafe-inline'" not in POLICY
    for f in files:
        if f.suffix == ".js":
            code = f.read_text()
            assert "innerHTML" not in code and "eval(" not in code, f.name


def test_a_person_whose_time_ran_out_takes_their_seat_back_from_the_page(browser, bot):
    tid = bot.seat_table("club")
    people = four(browser, bot, tid)
    s = mid_trick(bot, tid, people, cards=1)
    mover = s["mover"]
    away = bot.call(lambda: list(bot.table(tid).run.replaced))
    for _ in range(12):  # turns run out (each person's in turn) until a bot plays for them
        if bot.call(lambda: bot.table(tid).run.replaced[mover]):
            break
        bot.run(bot.h.advance(61))
    assert bot.call(lambda: bot.table(tid).run.replaced[mover]) and not away[mover]
    page = people[mover].page
    page.wait_for_selector('#choices button[data-action="back"]', timeout=10_000)
    page.click('#choices button[data-action="back"]')
    until(lambda: not bot.call(lambda: bot.table(tid).run.replaced[mover]), page=page)
    page.wait_for_selector('#choices button[data-action="back"]', state="detached")


def test_the_page_sends_the_persons_own_seed_and_the_deal_goes_on(browser, tmp_path):
    """With a seed window, the deal waits for the people's seeds: the page draws one on
    the device (crypto.getRandomValues) and sends it, once, and the cards come at once."""
    slow = WebBot(tmp_path / "seed.db", fast=False, seed_window=30, bot_delay=0)
    try:
        tid = slow.seat_table("club", names=("alice",))
        assert slow.call(lambda: slow.table(tid).run.phase) == "seeds"
        alice = Person(browser, slow.link("alice"))
        alice.live()
        until(lambda: slow.call(lambda: slow.table(tid).run.seat_seeds[0]) is not None)
        seed = slow.call(lambda: slow.table(tid).run.seat_seeds[0])
        assert len(seed) == 16
        until(lambda: slow.call(lambda: slow.table(tid).run.phase) == "play")
        alice.page.wait_for_selector("#hand .card", timeout=10_000)
        assert not alice.errors, alice.errors
        alice.close()
    finally:
        slow.close()
