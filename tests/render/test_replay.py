"""The replay GIF: one frame per card, all hands shown, the hands shrinking as played."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.show.render import render_replay, replay, samples
from bot.show.render.history import plays_of
from engine import DealRecord
from tests.render.helpers import decode, identify

NAMES = list(samples.NAMES)


@pytest.fixture(scope="module")
def record():
    return samples.finished_deal()


def test_gif_has_a_frame_per_card_plus_start_and_end(record):
    data = render_replay(record, NAMES, table_id="T-42")
    img = decode(data)
    assert img.format == "GIF"
    assert img.size == (replay.WIDTH, replay.HEIGHT)
    assert img.n_frames == 1 + 32 + 1
    assert img.info.get("loop") == 0
    durations = []
    for i in range(img.n_frames):
        img.seek(i)
        durations.append(img.info["duration"])
    assert durations[0] == replay.START_MS and durations[-1] == replay.END_MS
    assert durations.count(replay.TRICK_MS) == 8


def test_first_frame_shows_every_hand_at_its_place(record):
    frames, _ = replay.compose_replay(record, NAMES)
    first = frames[0]
    from bot.show.render.order import sort_hand

    for seat in range(4):
        hand = sort_hand(record.hands[seat], record.contract.trump)
        spots = replay._hand_origin(seat, len(hand))
        for card, (x, y) in zip(hand, spots, strict=True):
            box = (x, y, x + replay.MINI_W, y + replay.MINI_H)
            assert identify(first, box) == card


def test_played_cards_leave_the_hand_and_reach_the_trick(record):
    frames, _ = replay.compose_replay(record, NAMES)
    plays = plays_of(record)
    first = plays[0]
    frame = frames[1]
    dx, dy = replay.TRICK_OFFSETS[first.seat]
    x = replay.CX + dx - replay.TRICK_W // 2
    y = replay.CY + dy - replay.TRICK_H // 2
    assert identify(frame, (x, y, x + replay.TRICK_W, y + replay.TRICK_H)) == first.card
    # That seat now shows 7 cards, the played one gone.
    spots = replay._hand_origin(first.seat, 7)
    shown = {identify(frame, (sx, sy, sx + replay.MINI_W, sy + replay.MINI_H)) for sx, sy in spots}
    assert first.card not in shown and len(shown - {None}) == 7


def test_a_redeal_is_one_frame():
    hands = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]]
    record = DealRecord(k=0, dealer=0, deck=list(range(32)), turned=20, hands=hands)
    frames, _durations = replay.compose_replay(record, NAMES)
    assert len(frames) == 1 and isinstance(frames[0], Image.Image)
    assert decode(render_replay(record, NAMES)).n_frames == 1
