"""The console platform: lines in, lines out, exit 0 once every match is over."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

from adapters.console.platform import ConsolePlatform
from adapters.console.run import parse_line, shorthand
from bot.platform import Channel, Post

ROOT = Path(__file__).resolve().parents[2]


def test_parse_line():
    assert parse_line("alice: /join t1", "you") == ("alice", "/join t1")
    assert parse_line("/help", "you") == ("you", "/help")
    assert parse_line("   ", "you") is None
    assert parse_line("# a comment", "you") is None
    assert parse_line("bob:/play TD", "you") == ("bob", "/play TD")
    assert shorthand("td") == "/play TD"
    assert shorthand("pass") == "/bid pass"
    assert shorthand("NT") == "/bid NT"
    assert shorthand("/join") == "/join"
    assert shorthand("TD melds") == "/play TD melds"  # the flags work without the slash
    assert shorthand("td nomelds") == "/play TD nomelds"
    assert shorthand("KH belote") == "/play KH belote"
    assert shorthand("TD please") == "TD please"  # not a play: the core says what it is


async def test_public_and_private_lines():
    out = io.StringIO()
    p = ConsolePlatform(out)
    await p.deliver(Post(Channel("c"), "table:1", "one\ntwo"))
    await p.deliver(Post(Channel("c"), "table:1", "one\ntwo"))  # unchanged edit: silent
    await p.deliver(Post(Channel("c"), "hand:1:console:bob", "cards", to_user="console:bob"))
    assert out.getvalue().splitlines() == ["#table | one", "#table | two", "@bob | cards"]


async def test_an_edit_prints_only_what_changed():
    out = io.StringIO()
    p = ConsolePlatform(out)
    await p.deliver(Post(Channel("c"), "table:1", "Table t1\nBids: none\nAda to play"))
    await p.deliver(Post(Channel("c"), "table:1", "Table t1\nBids: Ada pass\nBob to play"))
    await p.deliver(Post(Channel("c"), "table:1", "Table t1\nBids: Ada pass"))  # a line gone
    await p.deliver(Post(Channel("c"), "table:2", "Table t2"))  # another post: all of it
    assert out.getvalue().splitlines() == [
        "#table | Table t1",
        "#table | Bids: none",
        "#table | Ada to play",
        "#table | Bids: Ada pass",
        "#table | Bob to play",
        "#table | Table t2",
    ]


def run_belote(
    args: list[str], stdin: str, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "",
        "TELEGRAM_TOKEN": "",
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


def test_console_run_plays_a_match_and_exits(tmp_path):
    db = tmp_path / "c.db"
    script = "\n".join(
        [
            "alice: /table create --target 300",
            "alice: /addbot",
            "alice: /addbot hard",
            "alice: /addbot",
            "bob: /play TD",
            "alice: /start",
            "alice: /seed 1234",
            "",
        ]
    )
    # alice never plays: her timer runs out, the AI plays for her, then stands in
    res = run_belote(
        [
            "run",
            "--platform",
            "console",
            "--db",
            str(db),
            "--fast",
            "--no-drand",
            "--timer",
            "5",  # the shortest a timer may be: two run out, then the AI stands in
            "--random-seed",
            "1",
        ],
        script,
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert all(line.startswith(("#table | ", "@")) for line in lines), lines[:5]
    assert any(line.startswith("@bob | ") for line in lines)  # bob is told he has no table
    assert any(line.startswith("@alice | Your hand") for line in lines)
    assert any("wins the match" in line for line in lines)
    reveal = [line for line in lines if "The server seed was" in line]
    assert len(reveal) == 1
    seed = reveal[0].split("The server seed was ")[1].split()[0]
    assert all(seed not in line for line in lines[: lines.index(reveal[0])])
    # export writes the transcript of the latest match
    exp = run_belote(["export", "--db", str(db)], "")
    assert exp.returncode == 0, exp.stderr
    assert f'"server_seed": "{seed}"' in exp.stdout


def test_solo_opens_a_table_with_three_bots_and_saves_pictures(tmp_path):
    res = run_belote(
        [
            "run",
            "--platform",
            "console",
            "--db",
            str(tmp_path / "s.db"),
            "--solo",
            "--name",
            "me",
            "--fast",
            "--no-drand",
            "--pictures",
            str(tmp_path / "pics"),
        ],
        "me: /close\n",
    )
    assert res.returncode == 0, res.stderr
    assert "@me | Belote in the terminal: you and three bots at table t1." in res.stdout
    assert "@me | Rules: club, the first team to 1000 points wins" in res.stdout
    assert "#table | Match m1" in res.stdout
    assert "@me | Table t1 is closed." in res.stdout
    # every picture under its own name: match, deal, log position; nothing overwritten
    pics = sorted(p.name for p in (tmp_path / "pics").iterdir())
    tables = [p for p in pics if p.startswith("m1-deal01-") and p.endswith("-table.png")]
    hands = [p for p in pics if p.startswith("m1-deal01-") and p.endswith("-hand-me.png")]
    assert len(tables) >= 2 and hands, pics


def test_solo_closes_piled_up_tables_and_a_bare_card_works(tmp_path):
    """Older versions opened a new table at every start: the terminal game keeps one."""
    db = str(tmp_path / "p.db")
    base = [
        "run",
        "--platform",
        "console",
        "--db",
        db,
        "--fast",
        "--no-drand",
        "--random-seed",
        "p",
    ]
    pile = "me: /table create\nme: /table create\nme: /table create\n"
    assert run_belote([*base, "--name", "me"], pile).returncode == 0
    res = run_belote([*base, "--solo", "--name", "me"], "me: /table list\nme: 7C\nme: /close\n")
    assert res.returncode == 0, res.stderr
    assert "@me | Belote in the terminal: you and three bots at table t4." in res.stdout
    welcome = res.stdout.index("@me | Belote in the terminal")
    assert "This table is closed." not in res.stdout[:welcome]  # the old tables: quietly
    listed = [line for line in res.stdout.splitlines() if " seat(s) free, " in line]
    assert [line.split(":")[0] for line in listed] == ["@me | t4"], listed
    assert "several tables" not in res.stdout
    assert "@me | You don't hold 7C." in res.stdout  # the bare card reached the table


def test_pictures_only_when_asked_and_never_twice_after_a_resume(tmp_path):
    base = ["run", "--platform", "console", "--db", str(tmp_path / "r.db"), "--solo"]
    base += ["--name", "me", "--fast", "--no-drand", "--random-seed", "r"]
    first = run_belote(base, "")  # the script ends at the player's first turn: saved
    assert first.returncode == 0, first.stderr
    assert not any(tmp_path.glob("*pictures*")) and not (ROOT / "belote-pictures").exists()
    pics = tmp_path / "pics"
    for _ in range(2):  # the same moment shown again after a resume: one file
        res = run_belote([*base, "--pictures", str(pics)], "")
        assert res.returncode == 0, res.stderr
        assert "Welcome back: table t1, match m1 goes on" in res.stdout
    names = sorted(p.name for p in pics.iterdir())
    assert names and not any(re.search(r"-\d+\.png$", n) for n in names), names


def test_other_rules_while_a_match_goes_on_are_not_ignored(tmp_path):
    base = ["run", "--platform", "console", "--db", str(tmp_path / "o.db"), "--solo"]
    base += ["--name", "me", "--fast", "--no-drand", "--random-seed", "o"]
    assert run_belote(base, "").returncode == 0  # a club match, left at the player's turn
    asked = run_belote([*base, "--ruleset", "bulgarian", "--target", "151"], "on\n")
    assert asked.returncode == 0, asked.stderr
    assert "Match m1 at table t1 is in progress with club, first to 1000" in asked.stdout
    assert "you asked for bulgarian, first to 151" in asked.stdout
    assert "Welcome back: table t1, match m1 goes on" in asked.stdout  # "on"
    new = run_belote([*base, "--ruleset", "bulgarian"], "new\n")
    assert new.returncode == 0, new.stderr
    assert "you and three bots at table t2" in new.stdout
    assert "Rules: bulgarian, the first team to 151 points wins" in new.stdout
    assert "This table is closed." not in new.stdout
