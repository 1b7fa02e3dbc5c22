"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary directory,
on 127.0.0.1 and a free port, stopped and deleted at the end.

It uses the OS package's server (``/usr/lib/postgresql/<version>/bin``; ``.ci/run``
installs it when it is missing). PostgreSQL refuses to run as root, so as root the
cluster belongs to the ``postgres`` user and every server command runs as that user.
Nothing here is skipped quietly: no server means an error that says why.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class NoPostgres(RuntimeError):
    pass


def server_bin() -> Path:
    """The newest installed PostgreSQL's bin directory."""
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoPostgres(
        "No PostgreSQL server binaries (initdb, pg_ctl) on this machine: the PostgreSQL "
        "tests need a real server. Install it with `apt-get update && apt-get install -y "
        "postgresql` (.ci/run does it)."
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PgServer:
    bin: Path
    root: Path
    port: int
    _names: itertools.count
    options: str = ""

    @classmethod
    def start(cls, *, durable: bool = False) -> PgServer:
        """initdb + pg_ctl start; ``durable=False`` turns fsync off (tests do not survive
        a power cut, and need not)."""
        bindir = server_bin()
        root = Path(tempfile.mkdtemp(prefix="belote-pg-"))
        as_root = os.geteuid() == 0
        if as_root:
            shutil.chown(root, "postgres", "postgres")
        server = cls(bindir, root, _free_port(), itertools.count(1))
        options = f"-p {server.port} -k {root} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        server.options = options
        try:
            server._run("initdb", "-D", str(root / "data"), "-A", "trust", "-U", "postgres", "-N")
            server._run(
                "pg_ctl", "-D", str(root / "data"), "-o", options, "-l", str(root / "log"), "-w",
                "start",
            )  # fmt: skip
        except (subprocess.CalledProcessError, OSError) as exc:
            log = ""
            with contextlib.suppress(OSError):
                log = (root / "log").read_text()[-2000:]
            shutil.rmtree(root, ignore_errors=True)
            raise NoPostgres(f"could not start PostgreSQL from {bindir}: {exc}\n{log}") from exc
        return server

    def _run(self, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "belote") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{next(self._names)}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def halt(self) -> None:
        """Stop the server, keeping its data (an outage): :meth:`resume` starts it again
        on the same port."""
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.root / "data"), "-o", self.options,
            "-l", str(self.root / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
