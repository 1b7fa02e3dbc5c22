"""``belote run --platform telegram`` as a process, against the fake Bot API."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fakes.telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


async def test_cli_runs_the_bot_until_sigterm(tmp_path: Path) -> None:
    async with FakeTelegram() as tg:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
        env |= {
            "TELEGRAM_TOKEN": tg.token,
            "TELEGRAM_API_URL": f"http://127.0.0.1:{tg.port}",
            "PYTHONPATH": str(ROOT),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "adapters.cli",
            "run",
            "--platform",
            "telegram",
            "--db",
            str(tmp_path / "cli.db"),
            "--fast",
            "--no-drand",
            "--log-level",
            "DEBUG",
            "--log-wire",  # the libraries' raw traffic too
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        # Read its output all along: a full pipe would freeze the bot mid-log.
        output = asyncio.ensure_future(proc.communicate())
        try:
            await tg.wait_for(lambda: tg.calls_of("getUpdates"), timeout=60)
            assert tg.commands["all_group_chats/"]
            alice = tg.add_user("Alice")
            group = tg.add_group("Club", admins=(alice,))
            sent = tg.send_text(alice, group, "/table create")
            reply = await tg.wait_for(
                lambda: [m for m in tg.chat_messages(group) if m.reply_to == sent.message_id],
                timeout=30,
            )
            assert "t1" in reply[0].text
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                out, err = await asyncio.wait_for(asyncio.shield(output), 30)
            except TimeoutError:
                proc.kill()
                out, err = await output
                raise AssertionError(f"no exit after SIGTERM: {err.decode()[-3000:]}") from None
        assert proc.returncode == 0, err.decode()[-2000:]
        logs = (out + err).decode()
        assert "sendMessage" in logs  # PTB's debug log was on...
        assert tg.token not in logs  # ...and never showed the token
        assert tg.token.split(":")[1] not in logs


async def test_run_telegram_until_stop(tmp_path: Path, monkeypatch) -> None:
    """The function the CLI calls, in process: explicit token and URL, a stop event."""
    from adapters.telegram import run_telegram
    from tests.telegram.conftest import TEST_LIMITS, core_factory

    monkeypatch.chdir(tmp_path)  # no .env around
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    async with FakeTelegram() as tg:
        stop = asyncio.Event()
        task = asyncio.create_task(
            run_telegram(
                core_factory(tmp_path / "run.db"),
                tg.token,
                api_url=f"http://127.0.0.1:{tg.port}",
                stop=stop,
                rate_limits=TEST_LIMITS,
            )
        )
        await tg.wait_for(lambda: tg.calls_of("getUpdates"), timeout=30)
        alice = tg.add_user("Alice")
        tg.start_bot(alice)
        welcome = await tg.wait_for(lambda: tg.chat_messages(alice.id), timeout=30)
        assert "Hello Alice" in welcome[0].text
        stop.set()
        await asyncio.wait_for(task, 30)
    assert (tmp_path / "run.db").exists()
