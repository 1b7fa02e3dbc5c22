"""Every picture text is listed for the catalogs, and a catalog's text is used."""

from __future__ import annotations

import re
from pathlib import Path

from bot.show.render import samples
from bot.show.render.hand import compose_hand
from bot.show.render.messages import MESSAGES, message_id, translator

SOURCE = Path(__file__).resolve().parents[2] / "bot" / "show" / "render"


def test_every_tr_literal_is_listed():
    used = set()
    for path in SOURCE.glob("*.py"):
        used |= set(re.findall(r'\btr\("((?:[^"\\]|\\.)*)"\)', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'\brow\(\s*"((?:[^"\\]|\\.)*)"', path.read_text(encoding="utf-8")))
    assert used, "the scan found nothing: the pattern is stale"
    assert used <= set(MESSAGES), used - set(MESSAGES)


def test_ids_are_unique_and_stable():
    ids = [message_id(m) for m in MESSAGES]
    assert len(set(ids)) == len(ids)
    assert message_id("Table {table_id}") == "render-table-table-id"


def test_translator_uses_the_catalog_and_falls_back_to_english():
    catalog = {"render-your-turn": "À vous"}
    tr = translator(lambda key: catalog.get(key, key))
    assert tr("Your turn") == "À vous"
    assert tr("Trump") == "Trump"


def test_a_translated_picture_differs():
    view = samples.table_view(0)
    tr = translator(lambda key: {"render-your-turn": "Ваш ход"}.get(key, key))
    english, _ = compose_hand(view, table_id="T-42", seat_name="Alice")
    russian, _ = compose_hand(view, table_id="T-42", seat_name="Alice", tr=tr)
    assert english.tobytes() != russian.tobytes()
