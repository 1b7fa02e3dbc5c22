"""`belote` in a real pseudo-terminal, as a newcomer runs it: the full-screen table starts,
the player bids and plays a whole deal with the keyboard (typed cards, `Q♥` as the screen
shows it, the arrows and Enter), reads the deal's summary, Ctrl-C, starts again on the same
table, plays on, Ctrl-D. pexpect gives the process a terminal of its own (stdin and stdout
are TTYs exactly as in a person's shell); pyte reads what that terminal shows."""

from __future__ import annotations

import os
import re
import sqlite3
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

ROOT = Path(__file__).resolve().parents[2]
COLS, ROWS = 100, 30


class Terminal:
    """A terminal of COLS x ROWS running ``belote``: what it shows, and keys to type."""

    def __init__(self, tmp_path: Path, *extra: str, size: tuple[int, int] = (COLS, ROWS)):
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "",
            "TELEGRAM_TOKEN": "",
            "USER": "ana",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
        }
        for var in ("NO_COLOR", "LC_ALL", "LC_MESSAGES"):
            env.pop(var, None)
        args = ["-m", "adapters.cli", "--db", str(tmp_path / "b.db"), "--bot-delay", "0.02"]
        args += ["--no-drand", "--random-seed", "pty", *extra]
        cols, rows = size
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child = pexpect.spawn(
            sys.executable, args, cwd=str(tmp_path), env=env, timeout=60, dimensions=(rows, cols)
        )

    def pump(self, wait: float = 0.05) -> None:
        """Read what the program wrote so far into the screen."""
        end = time.monotonic() + wait
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=max(0.0, end - time.monotonic()))
            except pexpect.TIMEOUT:
                return
            except pexpect.EOF:
                return
            self.raw += data
            self.stream.feed(data)
            if time.monotonic() >= end:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def log(self) -> str:
        """The log pane (right of the table's ``▏`` border), its wrapped lines joined."""
        parts = []
        for row in self.screen.display:
            at = row.find("▏")
            if at >= 0:
                parts.append(row[at + 1 :].strip())
        return re.sub(r"\s+", " ", " ".join(parts))

    def wait_for(self, pattern: str, where: str = "screen", timeout: float = 30.0) -> re.Match:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump()
            shown = self.text() if where == "screen" else self.log()
            m = re.search(pattern, shown)
            if m:
                return m
        raise AssertionError(f"{pattern!r} never shown:\n{self.text()}")

    def prompt(self) -> str:
        """The choices line(s) on the player's turn."""
        rows = self.screen.display
        for i, row in enumerate(rows):
            if "▶ You may:" in row:
                return " ".join(r.strip() for r in rows[i : i + 3]).split("You may:")[1]
        return ""

    def type(self, text: str) -> None:
        self.child.send(text.encode() + b"\r")

    def leaves(self, goodbye: str) -> None:
        """The run gives the terminal back, says goodbye in one line and is gone at once,
        cleanly, with no traceback."""
        self.child.expect(goodbye.encode(), timeout=10)
        self.child.expect(pexpect.EOF, timeout=10)
        out = self.raw + self.child.before
        assert b"Traceback" not in out
        self.child.close()
        assert self.child.exitstatus == 0


