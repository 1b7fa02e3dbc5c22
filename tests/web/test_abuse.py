"""Bad input at the web table's socket: forged, altered, expired, used and other people's
links, a socket that never signs in, another site's page, frames that are too long, not
JSON, binary or far too many: each refused or ignored with a clear word, nothing changed at
the table, nothing of the hand shown, no trace of a stack."""

from __future__ import annotations

import base64
import json
import time

import aiohttp
import pytest

from adapters.web import hub, protocol
from tests.web.harness import link, page, started, stop, web_harness


async def refused(p) -> dict:
    """The socket's last words: a bye, then the close."""
    bye = await p.next("bye")
    msg = await p.ws.receive()
    assert msg.type in (
        aiohttp.WSMsgType.CLOSE,
        aiohttp.WSMsgType.CLOSED,
        aiohttp.WSMsgType.CLOSING,
    )
    assert not any(f["type"] == "view" for f in p.frames)  # nothing of the table was shown
    return bye


def altered(token: str) -> str:
    body, tag = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    data["u"] = "test:mallory"
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode() + "." + tag


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t[:-3] + ("AAA" if not t.endswith("AAA") else "BBB"),
        altered,
        lambda t: "not a token",
        lambda t: "x" * 1500 + "." + "y" * 1500,
        lambda t: t.split(".")[0],
    ],
    ids=["signature", "altered-person", "garbage", "huge", "unsigned"],
)
async def test_a_forged_or_altered_link_is_refused_and_sees_nothing(tmp_path, forge):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    seq = h.table().run.seq
    async with page(web, forge(token)) as p:
        bye = await refused(p)
        assert bye["reason"] == "refused" and "not valid" in bye["text"]
        assert "Traceback" not in bye["text"] and token not in bye["text"]
    assert h.table().run.seq == seq
    await stop(h, web)


async def test_an_expired_link_is_refused(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    h.clock.set(h.clock.now() + 3 * 3600)  # three hours later: the link is two hours long
    async with page(web, token) as p:
        bye = await refused(p)
        assert "expired" in bye["text"]
    await stop(h, web)


async def test_a_seat_link_opens_once_and_its_session_reconnects(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        session = (await p.next("welcome"))["session"]
        assert (await p.view())["hand"]
    async with page(web, token) as p:  # the same link again: a replay
        bye = await refused(p)
        assert "opened already" in bye["text"]
    async with page(web, session) as p:  # the page's own session: back at the seat
        assert (await p.next("welcome"))["seated"]
        assert (await p.view())["hand"]
    await stop(h, web)


async def test_a_watcher_sees_the_public_table_and_cannot_play(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "bob", "t1")  # bob sits nowhere: a watch link
    async with page(web, token) as p:
        welcome = await p.next("welcome")
        assert not welcome["seated"]
        v = await p.view()
        assert v["my_seat"] is None and v["hand"] == [] and v["choices"] == []
        assert v["seats"][0]["name"] == "alice"
        seq = h.table().run.seq
        ack = await p.act("play 7C", v["seq"])
        assert not ack["ok"] and "watching" in ack["text"] and h.table().run.seq == seq
    # alice's own seat link, used by bob, is alice's seat: the token names the person
    await stop(h, web)


async def test_no_watch_link_when_the_table_keeps_spectators_out(tmp_path):
    h, web = await started(tmp_path)
    h.table().settings.spectators = False
    [r] = await h.cmd("bob", "/web t1")
    assert not r.ok and "t1" in r.text
    await stop(h, web)


async def test_a_socket_that_never_signs_in_is_closed(tmp_path, monkeypatch):
    monkeypatch.setattr(protocol, "HELLO_SECONDS", 0.3)
    h, web = await started(tmp_path)
    async with page(web, None) as p:
        bye = await refused(p)
        assert bye["reason"] == "timeout"
    await stop(h, web)


async def test_a_page_of_another_site_cannot_open_the_socket(tmp_path):
    from bot.ops import metrics

    h, web = await started(tmp_path)
    token = await link(h, "alice")
    counted = metrics.WEB_REFUSED.labels("origin")._value.get()
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        async with page(web, token, headers={"Origin": "https://evil.example"}):
            pass
    assert err.value.status == 403
    assert metrics.WEB_REFUSED.labels("origin")._value.get() == counted + 1
    own = {"Origin": f"http://127.0.0.1:{web.port}"}  # the bot's own page: welcome
    async with page(web, token, headers=own) as p:
        assert (await p.next("welcome"))["seated"]
    await stop(h, web)


async def test_bad_frames_are_answered_and_change_nothing(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        seq = h.table().run.seq
        for bad in (
            "not json",
            "[1, 2]",
            json.dumps({"type": "nonsense"}),
            json.dumps({"type": "act", "seq": "1", "action": "play 7C", "at": 1}),
            json.dumps({"type": "act", "seq": 1, "action": "t1:1:0:play 7C", "at": 1}),
            json.dumps({"type": "act", "seq": 1, "action": "join", "at": v["seq"]}),
            json.dumps({"type": "hello", "token": token}),
        ):
            await p.ws.send_str(bad)
            frame = await p.next()
            while frame["type"] == "view":
                frame = await p.next()
            assert frame["type"] in ("notice", "ack"), frame
            assert frame.get("ok") is not True
        await p.ws.send_bytes(b"\x00\x01")
        assert (await p.next("notice"))["text"]
        assert h.table().run.seq == seq
    await stop(h, web)


async def test_an_oversized_frame_closes_that_socket_only(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        await p.ws.send_str(json.dumps({"type": "ping", "pad": "x" * 10_000}))
        msg = await p.ws.receive()
        while msg.type == aiohttp.WSMsgType.TEXT:
            msg = await p.ws.receive()
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert h.table().run is not None and not h.table().run.over
    await stop(h, web)


async def test_a_flood_is_throttled_for_that_socket_and_the_table_goes_on(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        seq = h.table().run.seq
        began = time.monotonic()
        for _ in range(60):
            await p.ws.send_str(json.dumps({"type": "ping"}))
        kinds = []
        while kinds.count("pong") < 60:
            kinds.append((await p.next(timeout=10))["type"])
        took = time.monotonic() - began
        # slowed down to the socket's rate (16 at once, then 8 a second), none dropped
        assert "notice" in kinds and took >= (60 - hub.BURST) / hub.RATE * 0.8
        assert h.table().run.seq == seq
        ack = await p.act(v["choices"][0]["action"], v["seq"])  # the player plays on
        assert ack["ok"], ack
    await stop(h, web)


async def test_a_socket_that_keeps_flooding_is_closed(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        for _ in range(400):
            await p.ws.send_str(json.dumps({"type": "ping"}))
        bye = await p.next("bye", timeout=60)
        assert bye["reason"] == "flood"
    assert not h.table().run.over
    await stop(h, web)


async def test_markup_in_a_name_reaches_the_page_as_text_in_json(tmp_path):
    h, web = await web_harness(tmp_path / "m.db")
    evil = "<img src=x onerror=alert(1)>"
    from tests.core.harness import User

    u = User(id="test:evil", name=evil)
    assert (await h.cmd(u, "/table create"))[0].ok
    for _ in range(3):
        await h.cmd(u, "/addbot")
    [r] = await h.cmd(u, "/web")
    from tests.web.harness import token_of

    async with page(web, token_of(r.text)) as p:
        await p.next("welcome")
        v = await p.view()
        assert v["seats"][0]["name"] == evil  # the page writes it with textContent
    await stop(h, web)
