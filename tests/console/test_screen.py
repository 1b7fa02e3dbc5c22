"""The terminal's compact table: what is printed once, what is marked, and pictures kept
under names that never collide."""

from __future__ import annotations

import io

from adapters.console.platform import ConsolePlatform, PictureShelf
from adapters.console.screen import Screen
from bot.platform import Button, Channel, Post, Reply

ME = "console:ana"


def table(*lines: tuple[str, str], moment: str = "m1-deal01-010") -> Post:
    text = "\n".join(t for _k, t in lines)
    return Post(Channel("c"), "table:1", text, lines=tuple(lines), moment=moment)


SEATS = [("seat", f"Seat {i} (team A): P{i}") for i in range(1, 5)]


async def test_a_match_starts_with_its_seats_and_each_trick_prints_once():
    out = io.StringIO()
    p = ConsolePlatform(out, screen=Screen(out, ME, colour=False))
    head = ("header", "Table t1 · club · to 1000 · turn timer 60 s")
    await p.deliver(table(head, *SEATS, ("match", "Match m1"), ("deal", "Deal 1, dealer P1")))
    turn = [("seat-turn", "Seat 1 (team A): P1 ◀ to play"), *SEATS[1:]]
    for n in range(3):  # three moves of one trick: the seat lines change, nothing printed
        await p.deliver(table(head, *turn, ("match", "Match m1"), ("trick", "Trick: P1 7H" * n)))
    won = ("trick-won", "Trick 1: P1 7H, P2 8H, P3 TD, P4 AS; won by P4.")
    await p.deliver(table(head, *turn, ("match", "Match m1"), won))
    await p.deliver(table(head, *SEATS, ("match", "Match m1"), won, ("turn", "P2 to play")))
    lines = out.getvalue().splitlines()
    assert lines.count(head[1]) == 1 and sum("Seat 1" in line for line in lines) == 1
    assert lines[-1] == "  Trick 1: P1 7♥, P2 8♥, P3 10♦, P4 A♠; won by P4."
    assert not any("Trick: " in line or "to play" in line for line in lines)


async def test_on_my_turn_the_trick_my_hand_and_what_to_type():
    out = io.StringIO()
    screen = Screen(out, ME, colour=True)
    p = ConsolePlatform(out, screen=screen)
    await p.deliver(table(("match", "Match m1"), ("trick", "Trick: P1 7H")))
    hand = [
        ("hand", "Your hand at t1: 9C QH AH"),
        ("your-turn", "Your turn. You may: /play QH, /play AH"),
    ]
    buttons = ((Button("9C", "x", enabled=False), Button("QH", "y"), Button("AH", "z")),)
    post = Post(
        Channel("c"),
        "hand:1:" + ME,
        "",
        buttons=buttons,
        to_user=ME,
        lines=tuple(hand),
        moment="m1-deal01-011",
    )
    await p.deliver(post)
    text = out.getvalue()
    assert "\x1b[31m[Q♥]\x1b[0m" in text and "\x1b[31m[A♥]\x1b[0m" in text  # legal, red
    assert "9♣" in text and "[9♣]" not in text
    assert "You may: \x1b[31mQH\x1b[0m, \x1b[31mAH\x1b[0m" in text  # as typed, no /play
    assert text.index("Trick: P1") < text.index("Your hand")
    hint = (
        "melds-hint",
        "Your melds are declared with the card you play; add nomelds "
        "(/play QH nomelds) to keep them to yourself.",
    )
    await p.deliver(
        Post(
            Channel("c"),
            post.key,
            "",
            buttons=buttons,
            to_user=ME,
            lines=(*hand, hint),
            moment="m1-deal01-012",
        )
    )
    assert "add nomelds (\x1b[31mQH\x1b[0m nomelds)" in out.getvalue()


async def test_a_deal_result_prints_whole_and_its_last_trick_once():
    out = io.StringIO()
    p = ConsolePlatform(out, screen=Screen(out, ME, colour=False))
    eighth = ("trick-won", "Trick 8: P1 KS, P2 QC, P3 KH, P4 AS; won by P3.")
    result = (("result", "Deal 2: Hearts taken by P3 (team A), made."), eighth)
    await p.deliver(Post(Channel("c"), "result:1:1", "", lines=result))
    await p.deliver(table(("match", "Match m1"), eighth, ("over", "The match is over.")))
    lines = out.getvalue().splitlines()
    assert sum("Trick 8" in line for line in lines) == 1
    assert lines[0].startswith("Deal 2: Hearts") and lines[-1] == "The match is over."


def test_one_picture_per_moment_never_duplicated(tmp_path):
    shelf = PictureShelf(tmp_path)
    post = Post(Channel("c"), "table:1", "", image=b"1", moment="m1-deal01-010")
    a, b = shelf.save_post(post), shelf.save_post(post)  # shown again after a resume
    assert a.name == b.name == "m1-deal01-010-table.png"
    later = Post(Channel("c"), "table:1", "", image=b"1", moment="m1-deal01-011")
    assert shelf.save_post(later).name == "m1-deal01-011-table.png"
    hand = Post(
        Channel("c"), "hand:1:console:ana", "", image=b"2", to_user=ME, moment="m1-deal01-010"
    )
    assert shelf.save_post(hand).name == "m1-deal01-010-hand-ana.png"
    gif = Reply("replay", image=b"3", image_name="replay-m1-2.gif")
    assert shelf.save_reply("ana", gif).name == "replay-m1-2-ana.gif"
    assert sorted(p.read_bytes() for p in tmp_path.iterdir()) == [b"1", b"1", b"2", b"3"]
    assert len(list(tmp_path.iterdir())) == 4


async def test_a_hostile_name_cannot_rewrite_the_screen():
    out = io.StringIO()
    p = ConsolePlatform(out, screen=Screen(out, ME, colour=True))
    evil = "Eve\x1b[2J\x1b[H"
    won = ("trick-won", f"Trick 1: {evil} 7H, P2 8H, P3 TD, P4 AS; won by {evil}.")
    await p.deliver(table(("match", "Match m1"), won))
    p.reply("ana", Reply(f"It is not your turn: {evil} is to play.", ok=False))
    text = out.getvalue()
    assert "\x1b[2J" not in text and "\x1b[H" not in text
    assert text.count("Eve\\x1b[2J\\x1b[H") == 3
