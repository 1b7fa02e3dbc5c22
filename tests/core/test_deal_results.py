"""After each deal the table is told how it was scored; after a match, /score still knows
it; /replay before any finished match says so; /join SEAT moves between matches; a card
that leaves a choice of melds offers both words."""

from __future__ import annotations

import re

from bot.show.texts import choices
from engine import Action
from tests.core.harness import make_harness, table_with_bots


async def _finished_match(h, target: int = 150):
    await table_with_bots(h, "alice", "--target", str(target))
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    return h.table()


async def test_each_deal_ends_with_its_result_the_whole_last_trick_included(tmp_path):
    h = await make_harness(tmp_path / "r.db", seed_window=0, timer=600)
    t = await _finished_match(h)
    deals = [d for d in t.run.match.deals if d.result is not None]
    results = h.posts("result:")
    assert [p.key for p in results] == [f"result:{t.run.id}:{d.k}" for d in deals]
    for post, deal in zip(results, deals, strict=True):
        kinds = [kind for kind, _text in post.lines]
        assert kinds == ["result", "trick-won", "result-points", "result-scored"]
        assert post.text == "\n".join(text for _kind, text in post.lines)
        head, eighth, points, scored = (text for _kind, text in post.lines)
        r = deal.result
        assert f"Deal {r.k + 1}:" in head and r.outcome.replace("dispute", "disputed") in head
        assert eighth.startswith("Trick 8: ") and eighth.count(",") == 3
        last_card = deal.actions[-1][1].split()[1]
        assert last_card in eighth  # the very last card played in the deal
        assert f"total {r.totals[0]}–{r.totals[1]}" in points
        assert f"Match: team A {r.scores[0]}, team B {r.scores[1]}" in scored
        assert post.moment == f"m{t.run.id}-deal{r.k + 1:02d}"
    # the table posts name each complete trick with its winner, numbered
    won = {text for p in h.posts("table:") for kind, text in p.lines if kind == "trick-won"}
    assert any(re.match(r"Trick 7: .*; won by \w+\.", line) for line in won)
    await h.app.stop()


async def test_score_after_a_finished_match_even_after_a_restart(tmp_path):
    h = await make_harness(tmp_path / "s.db", seed_window=0, timer=600)
    t = await _finished_match(h)
    a, b = t.run.match.scores
    reply = (await h.cmd("alice", "/score"))[0]
    assert reply.ok and f"match m{t.run.id} is over: team A {a}, team B {b}" in reply.text
    await h.app.stop()
    h2 = await make_harness(h.path, start=h.clock.now(), seed_window=0)
    reply = (await h2.cmd("alice", "/score"))[0]
    assert reply.ok and f"team A {a}, team B {b}" in reply.text and "/start" in reply.text
    await h2.app.stop()


async def test_replay_with_no_finished_match_says_so(tmp_path):
    h = await make_harness(tmp_path / "p.db", seed_window=0)
    await table_with_bots(h)
    reply = (await h.cmd("alice", "/replay"))[0]
    assert not reply.ok and "No finished match to replay" in reply.text
    reply = (await h.cmd("alice", "/verify"))[0]
    assert not reply.ok and "No finished match to verify" in reply.text
    await h.app.stop()


async def test_join_a_seat_moves_there_between_matches(tmp_path):
    h = await make_harness(tmp_path / "j.db", seed_window=0)
    await h.cmd("alice", "/table create")
    assert (await h.cmd("alice", "/join 2"))[0].ok
    t = h.table()
    assert t.seats[0] is None and t.seats[1].user_id == "test:alice"
    assert not (await h.cmd("alice", "/join"))[0].ok  # already seated, no seat named
    for _ in range(3):
        await h.cmd("alice", "/addbot")
    await h.cmd("alice", "/start")
    reply = (await h.cmd("alice", "/join 1"))[0]
    assert not reply.ok and t.seats[1].user_id == "test:alice"  # not during a match
    await h.app.stop()


def test_a_card_with_a_choice_of_melds_offers_nomelds():
    plain, melds = Action.play(5), Action.play(5, melds=True)
    assert choices([plain, melds]) == ["/play QC", "/play QC nomelds"]
    assert choices([Action.play(5)]) == ["/play QC"]
    both = [Action.play(6), Action.play(6, belote=True)]
    assert choices(both) == ["/play KC", "/play KC belote"]
    assert choices(both, belote=True) == ["/play KC"]  # announced before: the card carries it
    assert choices([Action.pass_(), Action.take()]) == ["/bid pass", "/bid take"]
