"""The console platform: every post becomes lines on stdout.

Two ways to print, chosen by whether stdout is a terminal:

- **plain** (a script, a pipe, the tests): public posts print as ``#table | text``, private
  ones as ``@NAME | text`` (one line per line of text). A chat platform edits a post in
  place; a terminal cannot, so an edit prints only the lines that are new since the post's
  last version, and an edit that changes nothing prints nothing.
- **terminal** (:mod:`adapters.console.screen`): a compact, coloured table for a person.

Pictures are drawn only when asked for (``belote --pictures DIR``) and saved under
``images_dir`` (the same PNGs and GIFs the chat platforms send), one file per moment of the
game (match, deal, log position), so the files sort in the order they were made and a
moment shown again (after a resume) is not saved twice; a file an answer carries
(``/verify``'s transcript) is saved there too, else in the current directory.

Whatever someone typed is shown escaped (:func:`safe_line`): a name or a word cannot move
the cursor or rewrite another player's screen.
"""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from bot.platform import Post, Reply
from bot.show.i18n import _

USER_PREFIX = "console:"
DEFAULT_NAME = "you"  # the player's name when none is given and $USER is unset


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


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "picture"


class PictureShelf:
    """Pictures saved as files, never overwriting one another."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def save(self, stem: str, suffix: str, data: bytes) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        stem, suffix = _safe(stem), suffix or ".png"
        path = self.folder / f"{stem}{suffix}"
        if path.exists() and path.read_bytes() == data:
            return path  # the same moment shown again (a resume): one file, not two
        path.write_bytes(data)  # a moment drawn again: its latest picture
        return path

    def save_post(self, post: Post) -> Path | None:
        if post.image is None:
            return None
        what = post.key.split(":", 1)[0]
        if post.to_user is not None:
            what = f"{what}-{user_name(post.to_user)}"
        stem = f"{post.moment}-{what}" if post.moment else post.key
        return self.save(stem, Path(post.image_name).suffix, post.image)

    def save_reply(self, name: str, reply: Reply) -> Path | None:
        if reply.image is None:
            return None
        image = Path(reply.image_name)
        return self.save(f"{image.stem}-{name}", image.suffix, reply.image)


class ConsolePlatform:
    """Posts and replies to lines of text (``screen``: a person's terminal, see above)."""

    def __init__(
        self,
        out: TextIO | None = None,
        images_dir: str | Path | None = None,
        screen: object | None = None,
    ) -> None:
        self.out = out or sys.stdout
        self.images_dir = Path(images_dir) if images_dir else None
        self.shelf = PictureShelf(images_dir) if images_dir else None
        self.screen = screen  # an adapters.console.screen.Screen, or None for plain text
        self._last: dict[str, str] = {}
        self._muted = 0

    @contextlib.contextmanager
    def muted(self) -> Iterator[None]:
        """Show nothing of what the core posts meanwhile (the terminal tidying up old
        tables: their "This table is closed." is no news to the player)."""
        self._muted += 1
        try:
            yield
        finally:
            self._muted -= 1

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
        if self._muted:
            return
        if self.shelf is not None:
            self.shelf.save_post(post)
        if self.screen is not None:
            self.screen.show(post)  # type: ignore[attr-defined]
            return
        key = f"{post.to_user or ''}|{post.key}"
        before = self._last.get(key)
        if before == post.text:
            return
        self._last[key] = post.text
        prefix = "#table" if post.to_user is None else f"@{user_name(post.to_user)}"
        self._write(prefix, post.text if before is None else new_lines(before, post.text))

    def reply(self, name: str, reply: Reply, locale: str = "en") -> None:
        if self.shelf is not None:
            self.shelf.save_reply(name, reply)
        if self.screen is not None:
            self.screen.answer(name, reply)  # type: ignore[attr-defined]
        else:
            self._write(f"@{name}", reply.text)
        if reply.file is not None:
            folder = self.images_dir or Path.cwd()
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / re.sub(r"[^A-Za-z0-9_.-]+", "_", reply.file_name)
            path.write_bytes(reply.file)
            self.notice(_("file-saved", locale, path=str(path)), name)

    def notice(self, text: str, name: str = DEFAULT_NAME) -> None:
        """A line of the terminal itself (welcome, goodbye), not of the core."""
        if self.screen is not None:
            self.screen.notice(text)  # type: ignore[attr-defined]
            return
        self._write(f"@{name}", text)
