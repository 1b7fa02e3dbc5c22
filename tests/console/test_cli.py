"""`belote run` chooses its platform; `belote export` writes a transcript."""

from __future__ import annotations

import argparse
import json

from adapters.cli import build_parser, with_default_command
from adapters.cli.bot_commands import choose_platform, read_dotenv, terminal_language
from bot.proof.transcript import loads
from tests.console.test_console import run_belote


def test_platform_from_tokens(tmp_path):
    assert choose_platform(None, {}) == "console"
    assert choose_platform(None, {"TELEGRAM_TOKEN": "x"}) == "telegram"
    assert choose_platform(None, {"DISCORD_TOKEN": "x", "TELEGRAM_TOKEN": "y"}) == "discord"
    assert choose_platform("console", {"DISCORD_TOKEN": "x"}) == "console"
    env = tmp_path / ".env"
    env.write_text("# comment\nexport DISCORD_TOKEN='abc'\nEMPTY=\n")
    assert read_dotenv(env) == {"DISCORD_TOKEN": "abc", "EMPTY": ""}
    assert read_dotenv(tmp_path / "missing") == {}


def test_run_options_parse():
    args = build_parser().parse_args(
        [
            "run",
            "--platform",
            "console",
            "--db",
            "x.db",
            "--bot-delay",
            "0.5",
            "--fast",
            "--no-drand",
        ]
    )
    assert isinstance(args, argparse.Namespace)
    assert (args.platform, args.db, args.bot_delay, args.fast, args.no_drand) == (
        "console",
        "x.db",
        0.5,
        True,
        True,
    )


def test_options_without_a_command_are_the_tables():
    assert with_default_command([]) == ["run"]
    assert with_default_command(["--no-drand", "--fast"]) == ["run", "--no-drand", "--fast"]
    assert with_default_command(["--help"]) == ["--help"]
    assert with_default_command(["arena", "--a", "easy"]) == ["arena", "--a", "easy"]
    args = build_parser().parse_args(with_default_command(["--no-drand"]))
    assert (args.command, args.no_drand) == ("run", True)


def test_export_a_match_by_id_and_errors(tmp_path, db, backend):
    """On SQLite (``--db FILE``) and PostgreSQL (the URL in ``DATABASE_URL``)."""
    target = db("e")
    script = "\n".join(
        [
            "a: /table create --target 200",
            "a: /addbot t1",
            "a: /addbot t1",
            "a: /addbot t1",
            "a: /leave t1",
            "a: /addbot t1",
            "a: /start t1",
            "",
        ]
    )
    run = ["run", "--platform", "console", "--fast", "--no-drand"]
    if backend == "sqlite":
        res = run_belote([*run, "--db", target], script)
    else:
        res = run_belote(run, script, env={"DATABASE_URL": target})
    assert res.returncode == 0, res.stderr
    out = tmp_path / "m1.json"
    exp = run_belote(["export", "m1", "--db", target, "-o", str(out)], "")
    assert exp.returncode == 0, exp.stderr
    t = loads(out.read_text())
    assert t.match == "m1" and t.server_seed is not None and t.result["winner"] in (0, 1)
    assert json.loads(out.read_text())["seats"][0]["bot"] is True
    # belote verify (the fair-deal helper's command) accepts what export wrote
    ver = run_belote(["verify", str(out)], "")
    assert ver.returncode == 0, ver.stdout + ver.stderr
    assert run_belote(["export", "m9", "--db", target], "").returncode == 1
    assert run_belote(["export", "--db", str(tmp_path / "none.db")], "").returncode == 2


def test_the_terminal_language_comes_from_the_environment():
    assert terminal_language({"LANG": "fr_FR.UTF-8"}) == "fr-FR"
    assert terminal_language({"LC_ALL": "bg_BG.UTF-8", "LANG": "fr_FR.UTF-8"}) == "bg-BG"
    assert terminal_language({"LANG": "C.UTF-8"}) == "en"
    assert terminal_language({}) == "en"


def test_shard_options_are_checked():
    from adapters.discord.shards import Shards, parse_shard_ids

    assert parse_shard_ids("2, 0,2") == (0, 2)
    shards = Shards((1,), 2)
    guild_in_shard_1 = 1 << 22
    assert shards.serves(f"discord:{guild_in_shard_1}/5")
    assert not shards.serves(f"discord:{2 << 22}/5")
    assert not shards.serves("discord:@me/5")  # direct messages: shard 0
    assert not shards.serves("telegram:-100123")  # another platform's tables
    for bad in (["--shard-ids", "0,x"], ["--shard-ids", "4", "--shard-count", "4"]):
        res = run_belote(["run", "--platform", "discord", *bad], "")
        assert res.returncode == 2 and "shard" in res.stderr
    res = run_belote(["run", "--platform", "console", "--shard-count", "2"], "")
    assert res.returncode == 2 and "Discord" in res.stderr


def test_help_shows_the_games_options(capsys):
    import pytest

    from adapters.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for option in ("--ruleset", "--target", "--no-drand", "--lang", "--timer", "--pictures"):
        assert option in out, option


def test_a_bad_game_option_is_refused_as_typed(capsys):
    import pytest

    from adapters.cli import main

    with pytest.raises(SystemExit) as info:
        main(["--ruleset", "poker"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "belote: error: argument --ruleset: Unknown ruleset poker" in err
    assert "belote run" not in err  # the player typed `belote --ruleset poker`


def test_export_takes_the_last_finished_match_or_says_none_has(tmp_path):
    db = tmp_path / "e.db"
    # one match played to its end (the person's turns timed out twice, then played for them)
    script = "me: /table create --target 100\nme: /addbot\nme: /addbot\nme: /addbot\n"
    script += "me: /start\n"
    args = ["run", "--platform", "console", "--db", str(db), "--fast", "--no-drand"]
    args += ["--timer", "5", "--name", "me", "--random-seed", "e"]
    assert run_belote(args, script).returncode == 0
    done = run_belote(["export", "--db", str(db)], "")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["match"] in (1, "m1")
    empty = tmp_path / "none.db"
    run_belote(["run", "--platform", "console", "--db", str(empty), "--name", "me"], "me: /help\n")
    none = run_belote(["export", "--db", str(empty)], "")
    assert none.returncode == 1 and "No match has finished" in none.stderr


def test_the_readmes_admin_command_runs_as_written(tmp_path):
    db = tmp_path / "a.db"
    run_belote(
        ["run", "--platform", "console", "--db", str(db), "--name", "me"], "me: /table create\n"
    )
    for args in (["admin", "tables", "--db", str(db)], ["admin", "--db", str(db), "tables"]):
        res = run_belote(args, "")
        assert res.returncode == 0, res.stderr
        assert "t1" in res.stdout, res.stdout


async def test_export_skips_a_match_still_in_progress(tmp_path):
    from tests.core.harness import make_harness, table_with_bots

    h = await make_harness(tmp_path / "p.db", seed_window=0)
    await table_with_bots(h, "alice", "--target", "100")
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    assert (await h.cmd("alice", "/start"))[0].ok  # match 2, left in progress
    await h.app.stop()
    res = run_belote(["export", "--db", str(tmp_path / "p.db")], "")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["match"] in (1, "m1")
