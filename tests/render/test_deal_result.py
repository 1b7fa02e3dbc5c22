"""The deal result: points by source that add up, the outcome, the match score."""

from __future__ import annotations

import random

import pytest

from bot.show.render import render_deal_result, samples
from bot.show.render.deal_result import compose_deal_result, result_rows
from bot.show.render.history import last_trick_team, tricks_of
from engine import Match
from tests.render.helpers import decode

NAMES = list(samples.NAMES)


def _finished_deals(ruleset: str, seeds: range):
    for seed in seeds:
        rng = random.Random(seed)
        match = Match(
            ruleset, decks=lambda k, s=seed: random.Random(s * 1000 + k).sample(range(32), 32)
        )
        while match.to_move is not None and sum(1 for d in match.deals if d.result) < 2:
            seat = match.to_move
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        yield from (d for d in match.deals if d.result is not None)


@pytest.mark.parametrize("ruleset", ["classic", "club", "bulgarian"])
def test_rows_add_up_to_the_totals_the_engine_compared(ruleset):
    seen = 0
    for record in _finished_deals(ruleset, range(12)):
        result = record.result
        rows = dict(result_rows(result, last_trick_team(record)))
        for team in (0, 1):
            assert sum(v[team] for v in rows.values()) == result.totals[team], (ruleset, result)
        assert sum(rows["Last trick"]) == (20 if result.contract.trump == "NT" else 10)
        seen += 1
    assert seen >= 12


def test_last_trick_is_found_from_the_record():
    record = samples.finished_deal()
    tricks = tricks_of(record)
    assert len(tricks) == 8 and all(len(t.plays) == 4 for t in tricks)
    assert last_trick_team(record) == tricks[-1].winner % 2
    # The record's tricks agree with what the engine counted.
    won = [0, 0]
    for t in tricks:
        won[t.winner % 2] += 1
    assert tuple(won) == record.result.tricks


def test_picture_shows_the_result():
    record = samples.finished_deal()
    data = render_deal_result(record.result, NAMES, record=record, target=1000)
    img = decode(data)
    assert img.format == "PNG" and img.width == 900 and 450 < img.height < 800
    _, layout = compose_deal_result(record.result, NAMES, record=record, target=1000)
    assert layout.rows["Total"] == record.result.totals
    assert layout.rows["Scored"] == record.result.points
    assert layout.rows["Match"] == record.result.scores


def test_result_as_an_event_dict_draws_the_same():
    result = samples.deal_result()
    as_dict = result.to_dict()
    a, _ = compose_deal_result(result, NAMES, target=151)
    b, _ = compose_deal_result(as_dict, NAMES, target=151)
    assert a.tobytes() == b.tobytes()


def test_without_a_record_cards_and_last_trick_are_one_row():
    rows = dict(result_rows(samples.deal_result(), None))
    assert "Last trick" not in rows and rows["Cards and last trick"] == (97, 65)


def test_capot_row():
    result = samples.deal_result()
    capot = dict(
        result.to_dict(),
        card_points=[162, 0],
        tricks=[8, 0],
        capot=0,
        totals=[252 + 20, 20],
        melds=[20, 0],
    )
    rows = dict(result_rows(capot, None))
    assert rows["Capot"] == (90, 0)
    assert rows["Last trick"] == (10, 0)
    assert sum(v[0] for v in rows.values()) == 272
