"""Discord people and places as the core names them (``discord:<user>``,
``discord:<guild>/<channel>``), and back."""

from __future__ import annotations

import discord

from bot.platform import Channel, User

PREFIX = "discord:"


def user_of(interaction: discord.Interaction) -> User:
    """The acting user; Manage Server in this channel makes them an admin for the core."""
    person = interaction.user
    permissions = interaction.permissions
    return User(
        id=f"{PREFIX}{person.id}",
        name=person.display_name,
        is_admin=bool(interaction.guild_id and permissions.manage_guild),
        locale=str(interaction.locale or "en-US"),
    )


def channel_of(interaction: discord.Interaction) -> Channel:
    guild = interaction.guild_id if interaction.guild_id is not None else "@me"
    return Channel(f"{PREFIX}{guild}/{interaction.channel_id}")


def channel_snowflake(channel: Channel) -> int | None:
    """The Discord channel id of a core channel, or None if it is not a Discord one."""
    if not channel.id.startswith(PREFIX):
        return None
    _, _, tail = channel.id[len(PREFIX) :].rpartition("/")
    return int(tail) if tail.isdigit() else None


def user_snowflake(user_id: str) -> int | None:
    if not user_id.startswith(PREFIX):
        return None
    tail = user_id[len(PREFIX) :]
    return int(tail) if tail.isdigit() else None
