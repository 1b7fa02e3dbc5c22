"""A kill -9 of the bot while a person plays from the web table: the page's session
reconnects to the restarted bot, finds the table where it was, and plays on; nothing the
person did is lost or doubled (the log is contiguous, the move sent again counts once)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp

from tests.web.harness import Page

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "".join(
    f"alice: {line}\n"
    for line in ("/table create --target 300", "/addbot", "/addbot", "/addbot", "/start", "/web")
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_bot(db: Path, port: int, script: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "adapters.cli", "run", "--platform", "console", "--db", str(db)]
    cmd += ["--no-drand", "--bot-delay", "0.05", "--window", "0", "--timer", "600"]
    cmd += ["--web-port", str(port), "--web-host", "127.0.0.1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    p = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    assert p.stdin is not None
    p.stdin.write(script.encode())
    p.stdin.flush()  # kept open: the bot runs until it is killed
    return p


async def read_token(p: subprocess.Popen) -> str:
    assert p.stdout is not None
    loop = asyncio.get_running_loop()
    for _ in range(400):
        line = (await loop.run_in_executor(None, p.stdout.readline)).decode()
        m = re.search(r"#k=([A-Za-z0-9_.-]+)", line)
        if m:
            return m.group(1)
    raise AssertionError("no link")


async def connect(http: aiohttp.ClientSession, port: int, token: str) -> Page:
    for _ in range(1200):  # the restarted bot opens its port once the tables are resumed
        try:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/table/ws")
            break
        except aiohttp.ClientError:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the web table never came back")
    await ws.send_json({"type": "hello", "token": token})
    return Page(ws)


async def my_turn(p: Page) -> dict:
    return await p.view_where(lambda v: bool(v["choices"]), timeout=90)


def log_rows(db: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(db) as c:
        return list(c.execute("SELECT match_id, seq FROM match_log ORDER BY match_id, seq"))


async def test_kill_9_then_the_page_reconnects_and_plays_on(tmp_path):
    db, port = tmp_path / "k.db", free_port()
    bot = start_bot(db, port, SCRIPT)
    try:
        token = await read_token(bot)
        async with aiohttp.ClientSession() as http:
            p = await connect(http, port, token)
            session = (await p.next("welcome"))["session"]
            v = await my_turn(p)
            assert (await p.act(v["choices"][0]["action"], v["seq"]))["ok"]
            v = await my_turn(p)
            # the second move is sent, and the bot is killed as it arrives
            pending = {"type": "act", "seq": 2, "action": v["choices"][0]["action"], "at": v["seq"]}
            await p.ws.send_json(pending)
            await asyncio.sleep(0.05)
            bot.send_signal(signal.SIGKILL)
            bot.wait(10)
            await p.ws.close()
            bot = start_bot(db, port, "")
            p = await connect(http, port, session)  # the page's own session, kept
            await p.next("welcome")
            # the move was committed before the kill, or not: the page sends it again, as
            # it was, and it counts once either way
            again = await p.act(pending["action"], pending["at"], seq=2)
            assert again["ok"], again
            v = await my_turn(p)
            assert v["seq"] > pending["at"] + 1  # made, and the bots played after it
            assert (await p.act(v["choices"][0]["action"], v["seq"], seq=3))["ok"]
            await p.ws.close()
    finally:
        bot.kill()
        bot.wait(10)
    rows = log_rows(db)
    seqs = [s for _m, s in rows]
    assert seqs == list(range(len(seqs)))  # contiguous: nothing lost, nothing doubled
    with sqlite3.connect(db) as c:
        at = c.execute("SELECT data FROM match_log WHERE seq = ?", (pending["at"],)).fetchone()
    assert pending["action"].split()[-1] in at[0]  # the move sent twice is there, once
