"""The table picture: seats, names in any script, dealer, turn, trick, last trick, clock."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.show.render import render_table, samples, table, text, theme
from bot.show.render.table import compose_table, format_time
from tests.render.helpers import close, decode, identify

NAMES = list(samples.NAMES)


def _tofu_like(img: Image.Image, box, label: str, fnt) -> Image.Image:
    """The same spot with ``label``'s length of missing-glyph boxes drawn instead."""
    copy = img.copy()
    draw = ImageDraw.Draw(copy)
    draw.rectangle(box, fill=theme.PANEL)
    draw.text(
        (box[0], (box[1] + box[3]) // 2),
        "\U0010fffd" * len(label),
        font=fnt,
        fill=theme.INK,
        anchor="lm",
    )
    return copy


def test_dimensions_and_format():
    img = decode(render_table(samples.table_view(), table_id="T-42", names=NAMES, time_left=30))
    assert img.format == "PNG"
    assert img.size == (table.WIDTH, table.HEIGHT)


def test_cyrillic_and_greek_names_render_as_letters_not_tofu():
    img, layout = compose_table(samples.table_view(), table_id="T-42", names=NAMES, time_left=30)
    for seat in (1, 2):  # Борис Пастернак, Καλλιόπη
        assert layout.shown_names[seat] == NAMES[seat]
        box = layout.names[seat]
        crop = img.crop(box)
        ink = sum(1 for px in crop.convert("L").get_flattened_data() if px > 180)
        assert ink > 100  # something is drawn
        fnt = text.font_for(NAMES[seat], 26, True)
        tofu = _tofu_like(img, box, NAMES[seat], fnt).crop(box)
        assert ImageChops.difference(crop, tofu).getbbox() is not None
        for ch in NAMES[seat].replace(" ", ""):
            assert text.has_glyph(ch)


def test_missing_glyph_detection():
    assert text.has_glyph("Ж") and text.has_glyph("λ") and text.has_glyph("é")
    assert not text.has_glyph("王")  # DejaVu has no CJK: it would be tofu
    assert not text.has_glyph("\u200b")


def test_names_in_other_scripts_degrade_cleanly():
    names = ["王小明", "Wang 王", "Ann\u200b\u200b   Lee", "x" * 80]
    _img, layout = compose_table(samples.table_view(), table_id="T-42", names=names, time_left=None)
    assert layout.shown_names[0] == "Seat 1"  # nothing drawable left: the seat's label
    assert layout.shown_names[1] == "Wang"
    assert layout.shown_names[2] == "Ann Lee"
    assert layout.shown_names[3].endswith("…")
    name_box = layout.names[3]
    assert name_box[2] <= layout.panels[3][2]  # cut to fit inside its panel


def test_trick_cards_are_drawn_where_each_seat_played_them():
    view = samples.table_view()
    img, layout = compose_table(view, table_id="T-42", names=NAMES)
    assert [(s, c) for s, c, _ in layout.trick] == list(view.trick)
    for seat, card, box in layout.trick:
        assert identify(img, box) == card
        dx, dy = table.TRICK_OFFSETS[seat]  # public view: seat 0 at the bottom
        assert ((box[0] + box[2]) // 2 - table.CX, (box[1] + box[3]) // 2 - table.CY) == (dx, dy)


def test_a_seat_view_turns_the_table_so_that_seat_is_at_the_bottom():
    _, public = compose_table(samples.bidding_view(), table_id="Z", names=NAMES)
    # bidding_view is seat 3's view: seat 3's panel is at the bottom centre.
    box = public.panels[3]
    assert (box[0] + box[2]) // 2 == table.CX and box[3] > table.HEIGHT - 40


def test_turn_ring_is_round_the_seat_to_move_only():
    view = samples.table_view()
    img, layout = compose_table(view, table_id="T-42", names=NAMES)
    for seat, box in layout.panels.items():
        px = img.getpixel(((box[0] + box[2]) // 2, box[1] - 4))
        assert close(px, theme.TURN) == (seat == view.to_move), seat


def test_dealer_disc_is_on_the_dealers_panel():
    view = samples.table_view()
    img, layout = compose_table(view, table_id="T-42", names=NAMES)
    panel = layout.panels[view.dealer]
    badge = layout.dealer_badge
    assert panel[0] < badge[0] < badge[2] < panel[2] and panel[1] < badge[1] < panel[3]
    assert close(img.getpixel((badge[0] + 4, (badge[1] + badge[3]) // 2)), theme.DEALER, 30)


def test_last_trick_only_on_request():
    view = samples.table_view()
    img, layout = compose_table(view, table_id="T-42", names=NAMES, show_last_trick=True)
    assert [(s, c) for s, c, _ in layout.last_trick] == list(view.tricks[-1].cards)
    for _seat, card, box in layout.last_trick:
        assert identify(img, box) == card
    plain, plain_layout = compose_table(view, table_id="T-42", names=NAMES, show_last_trick=False)
    assert plain_layout.last_trick == []
    box = layout.last_trick[0][2]
    assert identify(plain, box) is None


def test_time_left_is_drawn_and_formatted():
    with_clock, _ = compose_table(samples.table_view(), table_id="T-42", names=NAMES, time_left=75)
    without, _ = compose_table(samples.table_view(), table_id="T-42", names=NAMES, time_left=None)
    corner = (table.WIDTH - 140, 0, table.WIDTH, 50)
    assert (
        ImageChops.difference(with_clock.crop(corner), without.crop(corner)).getbbox() is not None
    )
    assert format_time(75) == "1:15"
    assert format_time(0.2) == "0:01"
    assert format_time(-3) == "0:00"


def test_contre_is_shown_and_differs_from_a_plain_contract():
    from dataclasses import replace

    from engine import Contract

    view = samples.table_view()
    doubled, _ = compose_table(view, table_id="T-42", names=NAMES)
    plain, _ = compose_table(
        replace(view, contract=Contract("H", 1, 1)), table_id="T-42", names=NAMES
    )
    line = (0, 50, table.WIDTH, table.HEADER_H - 4)
    assert ImageChops.difference(doubled.crop(line), plain.crop(line)).getbbox() is not None
    reds = sum(1 for px in doubled.crop(line).get_flattened_data() if close(px, theme.BAD, 10))
    assert reds > 200  # the red Contre pill


def test_public_view_shows_no_hidden_card():
    """Drawn from a spectator's view, only trick cards are faces; hands are backs."""
    view = samples.table_view()
    assert view.hand == ()
    _img, layout = compose_table(view, table_id="T-42", names=NAMES)
    faces = {c for _, c, _ in layout.trick}
    assert faces == {c for _, c in view.trick}


def test_wrong_number_of_names_is_refused():
    with pytest.raises(ValueError):
        render_table(samples.table_view(), table_id="T-42", names=["a", "b"])


def test_size_goal_is_met():
    data = render_table(
        samples.table_view(), table_id="T-42", names=NAMES, time_left=30, show_last_trick=True
    )
    assert len(data) < 150 * 1024


def test_a_huge_name_is_cut_early():
    names = ["Ж" * 20000, "b", "c", "d"]
    _, layout = compose_table(samples.table_view(), table_id="T-42", names=names)
    assert layout.shown_names[0].endswith("…") and len(layout.shown_names[0]) < 40


def test_match_over_banner_names_the_winners():
    from dataclasses import replace

    from engine import Phase

    view = replace(
        samples.table_view(), phase=Phase.OVER, to_move=None, trick=(), scores=(120, 160)
    )
    over, _ = compose_table(view, table_id="T-42", names=NAMES)
    playing, _ = compose_table(replace(view, phase=Phase.PLAY), table_id="T-42", names=NAMES)
    centre = (table.CX - 190, table.CY - 50, table.CX + 190, table.CY + 50)
    assert ImageChops.difference(over.crop(centre), playing.crop(centre)).getbbox() is not None
    orange = sum(1 for px in over.crop(centre).get_flattened_data() if close(px, theme.TEAM[1], 20))
    assert orange > 300  # the winners' names in their team colour
