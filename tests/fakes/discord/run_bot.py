"""``belote ARGS...`` in a process of its own, with discord.py pointed at a fake Discord.

For tests that stop a real bot process (SIGTERM) and start it again: the fake runs in the
test's process and its base URL comes in ``FAKE_DISCORD_URL``.
"""

from __future__ import annotations

import os
import sys

import discord.gateway
import discord.http
import yarl

from adapters.cli import main

if __name__ == "__main__":
    base = os.environ["FAKE_DISCORD_URL"].rstrip("/")
    discord.http.Route.BASE = base + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        "ws" + base.removeprefix("http") + "/gateway"
    )
    sys.exit(main(sys.argv[1:]))
