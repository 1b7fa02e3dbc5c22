"""A whole match played by a French and by a Bulgarian host, through the app's entry
points in fake time: every reply and post is in the host's language, and no English
sentence of the catalog leaks into them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.platform import User
from bot.show.i18n import _
from tests.core.harness import make_harness
from tests.i18n.sources import english_catalog, read_catalog, texts_of

PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")


def english_fragments(lang: str) -> set[str]:
    """Pieces of English sentences (between placeholders) long enough to be telling, and
    not shared with the translation (command syntax, card texts)."""
    translated = list(texts_of(read_catalog(lang)).values())
    found = set()
    for text in english_catalog().values():
        for line in text.split("\n"):
            for piece in PLACEHOLDER.split(line):
                piece = piece.strip(" .,:;()")
                telling = len(piece) >= 15 and len(piece.split()) >= 3
                if telling and not any(piece in t for t in translated):
                    found.add(piece)
    return found


@pytest.mark.parametrize(
    ("locale", "lang", "words"),
    [("fr-FR", "fr", ("Ta main", "Place 1", "Donne")), ("bg-BG", "bg", ("Твоите карти",))],
)
async def test_a_match_in_the_hosts_language(
    tmp_path: Path, locale: str, lang: str, words: tuple[str, ...]
) -> None:
    h = await make_harness(tmp_path / "m.db", seed_window=0)
    host = User(id="test:zoe", name="Zoé", locale=locale)
    replies = await h.cmd(host, "/table create --target 300")
    assert replies[0].ok
    ruleset = h.table().settings.ruleset
    assert replies[0].text == _("ok-created", lang, table="t1", ruleset=ruleset)
    for _n in range(3):
        assert (await h.cmd(host, "/addbot"))[0].ok
    assert (await h.cmd(host, "/start"))[0].ok
    assert (await h.cmd(host, "/seed 12"))[0].ok is False  # a refusal, in the language too
    await h.play_human_turns({0: host})
    assert h.table().run.over
    refusals = await h.cmd(host, "/play TD")
    texts = [r.text for _n, r in h.replies] + [r.text for r in refusals]
    texts += [p.text for p in h.platform.posts]
    joined = "\n".join(texts)
    for word in words:
        assert word in joined, word
    fragments = english_fragments(lang)
    assert len(fragments) > 50  # the detector has something to detect
    leaks = sorted(f for f in fragments if f in joined)
    assert not leaks, f"English in a {lang} match: {leaks}"
    await h.app.stop()
