"""What the terminal's full-screen table reads of the core: a player's view of their table
(nothing of the others' hands), tables with no turn timer, and melds, belote and redeals
told as they happen."""

from __future__ import annotations

import re

import pytest

from bot.platform import Channel
from engine import card_text
from tests.core.harness import make_harness, table_with_bots, user


async def test_a_view_shows_the_players_own_hand_and_the_public_table_only(tmp_path):
    h = await make_harness(tmp_path / "v.db", seed_window=0)
    await table_with_bots(h, "alice", "--target", "300")
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    [v] = h.app.table_views(user("alice"), Channel(h.table().channel))
    run = h.table().run
    assert v.table == "t1" and v.my_seat == 1 and v.deal == 1 and v.target == 300
    assert [s.number for s in v.seats] == [1, 2, 3, 4]
    assert [s.team for s in v.seats] == ["A", "B", "A", "B"]
    assert v.seats[0].name == "alice" and v.seats[1].is_bot and "bot" in v.seats[1].label
    assert set(v.hand) == {card_text(c) for c in run.match.hand(0)}
    others = {card_text(c) for s in (1, 2, 3) for c in run.match.hand(s)}
    assert not others & set(v.hand)
    assert v.to_move == 1 and v.choices and all(not c.typed.startswith("/") for c in v.choices)
    assert v.seconds_left == pytest.approx(60.0)
    # someone not seated: no view
    assert h.app.table_views(user("nobody"), Channel(h.table().channel)) == []
    await h.app.stop()


async def test_a_table_with_no_turn_timer_never_plays_for_the_person(tmp_path):
    h = await make_harness(tmp_path / "n.db", seed_window=0)
    await table_with_bots(h, "alice", "--timer", "off")
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    seq = h.table().run.seq
    await h.advance(3600)  # an hour away from the table
    run = h.table().run
    assert run.seq == seq and run.to_move == 0 and not run.replaced[0]
    table = h.last("table:1").text
    assert "no turn timer" in table and "s left" not in table
    await h.app.stop()


@pytest.mark.parametrize(
    ("ruleset", "target"), [("club", 1500), ("classic", 1000), ("bulgarian", 151)]
)
async def test_melds_belote_and_redeals_are_told_as_they_happen(tmp_path, ruleset, target):
    h = await make_harness(tmp_path / f"{ruleset}.db", seed_window=0)
    await table_with_bots(h, "alice", ruleset, "--target", str(target))
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    said = [(kind, text) for p in h.posts("announce:") for kind, text in p.lines]
    results = h.posts("result:")
    assert results
    melds_scored = any(not re.search(r"melds 0–0", p.text) for p in results)
    belote_scored = any(not re.search(r"belote 0–0", p.text) for p in results)
    kinds = {kind for kind, _text in said}
    if melds_scored:
        assert "meld" in kinds
        assert any(re.search(r"shows an? .*: \d+ points\.", t) for k, t in said if k == "meld")
    if belote_scored:
        assert "belote" in kinds
        assert any("announces belote" in t for k, t in said if k == "belote")
    assert kinds <= {"meld", "belote", "redeal"}
    assert melds_scored or belote_scored or "redeal" in kinds, "a whole match told nothing"
    await h.app.stop()


async def test_the_views_json_is_the_view_field_by_field(tmp_path):
    """What the web table's socket carries: every field of the view, the same values."""
    import dataclasses
    import json

    from bot.show.seat_view import view_json

    h = await make_harness(tmp_path / "j.db", seed_window=0)
    await table_with_bots(h, "alice")
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    [v] = h.app.table_views(user("alice"), Channel(h.table().channel))
    data = json.loads(json.dumps(view_json(v)))
    whole = dataclasses.asdict(v)
    whole["legal_cards"] = sorted(v.legal_cards)
    assert data == json.loads(json.dumps(whole))
    assert data["choices"] and all(c["action"] for c in data["choices"])
    await h.app.stop()
