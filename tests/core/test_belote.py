"""`/belote` and `/play CARD belote`: the announcement goes with the card."""

from __future__ import annotations

from bot.show.texts import action_command
from engine import card_text
from tests.core.harness import make_harness


async def _belote_turn(h, max_tables: int = 60):
    """Open tables until alice may announce belote on her turn; returns (table, actions)."""
    for n in range(1, max_tables + 1):
        await h.cmd("alice", "/table create")
        for _ in range(3):
            await h.cmd("alice", f"/addbot t{n}")
        await h.cmd("alice", f"/start t{n}")
        t = h.app.tables[n]
        for _ in range(400):
            run = t.run
            if run.over:
                break
            if run.to_move == 0 and run.phase == "play":
                legal = run.match.legal_actions(0)
                with_belote = [a for a in legal if a.kind == "play" and a.belote]
                if with_belote:
                    return t, legal, with_belote
                plain = [a for a in legal if not a.belote]
                r = await h.cmd("alice", f"{action_command(plain[0])} t{n}")
                assert r == [], r
                continue
            await h.advance(1)
        await h.cmd("alice", f"/close t{n}")
    raise AssertionError("no belote found")


async def test_play_with_belote_announces_it(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=600)
    t, _legal, with_belote = await _belote_turn(h)
    card = with_belote[0].card
    seq = t.run.seq
    r = await h.cmd("alice", f"/play {card_text(card)} belote {t.tid}")
    assert r == [], r
    e = t.run.entries[seq]
    assert e.kind == "action" and e.data["action"].startswith(f"play {card_text(card)}")
    assert e.data["action"].endswith("belote")
    assert any(seat == 0 for seat, _ in t.run.match.view(None).belotes)
    await h.app.stop()


async def test_belote_cannot_be_announced_with_another_card(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, timer=600)
    t, legal, with_belote = await _belote_turn(h)
    other = [a for a in legal if a.kind == "play" and a.card not in {b.card for b in with_belote}]
    seq = t.run.seq
    if other:
        r = await h.cmd("alice", f"/play {card_text(other[0].card)} belote {t.tid}")
        assert not r[0].ok and t.run.seq == seq
    r = await h.cmd("alice", f"/belote {t.tid}")
    if len({a.card for a in with_belote}) == 1:
        assert r == [] and t.run.seq == seq + 1  # announced and played at once
    else:
        assert r[0].ok and "noted" in r[0].text.lower()
        assert t.run.entries[-1].kind == "intent"  # logged: a restart keeps it
        card = with_belote[0].card
        assert await h.cmd("alice", f"/play {card_text(card)} {t.tid}") == []
        assert t.run.entries[-1].data["action"].endswith("belote")
    await h.app.stop()