def actions(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT COUNT(*) FROM match_log WHERE kind = 'action'").fetchone()[0]


def my_turn(term: Terminal, timeout: float = 30.0) -> str:
    term.wait_for(r"▶ You may:", timeout=timeout)
    return term.prompt()


@pytest.mark.slow
def test_play_a_deal_quit_and_resume_in_a_terminal(tmp_path):
    term = Terminal(tmp_path)
    term.wait_for(r"Belote in the terminal: you and three bots at table t1", "log")
    term.wait_for(r"Rules: club, the first team to 1000 points wins", "log")
    term.wait_for(r"your partner Chloe across the table", "log")
    status = term.wait_for(r"t1 · club · Deal 1 ·[^\n]*no timer")
    assert status
    assert "ana (you)" in term.text()
    # the whole first deal: a bid, then cards typed (lower case, Q♥ as shown) or picked
    # with the arrows and Enter
    moves = 0
    while "Scored: team A" not in term.log():
        offered = my_turn(term)
        if "take" in offered or "pass" in offered:
            term.type("take" if "take" in offered else "pass")
        else:
            cards = re.findall(r"(10|[789JQKA])([♣♦♥♠])", offered)
            assert cards, offered
            rank, suit = cards[0]
            if moves % 3 == 0:
                term.type(rank + suit)  # as the screen shows it
            elif moves % 3 == 1:
                term.type((rank + "CDHS"["♣♦♥♠".index(suit)]).lower())  # 10h, qs
            else:
                term.child.send(b"\x1b[C\x1b[D\r")  # → ← Enter: the selected card
            moves += 1
        time.sleep(0.1)
        term.pump(0.3)
        if moves > 8:
            break
    log = term.wait_for(r"Scored: team A [+-]?\d+, team B [+-]?\d+", "log")
    assert log
    shown = term.log()
    assert moves == 8, moves
    assert re.search(r"Trick 8: .*won by", shown)
    assert re.search(r"Deal 1: .*taken by \w+ \(team [AB]\)", shown)
    assert re.search(r"melds \d+–\d+, belote \d+–\d+, total", shown)

    # Ctrl-C: one key, the terminal given back, a one-line goodbye, gone at once
    my_turn(term)
    before = actions(tmp_path / "b.db")
    term.child.sendintr()
    term.leaves("Saved. Type belote to go on at table t1. Goodbye!")

    # again: the same table, its match goes on, and a move works at once
    term = Terminal(tmp_path)
    term.wait_for(r"Welcome back: table t1, match m1 goes on", "log")
    for _ in range(3):
        offered = my_turn(term)
        term.child.send(b"\r")  # Enter plays the selected card (or the first bid)
        time.sleep(0.2)
    term.pump(0.5)
    assert actions(tmp_path / "b.db") > before
    assert "t2" not in term.text()
    # Ctrl-D quits the same way
    term.child.sendeof()
    term.leaves("Saved. Type belote to go on at table t1. Goodbye!")
    assert not (tmp_path / "belote-pictures").exists()  # no pictures unless asked


@pytest.mark.slow
def test_sigterm_saves_and_exits(tmp_path):
    term = Terminal(tmp_path)
    my_turn(term)
    term.child.kill(15)
    term.leaves("Goodbye!")


def test_another_ruleset_is_named_on_the_first_screen(tmp_path):
    term = Terminal(tmp_path, "--ruleset", "bulgarian")
    term.wait_for(r"Rules: bulgarian, the first team to 151 points wins", "log")
    term.wait_for(r"a bid \(pass, C D H S NT AT, contre\)", "log")
    offered = my_turn(term)
    assert "pass" in offered and "AT" in offered, offered
    term.child.sendintr()
    term.leaves("Goodbye!")


def test_the_table_speaks_the_terminal_language(tmp_path):
    term = Terminal(tmp_path, "--lang", "fr")
    # French puts a no-break space before a colon: the log pane's lines are joined on \s
    term.wait_for("La belote dans le terminal : toi et trois robots à la table t1", "log")
    term.wait_for("Tu peux\\s:")
    term.type("help")
    term.wait_for(r"/hand : voir tes cartes", "log")
    term.child.sendintr()
    term.leaves("Enregistré. Tape belote pour reprendre à la table t1.")


def test_with_stderr_redirected_the_compact_screen_is_printed(tmp_path):
    """Textual draws on stderr: `belote 2>errors.txt` prints the compact table on stdout
    instead of drawing a screen nobody sees."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    env.update(USER="ana", TERM="xterm-256color", LANG="C.UTF-8")
    command = (
        f"{sys.executable} -m adapters.cli --db {tmp_path / 'b.db'} --no-drand"
        f" --random-seed pty 2>{tmp_path / 'errors.txt'}"
    )
    child = pexpect.spawn("/bin/sh", ["-c", command], cwd=str(tmp_path), env=env, timeout=60)
    child.expect(rb"Belote in the terminal: you and three bots at table t1\.")
    child.expect("▶ Your turn. You may: ".encode())
    child.sendintr()
    child.expect(b"Goodbye!")
    child.expect(pexpect.EOF, timeout=10)
    assert b"\x1b[?1049h" not in child.before  # no full screen was drawn
