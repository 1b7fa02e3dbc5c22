"""A match log's entries as typed values.

The database keeps an entry as a kind and a JSON object (:class:`bot.store.LogEntry`,
unchanged since the first migration, so every stored match still replays). In the core an
entry is one of the dataclasses below: :func:`encode` gives the stored ``(kind, data)``,
:func:`decode` reads a stored entry back, and :meth:`bot.play.table.MatchRun.apply` matches
on the type. A misspelled kind or a missing field is then a type error, not a silent
branch that never runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.store.records import LogEntry


class EntryKind(StrEnum):
    """The ``kind`` column of the match log."""

    START = "start"
    SEED = "seed"
    SEEDS_CLOSED = "seeds_closed"
    DRAND = "drand"
    DRAND_TIMEOUT = "drand_timeout"
    ACTION = "action"
    BACK = "back"
    INTENT = "intent"
    LEAVE = "leave"
    ABORT = "abort"
    END = "end"


class By(StrEnum):
    """Who made an action: the seated person, a bot seat, the AI standing in for a person
    away or gone, or the AI because the turn timer ran out."""

    PLAYER = "player"
    BOT = "bot"
    STANDIN = "standin"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Started:
    """The match begins: seats, settings, the server seed (secret until the reveal)."""

    data: dict[str, Any]  # see MatchRun.start_data: read by MatchRun.from_start


@dataclass(frozen=True)
class SeedGiven:
    seat: int
    seed: str  # hex


@dataclass(frozen=True)
class SeedsClosed:
    round: int | None  # drand's round named for the deal, None without drand
    due: float | None


@dataclass(frozen=True)
class DrandReceived:
    round: int
    randomness: str  # hex
    signature: str  # hex


@dataclass(frozen=True)
class DrandTimedOut:
    round: int | None


@dataclass(frozen=True)
class ActionTaken:
    seat: int
    action: str  # engine.Action text
    by: By


@dataclass(frozen=True)
class CameBack:
    seat: int


@dataclass(frozen=True)
class BeloteIntent:
    seat: int
    belote: bool


@dataclass(frozen=True)
class Left:
    seat: int
    kicked: bool


@dataclass(frozen=True)
class Aborted:
    by: str  # a user id, or "tournament"
    reason: str | None = None


@dataclass(frozen=True)
class Ended:
    winner: int | None
    scores: tuple[int, int] | None


Entry = (
    Started
    | SeedGiven
    | SeedsClosed
    | DrandReceived
    | DrandTimedOut
    | ActionTaken
    | CameBack
    | BeloteIntent
    | Left
    | Aborted
    | Ended
)


def encode(e: Entry) -> tuple[EntryKind, dict[str, Any]]:
    """The stored form of an entry: its kind and its JSON object (as the log always had)."""
    match e:
        case Started(data):
            return EntryKind.START, data
        case SeedGiven(seat, seed):
            return EntryKind.SEED, {"seat": seat, "seed": seed}
        case SeedsClosed(rnd, due):
            return EntryKind.SEEDS_CLOSED, {"round": rnd, "due": due}
        case DrandReceived(rnd, randomness, signature):
            return EntryKind.DRAND, {
                "round": rnd,
                "randomness": randomness,
                "signature": signature,
            }
        case DrandTimedOut(rnd):
            return EntryKind.DRAND_TIMEOUT, {"round": rnd}
        case ActionTaken(seat, action, by):
            return EntryKind.ACTION, {"seat": seat, "action": action, "by": str(by)}
        case CameBack(seat):
            return EntryKind.BACK, {"seat": seat}
        case BeloteIntent(seat, belote):
            return EntryKind.INTENT, {"seat": seat, "belote": belote}
        case Left(seat, kicked):
            return EntryKind.LEAVE, {"seat": seat, "kicked": kicked}
        case Aborted(by, reason):
            if reason is None:
                return EntryKind.ABORT, {"by": by}
            return EntryKind.ABORT, {"by": by, "reason": reason}
        case Ended(winner, scores):
            if scores is None:
                return EntryKind.END, {}
            return EntryKind.END, {"winner": winner, "scores": list(scores)}
    raise TypeError(f"not a log entry: {e!r}")


def decode(e: LogEntry) -> Entry:
    """A stored entry as its typed value; ValueError for a kind the log never had."""
    d = e.data
    try:
        kind = EntryKind(e.kind)
    except ValueError:
        raise ValueError(f"unknown log entry kind {e.kind!r}") from None
    match kind:
        case EntryKind.START:
            return Started(d)
        case EntryKind.SEED:
            return SeedGiven(d["seat"], d["seed"])
        case EntryKind.SEEDS_CLOSED:
            return SeedsClosed(d.get("round"), d.get("due"))
        case EntryKind.DRAND:
            return DrandReceived(d["round"], d["randomness"], d["signature"])
        case EntryKind.DRAND_TIMEOUT:
            return DrandTimedOut(d.get("round"))
        case EntryKind.ACTION:
            return ActionTaken(d["seat"], d["action"], By(d["by"]))
        case EntryKind.BACK:
            return CameBack(d["seat"])
        case EntryKind.INTENT:
            return BeloteIntent(d["seat"], bool(d.get("belote")))
        case EntryKind.LEAVE:
            return Left(d["seat"], bool(d.get("kicked")))
        case EntryKind.ABORT:
            return Aborted(str(d.get("by", "")), d.get("reason"))
        case EntryKind.END:
            scores = d.get("scores")
            return Ended(d.get("winner"), None if scores is None else (scores[0], scores[1]))


def entry(match_id: int, seq: int, at: float, e: Entry) -> LogEntry:
    """The stored entry of ``e`` at log position ``seq``."""
    kind, data = encode(e)
    return LogEntry(match_id, seq, at, str(kind), data)
