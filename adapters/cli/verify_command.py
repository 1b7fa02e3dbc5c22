"""`belote verify FILE [--online]`: check a match transcript on one's own machine.

Exit status: 0 when every check passes, 1 when one fails, 2 when the file cannot be read
as a transcript (nothing is checked then).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from adapters.cli import types
from bot.proof.drand import PUBLIC_RELAYS, DrandClient
from bot.proof.transcript import Transcript, TranscriptError, load
from bot.proof.verify import VerifyReport, verify_transcript


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "verify",
        help="check a match transcript: seed, decks, hands, actions, drand",
        description="Re-make every deck of a match from its revealed seeds and drand's "
        "value, replay every action, and say whether the deals were fair.",
    )
    p.add_argument("file", help="the match transcript (JSON), as /verify or export gives it")
    p.add_argument(
        "--online",
        action="store_true",
        help="also ask drand itself for the round's value and compare",
    )
    p.add_argument(
        "--relay",
        action="append",
        metavar="URL",
        help="drand relay to ask with --online (repeatable; default: the public relays)",
    )
    p.add_argument(
        "--timeout", type=types.seconds(0.1, 600), default=5.0, help="seconds per drand request"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        transcript = load(args.file)
    except OSError as exc:
        print(f"Cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except TranscriptError as exc:
        print(f"{args.file} is not a match transcript: {exc}", file=sys.stderr)
        return 2
    report = asyncio.run(_verify(transcript, args))
    print(report.text())
    return 0 if report.ok else 1


async def _verify(transcript: Transcript, args: argparse.Namespace) -> VerifyReport:
    if not args.online:
        return await verify_transcript(transcript)
    async with DrandClient(args.relay or list(PUBLIC_RELAYS), timeout=args.timeout) as client:
        return await verify_transcript(transcript, online=True, drand_client=client)
