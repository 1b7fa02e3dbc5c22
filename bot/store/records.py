"""What goes into the database and comes out of it: plain values, no I/O.

A match's log is a list of :class:`LogEntry` (its typed content is
:mod:`bot.play.entries`); a table is a :class:`TableRow`; a :class:`Write` is one unit of
change, committed atomically by :meth:`bot.store.base.Store.write`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LogEntry:
    match_id: int
    seq: int
    at: float
    kind: str
    data: dict[str, Any] = field(repr=False)  # the start entry holds the server seed


@dataclass(frozen=True)
class TableRow:
    id: int
    channel: str
    host: str
    settings: dict[str, Any]
    seats: list[Any]
    status: str  # "open" | "playing" | "closed"
    match_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class MatchRow:
    id: int
    table_id: int
    channel: str
    ruleset: str
    commitment: str
    started_at: float
    ended_at: float | None
    status: str  # "playing" | "over" | "aborted"


@dataclass(frozen=True)
class TableDeadline:
    """When a table is due to move next (a turn timer, a bot's pause, the seed window,
    drand's grace); ``nonce`` is the log position it was armed at, so a stale one is
    recognised when it fires."""

    table_id: int
    kind: str
    due: float
    nonce: int


@dataclass
class Write:
    """One unit of change, committed atomically (possibly with other callers' units)."""

    tables: list[TableRow] = field(default_factory=list)
    new_matches: list[MatchRow] = field(default_factory=list)
    logs: list[LogEntry] = field(default_factory=list)
    ended_matches: list[tuple[int, float, str]] = field(default_factory=list)
    # table id -> TableDeadline, or None to clear it
    deadlines: dict[int, TableDeadline | None] = field(default_factory=dict)

    def __repr__(self) -> str:
        # libraries log their arguments (aiosqlite at DEBUG): never the entries' data
        return (
            f"Write(tables={len(self.tables)}, new_matches={len(self.new_matches)}, "
            f"logs={len(self.logs)}, ended={len(self.ended_matches)}, "
            f"deadlines={len(self.deadlines)})"
        )

    def touched(self) -> set[int]:
        """The tables this unit changes: the ones whose lease its commit must hold. A log
        entry always travels with its table's deadline (or its new match), which names it."""
        ids = {t.id for t in self.tables} | {m.table_id for m in self.new_matches}
        ids |= set(self.deadlines)
        if (self.logs or self.ended_matches) and not ids:
            raise ValueError("a write to a match log must name its table")
        return ids

    def merge(self, other: Write) -> None:
        self.tables += other.tables
        self.new_matches += other.new_matches
        self.logs += other.logs
        self.ended_matches += other.ended_matches
        self.deadlines.update(other.deadlines)


class LeaseLost(Exception):
    """This process no longer holds the table (another one took it over): nothing of the
    write was committed, and the table is not ours to show or change any more.

    A fault of the database's leases, not the user's input: it is no ``Refused``. The app
    answers the one who acted with the "table gone" text, and drops the table here."""

    def __init__(self, table_ids: set[int]) -> None:
        super().__init__(f"tables held by another process: {sorted(table_ids)}")
        self.table_ids = table_ids


class StaleCopy(LeaseLost):
    """The table is this process's, but its copy here is behind the match log: another
    process ran it while this one had lost the lease (a stall), and this process took it
    back. The commit checked the log's last position before writing and wrote nothing;
    the table is rebuilt from the log once (``Journal``), not dropped.

    A ``LeaseLost``: every caller that already treats a lost lease quietly (a deadline, a
    command's answer) does so for a stale copy too."""

    def __init__(self, table_ids: set[int]) -> None:
        LeaseLost.__init__(self, table_ids)
        self.args = (f"tables behind their match log here: {sorted(table_ids)}",)
