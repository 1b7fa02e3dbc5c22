"""What it takes to run the Discord adapter: the token, and what to ask Discord for.

The bot needs no privileged intent and no gateway intent at all: everything it hears
arrives as interactions (slash commands, autocomplete, button clicks). In the channel it
only posts and edits its own table messages, with a picture attached.
"""

from __future__ import annotations

from pathlib import Path

import discord

from bot.ops.settings import environment

#: OAuth2 scopes for the invite link: the bot user, and its slash commands.
SCOPES: tuple[str, ...] = ("bot", "applications.commands")

#: The channel permissions the bot uses, and nothing more.
PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channel it posts the table in
    send_messages=True,  # post the table message, the commitment and the reveal
    attach_files=True,  # the table picture
)
#: 35840 = view_channel 1024 + send_messages 2048 + attach_files 32768. Editing its own
#: messages needs nothing more; answers to interactions need no permission at all.
PERMISSIONS_VALUE: int = PERMISSIONS.value


def invite_url(application_id: int | str) -> str:
    """The link a server admin opens to add the bot with exactly these permissions."""
    scopes = "%20".join(SCOPES)
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&permissions={PERMISSIONS_VALUE}&scope={scopes}"
    )


def read_token(env_file: str | Path | None = ".env") -> str | None:
    """``DISCORD_TOKEN`` from the environment, else from a ``.env`` file (the settings'
    reader, :func:`bot.ops.settings.environment`). The token is returned, never printed
    or logged."""
    token = environment(env_file).get("DISCORD_TOKEN", "").strip()
    return token or None
