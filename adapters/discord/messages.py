"""Which Discord message shows which of the core's post keys.

Public posts (the table message, the commitment, the reveal) are kept in a small JSON file
next to the database, so the table message is still edited in place after a restart.
Private messages (a player's hand) are ephemeral: only the webhook of the interaction that
made them can edit them, and only for 15 minutes, so they live in memory with that
interaction, and a player's next click re-issues or refreshes them.

A private post that no live interaction can show goes by direct message instead: an
ordinary message of the bot, which it may edit for ever, so its id is kept in the same JSON
file under :func:`dm_key` (per user and post key) and the DM is edited in place after a
restart too. With it is kept whether that DM asks its user to act (see
:meth:`PublicMessages.asking`): Discord notifies a new message, never an edit, so a post
that asks them to act is sent as a new DM unless the DM already asks for that move, and
that must hold across a restart (the core shows every hand again when it resumes).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import discord

log = logging.getLogger(__name__)

#: An interaction token opens its webhook for 15 minutes; keep a margin.
TOKEN_TTL = 15 * 60.0 - 30.0
MAX_PUBLIC_KEYS = 10_000
_DM_PREFIX = "dm:"


def dm_key(user_id: str, post_key: str) -> str:
    """Where the direct message showing ``post_key`` to ``user_id`` is kept in the map
    (public post keys never start with ``dm:``)."""
    return f"{_DM_PREFIX}{user_id}|{post_key}"


class PublicMessages:
    """``post key -> (channel id, message id)``, persisted as JSON when a path is given;
    direct messages are in it too, under :func:`dm_key`, with whether they ask their user
    to act (``[channel, message, 1]`` in the file; a file without it reads as "no")."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._map: dict[str, tuple[int, int]] = {}
        self._asking: set[str] = set()
        if self.path is not None and self.path.is_file():
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
                self._map = {k: (int(v[0]), int(v[1])) for k, v in raw.items()}
                self._asking = {k for k, v in raw.items() if len(v) > 2 and v[2]}
            except (OSError, ValueError, TypeError, IndexError):
                log.warning("unreadable Discord message map %s: starting afresh", self.path)
                self._map, self._asking = {}, set()

    def get(self, key: str) -> tuple[int, int] | None:
        return self._map.get(key)

    def set(self, key: str, channel_id: int, message_id: int, *, asking: bool = False) -> None:
        """``key`` is shown by that message (``asking``: a DM that asks its user to act);
        written to disk only when something changed (a DM is edited at every move)."""
        if self._map.get(key) == (channel_id, message_id) and (key in self._asking) == asking:
            return
        self._map.pop(key, None)
        self._map[key] = (channel_id, message_id)
        if asking:
            self._asking.add(key)
        else:
            self._asking.discard(key)
        while len(self._map) > MAX_PUBLIC_KEYS:
            self._asking.discard(oldest := next(iter(self._map)))
            self._map.pop(oldest)
        self._save()

    def asking(self, key: str) -> bool:
        """Does the DM under ``key`` ask its user to act, in the newest version of its post
        they were shown? (Not once a version was shown elsewhere: see :meth:`outdated`.)"""
        return key in self._asking

    def outdated(self, key: str) -> None:
        """A newer version of the DM's post was shown elsewhere (an ephemeral message):
        what the DM asks, if anything, is over."""
        if key in self._asking:
            self._asking.discard(key)
            self._save()

    def dm_post_key(self, user_id: str, message_id: int) -> str | None:
        """The post key a direct message of ours to ``user_id`` shows, if it is one."""
        prefix = dm_key(user_id, "")
        for key, (_channel, message) in self._map.items():
            if message == message_id and key.startswith(prefix):
                return key[len(prefix) :]
        return None

    def forget(self, key: str) -> None:
        self._asking.discard(key)
        if self._map.pop(key, None) is not None:
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        try:
            raw = {k: [*v, 1] if k in self._asking else list(v) for k, v in self._map.items()}
            tmp.write_text(json.dumps(raw), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            log.exception("could not save the Discord message map")


@dataclass
class PrivateMessage:
    """An ephemeral message of ours, and the interaction whose webhook can edit it."""

    message_id: int
    interaction: discord.Interaction
    at: float  # when that interaction arrived (monotonic seconds)
    key: str | None  # the core's post key it shows; None for a keyless reply
    rich: bool  # a picture or buttons (a hand), not a one-line answer
    order: int  # creation order, for "the most recent one"
    original: bool  # the interaction's @original (else one of its follow-ups)


@dataclass
class Person:
    """One user's private side: their ephemeral messages and latest interaction."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    messages: dict[int, PrivateMessage] = field(default_factory=dict)
    by_key: dict[str, int] = field(default_factory=dict)
    applied: dict[str, int] = field(default_factory=dict)  # key -> seq of what is shown
    latest: discord.Interaction | None = None
    latest_at: float = 0.0
    locale: str | None = None  # of their latest interaction, for the channel notice
    counter: int = 0
    # True once the core gave a reply its post key (``Reply.key``): keyless replies are
    # then never taken for the hand (a replay picture is not a hand)
    exact: bool = False

    def touch(self, interaction: discord.Interaction, now: float) -> None:
        self.latest, self.latest_at = interaction, now

    def fresh_latest(self, now: float) -> discord.Interaction | None:
        if self.latest is not None and now - self.latest_at < TOKEN_TTL:
            return self.latest
        return None

    def remember(
        self,
        message_id: int,
        interaction: discord.Interaction,
        at: float,
        key: str | None,
        rich: bool,
        *,
        original: bool,
    ) -> PrivateMessage | None:
        """``message_id`` shows ``key`` from now on; returns the message that showed it
        until now, if another one (the adapter retires it: nothing stale stays pressable)."""
        self.counter += 1
        message = PrivateMessage(message_id, interaction, at, key, rich, self.counter, original)
        superseded = None
        if key is not None:
            old = self.by_key.get(key)
            if old is not None and old != message_id:
                superseded = self.messages.pop(old, None)
            self.by_key[key] = message_id
        previous = self.messages.get(message_id)
        if previous is not None and previous.key not in (None, key):
            self.by_key.pop(previous.key, None)  # type: ignore[arg-type]
        self.messages[message_id] = message
        return superseded

    def find(self, key: str, adopt: bool) -> PrivateMessage | None:
        """The message that shows ``key``: its own, or (``adopt``, for a core that does not
        set ``Reply.key``) a more recent keyless hand shown in answer to a reply."""
        candidates: list[PrivateMessage] = []
        own = self.by_key.get(key)
        if own is not None and own in self.messages:
            candidates.append(self.messages[own])
        if adopt and not self.exact:
            candidates += [m for m in self.messages.values() if m.key is None and m.rich]
        if not candidates:
            return None
        best = max(candidates, key=lambda m: m.order)
        if best.key is None:
            self.remember(
                best.message_id, best.interaction, best.at, key, best.rich, original=best.original
            )
            best = self.messages[best.message_id]
        return best

    def drop(self, message_id: int) -> None:
        message = self.messages.pop(message_id, None)
        if message is not None and message.key and self.by_key.get(message.key) == message_id:
            del self.by_key[message.key]

    def prune(self, now: float) -> None:
        """Forget messages whose webhook has expired: they can no longer be edited."""
        for message in list(self.messages.values()):
            if now - message.at >= TOKEN_TTL:
                self.drop(message.message_id)
