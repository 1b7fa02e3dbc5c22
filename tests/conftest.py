"""Fixtures every test directory may use: the database engines.

``db`` makes databases of the engine the test is parametrized with: every test that asks
for it runs once on SQLite (a file in ``tmp_path``) and once on PostgreSQL (a fresh
database on a throwaway server started once per session, see ``tests/pg.py``).
"""

from __future__ import annotations

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
