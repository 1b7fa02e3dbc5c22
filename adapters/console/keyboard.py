"""Lines typed at the terminal (or piped in), read without holding up the event loop.

A daemon thread reads the raw file descriptor and hands whole lines to the loop. Reading
the descriptor (not ``sys.stdin``) matters: a thread blocked in ``sys.stdin.readline`` holds
the buffered reader's lock, so the process could not exit until Enter was pressed, and
Python's shutdown could abort on that lock. A daemon thread blocked in ``os.read`` holds
nothing, so Ctrl-C, Ctrl-D or SIGTERM end the game at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import threading
from typing import TextIO


class LineReader:
    """``await reader.get()``: the next line (without its end), or None at end of input."""

    def __init__(self, stream: TextIO) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        try:
            fd: int | None = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            fd = None  # a StringIO in a test
        target = self._read_fd if fd is not None else self._read_stream
        arg: int | TextIO = fd if fd is not None else stream
        threading.Thread(target=target, args=(arg,), name="console-input", daemon=True).start()

    async def get(self) -> str | None:
        return await self._queue.get()

    def _put(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: the game is over
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)

    def _read_fd(self, fd: int) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(fd, 4096)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                self._put(raw.decode("utf-8", "replace").rstrip("\r"))
        if pending:
            self._put(pending.decode("utf-8", "replace").rstrip("\r"))
        self._put(None)

    def _read_stream(self, stream: TextIO) -> None:
        for line in iter(stream.readline, ""):
            self._put(line.rstrip("\r\n"))
        self._put(None)
