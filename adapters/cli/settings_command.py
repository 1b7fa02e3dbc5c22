"""``belote settings``: a server's or a group's settings from the terminal (the operator).

The same ``/settings`` as in the chat, through the core (``bot.community``), with the
operator as its admin; ``--scope`` names the server or group (``discord:<server id>``,
``telegram:<chat id>``) or one of its channels (``discord:<server>/<channel>``, with
``here`` at the end to set that channel's own value). Reading is always possible; a change
on a SQLite database that a running bot holds is refused (change it in the chat with
/settings, or stop the bot first); PostgreSQL takes it while bots run.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from adapters.cli import settings_options

OPERATOR = "cli:operator"
READS = frozenset({"show", "log"})


def register(subparsers: argparse._SubParsersAction) -> None:
    s = subparsers.add_parser(
        "settings",
        help="a server's or group's settings: show, set NAME VALUE [here], reset NAME, log",
        description="Read or change a community's settings as /settings does in the chat.",
    )
    settings_options.add(s, settings_options.DB_OPTIONS)
    s.add_argument(
        "--scope",
        required=True,
        help="discord:SERVER, telegram:CHAT, or one channel: discord:SERVER/CHANNEL",
    )
    s.add_argument("words", nargs="*", help="show (default) | set NAME VALUE ... [here] | ...")
    s.set_defaults(func=lambda args: asyncio.run(_settings(args)))


async def _settings(args: argparse.Namespace) -> int:
    from adapters.cli.ops_commands import _open
    from bot.commands.inputs import Ctx
    from bot.community.registry import Defaults
    from bot.community.service import CommunitySettings
    from bot.ops.clock import SystemClock
    from bot.platform import Channel, User
    from bot.refused import Refused
    from bot.show.i18n import _
    from bot.store.lock import DatabaseInUse

    words = list(args.words) or ["show"]
    scope = str(args.scope)
    if len(scope) > 200 or ":" not in scope or any(c.isspace() for c in scope):
        print("belote: --scope is like discord:123456 or telegram:-100123", file=sys.stderr)
        return 2
    reading = words[0].lower() in READS
    try:
        options = {} if reading else {"exclusive": True, "owner": OPERATOR}
        store = await _open(args, read_only=False, **options)
    except DatabaseInUse as exc:
        print(
            f"belote: a bot runs this database ({exc.holder.text()}): change the settings in "
            "the chat with /settings, or stop the bot first",
            file=sys.stderr,
        )
        return 1
    if store is None:
        return 2
    try:
        community = CommunitySettings(store, SystemClock(), Defaults())
        operator = User(OPERATOR, "operator (terminal)", is_admin=True)
        try:
            replies = await community.command(Ctx(operator, Channel(scope), args=words))
        except Refused as r:
            print(_(r.key, "en", **r.kwargs), file=sys.stderr)
            return 1
    finally:
        await store.close()
    for reply in replies:
        print(reply.text)
    return 0
