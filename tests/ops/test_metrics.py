"""/metrics and /healthz on the operator's port, scraped over HTTP while matches are played:
the figures move as the play does."""

from __future__ import annotations

import asyncio

import httpx
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import metrics
from bot.proof.drand import QUICKNET_GENESIS, DrandClient
from bot.show.texts import action_command
from tests.core.harness import make_harness, table_with_bots
from tests.fakes.drand_relay import drand_relay


class Scrape:
    """One scrape of /metrics: ``value(name, **labels)`` sums the samples that match."""

    def __init__(self, text: str) -> None:
        self.samples = [
            s for family in text_string_to_metric_families(text) for s in family.samples
        ]

    def value(self, name: str, **labels: str) -> float:
        return sum(
            s.value
            for s in self.samples
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
        )


async def scrape(port: int) -> Scrape:
    async with httpx.AsyncClient() as http:
        resp = await http.get(f"http://127.0.0.1:{port}/metrics")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/plain")
    return Scrape(resp.text)


async def wait_for(cond, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def one_move(h, name: str) -> None:
    """Alice plays her first legal action when it is her turn; else the bots move."""
    run = h.table().run
    if run.to_move == 0 and not run.is_auto(0):
        legal = run.match.legal_actions(0)
        plain = [a for a in legal if not a.belote] or legal
        assert all(r.ok for r in await h.cmd(name, action_command(plain[0])))
    else:
        await h.advance(1.0)


async def test_metrics_move_with_the_play(tmp_path):
    async with drand_relay() as relay:
        h = await make_harness(
            tmp_path / "b.db",
            start=QUICKNET_GENESIS - 20,  # the round to name is 1: the fake relay has it
            drand=DrandClient([relay.url], timeout=1.0),
            seed_window=0,
            render_images=True,
            metrics_port=0,
        )
        port = h.app.monitor.port
        before = await scrape(port)
        await table_with_bots(h, "alice", "--target", "1")
        lobby = await scrape(port)
        assert lobby.value("belote_tables_open", platform="test", ruleset="club") == 1
        assert lobby.value("belote_matches_in_progress", platform="test") == 0

        await h.cmd("alice", "/start")
        run = h.table().run
        await wait_for(lambda: run.phase == "play")
        for _ in range(12):  # a few moves: the bots think, the table is drawn
            await one_move(h, "alice")
        mid = await scrape(port)
        assert mid.value("belote_matches_in_progress", platform="test", ruleset="club") == 1
        moved = mid.value("belote_actions_total", platform="test") - before.value(
            "belote_actions_total", platform="test"
        )
        assert moved >= 4
        assert mid.value("belote_actions_total", platform="test", by="player") > before.value(
            "belote_actions_total", platform="test", by="player"
        )
        assert (
            mid.value("belote_action_seconds_count", platform="test")
            - before.value("belote_action_seconds_count", platform="test")
            == moved
        )
        assert mid.value("belote_commit_seconds_count") > before.value(
            "belote_commit_seconds_count"
        )
        assert mid.value("belote_bot_think_seconds_count", level="normal") > before.value(
            "belote_bot_think_seconds_count", level="normal"
        )
        for kind in ("table", "hand"):
            assert mid.value("belote_picture_seconds_count", kind=kind) > before.value(
                "belote_picture_seconds_count", kind=kind
            )
        for outcome in ("fetched", "verified"):
            assert mid.value("belote_drand_beacons_total", outcome=outcome) > before.value(
                "belote_drand_beacons_total", outcome=outcome
            )

        await h.play_human_turns({0: "alice"})
        end = await scrape(port)
        assert end.value("belote_matches_in_progress", platform="test") == 0
        assert end.value("belote_tables_open", platform="test") == 1  # back in the lobby
        assert end.value("belote_actions_total", platform="test") > mid.value(
            "belote_actions_total", platform="test"
        )

        # the next match names a round the relay does not have: dealt without drand
        await h.cmd("alice", "/start")
        run = h.table().run
        await wait_for(lambda: run.phase == "play")
        after = await scrape(port)
        assert (
            after.value("belote_drand_beacons_total", outcome="fallback")
            == end.value("belote_drand_beacons_total", outcome="fallback") + 1
        )
        await h.app.stop()


async def test_healthz_says_what_is_wrong(tmp_path, monkeypatch):
    monkeypatch.setattr(metrics, "_connected", {})  # no chat platform in this process
    h = await make_harness(tmp_path / "b.db", metrics_port=0)
    url = f"http://127.0.0.1:{h.app.monitor.port}/healthz"
    async with httpx.AsyncClient() as http:
        ok = await http.get(url)
        assert ok.status_code == 200, ok.text
        assert ok.json()["database"] == "ok" and ok.json()["status"] == "ok"
        await h.store._conn.close()  # the database stops answering
        bad = await http.get(url)
    assert bad.status_code == 503
    assert bad.json()["database"].startswith("not answering")
    assert bad.json()["status"] == "unhealthy"
    await h.app.monitor.stop()
