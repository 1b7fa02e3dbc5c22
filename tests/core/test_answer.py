"""What an input's answer carries: the player's own new hand (not sent through the
platform), what autocomplete may offer (read under the table's lock), and the rule that
forbids a card, in the player's language."""

from __future__ import annotations

from bot.platform import User
from bot.show.i18n import _
from bot.show.texts import action_command, card_text
from engine import Action, IllegalAction
from tests.core.harness import CHANNEL, make_harness, table_with_bots, user


async def _alice_to_move(h, *, playing: bool = False):
    t = h.table()
    for _step in range(400):
        run = t.run
        if run.to_move == 0 and (not playing or run.match.phase.name == "PLAY"):
            return t
        if run.to_move == 0:  # bidding: alice passes if she may (else her first choice)
            legal = run.match.legal_actions(0)
            bid = next((a for a in legal if a.kind == "pass"), legal[0])
            assert all(r.ok for r in await h.cmd("alice", action_command(bid)))
            continue
        await h.advance(1)
    raise AssertionError("alice never came to move")


async def test_a_press_answers_with_the_players_own_new_hand(tmp_path):
    h = await make_harness(tmp_path / "a.db", seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    t = await _alice_to_move(h)
    button = next(b for row in h.last("hand:1:test:alice").buttons for b in row if b.enabled)
    delivered = len(h.platform.posts)
    seq = t.run.seq

    answer = await h.app.press(user("alice"), CHANNEL, button.action)

    assert t.run.seq > seq  # the move was made
    own = [r.post for r in answer if r.post is not None]
    assert [p.key for p in own] == ["hand:1:test:alice"], answer
    hand = own[0]
    assert hand.to_user == "test:alice" and hand.version > 0
    assert all(r.ok for r in answer)
    # her hand left in the answer only; the table and the others' hands through the platform
    after = h.platform.posts[delivered:]
    assert not [p for p in after if p.to_user == "test:alice"]
    table = [p for p in after if p.key == "table:1"]
    assert table and table[-1].version < hand.version  # the table was made first
    # the hand in the answer no longer offers the move just made
    assert button.action not in {b.action for row in hand.buttons for b in row}
    await h.app.stop()


async def test_choices_are_the_tables_here_and_the_moves_the_user_may_make(tmp_path):
    h = await make_harness(tmp_path / "c.db", seed_window=0)
    await table_with_bots(h)
    assert (await h.cmd("zoe", "/table create"))[0].ok
    await h.cmd("alice", "/start t1")
    t = await _alice_to_move(h, playing=True)
    legal = t.run.match.legal_actions(0)

    mine = await h.app.choices(user("alice"), CHANNEL)
    assert [c.tid for c in mine.tables] == ["t1", "t2"]  # hers first
    assert mine.tables[0].seated and not mine.tables[1].seated
    assert set(mine.cards) == {card_text(a.card) for a in legal}
    assert mine.bids == ()

    theirs = await h.app.choices(user("zoe"), CHANNEL)
    assert [c.tid for c in theirs.tables] == ["t2", "t1"] and theirs.cards == ()
    await h.app.stop()


async def test_an_illegal_card_is_refused_with_the_rule_in_the_players_language(tmp_path):
    h = await make_harness(tmp_path / "r.db", seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    for _deal in range(40):  # deals until alice holds a card the rules forbid her now
        t = await _alice_to_move(h, playing=True)
        m = t.run.match
        legal = {a.card for a in m.legal_actions(0)}
        banned = [c for c in m.hand(0) if c not in legal]
        if banned:
            break
        await h.cmd("alice", f"/play {card_text(next(iter(legal)))}")
    else:
        raise AssertionError("alice was never forbidden a card")
    card = banned[0]
    why = m.refusal(0, Action.play(card))
    assert isinstance(why, IllegalAction) and why.reason is not None
    rule = f"err-rule-{why.reason}"
    seq = t.run.seq
    for locale in ("en", "fr", "bg"):
        alice = User("test:alice", "alice", locale=locale)
        [typed] = await h.cmd(alice, f"/play {card_text(card)}")
        assert not typed.ok and typed.text.startswith(_(rule, locale)), typed.text
        assert "/play" in typed.text  # and what she may play instead
        hand = h.last("hand:1:test:alice")
        disabled = next(
            b for row in hand.buttons for b in row if not b.enabled and b.label == card_text(card)
        )
        [pressed] = await h.press(alice, disabled.action)
        assert not pressed.ok and pressed.text == _(rule, locale)
    assert t.run.seq == seq  # nothing changed
    assert _(rule, "fr") != _(rule, "en") != _(rule, "bg")
    await h.app.stop()
