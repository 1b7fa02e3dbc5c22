"""One reader for everything typed: what it accepts, and the refusal for the rest."""

from __future__ import annotations

import pytest

from bot.commands import parse
from bot.refused import Refused
from bot.tournaments.commands import attach_tournaments
from engine import Action, card_text
from tests.core.harness import make_harness, table_with_bots


def refused(fn, *args) -> str:
    with pytest.raises(Refused) as info:
        fn(*args)
    return info.value.key


@pytest.mark.parametrize("word", ["t²", "t³", "t①", "t٣", "t0", "t" + "9" * 19, "t" + "1" * 5000])
def test_a_table_word_that_is_not_a_table_id_is_refused(word):
    assert parse.is_table_ref(word)
    assert refused(parse.table_ref, word) == "err-table-id"


def test_table_ids_and_words_that_are_not_tables():
    assert parse.table_ref("t3") == 3 and parse.table_ref("T12") == 12
    assert parse.table_ref("t" + "9" * 18) == 10**18 - 1 < 2**63
    for word in ("TD", "t", "tx", "table", "7C"):
        assert parse.table_ref(word) is None


@pytest.mark.parametrize("word", ["m①", "m¹", "m" + "9" * 19, str(2**63), "m0", "mm3", "m-1", "x"])
def test_match_ids_are_ascii_digits_below_2_63(word):
    assert refused(parse.match_ref, word) == "err-match-id"


def test_match_ids():
    assert parse.match_ref("m12") == 12 == parse.match_ref("12") == parse.match_ref("M12")


def test_event_ids():
    assert parse.event_ref("#2") == 2 and parse.event_ref("7") == 7
    assert parse.event_ref("7", bare=False) is None and parse.event_ref("swiss") is None
    for word in ("#₂", "#x", "#", "#" + "1" * 40, "²"):
        assert refused(parse.event_ref, word) == "err-event-id"


def test_numbers_are_ascii_and_in_range_before_any_conversion():
    assert parse.target("1000") == 1000
    assert parse.timer("7.5") == 7.5 and parse.seed_window("0") == 0
    for word in ("0", "100001", "1e3", "١٠", "²", "-5", " 5", "1_000", "9" * 5000, "nan", "inf"):
        assert refused(parse.target, word) == "err-target"
    for word in ("4", "3601", "1e3", "inf", "nan", "5.", ".5", "9" * 400, "-1"):
        assert refused(parse.timer, word) == "err-timer"
    assert refused(parse.bot_delay, "-5") == "err-bot-delay"
    assert [parse.seat_number(w) for w in "1234"] == [0, 1, 2, 3]
    for word in ("0", "5", "¹", "01", "1.0"):
        assert refused(parse.seat_number, word) == "err-seat-number"
    assert parse.deal_number("3") == 3 and parse.deal_number("m3") is None
    assert refused(parse.deal_number, "³") == "err-deal-number"
    assert refused(parse.deal_number, "9" * 40) == "err-deal-number"


def test_seeds_are_hex_digits_only():
    assert parse.seed_hex("00" * 16) == bytes(16) == parse.seed_hex("0x" + "00" * 16)
    for word in ("zz", "zz" * 16, "00 " * 10 + "00", "0" * 31, "٠" * 32, "0" * 33):
        assert refused(parse.seed_hex, word) == "err-seed-format"


def test_rulesets_levels_cards_bids():
    assert parse.ruleset("CLUB") == "club"
    assert refused(parse.ruleset, "poker") == "err-ruleset"
    assert parse.level("Expert") == "expert"
    assert refused(parse.level, "wizard") == "err-level"
    assert card_text(parse.card("td")) == "TD" == card_text(parse.card("10D"))
    for word in ("ZZ", "T", "TDD", "ＴＤ", "T\x00"):
        assert refused(parse.card, word) == "err-card"
    assert parse.bid(["PASS"]) == Action.pass_() and parse.bid(["nt"]) == Action.bid("NT")
    assert refused(parse.bid, ["7"]) == "err-bid-format"


def test_coinche_bids_are_a_value_and_a_contract():
    assert parse.bid(["90", "h"]) == Action.bid("H", 90)
    assert parse.bid(["Capot", "♠"]) == Action.bid("S", 250)
    assert parse.bid(["générale", "nt"]) == Action.bid("NT", 500)
    assert parse.bid(["coinche"]) == Action.coinche()
    assert parse.bid(["surcoinche"]) == Action.surcoinche()
    for words in (["85", "H"], ["90"], ["90", "X"], ["90", "H", "S"], ["170", "H"]):
        assert refused(parse.bid, words) == "err-bid-format", words
    assert parse.bare_move("90 H") == "/bid 90 H" and parse.bare_move("capot s") == "/bid capot s"


def test_button_payloads():
    p = parse.press("t3:12:-:play TD")
    assert (p.table, p.seq, p.seat, p.code) == (3, 12, None, "play TD")
    assert parse.press("t3:0:2:hand").seat == 2
    forged = ["t²:1:-:hand", "t3:¹:-:hand", "t3:1:9:hand", "t3:1:x:hand", "x3:1:-:hand", "t3:1"]
    forged += ["t" + "9" * 30 + ":1:-:hand", "t3:" + "1" * 40 + ":-:hand", "t3:1:-:" + "x" * 200]
    for payload in forged:
        assert refused(parse.press, payload) == "err-stale-button", payload
    assert parse.tournament_press("tn:join:4") == ("join", 4)
    assert refused(parse.tournament_press, "tn:join:⁴") == "err-stale-button"


def test_echo_never_shows_control_characters():
    assert parse.echo("a\x1b[2Jb\x00") == "a\\x1b[2Jb\\x00"
    assert parse.echo("x" * 100) == "x" * 30 + "…"


