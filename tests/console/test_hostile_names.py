"""In the terminal, what people type is shown back escaped: a name or a word holding ANSI
escapes, NUL or a carriage return cannot move the cursor or rewrite the screen."""

from __future__ import annotations

import io

from adapters.console.platform import ConsolePlatform, safe_line
from bot.platform import Channel, Post
from tests.console.test_console import run_belote

CLEAR = "\x1b[2J\x1b[H"


def test_safe_line_escapes_control_characters_only():
    assert safe_line(f"Eve{CLEAR}\x00\r\u202e") == "Eve\\x1b[2J\\x1b[H\\x00\\r\\u202e"
    # accents, suits, Cyrillic and the French no-break space are text
    assert safe_line("Zoé ♠ Пешо :\u00a0ok") == "Zoé ♠ Пешо :\u00a0ok"


async def test_posts_and_replies_print_no_control_character():
    out = io.StringIO()
    p = ConsolePlatform(out)
    await p.deliver(Post(Channel("c"), "table:1", f"Seat 1: Eve{CLEAR}\nok"))
    await p.deliver(Post(Channel("c"), "hand", "x", to_user=f"console:Eve{CLEAR}"))
    assert "\x1b" not in out.getvalue()
    assert out.getvalue().splitlines() == [
        "#table | Seat 1: Eve\\x1b[2J\\x1b[H",
        "#table | ok",
        "@Eve\\x1b[2J\\x1b[H | x",
    ]


def test_a_hostile_session_in_the_terminal(tmp_path):
    script = "\n".join(
        [
            f"Eve{CLEAR}: /table create",
            f"Eve{CLEAR}: /addbot",
            "Mal\x00lory: /join t1 \x1b[31m",
            f"Mal\x00lory: /frobnicate{CLEAR}",
            "Mal\x00lory: /join t²",
            f"Mal\x00lory: /verify m{'9' * 4000}",
            "",
        ]
    )
    args = ["run", "--platform", "console", "--db", str(tmp_path / "h.db"), "--no-drand"]
    res = run_belote([*args, "--fast"], script)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    for ch in ("\x1b", "\x00", "\r"):
        assert ch not in res.stdout
    lines = res.stdout.splitlines()
    assert any(line.startswith("@Eve\\x1b[2J\\x1b[H | ") for line in lines), lines
    assert any("Eve\\x1b[2J" in line for line in lines if line.startswith("#table"))
    assert any("don't know the command /frobnicate\\x1b" in line for line in lines)
    assert any("t² is not a table" in line for line in lines)
    assert any("named like m12" in line for line in lines)
