"""Random and hostile lines into the terminal, as a script piped to ``belote run``: the
run ends normally, nothing is logged as an error, and no control character typed by
anyone reaches the terminal raw."""

from __future__ import annotations

import io
import logging
import os
import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.console.platform import ConsolePlatform
from adapters.console.run import ConsoleOptions, run_console
from bot.app import BeloteApp, Settings
from bot.ops.clock import SeededRandomness
from bot.store import open_store

EXAMPLES = max(10, int(os.environ.get("BELOTE_FUZZ_EXAMPLES", "400")) // 10)
NAMES = ["alice", "bob", "Eve\x1b[2J", "Mal\x00", "\u202etrudy"]
LINES = [
    "/table create", "/table create --target 1", "/addbot", "/addbot expert", "/start",
    "/join", "/join t1 2", "/join t²", "/leave", "/close", "/kick 2", "/hand", "/score",
    "/verify", "/verify m①", "/replay m1", "/seed " + "ab" * 16, "/seed zz", "TD", "pass",
    "H", "/play 7C", "/bid take", "/belote", "/back", "/rules poker", "/help", "/\x1b[31m",
    "/tournament create swiss Cup", "/tournament join #1", "/ladder create", "/stats \x07",
    "/play " + "9" * 5000, "x" * 5000, "# a comment", "",
]  # fmt: skip


def _raw_controls(text: str) -> set[str]:
    return {ch for ch in text if ch != "\n" and unicodedata.category(ch)[0] == "C"}


def line() -> st.SearchStrategy[str]:
    said = st.one_of(st.sampled_from(LINES), st.text(max_size=40))
    named = st.builds(lambda who, text: f"{who}: {text}", st.sampled_from(NAMES), said)
    return st.one_of(named, said).map(lambda s: s.replace("\n", " ").replace("\r", " "))


# Some scripts first open a table of four bots playing one deal, so the lines also meet a
# match in progress and a finished one.
BOTS_PLAY = [
    "me: /table create --target 1 --ai easy",
    "me: /addbot easy",
    "me: /addbot easy",
    "me: /addbot easy",
    "me: /kick 1",
    "me: /addbot easy",
    "me: /start",
]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
@given(
    setup=st.sampled_from([[], BOTS_PLAY]),
    lines=st.lists(line(), min_size=1, max_size=25),
)
def test_hostile_lines_into_the_terminal(tmp_path_factory, setup, lines):
    script = setup + lines
    import asyncio

    db = tmp_path_factory.mktemp("console") / "c.db"

    async def go() -> str:
        out = io.StringIO()
        platform = ConsolePlatform(out)
        store = await open_store(db)
        settings = Settings(fast=True, drand=False, render_images=False, tournaments=True)
        app = BeloteApp(store, platform, settings=settings, randomness=SeededRandomness("c"))
        stdin = io.StringIO("\n".join(script) + "\n")
        code = await asyncio.wait_for(
            run_console(app, platform, ConsoleOptions(default_user="me"), stdin), 60
        )
        assert code == 0
        return out.getvalue()

    errors: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append  # type: ignore[method-assign]
    logging.getLogger().addHandler(handler)
    try:
        printed = asyncio.run(go())
    finally:
        logging.getLogger().removeHandler(handler)
    assert not errors, [r.getMessage() for r in errors]
    assert not _raw_controls(printed), _raw_controls(printed)
    said = [s for s in script if s.split(":", 1)[-1].strip() and not s.strip().startswith("#")]
    assert not said or printed  # something was answered
