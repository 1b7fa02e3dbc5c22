"""Every text the pictures show, and the bridge to the bot's translation function.

The renderer writes its texts in English (``tr("Table {table_id}")``); each has a stable
message id derived from it (``render-table-table-id``). The bot passes
``tr=translator(lambda key: i18n._(key, locale))``: a text whose id the catalog lacks
stays English. ``python -m bot.show.render.messages`` prints the ids as a ``.po`` fragment
for the catalogs (assets/locale/<lang>/LC_MESSAGES/belote.po).
"""

from __future__ import annotations

import re
from collections.abc import Callable

MESSAGES: tuple[str, ...] = (
    # hand
    "Table {table_id}",
    "Seat {seat}",
    "Your turn",
    "Trump",
    "Turned",
    "No trump",
    "All trump",
    # table
    "{ruleset} · deal {number}",
    "to {target}",
    "Bidding",
    "Contract",
    "{first} & {second}",
    "Contre",
    "Recontre",
    "Coinche",
    "Surcoinche",
    "Generale",
    "{points} hanging",
    "D",
    "Taker",
    "Belote",
    "Melds {points}",
    "Pass",
    "Take",
    "Last trick",
    "Match over",
    "Won by {team}",
    "On the table",
    "You lead",
    # deal result
    "Deal {number}",
    "Table {table_id} · deal {number}",
    "Made",
    "Set",
    "Dispute",
    "Hanging",
    "Contract taken by {name}",
    "Cards",
    "Cards and last trick",
    "Melds",
    "Capot",
    "Total",
    "Held points paid",
    "Scored",
    "Scored (in tens)",
    "{points} points held for the winner of the next deal",
    "Match",
    "was {points}",
    # standings
    "Standings",
    "Points",
    "Played",
    "Player",
    "No results yet",
    "and {count} more",
    # replay
    "Redeal: everyone passed",
    "{name}, contre",
    "{name}, recontre",
    "{name}, coinche",
    "{name}, surcoinche",
    "Start",
    "Trick {number}: {name} +{points}",
    "Trick {number} of 8",
    "Deal over",
    "Contract made",
    "Contract set",
    "Dispute: points held",
    "Points left hanging",
    "Card points",
)


def message_id(english: str) -> str:
    """``"Table {table_id}"`` -> ``"render-table-table-id"``: stable, ASCII, readable."""
    slug = re.sub(r"[^a-z0-9]+", "-", english.lower()).strip("-")
    return f"render-{slug}" if slug else "render-symbol"


def translator(lookup: Callable[[str], str]) -> Callable[[str], str]:
    """Turn a by-id lookup (the bot's gettext for one locale) into the renderer's ``tr``."""

    def tr(english: str) -> str:
        key = message_id(english)
        found = lookup(key)
        return english if not found or found == key else found

    return tr


def po_fragment() -> str:
    out = []
    for english in MESSAGES:
        text = english.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'msgid "{message_id(english)}"\nmsgstr "{text}"\n')
    return "\n".join(out)


if __name__ == "__main__":
    print(po_fragment())
