"""A table and the match it is playing, rebuilt from the match's log.

:class:`MatchRun` is the in-memory state of one match. It changes only through
:meth:`MatchRun.apply`, which takes one log entry: the app feeds it each entry right after
the entry is committed, and a restart feeds it the whole log. So a resumed match is, by
construction, the match that was running.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.play.entries import (
    Aborted,
    ActionTaken,
    BeloteIntent,
    By,
    CameBack,
    DrandReceived,
    DrandTimedOut,
    Ended,
    Left,
    SeedGiven,
    SeedsClosed,
    Started,
    decode,
)
from bot.store.records import LogEntry, TableRow
from engine import Action, DeckInputs, Event, Match, TableRules

LEVELS = ("easy", "normal", "hard", "expert")
BOT_NAMES = ("Ada", "Bruno", "Chloe", "Dario")
SEATS = 4


@dataclass
class Seat:
    """Who sits where: a human (``user_id``) or a bot (``level``)."""

    kind: str  # "human" | "bot"
    name: str
    user_id: str | None = None
    level: str = "normal"
    locale: str = "en"

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> Seat | None:
        return None if d is None else cls(**d)


@dataclass
class TableSettings:
    ruleset: str = "club"
    target: int | None = None
    timer: float = 60.0
    seed_window: float = 20.0
    rated: bool = False
    ai_level: str = "normal"  # who plays a turn that timed out, and for an away player
    options: dict[str, bool] = field(default_factory=dict)  # TableRules' options set
    # the table's picture and moves shown in its channel (False: to the seated only)
    spectators: bool = True

    @property
    def rules(self) -> TableRules:
        """The ruleset, target and options as the engine takes them (validated)."""
        return TableRules(self.ruleset, self.target, **self.options)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableSettings:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class Table:
    """A table in a channel: seats, host, settings, and the match in progress if any."""

    id: int
    channel: str
    host: str
    settings: TableSettings
    seats: list[Seat | None]
    status: str = "open"  # "open" | "playing" | "closed"
    created_at: float = 0.0
    updated_at: float = 0.0
    run: MatchRun | None = None
    last_match: int | None = None  # the latest match played here (for /verify, /score)
    ref: str | None = None  # a tournament table's key (TableRequest.key)
    reserved: list[str | None] = field(default_factory=lambda: [None] * SEATS)
    title: str = ""

    @property
    def tid(self) -> str:
        return f"t{self.id}"

    def reset_to(self, stored: Table) -> None:
        """Take the state of ``stored``, this same table as read back from the store
        (after a failed commit: memory never runs ahead of the database). The object
        stays the one every room and the registry hold."""
        if stored.id != self.id:
            raise ValueError(f"table t{stored.id} is not t{self.id}")
        self.channel, self.host, self.settings = stored.channel, stored.host, stored.settings
        self.seats, self.status, self.run = stored.seats, stored.status, stored.run
        self.created_at, self.updated_at = stored.created_at, stored.updated_at
        self.last_match, self.ref = stored.last_match, stored.ref
        self.reserved, self.title = stored.reserved, stored.title

    def seat_of(self, user_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.user_id == user_id:
                return i
        if self.run is not None and not self.run.over:
            for i, s in enumerate(self.run.seats):
                if s.user_id == user_id and not self.run.left[i]:
                    return i
        return None

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s is not None and not s.is_bot]

    def row(self, now: float) -> TableRow:
        return TableRow(
            id=self.id,
            channel=self.channel,
            host=self.host,
            settings={
                **self.settings.to_json(),
                "last_match": self.last_match,
                "ref": self.ref,
                "reserved": self.reserved,
                "title": self.title,
            },
            seats=[s.to_json() if s else None for s in self.seats],
            status=self.status,
            match_id=self.run.id if self.run is not None and not self.run.over else None,
            created_at=self.created_at,
            updated_at=now,
        )

    @classmethod
    def from_row(cls, r: TableRow) -> Table:
        return cls(
            id=r.id,
            channel=r.channel,
            host=r.host,
            settings=TableSettings.from_json(r.settings),
            seats=[Seat.from_json(s) for s in r.seats],
            status=r.status,
            created_at=r.created_at,
            updated_at=r.updated_at,
            last_match=r.settings.get("last_match"),
            ref=r.settings.get("ref"),
            reserved=list(r.settings.get("reserved") or [None] * SEATS),
            title=r.settings.get("title") or "",
        )


def ai_seed(root: bytes, seq: int) -> int:
    """The seed of the bot deciding at log position ``seq``: a resumed match replays it."""
    return int.from_bytes(hashlib.sha256(root + seq.to_bytes(8, "big")).digest()[:8], "big")


@dataclass
class MatchRun:
    """One match's state, derived from its log entries only."""

    id: int
    table_id: int
    seats: list[Seat]
    ruleset: str
    target: int | None
    server_seed: bytes = field(repr=False)
    commitment: str
    ai_root: bytes = field(repr=False)
    seed_window: float
    timer: float
    use_drand: bool
    ai_level: str
    started_at: float
    options: dict[str, bool] = field(default_factory=dict)  # the table's rule options
    seq: int = 1  # the next log position (the start entry is 0)
    last_at: float = 0.0
    phase: str = "seeds"  # "seeds" | "drand" | "play" | "over"
    seat_seeds: list[bytes | None] = field(default_factory=lambda: [None] * SEATS)
    drand_round: int | None = None
    drand_due: float | None = None
    drand_value: bytes | None = None
    drand_status: str = "off"  # "off" | "pending" | "ok" | "timeout"
    match: Match | None = None
    timeouts: list[int] = field(default_factory=lambda: [0] * SEATS)
    replaced: list[bool] = field(default_factory=lambda: [False] * SEATS)
    left: list[bool] = field(default_factory=lambda: [False] * SEATS)
    belote_intent: list[bool] = field(default_factory=lambda: [False] * SEATS)
    aborted: bool = False
    # Coinche's two-step bid: seat -> (log position, value) a player picked before the
    # contract. Not an input of the match (nothing is logged): a restart or any move
    # shows the values again.
    bid_draft: dict[int, tuple[int, int]] = field(default_factory=dict)
    last_action: tuple[int, str, By] | None = None  # seat, action text, by
    entries: list[LogEntry] = field(default_factory=list)

    # --- building ------------------------------------------------------------------------

    @classmethod
    def start_data(
        cls,
        seats: list[Seat],
        settings: TableSettings,
        server_seed: bytes,
        commitment: str,
        ai_root: bytes,
        seed_window: float,
        use_drand: bool,
    ) -> dict[str, Any]:
        return {
            "seats": [s.to_json() for s in seats],
            "ruleset": settings.ruleset,
            "target": settings.target,
            "options": settings.rules.options,
            "server_seed": server_seed.hex(),
            "commitment": commitment,
            "ai_seed": ai_root.hex(),
            "seed_window": seed_window,
            "timer": settings.timer,
            "drand": use_drand,
            "ai_level": settings.ai_level,
        }

    @classmethod
    def from_start(cls, entry: LogEntry, table_id: int) -> MatchRun:
        d = entry.data
        return cls(
            id=entry.match_id,
            table_id=table_id,
            seats=[Seat(**s) for s in d["seats"]],
            ruleset=d["ruleset"],
            target=d["target"],
            options=dict(d.get("options") or {}),
            server_seed=bytes.fromhex(d["server_seed"]),
            commitment=d["commitment"],
            ai_root=bytes.fromhex(d["ai_seed"]),
            seed_window=float(d["seed_window"]),
            timer=float(d["timer"]),
            use_drand=bool(d["drand"]),
            ai_level=d["ai_level"],
            started_at=entry.at,
            last_at=entry.at,
            entries=[entry],
        )

    @classmethod
    def replay(cls, entries: list[LogEntry], table_id: int) -> MatchRun:
        run = cls.from_start(entries[0], table_id)
        for e in entries[1:]:
            run.apply(e)
        return run

    # --- questions -----------------------------------------------------------------------

    def drafted_value(self, seat: int) -> int | None:
        """The Coinche value ``seat`` picked at this very position, if any (see
        ``bid_draft``); a value picked before the last move is forgotten."""
        picked = self.bid_draft.get(seat)
        return picked[1] if picked is not None and picked[0] == self.seq else None

    @property
    def rules(self) -> TableRules:
        """The rules this match started with (a later change of settings leaves them)."""
        return TableRules(self.ruleset, self.target, **self.options)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_move(self) -> int | None:
        if self.phase != "play" or self.match is None:
            return None
        return self.match.to_move

    def is_auto(self, seat: int) -> bool:
        """Does a bot decide this seat's moves (a bot seat, or a player away or gone)?"""
        return self.seats[seat].is_bot or self.replaced[seat] or self.left[seat]

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_bot and not self.left[i]]

    def waiting_for_seeds(self) -> list[int]:
        return [i for i in self.human_seats() if self.seat_seeds[i] is None]

    def deck_inputs(self) -> DeckInputs:
        return DeckInputs(
            server_seed=self.server_seed,
            seat_seeds=tuple(self.seat_seeds),
            drand_round=self.drand_round if self.drand_value is not None else None,
            drand_value=self.drand_value,
        )

    def level_for(self, seat: int) -> str:
        s = self.seats[seat]
        return s.level if s.is_bot else self.ai_level

    # --- the one way state changes ---------------------------------------------------------

    def apply(self, e: LogEntry) -> list[Event]:
        """Apply one committed log entry; returns the engine events it caused."""
        if e.seq != self.seq:
            raise ValueError(f"log entry {e.seq} of match {self.id} out of order")
        typed = decode(e)
        self.seq += 1
        self.last_at = e.at
        self.entries.append(e)
        events: list[Event] = []
        match typed:
            case SeedGiven(seat, seed):
                self.seat_seeds[seat] = bytes.fromhex(seed)
            case SeedsClosed(rnd, due):
                self.drand_round = rnd
                self.drand_due = due
                if rnd is None:
                    events = self._deal()
                else:
                    self.phase = "drand"
                    self.drand_status = "pending"
            case DrandReceived(_, randomness, _):
                self.drand_value = bytes.fromhex(randomness)
                self.drand_status = "ok"
                events = self._deal()
            case DrandTimedOut():
                self.drand_status = "timeout"
                events = self._deal()
            case ActionTaken(seat, action, by):
                assert self.match is not None
                events = self.match.apply(seat, Action.parse(action))
                self.last_action = (seat, action, by)
                self.belote_intent[seat] = False
                if by is By.TIMEOUT:
                    self.timeouts[seat] += 1
                    if self.timeouts[seat] >= 2:
                        self.replaced[seat] = True
                elif by is By.PLAYER:
                    self.timeouts[seat] = 0
                if self.match.to_move is None:
                    self.phase = "over"
            case CameBack(seat):
                self.replaced[seat] = False
                self.timeouts[seat] = 0
            case BeloteIntent(seat, belote):
                self.belote_intent[seat] = belote
            case Left(seat, _):
                self.left[seat] = True
            case Aborted():
                self.aborted = True
                self.phase = "over"
            case Ended():
                self.phase = "over"
            case Started():
                raise ValueError(f"match {self.id} started twice")
        return events

    def entry_at(self, seq: int) -> ActionTaken | None:
        """The action logged at ``seq`` (to tell a double press from a stale one)."""
        if not 0 < seq < len(self.entries):
            return None
        typed = decode(self.entries[seq])
        return typed if isinstance(typed, ActionTaken) else None

    def _deal(self) -> list[Event]:
        self.match = Match(self.rules, inputs=self.deck_inputs())
        self.phase = "play"
        return []
