"""What the tournaments show: the texts of their posts and pages, and the standings as
text and picture, in the event's language (posts) or the reader's (answers).

Posts are queued on the :class:`~bot.tournaments.outbox.Outbox` and delivered after the
change that made them; the standings picture is drawn then, in a worker thread, never on
the event loop and never under the lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypedDict

from bot.platform import Button, Buttons, Channel, Post
from bot.show.alt import standings_alt
from bot.tournaments.model import Format, Match, RoundPlan
from bot.tournaments.outbox import Drawing, Outbox, drawn
from bot.tournaments.ratings import Ratings
from bot.tournaments.store import Player, Tournament
from bot.tournaments.texts import tt

TIE_BREAKS: dict[Format, tuple[str, ...]] = {
    Format.ROUNDROBIN: ("tour-tb-h2h", "tour-tb-diff"),
    Format.SWISS: ("tour-tb-opp", "tour-tb-rating"),
    Format.ELIMINATION: ("tour-tb-reached",),
    Format.LADDER: ("tour-tb-rating",),
}


def day_text(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def shown(value: float) -> float | int:
    """A tie-break as people read it: whole numbers without a decimal point."""
    return round(value) if abs(value - round(value)) < 0.05 else round(value, 1)


class Row(TypedDict):
    """One line of the standings, as `bot.show.render.render_standings` reads it."""

    place: int
    name: str
    points: int
    tie_breaks: list[float | int]
    played: int


@dataclass(frozen=True)
class Standings:
    """The standings of one moment: the text, and what the picture is drawn from."""

    title: str
    text: str
    rows: list[Row]
    tie_break_names: list[str]


# (title, rows, tie-break names) -> PNG bytes, or None for text only; blocking (Pillow)
DrawStandings = Callable[[str, list[Row], list[str]], bytes | None]


def render_picture(title: str, rows: list[Row], names: list[str]) -> bytes | None:
    """The standings as a picture when bot/show/render can draw it; None means: text only."""
    try:
        from bot.show.render import render_standings
    except ImportError:
        return None
    return render_standings(title, rows, tie_break_names=names)


class Pages:
    def __init__(
        self, ratings: Ratings, outbox: Outbox, draw: DrawStandings = render_picture
    ) -> None:
        self._ratings = ratings
        self._outbox = outbox
        self._draw = draw

    def _drawing(self, s: Standings) -> Drawing:
        return lambda: self._draw(s.title, s.rows, s.tie_break_names)

    # ------------------------------------------------------------------ answers and pages

    def buttons(self, t: Tournament, locale: str = "en") -> Buttons:
        """The tournament page's buttons: its format (press it to see the numbers), join,
        standings. Actions are `tn:<what>:<id>`, for `handle_tournament_press`."""
        return (
            (
                Button(tt(f"tour-format-{t.format.value}", locale), f"tn:numbers:{t.id}"),
                Button(tt("tour-btn-join", locale), f"tn:join:{t.id}", style="primary"),
                Button(tt("tour-btn-standings", locale), f"tn:standings:{t.id}"),
            ),
        )

    def numbers_text(self, t: Tournament, locale: str = "en") -> str:
        n = t.numbers
        lines = [tt("tour-info-points", locale, win=n.win, draw=n.draw, loss=n.loss)]
        if t.is_ladder:
            lines.append(
                tt(
                    "tour-info-ladder",
                    locale,
                    opens=day_text(t.opens_at or 0),
                    closes=day_text(t.closes_at or 0),
                    days=n.days,
                )
            )
            return "\n".join(lines)
        lines.append(tt("tour-info-rounds", locale, minutes=n.round_minutes))
        if t.format is Format.SWISS:
            lines.append(tt("tour-info-swiss", locale, rounds=n.rounds))
        if t.format is Format.ELIMINATION:
            lines.append(tt("tour-info-best-of", locale, best_of=n.best_of))
        if n.rotate_partners:
            lines.append(tt("tour-info-rotate", locale))
        return "\n".join(lines)

    def info_text(self, t: Tournament, loc: str = "en") -> str:
        """The tournament's page: format, ruleset, state, organiser and its own numbers."""
        creator = t.players[t.creator].name if t.creator in t.players else t.creator
        players = [p.name for p in t.players.values() if p.status == "in"]
        return tt(
            "tour-info",
            loc,
            name=t.name,
            tid=t.id,
            format=tt(f"tour-format-{t.format.value}", loc),
            ruleset=t.ruleset,
            status=tt(f"tour-status-{t.status}", loc),
            creator=creator,
            numbers=self.numbers_text(t, loc),
            players=f"{len(players)}: {', '.join(players)}" if players else "0",
        )

    def pairings_text(self, t: Tournament, loc: str = "en") -> str:
        ev = t.event
        if ev is None or ev.round == 0:
            return tt("tour-no-rounds", loc)
        lines = [tt("tour-post-round", loc, name=t.name, round=ev.round, lines="").rstrip()]
        for m in ev.round_matches():
            result = m.outcome.value if m.outcome else tt("tour-pairings-playing", loc)
            lines.append(
                tt(
                    "tour-pairings-line",
                    loc,
                    match=m.id,
                    a=t.side_name(m.a),
                    b=t.side_name(m.b),
                    result=result,
                )
            )
        for e in ev.byes.get(ev.round, []):
            lines.append(tt("tour-post-bye", loc, who=t.entrant_name(e)))
        return "\n".join(lines)

    # ------------------------------------------------------------------ standings

    async def standings_rows(self, t: Tournament, locale: str = "en") -> list[Row]:
        """Rows for the standings picture or text: place, name, points, tie-breaks."""
        mark = f" {tt('tour-withdrawn-mark', locale)}"
        if t.is_ladder:
            people = [p for p in t.players.values() if p.status != "out" or p.points]
            rated = {}
            for p in people:
                rated[p.user_id] = (await self._ratings.get(p.user_id, t.ruleset)).display
            people.sort(key=lambda p: (-p.points, -rated[p.user_id], p.joined_at))
            return [
                Row(
                    place=i + 1,
                    name=p.name + (mark if p.status != "in" else ""),
                    points=p.points,
                    tie_breaks=[rated[p.user_id]],
                    played=p.wins + p.draws + p.losses,
                )
                for i, p in enumerate(people)
            ]
        if t.event is None:
            return []
        return [
            Row(
                place=s.place,
                name=t.entrant_name(s.entrant) + (mark if s.withdrawn else ""),
                points=s.points,
                tie_breaks=[shown(v) for v in s.tiebreaks],
                played=s.played,
            )
            for s in t.event.standings()
        ]

    def tie_break_names(self, t: Tournament, locale: str = "en") -> list[str]:
        return [tt(k, locale) for k in TIE_BREAKS[t.format]]

    async def standings(self, t: Tournament, locale: str = "en") -> Standings:
        rows = await self.standings_rows(t, locale)
        names = self.tie_break_names(t, locale)
        title = tt("tour-standings-title", locale, name=t.name)
        lines = [title]
        for r in rows:
            tbs = ", ".join(f"{n} {v}" for n, v in zip(names, r["tie_breaks"], strict=False))
            lines.append(
                tt(
                    "tour-standings-line",
                    locale,
                    place=r["place"],
                    who=r["name"],
                    points=r["points"],
                    tiebreaks=f"({tbs})" if tbs else "",
                ).rstrip()
            )
        return Standings(title, "\n".join(lines), rows, names)

    async def standings_answer(self, t: Tournament, locale: str) -> tuple[str, bytes | None]:
        """The standings for whoever asked: the text, and the picture drawn off the loop."""
        s = await self.standings(t, locale)
        return s.text, await drawn(self._drawing(s))

    @staticmethod
    def standings_alt(t: Tournament, text: str, locale: str) -> str:
        """The standings picture in words, for who cannot see it (bot.show.alt)."""
        return standings_alt(t.name, text, locale)

    # ------------------------------------------------------------------ posts of the event

    def post(
        self,
        t: Tournament,
        what: str,
        text: str,
        *,
        standings: Standings | None = None,
        to_user: str | None = None,
        buttons: Buttons = (),
    ) -> None:
        """Queue a post in the event's channel (or to one user); `tournament:<id>:<what>`
        is its key, so a later post of the same `what` edits it."""
        post = Post(
            channel=Channel(t.channel),
            key=f"tournament:{t.id}:{what}" + (f":{to_user}" if to_user else ""),
            text=text,
            image_name="standings.png",
            to_user=to_user,
            buttons=buttons,
            image_alt=self.standings_alt(t, standings.text, t.locale) if standings else "",
        )
        self._outbox.post(post, self._drawing(standings) if standings is not None else None)

    async def post_standings(self, t: Tournament) -> None:
        s = await self.standings(t, t.locale)
        self.post(t, "standings", s.text, standings=s)

    def _headline(self, t: Tournament, key: str) -> str:
        return tt(
            key,
            t.locale,
            name=t.name,
            tid=t.id,
            format=tt(f"tour-format-{t.format.value}", t.locale),
            ruleset=t.ruleset,
            closes=day_text(t.closes_at) if t.closes_at else "",
        )

    def created(self, t: Tournament) -> None:
        key = "tour-post-ladder-open" if t.status == "running" else "tour-post-created"
        self.post(t, "info", self._headline(t, key), buttons=self.buttons(t, t.locale))

    def ladder_opened(self, t: Tournament) -> None:
        text = self._headline(t, "tour-post-ladder-open")
        self.post(t, "info", text, buttons=self.buttons(t, t.locale))

    def ladder_closed(self, t: Tournament) -> None:
        self.post(t, "over", tt("tour-post-ladder-closed", t.locale, name=t.name))

    def teams(self, t: Tournament) -> None:
        teams = "\n".join(f"{e}. {t.entrant_name(e)}" for e in sorted(t.teams))
        self.post(t, "teams", tt("tour-post-teams", t.locale, name=t.name, teams=teams))

    def round_started(self, t: Tournament, plan: RoundPlan, matches: list[Match]) -> None:
        loc = t.locale
        lines = [
            tt("tour-post-pairing", loc, match=m.id, a=t.side_name(m.a), b=t.side_name(m.b))
            for m in matches
            if not m.decided
        ]
        lines += [tt("tour-post-bye", loc, who=t.entrant_name(e)) for e in plan.byes]
        lines.append(tt("tour-post-seat", loc, minutes=t.numbers.round_minutes))
        text = tt("tour-post-round", loc, name=t.name, round=plan.round, lines="\n".join(lines))
        self.post(t, f"round:{plan.round}", text)

    def no_show(self, t: Tournament, match_id: int, names: list[str]) -> None:
        text = tt("tour-post-no-show", t.locale, name=t.name, who=", ".join(names))
        self.post(t, f"no-show:{match_id}", text)

    def time_up(self, t: Tournament, match_id: int) -> None:
        loser = tt("tour-post-time-both", t.locale)
        text = tt("tour-post-time", t.locale, name=t.name, match=match_id, loser=loser)
        self.post(t, f"time:{match_id}", text)

    def withdrew(self, t: Tournament, p: Player) -> None:
        text = tt("tour-post-withdrew", t.locale, name=t.name, who=p.name)
        self.post(t, f"left:{p.user_id}", text)

    def no_pairing(self, t: Tournament, round_: int, kind: str) -> None:
        """The event ends: told in its channel and to its organiser privately."""
        key = "tour-post-no-pairing-bye" if kind == "bye" else "tour-post-no-pairing"
        text = tt(key, t.locale, name=t.name, round=round_)
        self.post(t, "no-pairing", text)
        self.post(t, "no-pairing", text, to_user=t.creator)

    def over(self, t: Tournament, winner: int | None) -> None:
        who = (
            tt("tour-post-winner", t.locale, who=t.entrant_name(winner))
            if winner is not None
            else ""
        )
        self.post(t, "over", tt("tour-post-over", t.locale, name=t.name, winner=who))
