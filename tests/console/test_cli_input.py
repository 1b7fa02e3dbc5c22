"""The CLI's options are read by the same parsers as the chat commands: a bad value is a
usage error with a clear text (exit 2), never a traceback; a reader that stops reading
(``| head``) ends the command quietly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main
from bot.proof.transcript import dump
from tests.fairdeal.conftest import make_transcript

ROOT = Path(__file__).resolve().parents[2]
ZERO = "00" * 32


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run", "--ruleset", "poker"], "Unknown ruleset poker: choose classic, club, bulgarian"),
        (["run", "--timer", "0"], "from 5 to 3600 seconds, or off"),
        (["run", "--timer", "4"], "from 5 to 3600 seconds, or off"),
        (["run", "--timer", "99999"], "from 5 to 3600 seconds, or off"),
        (["run", "--timer", "nan"], "from 5 to 3600 seconds, or off"),
        (["run", "--timer", "٣"], "from 5 to 3600 seconds, or off"),
        (["run", "--bot-delay", "-5"], "from 0 to 60 seconds"),
        (["run", "--window", "1e9"], "from 0 to 600 seconds"),
        (["export", "m①"], "named like m12"),
        (["export", "m" + "9" * 5000], "named like m12"),
        (["deck", "--server-seed", "zz", "--deal", "0"], "64 hexadecimal digits"),
        (["deck", "--server-seed", "z" * 64, "--deal", "0"], "64 hexadecimal digits"),
        (["deck", "--server-seed", ZERO, "--seat", "xyz", "--deal", "0"], "32 hexadecimal"),
        (["deck", "--server-seed", ZERO, "--drand-value", "00 00", "--deal", "0"], "64 hex"),
        (["deck", "--server-seed", ZERO, "--deal", "²"], "whole number from 0 to 4294967295"),
        (["deck", "--server-seed", ZERO, "--deal", "9" * 5000], "whole number from 0"),
        (["tournament", "simulate", "--format", "swiss", "--entrants", "٣"], "whole number"),
        (["arena", "--a", "easy", "--b", "easy", "--budget", "inf"], "number of seconds"),
        (["verify", "x.json", "--timeout", "nan"], "number of seconds"),
    ],
)
def test_a_bad_option_is_a_usage_error_that_says_what_is_accepted(capsys, argv, says):
    code, err = run(capsys, *argv)
    assert code == 2 and says in err, err
    assert "Traceback" not in err


def _reader_gone(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``belote ARGS`` with its output's reader gone before it writes (as ``| head``
    once it has read its lines)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    return subprocess.CompletedProcess(args, proc.returncode, "", err)


def test_verify_and_simulate_into_a_closed_pipe_end_quietly(tmp_path):
    path = tmp_path / "match.json"
    dump(make_transcript("club"), path)
    for args in (
        ["verify", str(path)],
        ["tournament", "simulate", "--format", "swiss", "--entrants", "64"],
    ):
        done = _reader_gone(args)
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
        assert done.returncode == 141, (args, done.returncode, done.stderr)


def test_verify_of_a_hostile_file_says_why(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_text('{"k": ' + "9" * 5000 + "}")
    for path in (deep, huge):
        code, err = run(capsys, "verify", str(path))
        assert code == 2 and "is not a match transcript" in err, err
