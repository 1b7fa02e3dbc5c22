"""The slash commands: each one is spelled out as the core's command text and handed over.

``/table join table:t3 seat:2`` becomes ``/join t3 2``, exactly what a console or Telegram
user types; the core parses and checks it. Options offer choices (rulesets, bot levels)
and autocomplete (the channel's tables, the cards and bids legal right now) as help only.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from adapters.discord import queries
from adapters.discord.adapter import DiscordAdapter
from adapters.discord.ids import channel_of, user_of
from bot.table import LEVELS
from engine import RULESETS

RULESET_CHOICES = [app_commands.Choice(name=r, value=r) for r in RULESETS]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
PLAY_FLAGS = [
    app_commands.Choice(name="declare my melds (default)", value="melds"),
    app_commands.Choice(name="do not declare melds", value="nomelds"),
    app_commands.Choice(name="announce belote", value="belote"),
]
Seat = app_commands.Range[int, 1, 4]


def words(*parts: object) -> str:
    """The command text: the given parts, the missing ones left out."""
    return " ".join(str(p).strip() for p in parts if p is not None and str(p).strip())


def register_commands(tree: app_commands.CommandTree, adapter: DiscordAdapter) -> None:
    """Add every command of the core to ``tree`` (synced to Discord at start)."""

    def suggest(
        source: Callable[..., list[queries.Suggestion]],
    ) -> Callable[..., object]:
        async def complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if adapter.app is None:
                return []
            found = source(
                adapter.app, channel_of(interaction).id, user_of(interaction).id, current
            )
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
    ) -> None:
        text = words(
            "/table create",
            ruleset,
            (target is not None and f"--target {target}") or None,
            (timer is not None and f"--timer {timer}") or None,
            (window is not None and f"--window {window}") or None,
            (ai is not None and f"--ai {ai}") or None,
            "--rated" if rated else None,
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

    @tree.command(name="bid", description="Bid: pass, take, a contract, contre, recontre")
    @app_commands.autocomplete(bid=bids, table=tables)
    @app_commands.guild_only()
    async def bid(
        interaction: discord.Interaction,
        bid: app_commands.Range[str, 1, 10],
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
    simple("score", "The score of the match")
    simple("back", "Take your seat back from the bot")

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
