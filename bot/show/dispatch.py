"""Where the posts a room made go: to the platform, or into the answer.

A private post for the very user whose input is being handled, in that input's channel
(their new hand after their card, a notice), is part of the answer to that input: it
is kept in the input's :class:`bot.commands.inputs.Ctx` and leaves as a ``Reply`` (see
``Reply.post``), so an adapter shows it in answer to the click that caused it. Every
other post goes to the platform, in the order made, while the table's lock is held (the
platform only queues it: see docs/bot-api.md).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.commands.inputs import Ctx
from bot.platform import Platform, Post, Reply

log = logging.getLogger(__name__)


class Dispatch:
    """Hands posts to ``platform``, or to the answer of the input being handled."""

    def __init__(self, platform: Platform) -> None:
        self._platform = platform

    async def send(self, posts: Iterable[Post], ctx: Ctx | None = None) -> None:
        for post in posts:
            if ctx is not None and ctx.is_own(post):
                ctx.own.append(post)
                continue
            try:
                await self._platform.deliver(post)
            except Exception:
                log.exception("could not deliver post %s", post.key)


def answer(ctx: Ctx, replies: list[Reply]) -> list[Reply]:
    """The whole answer to an input: the room's own replies (one of which may show a post
    itself, as ``/hand`` does: then that one stands for its key), then the newest version
    of each of the author's own posts it made, in the order first made."""
    newest: dict[str, Post] = {}
    for post in ctx.own:
        known = newest.get(post.key)
        if known is None or post.version >= known.version:
            newest[post.key] = post
    keyed = {r.key for r in replies if r.key is not None}
    own = [Reply.showing(p) for k, p in newest.items() if k not in keyed]
    return replies + own
