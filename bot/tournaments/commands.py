"""`/tournament`, `/ladder`, `/stats` and `/leaderboard`: what the core's command router
calls, the same on every platform.

Each handler is `async (app, user, channel, args) -> list[Reply]`, where `app.tournaments`
is the running `TournamentService` (see `attach_tournaments`). Bad input gets a friendly
reply and changes nothing. A tournament is named `#N` (or a bare number where nothing
else is numeric); without one, the newest of the channel is meant.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.commands import parse
from bot.platform import Channel, Reply, User
from bot.refused import Refused
from bot.tournaments.model import Format, Numbers, Outcome
from bot.tournaments.pages import day_text
from bot.tournaments.ratings import PROVISIONAL_MATCHES
from bot.tournaments.runner import TournamentService
from bot.tournaments.store import Tournament, TournamentDB
from bot.tournaments.tables import TableHost
from bot.tournaments.texts import tt
from engine import RULESETS

Handler = Callable[[Any, User, Channel, list[str]], Awaitable[list[Reply]]]

TOURNAMENT_USAGE = (
    "/tournament create roundrobin|swiss|elimination [NAME] [--ruleset R] [--win N] [--draw N]"
    " [--loss N] [--round-minutes N] [--rounds N] [--best-of 1|3] [--rotate-partners]"
    " | join | withdraw | start | info | standings | pairings [#ID]"
    " | drop PLAYER [#ID] | result MATCH a|b|draw [SCORE_A SCORE_B] [#ID]"
)
LADDER_USAGE = (
    "/ladder create [RULESET] [NAME] [--days N] [--win N] [--draw N] [--loss N]"
    " [--opens-in HOURS] | join | withdraw | info | standings [#ID] | drop PLAYER [#ID]"
)

# option -> (Numbers field, lowest, highest)
NUMBER_OPTIONS: dict[str, tuple[str, int, int]] = {
    "--win": ("win", 0, 100),
    "--draw": ("draw", 0, 100),
    "--loss": ("loss", 0, 100),
    "--round-minutes": ("round_minutes", 5, 24 * 60),
    "--rounds": ("rounds", 1, 50),
    "--best-of": ("best_of", 1, 3),
    "--days": ("days", 1, 365),
}


async def attach_tournaments(
    app: Any, host: TableHost, db_path: str | None = None
) -> TournamentService:
    """Start the tournament service on the app's scheduler, clock and platform, with its
    own tables in the app's database (a file or PostgreSQL); sets and returns
    `app.tournaments`. Jobs it claims carry the store's owner name (which process ran it)."""
    path = str(db_path or getattr(app.store, "path", ":memory:"))
    db = await TournamentDB.open(path, owner=getattr(app.store, "owner", "local"))
    service = TournamentService(db, app.scheduler, app.clock, app.platform, host)
    try:
        await service.start()
    except BaseException:
        await db.close()  # an aiosqlite connection left open keeps the process alive
        raise
    app.tournaments = service
    return service


def _service(app: Any) -> TournamentService:
    service = getattr(app, "tournaments", None)
    if service is None:
        raise Refused("tour-err-disabled")
    return service


def _refused(user: User, r: Refused) -> list[Reply]:
    return [Reply(tt(r.key, user.locale, **r.kwargs), ok=False)]


def _whole(text: str, option: str, low: int, high: int) -> int:
    return parse.whole(text, low, high, "tour-err-number", option=option, low=low, high=high)


def _pick(
    service: TournamentService,
    channel: Channel,
    args: list[str],
    *,
    ladder: bool,
    bare_number: bool = True,
) -> Tournament:
    """The tournament named by `#N` (or a bare N), else the newest of the channel."""
    for a in args:
        tid = parse.event_ref(a, bare=bare_number)
        if tid is not None:
            t = service.get(tid)
            if t.is_ladder != ladder:
                raise Refused("tour-err-not-ladder" if ladder else "tour-err-ladder")
            return t
    here = service.in_channel(channel.id, ladder=ladder)
    if not here:
        raise Refused("tour-err-none-here")
    return here[0]


