"""Fixtures every test directory may use: the database engines.

``db`` makes databases of the engine the test is parametrized with: every test that asks
for it runs once on SQLite (a file in ``tmp_path``) and once on PostgreSQL (a fresh
database on a throwaway server started once per session, see ``tests/pg.py``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.pg import PgServer

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = PgServer.start()  # raises (the test errors, loudly) when no server can start
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db(backend: str, tmp_path, request: pytest.FixtureRequest) -> Callable[[str], str]:
    """``db(name)``: a new database of this test's engine (a path or a URL)."""

    def make(name: str = "bot") -> str:
        if backend == "sqlite":
            return str(tmp_path / f"{name}.db")
        return request.getfixturevalue("pg_server").create_database()

    return make


# --- a database left open ------------------------------------------------------------------
# aiosqlite runs each connection on a thread that is not a daemon: a test that forgets to
# close its store leaves the interpreter waiting for that thread at exit, and the whole run
# hangs after its last test. The hooks below name the test that opened it and end the run
# as failed instead.

_opened_by: dict[int, str] = {}


def _database_threads() -> dict[int, threading.Thread]:
    return {
        t.ident: t
        for t in threading.enumerate()
        if t.ident is not None and "connection_worker" in t.name and not t.daemon
    }


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    for ident in _database_threads():
        _opened_by.setdefault(ident, nodeid)


def pytest_unconfigure(config: pytest.Config) -> None:
    time.sleep(0.5)  # a store closed in the last test lets its thread go
    left = [i for i, t in _database_threads().items() if t.is_alive()]
    if not left:
        return
    for ident in left:
        culprit = _opened_by.get(ident, "a fixture or the session")
        print(f"\nA database connection was left open by {culprit}", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(3)  # its thread would keep the interpreter from exiting
