"""The life of an event with rounds, whatever its format: rounds, results, withdrawals.

A format subclass says how a round is paired (`_plan`), what a result leads to
(`_after_record`), when the event is over and how the table is ordered. The whole
state is plain data (`to_json`), so the runner stores it after every change.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.tournaments.model import Format, Match, NoPairing, Numbers, Outcome, RoundPlan, Standing


class Event:
    format: ClassVar[Format]

    def __init__(
        self,
        entrants: int,
        numbers: Numbers | None = None,
        ratings: dict[int, float] | None = None,
    ) -> None:
        if entrants < 2:
            raise ValueError("an event needs at least two entrants")
        self.numbers = numbers or Numbers()
        self.entrants: list[int] = list(range(1, entrants + 1))  # 1 = highest rated
        self.ratings: dict[int, float] = ratings or {e: float(-e) for e in self.entrants}
        self.round = 0
        self.matches: list[Match] = []
        self.byes: dict[int, list[int]] = {}
        self.withdrawn: dict[int, int] = {}  # entrant -> round in which they withdrew
        self.finished = False
        self.end_reason: str | None = None

    # --- what is going on -------------------------------------------------------------
    def active(self) -> list[int]:
        return [e for e in self.entrants if e not in self.withdrawn]

    def pending(self) -> list[Match]:
        return [m for m in self.matches if not m.decided]

    def match(self, match_id: int) -> Match:
        if 0 < match_id <= len(self.matches) and self.matches[match_id - 1].id == match_id:
            return self.matches[match_id - 1]  # ids are dense unless a correction dropped games
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)

    def round_matches(self, r: int | None = None) -> list[Match]:
        r = self.round if r is None else r
        return [m for m in self.matches if m.round == r]

    def round_complete(self) -> bool:
        return self.round > 0 and not any(not m.decided for m in self.round_matches())

    def is_over(self) -> bool:
        raise NotImplementedError

    # --- driving it ------------------------------------------------------------------
    def start_round(self) -> RoundPlan:
        """Pair the next round and create its matches. Raises NoPairing (and ends the
        event) when the format's rules cannot be kept."""
        if self.finished:
            raise RuntimeError("the event is over")
        if self.round and not self.round_complete():
            raise RuntimeError("the current round is not finished")
        try:
            plan = self._plan(self.round + 1)
        except NoPairing as exc:
            self.finish(str(exc) or "no pairing is possible")
            raise
        self.round = plan.round
        self.byes[plan.round] = list(plan.byes)
        for a, b in plan.pairings:
            self._new_match(a, b)
        self._forfeit_withdrawn()
        return plan

    def record(
        self,
        match_id: int,
        outcome: Outcome,
        score_a: int = 0,
        score_b: int = 0,
        *,
        forfeit: bool = False,
    ) -> list[Match]:
        """Record a result; returns any matches it creates (a replay, the next game of a
        best of three)."""
        m = self.match(match_id)
        if m.decided:
            raise ValueError(f"match {match_id} already has a result")
        m.outcome, m.score_a, m.score_b, m.forfeit = outcome, score_a, score_b, forfeit
        before = len(self.matches)
        self._after_record(m)
        self._forfeit_withdrawn()
        return self.matches[before:]

    def correct(self, match_id: int, outcome: Outcome, score_a: int = 0, score_b: int = 0) -> None:
        """An organiser's correction of a recorded result (the runner keeps the audit)."""
        m = self.match(match_id)
        if not m.decided:
            raise ValueError(f"match {match_id} has no result yet")
        self._check_correctable(m)
        m.outcome, m.score_a, m.score_b, m.forfeit = outcome, score_a, score_b, False

    def withdraw(self, *entrants: int) -> list[Match]:
        """Withdraw (or drop) entrants: they keep what they scored, lose the match they are
        in, and are not paired again. Several at once when they leave together (nobody
        at a table turned up: both sides lose it)."""
        for entrant in entrants:
            if entrant not in self.entrants:
                raise KeyError(entrant)
        for entrant in entrants:
            self.withdrawn.setdefault(entrant, self.round)
        before = len(self.matches)
        self._forfeit_withdrawn()
        return self.matches[before:]

    def finish(self, reason: str | None = None) -> None:
        self.finished = True
        self.end_reason = reason

    # --- points ----------------------------------------------------------------------
    def points(self) -> dict[int, int]:
        pts = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            if m.decided:
                for e in (*m.a, *m.b):
                    pts[e] += self.numbers.points(m.won_by(e))
        for sitting in self.byes.values():
            for e in sitting:
                pts[e] += self.numbers.win
        return pts

    def played(self) -> dict[int, int]:
        count = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            if m.decided:
                for e in (*m.a, *m.b):
                    count[e] += 1
        return count

    def standings(self) -> list[Standing]:
        raise NotImplementedError

    def _placed(self, keyed: list[tuple[tuple, int, int, tuple]]) -> list[Standing]:
        """Turn (sort key, entrant, points, tiebreaks) rows into places, best first."""
        keyed.sort(key=lambda row: row[0])
        played = self.played()
        return [
            Standing(
                place=i + 1,
                entrant=e,
                points=p,
                tiebreaks=tb,
                played=played[e],
                withdrawn=e in self.withdrawn,
            )
            for i, (_, e, p, tb) in enumerate(keyed)
        ]

    # --- format hooks ----------------------------------------------------------------
    def _plan(self, r: int) -> RoundPlan:
        raise NotImplementedError

    def _after_record(self, m: Match) -> None:
        """Called once a match has its result; default: nothing follows from it."""

    def _check_correctable(self, m: Match) -> None:
        """Raise ValueError when a result can no longer be changed."""

    def _forfeit_withdrawn(self) -> None:
        """Undecided matches with a withdrawn side are lost by that side."""
        if not self.withdrawn:
            return
        for m in list(self.matches):
            if m.decided:
                continue
            gone_a = any(e in self.withdrawn for e in m.a)
            gone_b = any(e in self.withdrawn for e in m.b)
            if gone_a and gone_b:
                self.record(m.id, Outcome.BOTH_LOSE, forfeit=True)
            elif gone_a:
                self.record(m.id, Outcome.B, forfeit=True)
            elif gone_b:
                self.record(m.id, Outcome.A, forfeit=True)

    def _new_match(self, a: tuple[int, ...], b: tuple[int, ...]) -> Match:
        m = Match(id=len(self.matches) + 1, round=self.round, a=tuple(a), b=tuple(b))
        self.matches.append(m)
        return m

    # --- storage ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "numbers": self.numbers.to_json(),
            "entrants": len(self.entrants),
            "ratings": {str(k): v for k, v in self.ratings.items()},
            "round": self.round,
            "matches": [m.to_json() for m in self.matches],
            "byes": {str(k): v for k, v in self.byes.items()},
            "withdrawn": {str(k): v for k, v in self.withdrawn.items()},
            "finished": self.finished,
            "end_reason": self.end_reason,
            **self._extra_json(),
        }

    def _extra_json(self) -> dict[str, Any]:
        return {}

    def _load_extra(self, data: dict[str, Any]) -> None:
        """Restore what `_extra_json` saved."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        ev = cls.__new__(cls)
        ev.numbers = Numbers.from_json(data["numbers"])
        ev.entrants = list(range(1, data["entrants"] + 1))
        ev.ratings = {int(k): v for k, v in data["ratings"].items()}
        ev.round = data["round"]
        ev.matches = [Match.from_json(m) for m in data["matches"]]
        ev.byes = {int(k): v for k, v in data["byes"].items()}
        ev.withdrawn = {int(k): v for k, v in data["withdrawn"].items()}
        ev.finished = data["finished"]
        ev.end_reason = data["end_reason"]
        ev._load_extra(data)
        return ev
