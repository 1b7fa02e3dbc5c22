"""`belote` in a real pseudo-terminal, as a newcomer runs it: start, bid, play a whole deal
by typing bare cards, read the deal's result, Ctrl-C, start again on the same table, play
on, Ctrl-D. pexpect gives the process a terminal of its own, so stdin and stdout are TTYs
exactly as in a person's shell (the compact coloured screen, Ctrl-C and Ctrl-D as keys)."""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TURN = re.compile(r"▶ [^\r\n]*: ([^\r\n]*)\r\n")


def spawn(tmp_path: Path, *extra: str) -> pexpect.spawn:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "",
        "TELEGRAM_TOKEN": "",
        "USER": "ana",
        "TERM": "xterm-256color",
    }
    for var in ("NO_COLOR", "LC_ALL", "LC_MESSAGES"):
        env.pop(var, None)
    env["LANG"] = "C.UTF-8"
    args = ["-m", "adapters.cli", "--db", str(tmp_path / "b.db"), "--bot-delay", "0.02"]
    args += ["--no-drand", "--random-seed", "pty", *extra]
    child = pexpect.spawn(
        sys.executable, args, cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60
    )
    child.setwinsize(50, 120)
    return child


def choices(child: pexpect.spawn) -> list[str]:
    """What the screen offers on the player's turn, as the player types it."""
    return [c.strip() for c in ANSI.sub("", child.match.group(1)).split(",")]


def pick(offered: list[str]) -> str:
    """Take when it is offered (so the deal is played, not redealt), else the first."""
    return "take" if "take" in offered else offered[0]


def leaves(child: pexpect.spawn, goodbye: str) -> None:
    """The run says goodbye in one line and is gone at once, cleanly, with no traceback."""
    child.expect(goodbye)
    child.expect(pexpect.EOF, timeout=5)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 0


def actions(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT COUNT(*) FROM match_log WHERE kind = 'action'").fetchone()[0]


@pytest.mark.slow
def test_play_a_deal_quit_and_resume_in_a_terminal(tmp_path):
    child = spawn(tmp_path)
    child.expect("Belote in the terminal: you and three bots at table t1.")
    child.expect("Rules: club, the first team to 1000 points wins")
    seen = []
    # the whole first deal, typed as bare words: a bid, then cards (TD, QH...)
    cards_typed = 0
    while True:
        i = child.expect([TURN, r"Deal 1: [^\r\n]*\r\n"])
        seen.append(child.before)
        if i == 1:
            break
        word = pick(choices(child))
        cards_typed += bool(re.fullmatch(r"[789TJQKA][CDHS]", word))
        child.sendline(word)
    head = ANSI.sub("", child.match.group(0))
    assert re.search(r"taken by \w+ \(team [AB]\), (made|set|disputed|hanging)", head), head
    child.expect(r"Trick 8: [^\r\n]*won by")
    eighth = ANSI.sub("", child.after)
    assert len(re.findall(r"(?:10|[789JQKA])[♣♦♥♠]", eighth)) == 4, eighth
    child.expect(r"cards \d+–\d+, last trick \d+–\d+, melds \d+–\d+, belote \d+–\d+, total")
    child.expect(r"Scored: team A [+-]?\d+, team B [+-]?\d+\. Match: team A \d+, team B \d+")
    assert cards_typed >= 8
    raw = "".join(seen)
    screen = ANSI.sub("", raw)
    assert re.search(r"Trick 7: .*; won by", screen), "one line per trick, with its winner"
    assert "\x1b[31m" in raw, "hearts and diamonds in red"
    assert re.search(r"Bids: \w+: (Pass|Take)", screen), "the auction on one line"
    marked = re.findall(r"Your hand at t1: ([^\r\n]*)", screen)
    assert any("[" in hand for hand in marked), "the cards that may be played are marked"

    # Ctrl-C: one key, a one-line goodbye, no traceback, gone at once
    child.expect(TURN)
    before = actions(tmp_path / "b.db")
    child.sendintr()
    leaves(child, "Saved. Type belote to go on at table t1. Goodbye!")

    # again: the same table, its match goes on, and a bare word works at once
    child = spawn(tmp_path)
    child.expect("Welcome back: table t1, match m1 goes on")
    child.expect(TURN)
    child.sendline(pick(choices(child)))
    for _ in range(3):
        child.expect(TURN)
        child.sendline(pick(choices(child)))
    child.expect([TURN, r"Trick \d+:"])
    assert actions(tmp_path / "b.db") > before
    rest = ANSI.sub("", child.before)
    assert "several tables" not in rest and "t2" not in rest
    # Ctrl-D (end of input) in a terminal quits the same way
    child.sendeof()
    leaves(child, "Saved. Type belote to go on at table t1. Goodbye!")

    pics = sorted(p.name for p in (tmp_path / "belote-pictures").iterdir())
    assert "m1-deal01-result.png" in pics
    assert any(p.endswith("-hand-ana.png") for p in pics)
    assert len([p for p in pics if p.endswith("-table.png")]) > 8  # one per update


@pytest.mark.slow
def test_sigterm_saves_and_exits(tmp_path):
    child = spawn(tmp_path)
    child.expect(TURN)
    child.kill(15)
    leaves(child, "Goodbye!")


def test_another_ruleset_is_named_on_the_first_screen(tmp_path):
    child = spawn(tmp_path, "--ruleset", "bulgarian")
    child.expect(r"Rules: bulgarian, the first team to 151 points wins")
    child.expect(r"other rules: belote --ruleset classic\|club")
    child.expect(TURN)
    offered = choices(child)
    assert "pass" in offered and "AT" in offered, offered
    child.sendintr()
    child.expect(pexpect.EOF, timeout=5)
    child.close()


def test_the_table_speaks_the_terminal_language(tmp_path):
    child = spawn(tmp_path, "--lang", "fr")
    child.expect("La belote dans le terminal\u00a0: toi et trois robots à la table t1.")
    child.expect(TURN)
    child.sendline("help")
    child.expect("Dans le terminal\u00a0: une carte seule la joue")
    child.expect("/stats, /leaderboard\u00a0: ton classement")
    child.sendintr()
    child.expect("Enregistré. Tape belote pour reprendre à la table t1.")
    child.expect(pexpect.EOF, timeout=5)
    child.close()
