"""Discord people and places as the core names them (``discord:<user>``,
``discord:<guild>/<channel>``), and back.

A *place* is a core channel written short enough to ride in a button's custom id
(``<guild>.<channel>`` in base 36, at most 27 characters): a hand sent by direct message
carries the place of its table in every button, so a click in the DM, which Discord
reports from the DM channel, still reaches the table's channel in the core, even after a
restart, with nothing kept per message.
"""

from __future__ import annotations

import discord

from bot.platform import Channel, User

PREFIX = "discord:"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_NO_GUILD = "_"  # the "@me" of a channel outside any server


def user_of(interaction: discord.Interaction) -> User:
    """The acting user, with the facts the core decides on: Manage Server in this channel
    (the platform's admin right) and the ids of the roles they hold in the server (a
    server may name roles whose members change its settings)."""
    person = interaction.user
    permissions = interaction.permissions
    roles = getattr(person, "roles", None) or []
    guild = interaction.guild_id
    return User(
        id=f"{PREFIX}{person.id}",
        name=person.display_name,
        is_admin=bool(guild and permissions.manage_guild),
        locale=str(interaction.locale or "en-US"),
        roles=tuple(str(r.id) for r in roles if r.id != guild),  # not @everyone
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


def _base36(number: int) -> str:
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = _DIGITS[digit] + text
        if not number:
            return text


def place_of(channel: Channel) -> str | None:
    """The short form of a Discord core channel for a custom id, or None for another
    platform's channel (or a malformed one)."""
    if not channel.id.startswith(PREFIX):
        return None
    guild, _, tail = channel.id[len(PREFIX) :].rpartition("/")
    if not tail.isdigit() or not (guild.isdigit() or guild == "@me"):
        return None
    head = _base36(int(guild)) if guild.isdigit() else _NO_GUILD
    return f"{head}.{_base36(int(tail))}"


def channel_of_place(place: str) -> Channel | None:
    """The core channel a place names (the inverse of :func:`place_of`)."""
    head, dot, tail = place.partition(".")
    if not dot or not tail.isalnum() or not (head.isalnum() or head == _NO_GUILD):
        return None
    try:
        guild = "@me" if head == _NO_GUILD else str(int(head, 36))
        return Channel(f"{PREFIX}{guild}/{int(tail, 36)}")
    except ValueError:
        return None


def guild_snowflake(channel: Channel) -> int | None:
    """The Discord server id of a core channel, or None (a DM, another platform)."""
    if not channel.id.startswith(PREFIX):
        return None
    guild, _, _tail = channel.id[len(PREFIX) :].rpartition("/")
    return int(guild) if guild.isdigit() else None
