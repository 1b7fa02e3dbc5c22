"""What passes between the tournaments and the core that plays their matches.

The core implements :class:`TableHost` (open a tournament table with the two teams seated
in the right places, close one) and calls :class:`TournamentCalls` on the service: a
player sat down, a tournament match ended, a rated match ended, the bot stops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TableRequest:
    """What the core needs to open a tournament table. Team a sits in seats 0 and 2,
    team b in seats 1 and 3. `key` names the table in every call between the runner and
    the core (`on_seated`, `on_match_end`, `close_tournament_table`); it is the same for
    the same match, also after a restart: opening twice with one key is one table."""

    key: str
    tournament_id: int
    match_id: int
    round: int
    channel: str
    ruleset: str
    title: str
    team_a: tuple[str, ...]
    team_b: tuple[str, ...]
    seat_deadline: float
    round_deadline: float
    rated: bool = True  # tournament matches update the ratings (not the ladders)


class TableHost(Protocol):
    """The core's side: it plays the matches the tournaments ask for."""

    async def open_tournament_table(self, request: TableRequest) -> None: ...

    async def close_tournament_table(self, table_ref: str, reason: str) -> None: ...


class TournamentCalls(Protocol):
    """What the core calls on the tournament service (`bot.tournaments.runner`)."""

    async def on_seated(self, table_ref: str, user_id: str) -> None: ...

    async def on_match_end(
        self, table_ref: str, winner: int | None, score_a: int = 0, score_b: int = 0
    ) -> bool: ...

    async def on_rated_match(
        self,
        match_ref: str,
        channel: str,
        ruleset: str,
        team_a: list[tuple[str, str]],
        team_b: list[tuple[str, str]],
        winner: int | None,
        left: tuple[str, ...] = (),
        from_lobby: bool = True,
    ) -> None: ...

    async def stop(self) -> None: ...
