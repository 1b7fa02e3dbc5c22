"""A picture's words: every picture the core makes comes with text that says what it
shows. Platforms that caption a picture with the post's text (Telegram) tell a hand's
cards and which may be played in the caption itself; Discord also gets the same in the
attachment's alt text (``image_alt``, spoken card names, in the reader's language)."""

from __future__ import annotations

from bot.show import alt, texts
from bot.show.i18n import _ as tr
from engine import card_text
from tests.core.harness import make_harness, table_with_bots


async def test_a_hands_text_and_alt_say_its_cards_and_which_may_be_played(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, render_images=True)
    await table_with_bots(h, "alice", "classic", "--target", "300")
    await h.cmd("alice", "/start")
    t = h.table()
    checked = 0
    for _ in range(400):
        if t.run.over or checked >= 3:
            break
        if t.run.to_move != 0:
            await h.advance(1)
            continue
        view = t.run.match.view(0)
        [hand] = await h.cmd("alice", "/hand")
        caption = hand.text  # what Telegram shows under the picture
        for card in view.hand:
            assert card_text(card) in caption, (card_text(card), caption)
        plays = {a.card for a in view.legal if a.kind == "play"}
        if plays:
            turn = next(line for line in caption.splitlines() if "play" in line.lower())
            for card in plays:
                assert card_text(card) in turn, (card_text(card), turn)
            assert hand.image is not None and hand.image_alt
            assert tr("alt-hand-playable", "en", cards="").split(":")[0] in hand.image_alt
            for card in plays:
                assert alt.card_words(card, "en") in hand.image_alt
            checked += 1
        # a move, so the next turn comes
        action = next(iter(view.legal))
        await h.cmd("alice", texts.action_command(action))
    assert checked, "alice never had a card to play"
    await h.app.stop()