def _numbers(args: list[str], allowed: set[str]) -> tuple[dict[str, Any], list[str]]:
    """Pull `--option N` pairs out of `args`; returns the numbers and the other words."""
    numbers: dict[str, Any] = {}
    rest: list[str] = []
    words = list(args)
    while words:
        a = words.pop(0)
        low = a.lower()
        if low == "--rotate-partners" and "--rotate-partners" in allowed:
            numbers["rotate_partners"] = True
        elif low in NUMBER_OPTIONS and low in allowed:
            if not words:
                raise Refused("tour-err-usage", usage=f"{low} N")
            name, lo, hi = NUMBER_OPTIONS[low]
            numbers[name] = _whole(words.pop(0), low, lo, hi)
        elif low.startswith("--") and low not in ("--ruleset", "--opens-in"):
            raise Refused("tour-err-option", value=a[:30])
        else:
            rest.append(a)
    if "best_of" in numbers and numbers["best_of"] not in (1, 3):
        raise Refused("tour-err-best-of")
    return numbers, rest


def _ruleset(rest: list[str], default: str) -> tuple[str, list[str]]:
    out: list[str] = []
    ruleset = default
    words = list(rest)
    while words:
        a = words.pop(0)
        if a.lower() == "--ruleset":
            if not words:
                raise Refused("tour-err-usage", usage="--ruleset R")
            value = words.pop(0).lower()
            if value not in RULESETS:
                raise Refused("tour-err-ruleset", value=value[:30], rulesets=", ".join(RULESETS))
            ruleset = value
        elif a.lower() in RULESETS:
            ruleset = a.lower()
        else:
            out.append(a)
    return ruleset, out


def _checked(numbers: Numbers) -> Numbers:
    if not numbers.win >= numbers.draw >= numbers.loss:
        raise Refused("tour-err-points")
    return numbers


def _default_ruleset(app: Any) -> str:
    settings = getattr(app, "settings", None)
    return getattr(settings, "ruleset", "club") if settings is not None else "club"


# ---------------------------------------------------------------------- /tournament


async def handle_tournament_command(
    app: Any, user: User, channel: Channel, args: list[str]
) -> list[Reply]:
    try:
        return await _tournament(app, user, channel, args)
    except Refused as r:
        return _refused(user, r)


async def _tournament(app: Any, user: User, channel: Channel, args: list[str]) -> list[Reply]:
    service = _service(app)
    if not args:
        raise Refused("tour-err-usage", usage=TOURNAMENT_USAGE)
    sub, rest = args[0].lower(), args[1:]
    loc = user.locale
    if sub == "create":
        if not rest:
            raise Refused("tour-err-usage", usage=TOURNAMENT_USAGE)
        fmt_word = rest[0].lower().replace("-", "")
        if fmt_word not in ("roundrobin", "swiss", "elimination"):
            raise Refused("tour-err-format", value=rest[0][:30])
        allowed = {"--win", "--draw", "--loss", "--round-minutes", "--rounds", "--best-of"}
        allowed.add("--rotate-partners")
        values, words = _numbers(rest[1:], allowed)
        ruleset, words = _ruleset(words, _default_ruleset(app))
        numbers = _checked(replace(Numbers(), **values))
        name = " ".join(words)[:60]
        t = await service.create(
            user.id, channel.id, Format(fmt_word), name, ruleset, numbers, locale=user.locale
        )
        fmt_name = tt(f"tour-format-{t.format.value}", loc)
        text = tt("tour-created", loc, name=t.name, tid=t.id, format=fmt_name, ruleset=t.ruleset)
        return [Reply(text, buttons=service.pages.buttons(t, loc))]
    if sub == "join":
        t = _pick(service, channel, rest, ladder=False)
        await service.join(t.id, user.id, user.name)
        return [Reply(tt("tour-joined", loc, name=t.name, tid=t.id))]
    if sub == "withdraw":
        t = _pick(service, channel, rest, ladder=False)
        await service.withdraw(t.id, user.id)
        return [Reply(tt("tour-withdrew", loc, name=t.name))]
    if sub == "start":
        t = _pick(service, channel, rest, ladder=False)
        await service.start_event(t.id, user.id, user.is_admin)
        return [Reply(tt("tour-started", loc, name=t.name))]
    if sub == "info":
        t = _pick(service, channel, rest, ladder=False)
        return [Reply(service.pages.info_text(t, loc), buttons=service.pages.buttons(t, loc))]
    if sub == "standings":
        t = _pick(service, channel, rest, ladder=False)
        text, image = await service.pages.standings_answer(t, loc)
        shows = service.pages.standings_alt(t, text, loc) if image is not None else ""
        return [Reply(text, image=image, image_name="standings.png", image_alt=shows)]
    if sub == "pairings":
        return [
            Reply(service.pages.pairings_text(_pick(service, channel, rest, ladder=False), loc))
        ]
    if sub == "drop":
        return await _drop(service, user, channel, rest, ladder=False)
    if sub == "result":
        return await _result(service, user, channel, rest)
    raise Refused("tour-err-usage", usage=TOURNAMENT_USAGE)


