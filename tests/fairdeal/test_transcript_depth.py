"""A hostile transcript nested deeper than any real one is refused with a message, even in
a process where py_ecc (the pure-Python BLS fallback) has raised the recursion limit to
100000: json would otherwise recurse in C until the process crashes."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.proof.transcript import MAX_NESTING, TranscriptError, dumps, loads

ROOT = Path(__file__).resolve().parents[2]


def test_deep_text_is_refused_after_py_ecc_raised_the_recursion_limit():
    script = textwrap.dedent(
        """
        import sys
        import py_ecc  # noqa: F401  (sets the recursion limit to 100000 on import)
        assert sys.getrecursionlimit() >= 100000
        from bot.proof.transcript import TranscriptError, loads
        for deep in ("[" * 200_000 + "]" * 200_000, b'{"a":' * 200_000 + b"1" + b"}" * 200_000):
            try:
                loads(deep)
            except TranscriptError as exc:
                assert "nested too deeply" in str(exc), exc
            else:
                raise SystemExit("accepted")
        print("refused")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "refused", proc.stderr[-2000:]


def test_brackets_inside_strings_do_not_count():
    text = '{"seats": "' + "[" * (MAX_NESTING * 4) + '"}'
    with pytest.raises(TranscriptError) as err:
        loads(text)
    assert "nested too deeply" not in str(err.value)  # refused later, as not a transcript


def test_a_real_transcript_still_loads(club_transcript):
    assert loads(dumps(club_transcript)) == club_transcript
