"""Discord API objects as the real API sends them (v10), for the fake server.

Only the fields discord.py 2.7 reads are filled, but each is filled the way Discord
documents it (snowflakes as strings, ISO timestamps, permissions as decimal strings), so
that the real library parses them exactly as it parses Discord's own payloads.
"""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
_increment = itertools.count(1)

#: Permission bits used by the fake (https://discord.com/developers/docs/topics/permissions).
MANAGE_GUILD = 1 << 5
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
VIEW_CHANNEL = 1 << 10
EVERYONE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | (1 << 31)  # + use app cmds
ADMIN_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_GUILD

# Interaction types and callback types (interactions/receiving-and-responding).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 1, 2, 3, 4
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def snowflake() -> str:
    """A fresh, time-ordered snowflake as Discord writes it (a decimal string)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return str((ms << 22) | (1 << 17) | (next(_increment) & 0xFFF))


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord account, human or bot."""

    id: str
    username: str
    bot: bool = False
    admin: bool = False
    locale: str = "en-US"
    #: False plays a user whose privacy settings refuse direct messages from this bot
    #: (Discord then answers a DM with 403, code 50007)
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.username,
            "global_name": None if self.bot else self.username.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }

    @property
    def permissions(self) -> int:
        return ADMIN_PERMISSIONS if self.admin else EVERYONE_PERMISSIONS

    def member_payload(self, guild: FakeGuild | None = None) -> dict[str, Any]:
        """A guild member as an interaction carries it: its role ids, and its permissions
        computed as Discord does (@everyone's, or-ed with each of its roles')."""
        roles = guild.member_roles.get(self.id, []) if guild is not None else []
        permissions = self.permissions
        for role in guild.roles if guild is not None else []:
            if role["id"] in roles:
                permissions |= int(role["permissions"])
        return {
            "user": self.payload(),
            "nick": None,
            "avatar": None,
            "roles": list(roles),
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(permissions),
            "communication_disabled_until": None,
        }


#: Permissions Discord gives an app in a DM with its bot user (``app_permissions``):
#: ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, USE_EXTERNAL_EMOJIS.
DM_APP_PERMISSIONS = ATTACH_FILES | (1 << 14) | (1 << 17) | (1 << 18)


#: Discord's channel types the fake knows: a text channel, a DM, the three thread types,
#: a forum and a media channel (whose posts are threads of type 11).
TEXT, DM, FORUM, MEDIA = 0, 1, 15, 16
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})


@dataclass
class FakeChannel:
    """A guild text channel (type 0), a DM with one user (type 1: no guild), a thread
    (10, 11, 12: ``parent_id`` its channel's, or its forum's for a forum post) or a forum
    or media channel (15, 16)."""

    id: str
    guild_id: str | None
    name: str
    recipient: FakeUser | None = None  # the other side of a DM
    type: int = TEXT
    parent_id: str | None = None
    archived: bool = False
    owner_id: str | None = None  # a thread's creator

    @property
    def is_dm(self) -> bool:
        return self.recipient is not None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        if self.recipient is not None:
            # what POST /users/@me/channels answers (channel object, type DM)
            return {
                "id": self.id,
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        if self.is_thread:
            # a thread channel object as Discord documents it (GUILD_CREATE's threads,
            # THREAD_CREATE, THREAD_UPDATE, an interaction's channel)
            return {
                "id": self.id,
                "type": self.type,
                "guild_id": self.guild_id,
                "name": self.name,
                "parent_id": self.parent_id,
                "owner_id": self.owner_id,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": iso_now(),
                },
            }
        base: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "guild_id": self.guild_id,
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in (FORUM, MEDIA):
            base.update(
                {
                    "available_tags": [],
                    "default_reaction_emoji": None,
                    "default_thread_rate_limit_per_user": 0,
                    "default_sort_order": None,
                    "default_forum_layout": 0,
                    "default_auto_archive_duration": 1440,
                }
            )
        return base


@dataclass
class FakeGuild:
    """A server with its text channels."""

    id: str
    name: str
    owner_id: str
    channels: list[FakeChannel] = field(default_factory=list)
    #: its threads (and forum posts), archived ones too: GUILD_CREATE lists the active ones
    threads: list[FakeChannel] = field(default_factory=list)
    #: the server's roles (besides @everyone) as Discord writes them, and who holds which
    roles: list[dict[str, Any]] = field(default_factory=list)
    member_roles: dict[str, list[str]] = field(default_factory=dict)

    def role_payload(self, role_id: str, name: str, permissions: int, position: int) -> dict:
        return {
            "id": role_id,
            "name": name,
            "color": 0,
            "hoist": False,
            "position": position,
            "permissions": str(permissions),
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }

    def payload(self, bot: FakeUser) -> dict[str, Any]:
        """GUILD_CREATE data: the guild, its channels, @everyone and the bot as a member."""
        return {
            "id": self.id,
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": self.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": self.id,
                    "name": "@everyone",
                    "color": 0,
                    "hoist": False,
                    "position": 0,
                    "permissions": str(EVERYONE_PERMISSIONS),
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                *self.roles,
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": 2,
            "voice_states": [],
            "members": [bot.member_payload()],
            "channels": [c.payload() for c in self.channels],
            "threads": [t.payload() for t in self.threads if not t.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def partial(self) -> dict[str, Any]:
        return {"id": self.id, "locale": "en-US", "features": []}


def new_token(prefix: str = "aW50ZXJhY3Rpb24") -> str:
    """An interaction token (opaque; Discord's are long base64-ish strings)."""
    return f"{prefix}:{secrets.token_urlsafe(48)}"


def message_payload(
    *,
    message_id: str,
    channel_id: str,
    guild_id: str | None,
    author: dict[str, Any],
    content: str = "",
    components: list[dict[str, Any]] | None = None,
    attachments: list[dict[str, Any]] | None = None,
    embeds: list[dict[str, Any]] | None = None,
    flags: int = 0,
    webhook_id: str | None = None,
    application_id: str | None = None,
    message_type: int = 0,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": message_id,
        "channel_id": channel_id,
        "author": author,
        "content": content,
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments or [],
        "embeds": embeds or [],
        "pinned": False,
        "type": message_type,
        "flags": flags,
        "components": components or [],
    }
    if guild_id is not None:
        payload["guild_id"] = guild_id
    if webhook_id is not None:
        payload["webhook_id"] = webhook_id
    if application_id is not None:
        payload["application_id"] = application_id
    return payload