async def _drop(
    service: TournamentService, user: User, channel: Channel, rest: list[str], *, ladder: bool
) -> list[Reply]:
    """``drop PLAYER [#ID]``: the organiser or a server admin removes a player (a bot
    account, someone who vanished); they keep what they scored and are not paired again."""
    if not rest or rest[0].startswith("#"):
        usage = f"/{'ladder' if ladder else 'tournament'} drop PLAYER [#ID]"
        raise Refused("tour-err-usage", usage=usage)
    t = _pick(service, channel, rest[1:], ladder=ladder)
    p = await service.drop(t.id, user.id, user.is_admin, rest[0])
    return [Reply(tt("tour-dropped", user.locale, who=p.name, name=t.name))]


async def _result(
    service: TournamentService, user: User, channel: Channel, rest: list[str]
) -> list[Reply]:
    usage = "/tournament result MATCH a|b|draw [SCORE_A SCORE_B] [#ID]"
    words = [w for w in rest if not w.startswith("#")]
    match = parse.ascii_digits(words[0], 9) if words else None
    if len(words) not in (2, 4) or match is None:
        raise Refused("tour-err-usage", usage=usage)
    t = _pick(service, channel, rest, ladder=False, bare_number=False)
    outcome = {"a": Outcome.A, "b": Outcome.B, "draw": Outcome.DRAW}.get(words[1].lower())
    if outcome is None:
        raise Refused("tour-err-outcome")
    scores = (0, 0)
    if len(words) == 4:
        scores = (
            _whole(words[2], "SCORE_A", 0, 100_000),
            _whole(words[3], "SCORE_B", 0, 100_000),
        )
    if not t.run_by(user.id, user.is_admin):
        raise Refused("tour-err-organiser", name=t.name)
    m = await service.set_result(t.id, user.id, user.is_admin, match, outcome, *scores)
    return [Reply(tt("tour-result-set", user.locale, match=m.id, name=t.name))]


# ---------------------------------------------------------------------- /ladder


async def handle_ladder_command(
    app: Any, user: User, channel: Channel, args: list[str]
) -> list[Reply]:
    try:
        return await _ladder(app, user, channel, args)
    except Refused as r:
        return _refused(user, r)


async def _ladder(app: Any, user: User, channel: Channel, args: list[str]) -> list[Reply]:
    service = _service(app)
    if not args:
        raise Refused("tour-err-usage", usage=LADDER_USAGE)
    sub, rest = args[0].lower(), args[1:]
    loc = user.locale
    if sub == "create":
        values, words = _numbers(rest, {"--win", "--draw", "--loss", "--days"})
        # the community's own season length and opening delay, unless typed here
        community = getattr(app, "community", None)  # a core without settings: none
        opens_in = 0.0
        if community is not None:
            here = await community.values(channel)
            values.setdefault("days", here["ladder_days"])
            opens_in = here["ladder_opens_in"] * 3600.0
        if "--opens-in" in [w.lower() for w in words]:
            i = [w.lower() for w in words].index("--opens-in")
            if i + 1 >= len(words):
                raise Refused("tour-err-usage", usage="--opens-in HOURS")
            opens_in = _whole(words[i + 1], "--opens-in", 0, 24 * 90) * 3600.0
            words = words[:i] + words[i + 2 :]
        ruleset, words = _ruleset(words, _default_ruleset(app))
        numbers = _checked(replace(Numbers(), **values))
        name = " ".join(words)[:60]
        t = await service.create(
            user.id,
            channel.id,
            Format.LADDER,
            name,
            ruleset,
            numbers,
            opens_in=opens_in,
            locale=user.locale,
        )
        return [
            Reply(
                tt(
                    "tour-ladder-created",
                    loc,
                    name=t.name,
                    tid=t.id,
                    ruleset=t.ruleset,
                    days=numbers.days,
                    opens=day_text(t.opens_at or 0),
                )
            )
        ]
    if sub == "join":
        t = _pick(service, channel, rest, ladder=True)
        await service.join(t.id, user.id, user.name)
        return [Reply(tt("tour-joined", loc, name=t.name, tid=t.id))]
    if sub == "withdraw":
        t = _pick(service, channel, rest, ladder=True)
        await service.withdraw(t.id, user.id)
        return [Reply(tt("tour-withdrew", loc, name=t.name))]
    if sub == "drop":
        return await _drop(service, user, channel, rest, ladder=True)
    if sub == "info":
        return [Reply(service.pages.info_text(_pick(service, channel, rest, ladder=True), loc))]
    if sub == "standings":
        t = _pick(service, channel, rest, ladder=True)
        text, image = await service.pages.standings_answer(t, loc)
        shows = service.pages.standings_alt(t, text, loc) if image is not None else ""
        return [Reply(text, image=image, image_name="standings.png", image_alt=shows)]
    raise Refused("tour-err-usage", usage=LADDER_USAGE)


