"""The `belote` console script: one dispatcher, one module per command family.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its
sub-commands and sets ``func`` on each parser to a callable taking the parsed
arguments and returning an exit code. ``belote`` with no command opens a table in
the terminal (or on Discord / Telegram when a token is configured).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

COMMAND_MODULES: tuple[str, ...] = (
    "adapters.cli.engine_commands",  # deck, legal, bench
    "adapters.cli.ai_commands",  # arena
    "adapters.cli.verify_command",  # verify (fair deal)
    "adapters.cli.bot_commands",  # run, export
    "adapters.cli.tournament_commands",  # tournament simulate
    "adapters.cli.ops_commands",  # backup, admin
    "adapters.cli.settings_command",  # settings (a server's or group's own)
)


class Parser(argparse.ArgumentParser):
    """argparse, with a refusal in one line (``belote run: error: argument --timer: ...``,
    exit status 2) instead of the usage block and then the error: what a log collector,
    systemd or a person in a hurry reads is the line that says what is wrong."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(*, default_run: bool = False) -> argparse.ArgumentParser:
    """The whole command line. ``default_run``: ``belote [OPTIONS]`` was typed (no
    command), so ``run``'s usage errors say ``belote: error: ...``, as typed."""
    from adapters.cli import game_options
    from bot.ops.version import VERSION

    parser = Parser(
        prog="belote",
        description="Belote for Discord, Telegram and the terminal. With no command (or"
        " only options), plays in the terminal: you and three bots, or resumes your table.",
    )
    parser.add_argument("--version", action="version", version=f"belote {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    game_options.list_in_help(parser)
    if default_run:
        sub.choices["run"].prog = "belote"
    return parser


def with_default_command(argv: Sequence[str]) -> list[str]:
    """``belote --no-drand`` means ``belote run --no-drand``: with no command, options are
    the table's (``belote -h`` still shows every command)."""
    argv = list(argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        return ["run", *argv]
    return argv or ["run"]


def main(argv: Sequence[str] | None = None) -> int:
    typed = list(sys.argv[1:] if argv is None else argv)
    argv = with_default_command(typed)
    parser = build_parser(default_run=argv[:1] == ["run"] and typed[:1] != ["run"])
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()  # inside the try: a reader gone (``| head``) shows here
    except BrokenPipeError:
        return _reader_gone()
    return code


def _reader_gone() -> int:
    """The output's reader stopped reading (``belote verify x.json | head``): stop quietly,
    as ``yes | head`` does, with the status of a process ended by SIGPIPE. Standard output
    is pointed at /dev/null so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 128 + 13  # SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