# --------------------------------------------------------------------- through the app


async def test_the_issues_inputs_are_refused_with_a_clear_text(tmp_path):
    h = await make_harness(tmp_path / "p.db", seed_window=0)
    await attach_tournaments(h.app, h.app)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    cases = [
        ("/join t²", "t and a number"),
        ("/play TD t³", "t and a number"),
        ("/verify m①", "named like m12"),
        ("/replay m¹", "named like m12"),
        ("/tournament info #₂", "# and a number"),
        (f"/verify m{2**63}", "named like m12"),
        (f"/replay m{'9' * 4000}", "named like m12"),
        (f"/join t{'1' * 4000}", "t and a number"),
        (f"/table create --target {'9' * 4000}", "whole number"),
        ("/table create --timer inf", "turn timer"),
        ("/table create poker", "don't understand poker"),
        ("/rules poker", "unknown ruleset"),
        ("/" + "x" * 10_000, "too long"),
    ]
    for text, expect in cases:
        seq = h.table().run.seq
        [reply] = await h.cmd("alice", text)
        assert not reply.ok and expect in reply.text.lower(), (text[:40], reply.text)
        assert h.table().run.seq == seq
    await h.app.stop()


async def test_verify_and_replay_of_a_match_closed_before_its_first_deal(tmp_path):
    h = await make_harness(tmp_path / "c.db", seed_window=20)
    await table_with_bots(h)
    [started] = await h.cmd("alice", "/start")
    assert started.ok
    assert h.table().run.phase == "seeds"
    [closed] = await h.cmd("alice", "/close")
    assert closed.ok
    reveal = h.last("reveal:1").text  # the seed is shown, without inviting a /verify
    assert "before its first deal" in reveal and "/verify" not in reveal
    for command in ("/verify", "/replay", "/verify m1", "/replay m1 1"):
        [reply] = await h.cmd("alice", command)
        assert not reply.ok and "before its first deal" in reply.text, (command, reply.text)
    await h.app.stop()


@pytest.mark.parametrize(
    ("word", "card"),
    [("10H", "TH"), ("10h", "TH"), ("th", "TH"), ("Q♥", "QH"), ("q♥", "QH"), ("Q♥\ufe0f", "QH"),
     ("10♦", "TD"), ("a♠", "AS"), ("7♧", "7C"), ("J♡", "JH")],
)  # fmt: skip
def test_a_card_is_read_as_the_screens_show_it(word, card):
    assert card_text(parse.card(word)) == card


@pytest.mark.parametrize("word", ["♥Q", "1♥", "11H", "10", "Q♥♥", "QX", "0H", "T"])
def test_a_word_shaped_otherwise_is_not_a_card(word):
    assert parse.card_word(word) is None
    assert refused(parse.card, word) == "err-card"


def test_a_move_typed_bare_or_with_its_command():
    assert parse.bare_move("10H") == "/play TH"
    assert parse.bare_move("q♥ BELOTE") == "/play QH belote"
    assert parse.bare_move("/play 10h nomelds") == "/play TH nomelds"
    assert parse.bare_move("/play Q♥") == "/play QH"
    assert parse.bare_move("pass") == "/bid pass" and parse.bare_move("NT") == "/bid NT"
    for text in ("help", "/score", "TD please", "/play", "/play zz", ""):
        assert parse.bare_move(text) is None, text


def test_a_table_timer_may_be_off():
    assert parse.table_timer("off") == parse.table_timer("OFF") == 0.0
    assert parse.table_timer("30") == 30.0
    assert refused(parse.table_timer, "2") == "err-timer"


def test_a_timer_is_5_to_3600_seconds_or_off_and_0_is_no_word_for_off():
    """One rule wherever a timer is typed: a table's, a community's default, the operator's;
    ``0`` is refused with the line of ``4`` and ``99999``."""
    for reader in (parse.table_timer, parse.default_timer):
        for word in ("0", "0.0", "4", "99999"):
            assert refused(reader, word) == "err-timer", (reader, word)
        assert reader("5") == 5.0 and reader("3600") == 3600.0 and reader("off") == 0.0


async def test_a_card_written_as_shown_is_played_on_every_platform(tmp_path):
    """The core reads ``/play 10H`` and ``/play Q♥`` (Discord and Telegram send them
    as typed): the card is played, not refused."""
    h = await make_harness(tmp_path / "s.db", seed_window=0)
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    await h.until_turn(0)
    run = h.table().run
    while run.match.view(0).contract is None:
        legal = run.match.legal_actions(0)
        take = next((a for a in legal if a.kind == "take"), legal[0])
        assert all(r.ok for r in await h.cmd("alice", f"/bid {take.text.split()[-1]}"))
        await h.until_turn(0)
    legal = [a for a in run.match.legal_actions(0) if a.kind == "play" and not a.belote]
    text = card_text(legal[0].card)
    shown = ("10" if text[0] == "T" else text[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[
        text[1]
    ]
    before = run.seq
    replies = await h.cmd("alice", f"/play {shown.lower()}")
    assert all(r.ok for r in replies), replies
    assert run.seq > before and legal[0].card not in run.match.hand(0)
    await h.app.stop()


def test_a_coinche_value_button_is_read_by_the_parser():
    assert parse.value_step("value 90") == parse.ValueStep(90)
    assert parse.value_step("value capot") == parse.ValueStep(250)
    assert parse.value_step("values") == parse.ValueStep(None)
    assert parse.value_step("bid 90 H") is None and parse.value_step("valuesX") is None
    for forged in ("value 85", "value ", "value 90 H", "value capotX"):
        assert refused(parse.value_step, forged) == "err-stale-button", forged
