"""/replay: an animated picture of a played deal, only once the match is over."""

from __future__ import annotations

import io

from PIL import Image

from tests.core.harness import make_harness, table_with_bots


async def test_a_replay_shows_a_played_deal_of_a_finished_match_only(tmp_path):
    h = await make_harness(tmp_path / "b.db", seed_window=0, render_images=True)
    await table_with_bots(h, "alice", "classic", "--target", "1")
    await h.cmd("alice", "/start")

    # while the match is on, a replay would show hands that are still secret
    early = await h.cmd("alice", "/replay m1")
    assert not early[0].ok and early[0].image is None
    assert "not over" in early[0].text

    await h.play_human_turns({0: "alice"})
    run = h.table().run
    assert run.over
    played = [d for d in run.match.deals if d.result is not None]

    replies = await h.cmd("bob", "/replay")
    assert replies[0].ok, replies[0].text
    assert f"deal {len(played)} of {len(played)}" in replies[0].text
    gif = Image.open(io.BytesIO(replies[0].image))
    assert gif.format == "GIF"
    assert gif.n_frames >= 32  # a frame for every card of the deal

    first = await h.cmd("bob", "/replay m1 1")
    assert first[0].ok and "deal 1 of" in first[0].text

    missing = await h.cmd("bob", f"/replay m1 {len(played) + 1}")
    assert not missing[0].ok and missing[0].image is None
    assert "/replay m1 1" in missing[0].text
    await h.app.stop()


async def test_a_replays_caption_says_in_words_what_its_picture_shows(tmp_path):
    """Where the caption is all a person gets of the picture (a screen reader, Telegram's
    caption under a clip): every hand as dealt, the contract, each trick and who took it,
    the points; within Telegram's 1024 characters of a caption, in every language."""
    from bot.platform import User
    from engine import cards_text

    h = await make_harness(tmp_path / "b.db", seed_window=0, render_images=True)
    await table_with_bots(h, "alice", "classic", "--target", "1")
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    run = h.table().run
    record = next(d for d in run.match.deals if d.result is not None)
    for locale, trick in (("en", "Trick"), ("fr", "Pli"), ("bg", "Ръка")):
        asker = User(id=f"test:{locale}", name=locale, locale=locale)
        caption = (await h.cmd(asker, "/replay m1 1"))[0].text
        assert len(caption) <= 1024, (locale, len(caption))
        for seat, hand in enumerate(record.hands):
            assert f"{run.seats[seat].name}" in caption and cards_text(hand) in caption, locale
        assert sum(line.startswith(trick) for line in caption.splitlines()) == 8, caption
        assert str(record.result.points[0]) in caption.splitlines()[-1], caption
    await h.app.stop()
