"""``/start`` deep links: how a group button opens the private chat with a hand in it.

A bot may not write first to a user, and a button in a group cannot open a private
message; a URL button to ``https://t.me/<bot>?start=<payload>`` can. The payload (at
most 64 characters of ``A-Za-z0-9_-``) names the table and its chat, so the ``/start``
that comes back from the private chat asks the core for that hand at that table:
``t3_-1001234567890_45`` is table t3 in chat -1001234567890, forum topic 45.

The core's "Open my hand" button is recognised by its action (``t3:<seq>:-:hand``); every
other button stays a callback button carrying the core's action unchanged.

An admin's ``/settings`` in a group is answered in the private chat (its keyboard changes
them); when that chat is not open yet, the group's answer links to ``st_<chat>[_<topic>]``,
and the ``/start`` that comes back shows that group's settings there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.platform import Channel

from . import ids

# ASCII digits, bounded: a /start typed by hand may carry anything (see bot.commands.parse)
HAND_ACTION = re.compile(r"^(t[0-9]{1,18}):[0-9]{1,9}:-:hand$")
PAYLOAD = re.compile(r"^(t[0-9]{1,18})_(-?[0-9]{1,19})(?:_([0-9]{1,19}))?$")
SETTINGS_PAYLOAD = re.compile(r"^st_(-[0-9]{1,19})(?:_([0-9]{1,19}))?$")


@dataclass(frozen=True)
class HandLink:
    table: str  # the core's table id, "t3"
    channel: Channel

    def payload(self) -> str:
        chat, thread = ids.chat_of(self.channel)
        return f"{self.table}_{chat}" + (f"_{thread}" if thread else "")


def hand_link(action: str, channel: Channel) -> HandLink | None:
    """The link for a core "Open my hand" action shown in ``channel``, else None."""
    match = HAND_ACTION.match(action)
    if match is None:
        return None
    try:
        ids.chat_of(channel)
    except ValueError:
        return None
    return HandLink(match.group(1), channel)


def parse_payload(payload: str) -> HandLink | None:
    match = PAYLOAD.match(payload)
    if match is None:
        return None
    thread = int(match.group(3)) if match.group(3) else None
    return HandLink(match.group(1), ids.channel(int(match.group(2)), thread))


def settings_payload(channel: Channel) -> str:
    """The ``/start`` payload that opens ``channel``'s settings in the private chat."""
    chat, thread = ids.chat_of(channel)
    return f"st_{chat}" + (f"_{thread}" if thread else "")


def parse_settings_payload(payload: str) -> Channel | None:
    """The group channel whose settings a ``/start st_...`` asks for, else None."""
    match = SETTINGS_PAYLOAD.match(payload)
    if match is None:
        return None
    thread = int(match.group(2)) if match.group(2) else None
    return ids.channel(int(match.group(1)), thread)
