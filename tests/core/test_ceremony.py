"""The fair-deal ceremony: commitment, the seed window, drand (or not), the reveal."""

from __future__ import annotations

import asyncio

from bot.proof.drand import QUICKNET_CHAIN_HASH, QUICKNET_GENESIS, DrandClient
from bot.proof.transcript import dumps
from engine import DeckInputs, shuffled_deck
from tests.core.harness import make_harness, table_with_bots
from tests.fakes.drand_relay import REAL_BEACONS, drand_relay


async def test_seed_window_collects_seeds_and_shows_them(tmp_path):
    h = await make_harness(tmp_path / "b.db")
    await h.cmd("alice", "/table create --window 20")
    await h.cmd("bob", "/join")
    await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    t = h.table()
    run = t.run
    assert run.phase == "seeds"
    assert "/seed" in h.last("commit:1").text
    seed = "0123456789abcdef" * 2
    assert (await h.cmd("alice", f"/seed {seed}"))[0].ok
    again = await h.cmd("alice", f"/seed {seed}")
    assert not again[0].ok  # once only
    await h.advance(19)
    assert run.phase == "seeds"
    await h.advance(1.5)
    assert run.phase == "play"
    commit = h.last("commit:1")
    assert run.commitment in commit.text and commit.buttons == ()  # no stale seed button
    shown = h.last("seeds:1").text
    lines = shown.splitlines()[1:]
    assert seed in lines[0] and lines[1].endswith("none")  # bob sent none
    assert lines[2].endswith("none") and lines[3].endswith("none")  # bots send none
    # the deck really is made from the seeds shown
    inputs = DeckInputs(run.server_seed, (bytes.fromhex(seed), None, None, None))
    assert run.match.deals[0].deck == shuffled_deck(inputs, 0)
    await h.app.stop()


async def test_window_closes_early_when_every_player_has_sent(tmp_path):
    h = await make_harness(tmp_path / "b.db")
    await table_with_bots(h, "alice", "--window", "60")
    await h.cmd("alice", "/start")
    assert (await h.cmd("alice", "/seed " + "11" * 16))[0].ok
    assert h.table().run.phase == "play"
    await h.app.stop()


async def _wait(cond, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_deal_with_drand_from_a_relay(tmp_path):
    async with drand_relay() as relay:
        client = DrandClient([relay.url], timeout=1.0)
        # fake time 20 s before quicknet's genesis: the round to name is round 1
        h = await make_harness(
            tmp_path / "b.db", start=QUICKNET_GENESIS - 20, drand=client, seed_window=0
        )
        await table_with_bots(h)
        await h.cmd("alice", "/start")
        run = h.table().run
        assert run.drand_round == 1
        assert "round 1" in h.last("drand:1").text
        await _wait(lambda: run.phase == "play" and h.app.ceremony.drand_done(1))
        assert run.drand_status == "ok"
        assert run.drand_value == REAL_BEACONS[1].randomness
        assert REAL_BEACONS[1].randomness.hex() in h.last("drand:1").text
        inputs = DeckInputs(run.server_seed, (None,) * 4, 1, REAL_BEACONS[1].randomness)
        assert run.match.deals[0].deck == shuffled_deck(inputs, 0)
        await h.play_human_turns({0: "alice"})
        transcript = await h.app.transcript(run.id)
        assert transcript.drand is not None and transcript.drand.round == 1
        asked_before = relay.requests.count(f"/{QUICKNET_CHAIN_HASH}/public/1")
        v = await h.cmd("alice", "/verify m1")
        assert v[0].ok, v[0].text
        # /verify asked drand itself for the round's value, not only the stored signature
        assert relay.requests.count(f"/{QUICKNET_CHAIN_HASH}/public/1") == asked_before + 1
        await h.app.stop()
        await client.aclose()


async def test_drand_late_deals_without_it_and_says_so(tmp_path):
    async with drand_relay("down") as relay:
        client = DrandClient([relay.url], timeout=0.5, retry_interval=0.5)
        h = await make_harness(
            tmp_path / "b.db", start=QUICKNET_GENESIS - 20, drand=client, seed_window=0
        )
        await table_with_bots(h)
        await h.cmd("alice", "/start")
        run = h.table().run
        await _wait(lambda: run.phase == "play" and h.app.ceremony.drand_done(1))
        assert run.drand_status == "timeout" and run.drand_value is None
        assert "did not arrive" in h.last("drand:1").text
        inputs = DeckInputs(run.server_seed, (None,) * 4)
        assert run.match.deals[0].deck == shuffled_deck(inputs, 0)
        log = await h.store.log(run.id)
        assert any(e.kind == "drand_timeout" for e in log)
        await h.play_human_turns({0: "alice"})
        transcript = await h.app.transcript(run.id)
        assert transcript.drand is None
        assert '"drand": null' in dumps(transcript)
        await h.app.stop()
        await client.aclose()


async def test_drand_deadline_fires_from_the_scheduler(tmp_path):
    """A relay that never answers: the 5 s deadline (a stored one) deals without drand."""

    class Silent:
        async def fetch_until(self, *a, **k):
            await asyncio.Event().wait()

    h = await make_harness(
        tmp_path / "b.db", start=QUICKNET_GENESIS - 20, drand=Silent(), seed_window=0
    )
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    run = h.table().run
    dl = (await h.store.deadlines())[1]
    assert dl.kind == "drand" and dl.due == QUICKNET_GENESIS + 5
    await h.advance(24)
    assert run.phase == "drand"
    await h.advance(1.5)
    assert run.phase == "play" and run.drand_status == "timeout"
    await h.app.stop()