# ---------------------------------------------------------------------- /stats, /leaderboard


async def handle_stats_command(
    app: Any, user: User, channel: Channel, args: list[str]
) -> list[Reply]:
    """`/stats [PLAYER]`: ratings per ruleset, provisional until enough matches."""
    try:
        service = _service(app)
    except Refused as r:
        return _refused(user, r)
    loc = user.locale
    who_id, who_name = user.id, user.name
    if args:
        wanted = " ".join(args).lstrip("@")[:64]
        found = await service.ratings.find(wanted)
        if found is None:
            return [Reply(tt("stats-none", loc, who=wanted[:40]), ok=False)]
        who_id, who_name = found
    ratings = await service.ratings.of_user(who_id)
    if not ratings:
        return [Reply(tt("stats-none", loc, who=who_name))]
    lines = [tt("stats-title", loc, who=who_name)]
    for rating in ratings:
        lines.append(
            tt(
                "stats-line",
                loc,
                ruleset=rating.ruleset,
                rating=rating.display,
                provisional=tt("stats-provisional", loc) if rating.provisional else "",
                matches=rating.matches,
                wins=rating.wins,
                draws=rating.draws,
                losses=rating.losses,
            )
        )
    return [Reply("\n".join(lines))]


async def handle_leaderboard_command(
    app: Any, user: User, channel: Channel, args: list[str]
) -> list[Reply]:
    """`/leaderboard [RULESET]`: the best established ratings (provisional ones left out)."""
    try:
        service = _service(app)
        ruleset, _rest = _ruleset(args, _default_ruleset(app))
    except Refused as r:
        return _refused(user, r)
    loc = user.locale
    board = await service.ratings.leaderboard(ruleset)
    if not board:
        return [Reply(tt("leaderboard-empty", loc, ruleset=ruleset, needed=PROVISIONAL_MATCHES))]
    title = tt("leaderboard-title", loc, ruleset=ruleset)
    lines = [title] + [
        tt(
            "leaderboard-line",
            loc,
            place=i + 1,
            who=r.name or r.user_id,
            rating=r.display,
            matches=r.matches,
        )
        for i, r in enumerate(board)
    ]
    return [Reply("\n".join(lines))]


# ---------------------------------------------------------------------- buttons


async def handle_tournament_press(
    app: Any, user: User, channel: Channel, action: str
) -> list[Reply]:
    """A press of a tournament page's button (`tn:numbers|join|standings:<id>`)."""
    try:
        service = _service(app)
        what, tid = parse.tournament_press(action)
        t = service.get(tid)
        loc = user.locale
        if what == "numbers":
            return [Reply(service.pages.info_text(t, loc))]
        if what == "join":
            await service.join(t.id, user.id, user.name)
            return [Reply(tt("tour-joined", loc, name=t.name, tid=t.id))]
        if what == "standings":
            text, image = await service.pages.standings_answer(t, loc)
            shows = service.pages.standings_alt(t, text, loc) if image is not None else ""
            return [Reply(text, image=image, image_name="standings.png", image_alt=shows)]
        raise Refused("tour-err-stale")
    except Refused as r:
        return _refused(user, r)


PRESS_PREFIX = "tn:"

COMMANDS: dict[str, Handler] = {
    "tournament": handle_tournament_command,
    "ladder": handle_ladder_command,
    "stats": handle_stats_command,
    "leaderboard": handle_leaderboard_command,
}
