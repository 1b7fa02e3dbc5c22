"""Four people play a whole match of each ruleset at one table from the web table's
sockets, one of them switching to the chat's buttons mid-match and back: every move goes
through the core once, every seat sees every change, and the finished match's transcript,
fetched from the web table, passes ``belote verify``."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
import pytest

from adapters.cli import main
from tests.web.harness import Page, link, page, web_harness

PEOPLE = ("alice", "bob", "carol", "dave")


async def my_view(p: Page, seq: int) -> dict:
    """The person's view at log position ``seq`` (the newest one, with their choices)."""
    return await p.view_where(lambda v: v["seq"] == seq and bool(v["choices"]))


def choose(v: dict) -> str:
    """A card: the first one lit. A bid: the first there is while nobody has bid, else
    pass (so that every auction ends in a contract)."""
    actions = [c["action"] for c in v["choices"]]
    if v["phase"] != "auction":
        return actions[0]
    if any(bid.lower() not in ("pass", "passe") for _seat, bid in v["bids"]):
        return "pass" if "pass" in actions else actions[0]
    return next((a for a in actions if a != "pass"), actions[0])


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian", "coinche"])
async def test_a_whole_match_from_four_web_seats(tmp_path, ruleset):
    h, web = await web_harness(tmp_path / "m.db", timer=600)
    assert (await h.cmd("alice", f"/table create {ruleset} --target 1"))[0].ok
    for name in PEOPLE[1:]:
        assert (await h.cmd(name, "/join"))[0].ok
    assert (await h.cmd("alice", "/start"))[0].ok
    tokens = [await link(h, name) for name in PEOPLE]
    async with contextlib.AsyncExitStack() as stack:
        pages_of = {
            name: await stack.enter_async_context(page(web, tok))
            for name, tok in zip(PEOPLE, tokens, strict=True)
        }
        for p in pages_of.values():
            assert (await p.next("welcome"))["seated"]
        t = h.table()
        pages = [pages_of[t.seats[i].name] for i in range(4)]
        run = t.run
        by_chat = 0
        moves = 0
        while not run.over:
            if run.phase != "play" or run.to_move is None:
                await h.advance(1)
                continue
            seat = run.to_move
            name = t.seats[seat].name
            seq = run.seq
            if name == "bob" and 2 <= moves % 12 < 5:  # bob plays from the chat a while
                hand = h.last(f"hand:{t.id}:test:bob")
                button = next(b for row in hand.buttons for b in row if b.enabled)
                await h.press("bob", button.action)
                by_chat += 1
            else:
                v = await my_view(pages[seat], seq)
                assert v["my_seat"] == seat + 1 and v["to_move"] == seat + 1
                assert len(v["hand"]) == len(run.match.hand(seat))
                action = choose(v)
                ack = await pages[seat].act(action, seq)
                assert ack["ok"], (ruleset, action, ack)
            assert run.seq > seq  # each move applied once
            moves += 1
        assert by_chat > 0
        # every seat's page ends on the finished match, with the seed revealed
        for i, p in enumerate(pages):
            end = await p.view_where(lambda v: v["phase"] == "over")
            assert end["seed"] == run.server_seed.hex() and end["winner"] in ("A", "B")
            assert end["last_result"] and end["my_seat"] == i + 1
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{web.port}/table/transcripts/m{run.id}.json"
        async with http.get(url) as got:
            assert got.status == 200
            body = await got.text()
    (tmp_path / "m.json").write_text(body)
    assert await asyncio.to_thread(main, ["verify", str(tmp_path / "m.json")]) == 0
    await web.stop()
    await h.app.stop()


async def test_no_transcript_of_a_match_in_progress(tmp_path):
    h, web = await web_harness(tmp_path / "p.db")
    assert (await h.cmd("alice", "/table create --target 300"))[0].ok
    for _ in range(3):
        await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    run = h.table().run
    async with aiohttp.ClientSession() as http:
        for name in (f"m{run.id}.json", "m999.json", "..%2Fm1.json", "x.json"):
            async with http.get(f"http://127.0.0.1:{web.port}/table/transcripts/{name}") as r:
                assert r.status == 404
                assert run.server_seed.hex() not in await r.text()
    await web.stop()
    await h.app.stop()
