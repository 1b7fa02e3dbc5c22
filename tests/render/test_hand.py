"""The hand picture: the view's own cards, sorted, the playable ones marked and no others."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from bot.show.render import hand as hand_mod
from bot.show.render import render_hand, samples, theme
from bot.show.render.hand import compose_hand
from engine import Match, Phase
from tests.render.helpers import close, decode, identify


def _match_where(predicate, seed: int = 5, ruleset: str = "club") -> Match:
    """A match played at random from a fixed seed until ``predicate(match)`` holds."""
    rng = random.Random(seed)
    match = Match(ruleset, decks=lambda k: random.Random(seed * 1000 + k).sample(range(32), 32))
    for _ in range(2000):
        if predicate(match):
            return match
        seat = match.to_move
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    raise AssertionError("no such position")


def _some_not_playable(match: Match) -> bool:
    if match.phase != Phase.PLAY:
        return False
    view = match.view(match.to_move)
    playable = {a.card for a in view.legal if a.kind == "play"}
    return 0 < len(playable) < len(view.hand)


@pytest.fixture(scope="module")
def follow_match() -> Match:
    return _match_where(_some_not_playable)


def test_dimensions(follow_match):
    view = follow_match.view(follow_match.to_move)
    img = decode(render_hand(view, table_id="T-1", seat_name="Alice"))
    assert img.format == "PNG"
    assert img.size == (hand_mod.WIDTH, hand_mod.HEIGHT)


def test_playable_cards_are_marked_and_the_others_not(follow_match):
    seat = follow_match.to_move
    view = follow_match.view(seat)
    playable = {a.card for a in view.legal if a.kind == "play"}
    img = decode(render_hand(view, table_id="T-1", seat_name="Alice")).convert("RGB")
    _, layout = compose_hand(view, table_id="T-1", seat_name="Alice")
    assert {c for c, _ in layout.cards} == set(view.hand)
    for card, (x0, y0, x1, _y1) in layout.cards:
        mid_x = (x0 + x1) // 2
        bar = img.getpixel((mid_x, hand_mod.BAR_TOP + hand_mod.BAR_H // 2))
        ring = img.getpixel((x0 - 3, y0 + 40))  # on the gold ring, left of the card
        face = img.getpixel((x0 + 14, y0 + 150))  # a plain white part of the face
        if card in playable:
            assert close(bar, theme.PLAYABLE), (card, bar)
            assert close(ring, theme.PLAYABLE), (card, ring)
            assert min(face) > 240
            assert y0 == hand_mod.ROW_TOP  # raised
        else:
            assert close(bar, theme.FELT), (card, bar)
            assert not close(ring, theme.PLAYABLE)
            assert max(face) < 200  # greyed out
            assert y0 == hand_mod.ROW_TOP + hand_mod.RAISE
            assert identify(img, (x0, y0, x1, _y1), dimmed=True) == card


def test_drawn_cards_are_read_back_from_the_pixels_as_the_views_own(follow_match):
    """Each seat's picture shows exactly that seat's cards, identified from the pixels."""
    hands = {s: set(follow_match.hand(s)) for s in range(4)}
    for seat in range(4):
        view = follow_match.view(seat)
        img = decode(render_hand(view, table_id="T-1", seat_name=f"P{seat}"))
        _, layout = compose_hand(view, table_id="T-1", seat_name=f"P{seat}")
        seen = set()
        for _card, box in layout.cards:  # only the boxes are used: the card is read back
            found = identify(img, box)
            if found is None:
                found = identify(img, box, dimmed=True)
            assert found is not None
            seen.add(found)
        assert seen == hands[seat] == set(view.hand)
        for other in range(4):
            if other != seat:
                assert not seen & hands[other]


def test_spectator_view_has_no_hand_to_draw(follow_match):
    with pytest.raises(ValueError):
        render_hand(follow_match.view(None), table_id="T-1", seat_name="nobody")


def test_not_your_turn_marks_nothing(follow_match):
    seat = (follow_match.to_move + 1) % 4
    view = follow_match.view(seat)
    assert view.legal == ()
    img, layout = compose_hand(view, table_id="T-1", seat_name="Bob")
    assert not layout.bars and not layout.playable
    for _card, (x0, y0, x1, _y1) in layout.cards:
        assert close(img.getpixel(((x0 + x1) // 2, hand_mod.BAR_TOP + 4)), theme.FELT)
        assert min(img.getpixel((x0 + 14, y0 + 150))) > 240  # not greyed out


def test_cards_are_sorted_trumps_first():
    view = samples.table_view(0)  # hearts trump; 9C KD 9H 7S QS
    _, layout = compose_hand(view, table_id="T-42", seat_name="Alice")
    assert [c for c, _ in layout.cards] == [18, 2, 14, 29, 24]  # 9H, then 9C, KD, QS, 7S


def test_table_id_and_seat_are_in_the_label():
    view = samples.table_view(0)
    a, _ = compose_hand(view, table_id="T-42", seat_name="Alice")
    b, _ = compose_hand(view, table_id="Q-9", seat_name="Alice")
    header = (0, 0, hand_mod.WIDTH, hand_mod.HEADER_H)
    assert ImageChops.difference(a.crop(header), b.crop(header)).getbbox() is not None
    below = (0, hand_mod.HEADER_H + 4, hand_mod.WIDTH, hand_mod.HEIGHT)
    assert ImageChops.difference(a.crop(below), b.crop(below)).getbbox() is None


def test_four_colour_option_changes_the_faces():
    view = samples.table_view(0)
    two, _ = compose_hand(view, table_id="T-42", seat_name="Alice")
    four, _ = compose_hand(view, table_id="T-42", seat_name="Alice", four_colour=True)
    assert ImageChops.difference(two, four).getbbox() is not None


def test_size_goal_is_met():
    data = render_hand(samples.table_view(0), table_id="T-42", seat_name="Alice")
    assert len(data) < 150 * 1024


def test_the_trick_on_the_table_is_shown_above_the_hand():
    from dataclasses import replace

    view = samples.table_view(0)
    strip = (0, hand_mod.HEADER_H + 4, hand_mod.WIDTH, hand_mod.HEADER_H + 3 + hand_mod.STRIP_H)
    with_trick, _ = compose_hand(view, table_id="T-42", seat_name="Alice", names=samples.NAMES)
    empty, _ = compose_hand(replace(view, trick=(), to_move=1), table_id="T-42", seat_name="Alice")
    colours = empty.crop(strip).getcolors(10)
    assert colours is not None and len(colours) == 1 and close(colours[0][1], theme.FELT_DARK)
    whites = sum(1 for px in with_trick.crop(strip).get_flattened_data() if min(px) > 245)
    assert whites > 2 * 400  # two white card chips
