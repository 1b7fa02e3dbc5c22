"""Individual ratings from team results (openskill's Plackett-Luce model).

Belote is played two against two and partners change on a ladder, so each player has
their own rating (mu, sigma) per ruleset; a match updates all four from the team result.
A rating is provisional until the player has played `PROVISIONAL_MATCHES` rated matches.
Shown on a familiar scale: 1000 + 40 x (mu - 3 sigma), which starts at 1000.

Every rated match is recorded once (by its reference, claimed in the transaction that
writes the new ratings) so a replayed event after a restart, or a second bot process on
the same PostgreSQL database, never counts twice. The ratings are global: one table for
every server the bot is in.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store.sql import Database

PROVISIONAL_MATCHES = 10
_MODEL = PlackettLuce()

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS ratings (
        user_id TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        matches INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (user_id, ruleset)
    )""",
    """CREATE TABLE IF NOT EXISTS rated_matches (
        match_ref TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        at REAL NOT NULL
    )""",
)


@dataclass(frozen=True)
class Rating:
    user_id: str
    ruleset: str
    name: str = ""
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return round(1000 + 40 * self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def rate_teams(
    team_a: list[Rating], team_b: list[Rating], winner: int | None
) -> tuple[list[Rating], list[Rating]]:
    """New ratings after a match; `winner` is 0 (team a), 1 (team b) or None (a draw)."""
    ranks: list[float] = [0, 0] if winner is None else ([0, 1] if winner == 0 else [1, 0])
    teams = [
        [_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team_a],
        [_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team_b],
    ]
    new_a, new_b = _MODEL.rate(teams, ranks=ranks)
    out = []
    for side, (old, new) in enumerate(((team_a, new_a), (team_b, new_b))):
        won = None if winner is None else winner == side
        out.append(
            [
                Rating(
                    o.user_id,
                    o.ruleset,
                    o.name,
                    n.mu,
                    n.sigma,
                    o.matches + 1,
                    o.wins + (won is True),
                    o.draws + (won is None),
                    o.losses + (won is False),
                )
                for o, n in zip(old, new, strict=True)
            ]
        )
    return out[0], out[1]


class Ratings:
    """The ratings tables on the bot's database (created by the tournaments' migrations)."""

    def __init__(self, sql: Database) -> None:
        self.sql = sql

    async def get(self, user_id: str, ruleset: str, name: str = "", *, tx: object = None) -> Rating:
        row = await (tx or self.sql).fetchone(  # type: ignore[attr-defined]
            "SELECT name, mu, sigma, matches, wins, draws, losses FROM ratings"
            " WHERE user_id = ? AND ruleset = ?" + (self.sql.for_update if tx else ""),
            user_id,
            ruleset,
        )
        if row is None:
            return Rating(user_id, ruleset, name)
        return Rating(user_id, ruleset, *row)

    async def of_user(self, user_id: str) -> list[Rating]:
        rows = await self.sql.fetch(
            "SELECT ruleset, name, mu, sigma, matches, wins, draws, losses FROM ratings"
            " WHERE user_id = ? ORDER BY matches DESC",
            user_id,
        )
        return [Rating(user_id, *row) for row in rows]

    async def find(self, who: str) -> tuple[str, str] | None:
        """(user id, name) of a rated player named `who` (or with that id), if just one."""
        rows = await self.sql.fetch(
            "SELECT DISTINCT user_id, name FROM ratings"
            " WHERE user_id = ? OR lower(name) = lower(?)",
            who,
            who,
        )
        ids = {u for u, _ in rows}
        return (rows[0][0], rows[0][1]) if len(ids) == 1 else None

    async def record_match(
        self,
        match_ref: str,
        ruleset: str,
        team_a: list[tuple[str, str]],
        team_b: list[tuple[str, str]],
        winner: int | None,
        now: float,
    ) -> bool:
        """Rate one finished match ((user id, name) per player); False if already rated.
        One transaction: the match is claimed, the four ratings read (locked) and written."""
        async with self.sql.transaction() as tx:
            claimed = await tx.fetchone(
                "INSERT INTO rated_matches (match_ref, ruleset, at) VALUES (?, ?, ?)"
                " ON CONFLICT (match_ref) DO NOTHING RETURNING match_ref",
                match_ref,
                ruleset,
                now,
            )
            if claimed is None:
                return False
            old_a = [await self.get(u, ruleset, n, tx=tx) for u, n in team_a]
            old_b = [await self.get(u, ruleset, n, tx=tx) for u, n in team_b]
            new_a, new_b = rate_teams(old_a, old_b, winner)
            names = dict(team_a + team_b)
            await tx.executemany(
                "INSERT INTO ratings (user_id, ruleset, name, mu, sigma, matches, wins, draws,"
                " losses, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id, ruleset) DO UPDATE SET name = excluded.name,"
                " mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,"
                " wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,"
                " updated_at = excluded.updated_at",
                [
                    (
                        r.user_id,
                        ruleset,
                        names.get(r.user_id) or r.name,
                        r.mu,
                        r.sigma,
                        r.matches,
                        r.wins,
                        r.draws,
                        r.losses,
                        now,
                    )
                    for r in new_a + new_b
                ],
            )
        return True

    async def leaderboard(
        self, ruleset: str, limit: int = 20, include_provisional: bool = False
    ) -> list[Rating]:
        """Best first by the shown rating; provisional ratings only when asked for."""
        minimum = 0 if include_provisional else PROVISIONAL_MATCHES
        rows = await self.sql.fetch(
            "SELECT user_id, name, mu, sigma, matches, wins, draws, losses FROM ratings"
            " WHERE ruleset = ? AND matches >= ? ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?",
            ruleset,
            minimum,
            limit,
        )
        return [Rating(u, ruleset, n, mu, s, m, w, d, lo) for u, n, mu, s, m, w, d, lo in rows]
