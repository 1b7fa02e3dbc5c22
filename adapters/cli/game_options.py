"""The game's options: what ``belote`` (the terminal's table) takes, shown by
``belote --help`` and read by ``belote run``.

Three of them are settings of the whole bot and are declared with the others in
:mod:`adapters.cli.settings_options` (``--ruleset``, ``--no-drand``, ``--timer``: the settings
model reads them with the environment and ``.env``); the terminal's own ones are declared
here (``--target``, ``--lang``, ``--pictures``). :func:`list_in_help` shows the six together
in ``belote --help``; the top-level parser only lists them (``belote --ruleset bulgarian``
is ``belote run --ruleset bulgarian``, see :func:`adapters.cli.with_default_command`).
Each value is read by the same reader as the chat commands (:mod:`adapters.cli.types`), so
a bad one is a clear usage error (``belote: error: argument --ruleset: Unknown ruleset
poker: choose classic, club, bulgarian.``), never a traceback.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from adapters.cli import settings_options, types
from engine import OPTIONS


def table_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The table options asked for on the command line, by name (``no_trump``...)."""
    return tuple(s.name for s in OPTIONS if getattr(args, f"table_{s.name}", False))


#: The settings that are also the game's options, in the order ``--help`` shows them.
GAME_SETTINGS = ("ruleset", "no_drand", "timer")


def declare(parser: argparse.ArgumentParser | Any) -> None:
    """Add the terminal's own options to ``parser`` (a parser or an argument group)."""
    parser.add_argument(
        "--target",
        type=types.target,
        metavar="N",
        help="the points that win the match (default: the ruleset's, 1000 or 151)",
    )
    for spec in OPTIONS:  # the rulesets' table options (engine.OPTIONS): --no-trump ...
        parser.add_argument(
            "--" + spec.name.replace("_", "-"),
            dest=f"table_{spec.name}",
            action="store_true",
            default=False,
            help=f"{', '.join(spec.rulesets)} tables: {spec.doc}",
        )
    parser.add_argument("--lang", metavar="LANG", help="en, fr or bg (default: from $LANG)")
    parser.add_argument(
        "--pictures",
        default=None,
        metavar="DIR",
        help="save the pictures the chat platforms would send (hands, table, results), "
        "one per moment of the game, in DIR (default: none saved)",
    )
    parser.add_argument("--images", dest="pictures", help=argparse.SUPPRESS)  # the old name


def list_in_help(parser: argparse.ArgumentParser) -> None:
    """Show the game's options in ``belote --help`` (``run`` parses them)."""
    group = parser.add_argument_group(
        "playing in the terminal (belote [OPTIONS], the same as belote run [OPTIONS])"
    )
    game = tuple(o for o in settings_options.RUN_OPTIONS if o.field in GAME_SETTINGS)
    settings_options.add(group, game)
    declare(group)
    for action in group._group_actions:
        action.default = argparse.SUPPRESS


def terminal_is_full_screen(env: dict[str, str] | None = None) -> bool:
    """The full-screen table needs a terminal that can draw it (not ``TERM=dumb``)."""
    env = dict(os.environ) if env is None else env
    return env.get("TERM", "") != "dumb"
