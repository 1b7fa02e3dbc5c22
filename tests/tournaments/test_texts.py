"""Every text the tournament code asks for exists, and reads well with its placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.tournaments.store import Tournament
from bot.tournaments.texts import ENGLISH, tt

SOURCES = Path(__file__).resolve().parents[2] / "bot" / "tournaments"


def test_every_text_asked_for_exists() -> None:
    used: set[str] = set()
    for path in SOURCES.glob("*.py"):
        src = path.read_text()
        used |= set(re.findall(r"""["']((?:tour|stats|leaderboard)-[a-z0-9-]+)["']""", src))
    used |= {f"tour-status-{s}" for s in ("open", "scheduled", "running", "over")}
    assert used - ENGLISH.keys() == set()
    assert ENGLISH.keys() - used == set()


def test_placeholders_are_named_and_filled() -> None:
    for key, text in ENGLISH.items():
        names = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
        assert all(n and n.isidentifier() for n in names), key
        filled = tt(key, "en", **{n: "X" for n in names})
        assert "{" not in filled, key


def test_status_names_cover_every_status() -> None:
    statuses = {"open", "scheduled", "running", "over"}
    assert Tournament.__dataclass_fields__["status"].type == "str"
    for s in statuses:
        assert tt(f"tour-status-{s}") != f"tour-status-{s}"


def test_the_catalog_fragment_is_up_to_date() -> None:
    """`python -m bot.tournaments.texts > bot/tournaments/locale/en.po` after a change."""
    from bot.tournaments.texts import catalog_text

    assert (SOURCES / "locale" / "en.po").read_text() == catalog_text()
