"""The bot's version, as installed (``pip install``): what ``belote --version``, the start
line, ``/healthz`` and the ``belote_build_info`` metric say, so an operator knows which
code runs before reading any other line."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "belote-bot"


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree never installed
        return "0+unknown"


VERSION = version()
