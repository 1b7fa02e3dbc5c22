"""Every text through the catalog; the server seed never shown before its reveal."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

from bot.show.i18n import _, has_text
from tests.core.harness import make_harness, table_with_bots

ROOT = Path(__file__).resolve().parents[2]
DYNAMIC = [
    *(f"contract-{c}" for c in ("C", "D", "H", "S", "NT", "AT")),
    *(f"level-{lv}" for lv in ("easy", "normal", "hard", "expert")),
    *(f"rules-{r}" for r in ("classic", "club", "bulgarian")),
    *(f"status-{s}" for s in ("open", "playing", "closed")),
    "seat-line",
    "seat-line-turn",
    "seat-line-away",
    "seat-line-gone",
    "timeout-played",
    "timeout-replaced",
    "commit-post",
    "commit-post-nowindow",
]


def message_ids(path: Path) -> set[str]:
    ids = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
        if name in ("_", "Refused") and node.args:
            arg = node.args[0]
        elif name == "_refusal" and len(node.args) > 1:
            arg = node.args[1]
        else:
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.add(arg.value)
    return ids


def test_english_catalog_is_complete():
    ids = set(DYNAMIC)
    for rel in (
        "bot/app.py",
        "bot/show/texts.py",
        "bot/play/ceremony.py",
        "bot/play/lobby.py",
        "bot/show/posting.py",
        "bot/play/tournament_tables.py",
    ):
        ids |= message_ids(ROOT / rel)
    assert len(ids) > 100
    missing = sorted(i for i in ids if not has_text(i, "en"))
    assert missing == []


def test_translation_falls_back_to_english_and_formats():
    assert _("ok-joined", "xx", table="t1", seat="2") == "You sit at t1, seat 2."
    assert _("ok-joined", "en-GB", table="t1", seat="2") == "You sit at t1, seat 2."


async def test_server_seed_never_shown_or_logged_before_the_reveal(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    h = await make_harness(tmp_path / "b.db", seed_window=10)
    await table_with_bots(h, "alice", "--window", "10")
    await h.cmd("alice", "/start")
    seed = h.table().run.server_seed.hex()
    await h.cmd("alice", "/seed nothex")
    await h.cmd("alice", "/seed " + "ab" * 16)
    await h.cmd("alice", "/verify")  # not over yet: refused, without the seed
    await h.play_human_turns({0: "alice"})
    reveal = h.last("reveal:1")
    shown = h.platform.posts[: h.platform.posts.index(reveal)]
    assert shown and all(seed not in p.text for p in shown)
    assert all(seed not in r.text for _, r in h.replies)
    assert seed not in caplog.text
    assert seed in reveal.text
    await h.app.stop()
