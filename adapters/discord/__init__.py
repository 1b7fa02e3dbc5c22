"""The Discord adapter: slash commands and buttons in, the core's posts out (discord.py 2.7).

Entry points: :func:`run` (what ``belote run --platform discord`` calls) and
:func:`run_discord` (the same with an explicit token). See docs/discord.md.
"""

from adapters.discord.adapter import DiscordAdapter
from adapters.discord.client import BeloteClient, DiscordBot, run, run_discord
from adapters.discord.config import PERMISSIONS_VALUE, SCOPES, invite_url, read_token

__all__ = [
    "PERMISSIONS_VALUE",
    "SCOPES",
    "BeloteClient",
    "DiscordAdapter",
    "DiscordBot",
    "invite_url",
    "read_token",
    "run",
    "run_discord",
]
