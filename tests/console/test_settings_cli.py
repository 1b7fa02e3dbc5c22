"""``belote settings``: the operator reads and changes a community's settings from the
terminal, through the same core as /settings; a bad value changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adapters.cli import main
from bot.store import open_store


def _database(path: Path) -> str:
    async def make() -> None:
        store = await open_store(path)
        await store.close()

    asyncio.run(make())
    return str(path)


def test_settings_from_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _database(tmp_path / "belote.db")
    assert main(["settings", "--db", db, "--scope", "discord:1", "set", "timer", "25"]) == 0
    assert "timer is now 25" in capsys.readouterr().out
    here = ["settings", "--db", db, "--scope", "discord:1/2", "set", "max_tables", "1", "here"]
    assert main(here) == 0
    assert main(["settings", "--db", db, "--scope", "discord:1", "set", "timer", "2"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "The turn timer must be from 5 to 3600 seconds, or off."
    assert main(["settings", "--db", db, "--scope", "discord:1/2"]) == 0
    shown = capsys.readouterr().out
    assert "(timer): 25, set for the server" in shown
    assert "(max_tables): 1, set for this channel" in shown
    assert main(["settings", "--db", db, "--scope", "discord:1", "log"]) == 0
    log = capsys.readouterr().out.splitlines()
    assert len(log) == 3 and all("operator (terminal)" in line for line in log[1:])
    assert main(["settings", "--db", db, "--scope", "no scope"]) == 2
