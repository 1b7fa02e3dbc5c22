"""The game's options, declared once: what ``belote`` (the terminal's table) takes, shown by
``belote --help`` and read by ``belote run``.

``declare(parser)`` adds them to a parser: ``belote run`` parses them; the top-level parser
only lists them in its help (``belote --ruleset bulgarian`` is ``belote run --ruleset
bulgarian``, see :func:`adapters.cli.with_default_command`). Each value is read by the
same reader as the chat commands (:mod:`adapters.cli.types`), so a bad one is a clear usage
error (``belote: error: argument --ruleset: Unknown ruleset poker: choose classic, club,
bulgarian.``), never a traceback.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from adapters.cli import types

RULESETS = "classic|club|bulgarian"


def declare(
    parser: argparse.ArgumentParser | Any,
    env: Callable[[str, Any], Any],
    flag: Callable[[str], bool],
) -> None:
    """Add the game's options to ``parser`` (a parser or an argument group). ``env`` and
    ``flag`` read a ``BELOTE_*`` setting (the environment or .env) for a default."""
    parser.add_argument(
        "--ruleset",
        type=types.ruleset,
        default=env("BELOTE_RULESET", None),
        metavar=RULESETS,
        help="the rules of a new table (default: club; a match in progress with other rules "
        "is not resumed without asking)",
    )
    parser.add_argument(
        "--target",
        type=types.target,
        metavar="N",
        help="the points that win the match (default: the ruleset's, 1000 or 151)",
    )
    parser.add_argument(
        "--no-drand",
        action="store_true",
        default=flag("BELOTE_NO_DRAND"),
        help="deal from the server's and the players' seeds alone (no drand beacon)",
    )
    parser.add_argument("--lang", metavar="LANG", help="en, fr or bg (default: from $LANG)")
    parser.add_argument(
        "--timer",
        type=types.default_timer,
        default=None,
        metavar="SECONDS",
        help="turn timer: in the terminal, a solo table has none unless given (then the "
        "screen counts down); on Discord and Telegram, new tables' timer (default 60, "
        "env BELOTE_TIMER)",
    )
    parser.add_argument(
        "--pictures",
        default=None,
        metavar="DIR",
        help="save the pictures the chat platforms would send (hands, table, results), "
        "one per moment of the game, in DIR (default: none saved)",
    )
    parser.add_argument("--images", dest="pictures", help=argparse.SUPPRESS)  # the old name


def chat_timer(args: argparse.Namespace, env: Callable[[str, Any], Any]) -> float:
    """New chat tables' turn timer: ``--timer``, else ``BELOTE_TIMER``, else 60 s."""
    if args.timer is not None:
        return float(args.timer)
    return float(types.default_timer(str(env("BELOTE_TIMER", "60"))))


def list_in_help(parser: argparse.ArgumentParser, env: Callable, flag: Callable) -> None:
    """Show the game's options in ``belote --help`` (they are parsed by ``run``)."""
    group = parser.add_argument_group(
        "playing in the terminal (belote [OPTIONS], the same as belote run [OPTIONS])"
    )
    declare(group, env, flag)
    for action in group._group_actions:
        action.default = argparse.SUPPRESS


def terminal_is_full_screen(env: dict[str, str] | None = None) -> bool:
    """The full-screen table needs a terminal that can draw it (not ``TERM=dumb``)."""
    env = dict(os.environ) if env is None else env
    return env.get("TERM", "") != "dumb"
