"""A fake Discord (REST + gateway on 127.0.0.1) for running the real discord.py in tests.

See :mod:`tests.fakes.discord.server` and docs/discord.md ("How the fake works").
"""

from .payloads import EPHEMERAL, LOADING, FakeChannel, FakeGuild, FakeUser
from .server import (
    DiscordError,
    FakeDiscord,
    FakeInteraction,
    RecordedRequest,
    UploadedFile,
    fake_discord,
    patch_discord,
)

__all__ = [
    "EPHEMERAL",
    "LOADING",
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeUser",
    "RecordedRequest",
    "UploadedFile",
    "fake_discord",
    "patch_discord",
]
