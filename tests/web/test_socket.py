"""The web table's socket: a seat's link opens the person's own view, a tap plays through
the core's one entry point, every seat sees the change, and a move sent twice counts once."""

from __future__ import annotations

import pytest

from tests.web.harness import link, page, started, stop, table_with_bots, web_harness


async def test_a_seat_link_shows_the_persons_hand_and_a_tap_plays_it(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        welcome = await p.next("welcome")
        assert welcome["table"] == "t1" and welcome["seated"] and welcome["session"]
        v = await p.view()
        run = h.table().run
        assert v["my_seat"] == 1 and v["to_move"] == 1 and len(v["hand"]) == len(v["hand"])
        assert v["choices"] and v["seq"] == run.seq
        choice = v["choices"][0]
        ack = await p.act(choice["action"], v["seq"])
        assert ack == {"type": "ack", "seq": 1, "ok": True, "text": ""}
        assert h.table().run.seq == v["seq"] + 1
        after = await p.view()
        assert after["seq"] > v["seq"] and not after["choices"]
    await stop(h, web)


async def test_a_move_sent_again_is_applied_once(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        first = await p.act(v["choices"][0]["action"], v["seq"])
        seq = h.table().run.seq
        again = await p.act(v["choices"][0]["action"], v["seq"], seq=1)
        assert again == first and h.table().run.seq == seq
        older = await p.act(v["choices"][0]["action"], v["seq"], seq=1)
        assert older["ok"] and h.table().run.seq == seq
    await stop(h, web)


async def test_a_stale_or_illegal_card_is_refused_with_the_reason_and_changes_nothing(tmp_path):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token, lang="fr") as p:
        await p.next("welcome")
        v = await p.view()
        seq = h.table().run.seq
        stale = await p.act(v["choices"][0]["action"], v["seq"] - 1)
        assert not stale["ok"] and stale["text"]
        wrong = await p.act("play ZZ", v["seq"])
        assert not wrong["ok"] and wrong["text"]
        assert h.table().run.seq == seq
    await stop(h, web)


@pytest.mark.parametrize(
    ("extra", "key"), [({"table": "t9"}, "t1"), ({"seat": 3}, "t1")], ids=["table", "seat"]
)
async def test_an_action_for_another_table_or_seat_is_refused(tmp_path, extra, key):
    h, web = await started(tmp_path)
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        v = await p.view()
        seq = h.table().run.seq
        ack = await p.act(v["choices"][0]["action"], v["seq"], **extra)
        assert not ack["ok"] and key in ack["text"] and h.table().run.seq == seq
    await stop(h, web)


async def test_the_page_sends_the_persons_seed_for_the_fair_deal(tmp_path):
    h, web = await web_harness(tmp_path / "s.db", seed_window=20)
    await table_with_bots(h, "alice")
    await h.cmd("alice", "/start")
    assert h.table().run.phase == "seeds"
    token = await link(h, "alice")
    async with page(web, token) as p:
        await p.next("welcome")
        assert (await p.view())["my_seed_due"]
        await p.ws.send_json({"type": "seed", "seed": "zz" * 16})
        assert (await p.next("notice"))["text"]  # not hex: not understood, nothing changed
        assert h.table().run.seat_seeds[0] is None
        await p.ws.send_json({"type": "seed", "seed": "ab" * 16})
        ack = await p.next("ack")
        assert ack["ok"], ack
        assert h.table().run.seat_seeds[0] == bytes.fromhex("ab" * 16)
        assert h.table().run.phase != "seeds"  # the only person's seed closes the window
    await stop(h, web)
