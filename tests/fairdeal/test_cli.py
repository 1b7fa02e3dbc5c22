"""`belote verify FILE [--online]`: report, exit codes 0 / 1 / 2."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import build_parser, main
from bot.proof.transcript import Transcript, dump, dumps, load, loads
from tests.fakes.drand_relay import closed_relay_url, drand_relay


@pytest.fixture
def good_file(tmp_path: Path, club_transcript: Transcript) -> Path:
    path = tmp_path / "match.json"
    dump(club_transcript, path)
    return path


def test_transcript_file_round_trip(good_file: Path, club_transcript: Transcript) -> None:
    assert load(good_file) == club_transcript
    text = good_file.read_text(encoding="utf-8")
    assert loads(text) == club_transcript
    assert dumps(loads(text)) == text
    data = json.loads(text)
    assert list(data)[:6] == ["match", "ruleset", "target", "recipe", "commitment", "server_seed"]
    assert data["seats"][1] == {"name": "Bot Boris", "seed": None, "bot": True}
    assert set(data["drand"]) == {"chain", "round", "value", "signature"}
    deal = data["deals"][0]
    assert set(deal) == {"k", "dealer", "deck", "turned", "hands", "contract", "actions", "score"}
    assert len(deal["deck"]) == 32 and all(len(h) == 8 for h in deal["hands"])
    assert all(isinstance(seat, int) and isinstance(text, str) for seat, text in deal["actions"])


def test_unrevealed_transcript_holds_no_seed(club_transcript: Transcript) -> None:
    secret = dataclasses.replace(club_transcript, server_seed=None)
    text = dumps(secret)
    assert "server_seed" not in text
    assert club_transcript.server_seed not in text
    assert club_transcript.server_seed not in repr(club_transcript)


def test_verify_command_registered() -> None:
    args = build_parser().parse_args(["verify", "x.json", "--online"])
    assert args.online and args.file == "x.json"


def test_good_file_exits_0(good_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(good_file)]) == 0
    out = capsys.readouterr().out
    assert "Every check passed" in out
    assert "ok     commitment" in out


def test_tampered_file_exits_1(
    tmp_path: Path, club_transcript: Transcript, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(dumps(club_transcript))
    data["deals"][1]["deck"][0], data["deals"][1]["deck"][1] = (
        data["deals"][1]["deck"][1],
        data["deals"][1]["deck"][0],
    )
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED deal 2: deck" in out  # deals numbered from 1, as the game shows them
    assert "First wrong: deal 2." in out


@pytest.mark.parametrize(
    "content", [None, "not json {", "[1, 2]", '{"match": "m"}', '{"seats": 3}', "\udcff"]
)
def test_unreadable_input_exits_2(
    tmp_path: Path, content: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    if content == "\udcff":
        path.write_bytes(b"\xff\xfe\x00garbage")
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() and "Traceback" not in captured.err
    assert captured.out == ""


async def test_online_against_fake_relay(
    good_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with drand_relay() as relay:
        # the CLI runs its own event loop: run it in a thread while the relay serves here
        code = await asyncio.to_thread(
            main, ["verify", str(good_file), "--online", "--relay", relay.url]
        )
        assert code == 0
        assert "ok     drand online" in capsys.readouterr().out
    code = await asyncio.to_thread(
        main,
        ["verify", str(good_file), "--online", "--relay", closed_relay_url(), "--timeout", "1"],
    )
    assert code == 0  # the BLS check proved the value: drand's own answer is an extra
    assert "not asked drand online" in capsys.readouterr().out


def test_console_script_runs(good_file: Path) -> None:
    """The installed entry point, as a user runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "verify", str(good_file)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr
    assert "Every check passed" in proc.stdout
