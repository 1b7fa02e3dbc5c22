"""The console platform: every post becomes lines on stdout.

Public posts print as ``#table | text``, private ones as ``@NAME | text`` (one line per line
of text). A chat platform edits a post in place; a terminal cannot, so an edit prints only
the lines that are new since the post's last version (the bids so far, whose turn it is,
the trick), and an edit that changes nothing prints nothing. Pictures, when the renderer
made one, are saved under ``images_dir`` (the same PNGs the chat platforms send); a file an
answer carries (``/verify``'s transcript) there too, else in the current directory.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path
from typing import TextIO

from bot.i18n import _
from bot.platform import Post, Reply

USER_PREFIX = "console:"


def user_name(user_id: str) -> str:
    return user_id[len(USER_PREFIX) :] if user_id.startswith(USER_PREFIX) else user_id


def safe_line(line: str) -> str:
    """A line fit for a terminal: control and invisible characters (ANSI escapes, NUL,
    carriage returns, bidirectional overrides) written as escapes (``\\x1b``), so a
    name or a word someone typed cannot move the cursor or rewrite another player's
    screen. Everything else, accents and card suits included, is printed as is."""
    if line.isprintable():
        return line
    return "".join(ascii(ch)[1:-1] if _hidden(ch) else ch for ch in line)


def _hidden(ch: str) -> bool:
    """Control, format, surrogate, private or unassigned, or a line break of its own;
    a no-break space (French text has one before each colon) is shown as a space."""
    kind = unicodedata.category(ch)
    return kind[0] == "C" or kind in ("Zl", "Zp")


def new_lines(before: str, after: str) -> str:
    """The lines of ``after`` that ``before`` did not have, in order."""
    seen = set(before.split("\n"))
    return "\n".join(line for line in after.split("\n") if line not in seen)


class ConsolePlatform:
    def __init__(self, out: TextIO | None = None, images_dir: str | Path | None = None) -> None:
        self.out = out or sys.stdout
        self.images_dir = Path(images_dir) if images_dir else None
        self._last: dict[str, str] = {}

    def _write(self, prefix: str, text: str) -> None:
        if not text:
            return
        for line in text.split("\n"):
            self.out.write(f"{safe_line(prefix)} | {safe_line(line)}\n")
        self.out.flush()

    def serves(self, channel_id: str) -> bool:
        """The core's channels this process serves (on a shared database, the terminal's
        only: another platform's tables are left to that platform's processes)."""
        return channel_id.startswith("console:")

    async def deliver(self, post: Post) -> None:
        key = f"{post.to_user or ''}|{post.key}"
        before = self._last.get(key)
        if before == post.text:
            return
        self._last[key] = post.text
        prefix = "#table" if post.to_user is None else f"@{user_name(post.to_user)}"
        self._write(prefix, post.text if before is None else new_lines(before, post.text))
        if post.image is not None and self.images_dir is not None:
            self.images_dir.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", post.key) + Path(post.image_name).suffix
            (self.images_dir / name).write_bytes(post.image)

    def reply(self, name: str, reply: Reply, locale: str = "en") -> None:
        self._write(f"@{name}", reply.text)
        if reply.file is not None:
            folder = self.images_dir or Path.cwd()
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / re.sub(r"[^A-Za-z0-9_.-]+", "_", reply.file_name)
            path.write_bytes(reply.file)
            self._write(f"@{name}", _("file-saved", locale, path=str(path)))
