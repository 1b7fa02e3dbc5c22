"""The console platform: every post becomes lines on stdout.

Public posts print as ``#table | text``, private ones as ``@NAME | text`` (one line per line
of text). An edit that changes nothing is not printed again. Pictures, when the renderer
made one, are saved under ``images_dir`` (the same PNGs the chat platforms send).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TextIO

from bot.platform import Post, Reply

USER_PREFIX = "console:"


def user_name(user_id: str) -> str:
    return user_id[len(USER_PREFIX) :] if user_id.startswith(USER_PREFIX) else user_id


class ConsolePlatform:
    def __init__(self, out: TextIO | None = None, images_dir: str | Path | None = None) -> None:
        self.out = out or sys.stdout
        self.images_dir = Path(images_dir) if images_dir else None
        self._last: dict[str, str] = {}

    def _write(self, prefix: str, text: str) -> None:
        for line in text.split("\n"):
            self.out.write(f"{prefix} | {line}\n")
        self.out.flush()

    async def deliver(self, post: Post) -> None:
        key = f"{post.to_user or ''}|{post.key}"
        if self._last.get(key) == post.text:
            return
        self._last[key] = post.text
        prefix = "#table" if post.to_user is None else f"@{user_name(post.to_user)}"
        self._write(prefix, post.text)
        if post.image is not None and self.images_dir is not None:
            self.images_dir.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", post.key) + Path(post.image_name).suffix
            (self.images_dir / name).write_bytes(post.image)

    def reply(self, name: str, reply: Reply) -> None:
        self._write(f"@{name}", reply.text)
