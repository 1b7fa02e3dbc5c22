"""Elimination: a knockout bracket in standard seeding order.

The bracket is padded to the next power of two; the empty places fall to the top seeds,
who go through round 1 without playing. Seeds 1 and 2 sit in opposite halves and can
meet only in the final. A meeting is one match or the best of three; a meeting that ends
level is played again in the same round, except the final, which goes to the higher
placed. The meeting's state is always derived from its matches, so a corrected result
simply re-reads.
"""

from __future__ import annotations

from typing import Any

from bot.tournaments.event import Event
from bot.tournaments.model import Format, Match, Numbers, Outcome, RoundPlan, Standing


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two `size`: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    if size < 1 or size & (size - 1):
        raise ValueError("the bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def meeting_result(matches: list[Match], best_of: int, final: bool) -> str:
    """'a' or 'b' (who goes through), 'none' (both out), 'pending' (a match is being
    played) or 'next' (another match is due: the next game, or a replay)."""
    need = best_of // 2 + 1
    wins_a = wins_b = played = 0
    for m in matches:
        if m.outcome is None:
            return "pending"
        if m.forfeit:
            return {Outcome.A: "a", Outcome.B: "b"}.get(m.outcome, "none")
        if m.outcome is Outcome.BOTH_LOSE:  # the round's time limit ended the meeting
            return "a" if final else "none"
        played += 1
        wins_a += m.outcome is Outcome.A
        wins_b += m.outcome is Outcome.B
        if wins_a >= need:
            return "a"
        if wins_b >= need:
            return "b"
        left = best_of - played
        if wins_a + left < need and wins_b + left < need:  # level
            if final:
                return "a"
            wins_a = wins_b = played = 0  # played again in the same round
    return "next"


class Elimination(Event):
    format = Format.ELIMINATION

    def __init__(
        self, entrants: int, numbers: Numbers | None = None, ratings: dict[int, float] | None = None
    ) -> None:
        super().__init__(entrants, numbers, ratings)
        if self.numbers.best_of not in (1, 3):
            raise ValueError("a meeting is a single match or the best of three")
        size = bracket_size(entrants)
        self.slots: list[int | None] = [s if s <= entrants else None for s in bracket_order(size)]
        self.out: dict[int, int] = {}  # entrant -> round in which they went out
        self.champion: int | None = None

    def total_rounds(self) -> int:
        return max(1, (bracket_size(len(self.entrants)) - 1).bit_length())

    def _is_final(self) -> bool:
        return len(self.slots) == 2

    def meetings(self) -> list[tuple[int | None, int | None]]:
        """This round's meetings in bracket order (higher placed first)."""
        out = []
        for i in range(0, len(self.slots), 2):
            x, y = self.slots[i], self.slots[i + 1]
            if x is not None and y is not None and y < x:
                x, y = y, x
            out.append((x, y))
        return out

    def is_over(self) -> bool:
        return self.finished

    def _plan(self, r: int) -> RoundPlan:
        if r > 1:
            self._advance()
        if self.finished:
            raise RuntimeError("the event is over")
        plan = RoundPlan(round=r)
        for x, y in self.meetings():
            if x is not None and y is not None:
                plan.pairings.append(((x,), (y,)))
            elif x is not None or y is not None:
                plan.byes.append(x if x is not None else y)  # type: ignore[arg-type]
        return plan

    def _meeting_matches(self, x: int, y: int, r: int | None = None) -> list[Match]:
        return [m for m in self.round_matches(r) if m.a == (x,) and m.b == (y,)]

    def _after_record(self, m: Match) -> None:
        x, y = m.a[0], m.b[0]
        state = meeting_result(self._meeting_matches(x, y), self.numbers.best_of, self._is_final())
        if state == "next":
            self._new_match((x,), (y,))
        elif state in ("a", "b", "none") and self.round_complete():
            self._close_round()

    def _close_round(self) -> None:
        """Once every meeting of the round is settled: note who went out; end after the final."""
        winners = self._winners()
        for x, y in self.meetings():
            for e in (x, y):
                if e is not None and e not in winners and e not in self.out:
                    self.out[e] = self.round
        if len(self.slots) == 2 or not any(w is not None for w in winners):
            self.champion = winners[0] if len(winners) == 1 else None
            self.finish("final played" if self.champion else "nobody is left")

    def _winners(self) -> list[int | None]:
        final = self._is_final()
        winners: list[int | None] = []
        for x, y in self.meetings():
            if x is None or y is None:
                single = x if x is not None else y
                winners.append(single if single not in self.withdrawn else None)
                continue
            state = meeting_result(self._meeting_matches(x, y), self.numbers.best_of, final)
            winners.append({"a": x, "b": y}.get(state))
        return winners

    def _advance(self) -> None:
        self.slots = self._winners()

    def start_round(self) -> RoundPlan:
        plan = super().start_round()
        if self.round_complete():  # nothing to play: byes and walkovers only
            self._close_round()
        return plan

    def _check_correctable(self, m: Match) -> None:
        if m.round != self.round:
            raise ValueError("only a result of the current round can be corrected")

    def correct(self, match_id: int, outcome: Outcome, score_a: int = 0, score_b: int = 0) -> None:
        super().correct(match_id, outcome, score_a, score_b)
        m = self.match(match_id)
        x, y = m.a[0], m.b[0]
        # A correction changes the meeting: drop games that no longer follow, add one due.
        games = self._meeting_matches(x, y)
        keep: list[Match] = []
        for g in games:
            keep.append(g)
            if meeting_result(keep, self.numbers.best_of, self._is_final()) in ("a", "b", "none"):
                break
        drop = {g.id for g in games[len(keep) :]}
        self.matches = [g for g in self.matches if g.id not in drop]
        if meeting_result(keep, self.numbers.best_of, self._is_final()) == "next":
            self._new_match((x,), (y,))
        # Re-read the round's outcome from its matches.
        self.out = {e: r for e, r in self.out.items() if r != self.round}
        self.finished, self.end_reason, self.champion = False, None, None
        if self.round_complete():
            self._close_round()

    def _new_match(self, a: tuple[int, ...], b: tuple[int, ...]) -> Match:
        m = Match(id=max((g.id for g in self.matches), default=0) + 1, round=self.round, a=a, b=b)
        self.matches.append(m)
        return m

    def standings(self) -> list[Standing]:
        """The champion, then the finalist, then by the round each went out in (later is
        better), seed order within a round. Points are the rounds come through."""
        rounds = self.total_rounds()
        rows = []
        for e in self.entrants:
            if e == self.champion:
                reached = rounds + 1
            elif e in self.out:
                reached = self.out[e]
            else:
                reached = self.round if self.round else 1  # still in
            if e in self.withdrawn and e not in self.out:
                reached = max(1, self.withdrawn[e])
            won = max(0, reached - 1)
            rows.append(((-reached, e), e, won, (reached,)))
        return self._placed(rows)

    def _extra_json(self) -> dict[str, Any]:
        return {
            "slots": self.slots,
            "out": {str(k): v for k, v in self.out.items()},
            "champion": self.champion,
        }

    def _load_extra(self, data: dict[str, Any]) -> None:
        self.slots = data["slots"]
        self.out = {int(k): v for k, v in data["out"].items()}
        self.champion = data["champion"]
