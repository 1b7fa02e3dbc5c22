"""The slash commands: each one is spelled out as the core's command text and handed over.

``/table join table:t3 seat:2`` becomes ``/join t3 2``, exactly what a console or Telegram
user types; the core parses and checks it. Options offer choices (rulesets, bot levels)
and autocomplete (the channel's tables, the cards and bids legal right now) as help only.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from adapters.discord import queries
from adapters.discord.adapter import DiscordAdapter
from adapters.discord.ids import channel_of, user_of
from bot.community.registry import BY_NAME, SETTINGS
from bot.platform import Choices
from bot.play.table import LEVELS
from engine import RULESETS

log = logging.getLogger(__name__)

RULESET_CHOICES = [app_commands.Choice(name=r, value=r) for r in RULESETS]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
PLAY_FLAGS = [
    app_commands.Choice(name="declare my melds (default)", value="melds"),
    app_commands.Choice(name="do not declare melds", value="nomelds"),
    app_commands.Choice(name="announce belote", value="belote"),
]
Seat = app_commands.Range[int, 1, 4]
EventId = app_commands.Range[int, 1, 1_000_000]
Run = Callable[..., Awaitable[None]]


def words(*parts: object) -> str:
    """The command text: the given parts, the missing ones left out."""
    return " ".join(str(p).strip() for p in parts if p is not None and str(p).strip())


def register_commands(tree: app_commands.CommandTree, adapter: DiscordAdapter) -> None:
    """Add every command of the core to ``tree`` (synced to Discord at start)."""

    def suggest(
        source: Callable[[Choices, str], list[queries.Suggestion]],
    ) -> Callable[..., object]:
        async def complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if adapter.app is None:
                return []
            try:  # a suggestion is a convenience: any surprise gives none, not an error
                here = adapter.threads.placed(channel_of(interaction), interaction)
                choices = await adapter.app.choices(user_of(interaction), here)
                found = source(choices, current)
            except Exception:
                log.debug("no suggestions", exc_info=True)
                return []
            return [app_commands.Choice(name=s.name, value=s.value) for s in found]

        return complete

    tables = suggest(queries.tables_here)
    cards = suggest(queries.legal_cards)
    bids = suggest(queries.legal_bids)

    async def run(interaction: discord.Interaction, text: str, *, public: bool = False) -> None:
        await adapter.on_command(interaction, text, public=public)

    table = app_commands.Group(
        name="table", description="Belote tables in this channel", guild_only=True
    )

    @table.command(name="create", description="Open a new table here")
    @app_commands.describe(
        ruleset="Which rules (default: the server's)",
        target="Points to win the match",
        timer="Seconds per turn",
        window="Seconds to send seeds before the deal",
        rated="Count this match for ratings",
        ai="Level of the bots that stand in",
        no_trump="Coinche: No Trump may be bid",
        all_trump="Coinche: All Trump may be bid",
        generale="Coinche: générale (one player takes every trick) may be bid",
        bid_only="Coinche: a contract made scores its bid only",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES, ai=LEVEL_CHOICES)
    async def table_create(
        interaction: discord.Interaction,
        ruleset: str | None = None,
        target: app_commands.Range[int, 1, 100_000] | None = None,
        timer: app_commands.Range[int, 5, 3600] | None = None,
        window: app_commands.Range[int, 0, 600] | None = None,
        rated: bool | None = None,
        ai: str | None = None,
        no_trump: bool | None = None,
        all_trump: bool | None = None,
        generale: bool | None = None,
        bid_only: bool | None = None,
    ) -> None:
        # the ruleset's table options (engine.OPTIONS), as the lobby reads them: --no-trump
        flags = {"no_trump": no_trump, "all_trump": all_trump, "generale": generale}
        flags["bid_only"] = bid_only
        text = words(
            "/table create",
            ruleset,
            (target is not None and f"--target {target}") or None,
            (timer is not None and f"--timer {timer}") or None,
            (window is not None and f"--window {window}") or None,
            (ai is not None and f"--ai {ai}") or None,
            "--rated" if rated else None,
            *("--" + name.replace("_", "-") for name, on in flags.items() if on),
        )
        await run(interaction, text)

    @table.command(name="list", description="The tables of this channel")
    async def table_list(interaction: discord.Interaction) -> None:
        await run(interaction, "/table list")

    @table.command(name="join", description="Sit at a table")
    @app_commands.describe(table="Which table (when there are several)", seat="Seat 1-4")
    @app_commands.autocomplete(table=tables)
    async def table_join(
        interaction: discord.Interaction, table: str | None = None, seat: Seat | None = None
    ) -> None:
        await run(interaction, words("/join", table, seat))

    @table.command(name="leave", description="Leave your table (a bot plays your seat)")
    @app_commands.autocomplete(table=tables)
    async def table_leave(interaction: discord.Interaction, table: str | None = None) -> None:
        await run(interaction, words("/leave", table))

    @table.command(name="start", description="Start the match (all four seats taken)")
    @app_commands.autocomplete(table=tables)
    async def table_start(interaction: discord.Interaction, table: str | None = None) -> None:
        await run(interaction, words("/start", table))

    @table.command(name="addbot", description="Seat a bot")
    @app_commands.describe(level="How well it plays", seat="Seat 1-4")
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(table=tables)
    async def table_addbot(
        interaction: discord.Interaction,
        level: str | None = None,
        seat: Seat | None = None,
        table: str | None = None,
    ) -> None:
        await run(interaction, words("/addbot", level, seat, table))

    @table.command(name="kick", description="Free a seat (host or Manage Server)")
    @app_commands.autocomplete(table=tables)
    async def table_kick(
        interaction: discord.Interaction, seat: Seat, table: str | None = None
    ) -> None:
        await run(interaction, words("/kick", seat, table))

    @table.command(name="close", description="Close a table (host or Manage Server)")
    @app_commands.autocomplete(table=tables)
    async def table_close(interaction: discord.Interaction, table: str | None = None) -> None:
        await run(interaction, words("/table close", table))

    tree.add_command(table)

    @tree.command(name="play", description="Play a card")
    @app_commands.describe(card="The card, e.g. TD", declare="Melds and belote")
    @app_commands.choices(declare=PLAY_FLAGS)
    @app_commands.autocomplete(card=cards, table=tables)
    @app_commands.guild_only()
    async def play(
        interaction: discord.Interaction,
        card: app_commands.Range[str, 1, 8],
        declare: str | None = None,
        table: str | None = None,
    ) -> None:
        await run(interaction, words("/play", card, declare, table))

    @tree.command(name="bid", description="Bid: pass, take, a contract (Coinche: 90 H), contre")
    @app_commands.describe(
        bid="pass, take, H, NT, contre... or at Coinche a value and a suit: 90 H"
    )
    @app_commands.autocomplete(bid=bids, table=tables)
    @app_commands.guild_only()
    async def bid(
        interaction: discord.Interaction,
        bid: app_commands.Range[str, 1, 16],
        table: str | None = None,
    ) -> None:
        await run(interaction, words("/bid", bid, table))

    def simple(name: str, description: str, *, public: bool = False) -> None:
        @tree.command(name=name, description=description)
        @app_commands.autocomplete(table=tables)
        @app_commands.guild_only()
        async def command(interaction: discord.Interaction, table: str | None = None) -> None:
            await run(interaction, words(f"/{name}", table), public=public)

    simple("belote", "Announce belote with your next king or queen of trump")
    simple("hand", "Show your hand (only you see it)")
    simple("web", "Open the table in your browser (a link for you alone)")
    simple("score", "The score of the match")
    simple("back", "Take your seat back from the bot")
    simple("coinche", "Coinche: double the other side's bid")
    simple("surcoinche", "Coinche: redouble after your side's bid was coinched")

    @tree.command(name="seed", description="Add your seed to the deal (hex)")
    @app_commands.describe(hex="Your seed, 32 hex digits")
    @app_commands.autocomplete(table=tables)
    @app_commands.guild_only()
    async def seed(
        interaction: discord.Interaction,
        hex: app_commands.Range[str, 1, 128],
        table: str | None = None,
    ) -> None:
        await run(interaction, words("/seed", hex, table))

    @tree.command(name="verify", description="Check that a finished match was dealt fairly")
    @app_commands.describe(match="Match id, e.g. m12 (default: the last one here)")
    @app_commands.guild_only()
    async def verify(interaction: discord.Interaction, match: str | None = None) -> None:
        await run(interaction, words("/verify", match), public=True)

    @tree.command(name="replay", description="Replay a finished match")
    @app_commands.describe(match="Match id, e.g. m12 (default: the last one here)")
    @app_commands.guild_only()
    async def replay(interaction: discord.Interaction, match: str | None = None) -> None:
        await run(interaction, words("/replay", match))

    @tree.command(name="rules", description="The rules of a ruleset")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rules(interaction: discord.Interaction, ruleset: str | None = None) -> None:
        await run(interaction, words("/rules", ruleset))

    @tree.command(name="help", description="How to play here")
    async def help_(interaction: discord.Interaction) -> None:
        await run(interaction, "/help")

    register_settings_commands(tree, run)
    register_event_commands(tree, run)


#: The numbers of ``/settings set``'s optional pairs after the first (``name2 value2``...).
EXTRA = (2, 3, 4, 5)


def scope_word(here: bool | None, parent: bool | None) -> str | None:
    """The core's word for where a change applies: ``here`` (this channel, thread or
    post), ``parent`` (the channel a thread or post belongs to); both: the usage line."""
    if here and parent:
        return "here parent"
    return "here" if here else "parent" if parent else None


def register_settings_commands(tree: app_commands.CommandTree, run: Run) -> None:
    """``/settings``: the server's own settings, rendered from their declarations
    (``bot.community.registry``), so a new setting needs nothing here. Anyone may read
    them; the core decides who may change them (Manage Server, or a role the server
    named), so the command is not hidden behind ``default_permissions``."""
    group = app_commands.Group(
        name="settings", description="This server's settings for its tables", guild_only=True
    )

    async def names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.lower().replace("-", "_")
        found = [s.name for s in SETTINGS if typed in s.name][:25]
        return [app_commands.Choice(name=n, value=n) for n in found]

    def values_of(field: str) -> Callable[..., Awaitable[list[app_commands.Choice[str]]]]:
        """The autocomplete of a value: the typical values of the setting named in
        ``field`` (``name``, ``name2``...) of the same command."""

        async def values(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            typed_name = str(getattr(interaction.namespace, field, "") or "")
            found = BY_NAME.get(typed_name.lower().replace("-", "_"))
            if found is None:
                return []
            typed = current.lower()
            picks = [c for c in found.choices() if typed in c.lower()][:25]
            return [app_commands.Choice(name=c, value=c) for c in picks]

        return values

    @group.command(name="show", description="Every setting here, with its default")
    async def show(interaction: discord.Interaction) -> None:
        await run(interaction, "/settings show")

    @group.command(name="set", description="Change settings (Manage Server or a named role)")
    @app_commands.describe(
        name="Which setting",
        value="Its new value",
        here="For this channel (or thread, or forum post) only",
        parent="For the channel this thread or post belongs to, and all its threads",
        **{f"name{n}": "Another setting, changed with the others or not at all" for n in EXTRA},
        **{f"value{n}": "Its new value" for n in EXTRA},
    )
    @app_commands.autocomplete(
        name=names,
        value=values_of("name"),
        **{f"name{n}": names for n in EXTRA},
        **{f"value{n}": values_of(f"name{n}") for n in EXTRA},
    )
    async def set_(
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        value: app_commands.Range[str, 1, 200],
        name2: app_commands.Range[str, 1, 40] | None = None,
        value2: app_commands.Range[str, 1, 200] | None = None,
        name3: app_commands.Range[str, 1, 40] | None = None,
        value3: app_commands.Range[str, 1, 200] | None = None,
        name4: app_commands.Range[str, 1, 40] | None = None,
        value4: app_commands.Range[str, 1, 200] | None = None,
        name5: app_commands.Range[str, 1, 40] | None = None,
        value5: app_commands.Range[str, 1, 200] | None = None,
        here: bool | None = None,
        parent: bool | None = None,
    ) -> None:
        """Up to five NAME VALUE pairs, set together in one change or not at all (the core
        reads every value before it writes any); a name without its value, or a value
        without its name, is the usage line, with nothing changed."""
        pairs = [(name, value), (name2, value2), (name3, value3), (name4, value4)]
        pairs.append((name5, value5))
        if any((n is None) != (v is None) for n, v in pairs):
            await run(interaction, "/settings set")
            return
        typed = [f"{n.strip()} {''.join(v.split())}" for n, v in pairs if n and v]
        await run(interaction, words("/settings set", *typed, scope_word(here, parent)))

    @group.command(name="reset", description="Put a setting back to its default")
    @app_commands.describe(
        name="Which setting",
        here="This channel's (or thread's) own value only",
        parent="The value of the channel this thread or post belongs to",
    )
    @app_commands.autocomplete(name=names)
    async def reset(
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        here: bool | None = None,
        parent: bool | None = None,
    ) -> None:
        await run(interaction, words("/settings reset", name, scope_word(here, parent)))

    @group.command(name="log", description="Who changed which setting, and when")
    async def log_(interaction: discord.Interaction) -> None:
        await run(interaction, "/settings log")

    tree.add_command(group)


FORMAT_CHOICES = [
    app_commands.Choice(name="round robin", value="roundrobin"),
    app_commands.Choice(name="swiss", value="swiss"),
    app_commands.Choice(name="elimination", value="elimination"),
]
OUTCOME_CHOICES = [
    app_commands.Choice(name="team A won", value="a"),
    app_commands.Choice(name="team B won", value="b"),
    app_commands.Choice(name="draw", value="draw"),
]


def _event(tid: int | None) -> str | None:
    return f"#{tid}" if tid is not None else None


def _opt(flag: str, value: object) -> str | None:
    return f"{flag} {value}" if value is not None else None


def register_event_commands(tree: app_commands.CommandTree, run: Run) -> None:
    """``/tournament``, ``/ladder``, ``/stats``, ``/leaderboard`` (bot/tournaments)."""
    tournament = app_commands.Group(
        name="tournament", description="Tournaments in this channel", guild_only=True
    )

    @tournament.command(name="create", description="Create a tournament")
    @app_commands.choices(format=FORMAT_CHOICES, ruleset=RULESET_CHOICES)
    async def t_create(
        interaction: discord.Interaction,
        format: str,
        name: app_commands.Range[str, 1, 60] | None = None,
        ruleset: str | None = None,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        round_minutes: app_commands.Range[int, 5, 1440] | None = None,
        best_of: app_commands.Range[int, 1, 3] | None = None,
        win: app_commands.Range[int, 0, 100] | None = None,
        draw: app_commands.Range[int, 0, 100] | None = None,
        loss: app_commands.Range[int, 0, 100] | None = None,
        rotate_partners: bool | None = None,
    ) -> None:
        text = words(
            "/tournament create",
            format,
            name,
            _opt("--ruleset", ruleset),
            _opt("--rounds", rounds),
            _opt("--round-minutes", round_minutes),
            _opt("--best-of", best_of),
            _opt("--win", win),
            _opt("--draw", draw),
            _opt("--loss", loss),
            "--rotate-partners" if rotate_partners else None,
        )
        await run(interaction, text)

    def event_sub(group: app_commands.Group, sub: str, description: str) -> None:
        @group.command(name=sub, description=description)
        async def command(interaction: discord.Interaction, id: EventId | None = None) -> None:
            await run(interaction, words(f"/{group.name} {sub}", _event(id)))

    for sub, description in (
        ("join", "Enter the tournament"),
        ("withdraw", "Leave the tournament"),
        ("start", "Start it (organiser or Manage Server)"),
        ("info", "What it is and where it stands"),
        ("standings", "The standings"),
        ("pairings", "This round's pairings"),
    ):
        event_sub(tournament, sub, description)

    @tournament.command(name="drop", description="Drop a player (organiser or Manage Server)")
    async def t_drop(
        interaction: discord.Interaction, player: str, id: EventId | None = None
    ) -> None:
        await run(interaction, words("/tournament drop", player, _event(id)))

    @tournament.command(name="result", description="Record a match result by hand")
    @app_commands.choices(outcome=OUTCOME_CHOICES)
    async def t_result(
        interaction: discord.Interaction,
        match: EventId,
        outcome: str,
        score_a: app_commands.Range[int, 0, 100_000] | None = None,
        score_b: app_commands.Range[int, 0, 100_000] | None = None,
        id: EventId | None = None,
    ) -> None:
        scores = (score_a, score_b) if score_a is not None and score_b is not None else ()
        text = words("/tournament result", match, outcome, *scores, _event(id))
        await run(interaction, text)

    tree.add_command(tournament)

    ladder = app_commands.Group(
        name="ladder", description="Ladders in this channel", guild_only=True
    )

    @ladder.command(name="create", description="Create a ladder")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def l_create(
        interaction: discord.Interaction,
        ruleset: str | None = None,
        name: app_commands.Range[str, 1, 60] | None = None,
        days: app_commands.Range[int, 1, 365] | None = None,
        opens_in_hours: app_commands.Range[int, 0, 2160] | None = None,
        win: app_commands.Range[int, 0, 100] | None = None,
        draw: app_commands.Range[int, 0, 100] | None = None,
        loss: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        text = words(
            "/ladder create",
            ruleset,
            name,
            _opt("--days", days),
            _opt("--opens-in", opens_in_hours),
            _opt("--win", win),
            _opt("--draw", draw),
            _opt("--loss", loss),
        )
        await run(interaction, text)

    for sub, description in (
        ("join", "Enter the ladder"),
        ("withdraw", "Leave the ladder"),
        ("info", "What it is and where it stands"),
        ("standings", "The standings"),
    ):
        event_sub(ladder, sub, description)

    @ladder.command(name="drop", description="Drop a player (organiser or Manage Server)")
    async def l_drop(
        interaction: discord.Interaction, player: str, id: EventId | None = None
    ) -> None:
        await run(interaction, words("/ladder drop", player, _event(id)))

    tree.add_command(ladder)

    @tree.command(name="stats", description="Ratings of a player (default: you)")
    @app_commands.guild_only()
    async def stats(interaction: discord.Interaction, player: str | None = None) -> None:
        await run(interaction, words("/stats", player))

    @tree.command(name="leaderboard", description="The best ratings of a ruleset")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction, ruleset: str | None = None) -> None:
        await run(interaction, words("/leaderboard", ruleset))
