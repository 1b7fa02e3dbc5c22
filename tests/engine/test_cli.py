"""`belote deck`, `belote legal`, `belote bench`: exact outputs and exit codes."""

import pytest

from adapters.cli import main

ZERO_SERVER = "00" * 32
ZERO_SEAT = "00" * 16


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_deck_with_all_zero_inputs_starts_ad_9h_ts_7c_8h_tc_7d_kh(capsys):
    code, out, err = run(
        capsys,
        "deck",
        "--server-seed",
        ZERO_SERVER,
        "--seat",
        ZERO_SEAT,
        "--seat",
        "none",
        "--deal",
        "0",
    )
    assert code == 0 and err == ""
    assert out.startswith("AD 9H TS 7C 8H TC 7D KH ")
    assert len(out.split()) == 32 and out.endswith("\n") and "  " not in out


def test_deck_24_cards(capsys):
    code, out, _ = run(
        capsys,
        "deck",
        "--server-seed",
        ZERO_SERVER,
        "--seat",
        ZERO_SEAT,
        "--seat",
        "none",
        "--deal",
        "0",
        "--size",
        "24",
    )
    assert code == 0 and len(out.split()) == 24 and not any(c[0] in "78" for c in out.split())


def test_deck_with_drand(capsys):
    code, out, _ = run(
        capsys,
        "deck",
        "--server-seed",
        ZERO_SERVER,
        "--seat",
        "none",
        "--seat",
        "none",
        "--drand-round",
        "12345",
        "--drand-value",
        "ab" * 32,
        "--deal",
        "3",
    )
    assert code == 0 and len(out.split()) == 32


@pytest.mark.parametrize(
    "argv",
    [
        ["--server-seed", "00", "--seat", "none", "--seat", "none", "--deal", "0"],
        ["--server-seed", ZERO_SERVER, "--seat", "xyz", "--seat", "none", "--deal", "0"],
        ["--server-seed", ZERO_SERVER, "--seat", "none", "--deal", "0"],
        ["--server-seed", ZERO_SERVER, "--seat", "none", "--seat", "none", "--deal", "-1"],
        [
            "--server-seed",
            ZERO_SERVER,
            "--seat",
            "none",
            "--seat",
            "none",
            "--deal",
            "0",
            "--drand-round",
            "5",
        ],
        ["--server-seed", ZERO_SERVER, "--seat", "none", "--seat", "none", "--deal", "x"],
    ],
)
def test_deck_malformed_input_says_why_on_stderr_and_exits_2(capsys, argv):
    code, out, err = run(capsys, "deck", *argv)
    assert code == 2 and out == "" and err.strip()


def test_deck_error_never_echoes_the_server_seed(capsys):
    secret = "ab" * 32 + "cd"
    code, _, err = run(
        capsys, "deck", "--server-seed", secret, "--seat", "none", "--seat", "none", "--deal", "0"
    )
    assert code == 2 and secret not in err


@pytest.mark.parametrize(
    ("ruleset", "contract", "hand", "trick", "expected"),
    [
        ("classic", "H", "7H AS KD", "AC 8C", "7H AS KD"),  # partner winning
        ("club", "H", "7H AS KD", "AC 8C", "7H"),  # club: trump anyway
        ("club", "H", "7H AS KD", "", "7H AS KD"),  # you lead
        ("bulgarian", "AT", "7C JC AD", "9C", "JC"),
        ("bulgarian", "NT", "7C JC AD", "9C", "7C JC"),
        ("classic", "S", "9S 7S", "8S JS", "9S 7S"),
    ],
)
def test_legal_prints_the_legal_cards_of_the_hand(capsys, ruleset, contract, hand, trick, expected):
    code, out, err = run(
        capsys,
        "legal",
        "--ruleset",
        ruleset,
        "--contract",
        contract,
        "--hand",
        hand,
        "--trick",
        trick,
    )
    assert code == 0 and err == "" and out == expected + "\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["--ruleset", "poker", "--contract", "H", "--hand", "7H", "--trick", ""],
        ["--ruleset", "classic", "--contract", "NT", "--hand", "7H", "--trick", ""],
        ["--ruleset", "classic", "--contract", "X", "--hand", "7H", "--trick", ""],
        ["--ruleset", "classic", "--contract", "H", "--hand", "7X", "--trick", ""],
        ["--ruleset", "classic", "--contract", "H", "--hand", "7H", "--trick", "7H"],
        ["--ruleset", "classic", "--contract", "H", "--hand", "7H 7H", "--trick", ""],
        ["--ruleset", "classic", "--contract", "H", "--hand", "7H", "--trick", "7C 8C 9C TC"],
        ["--ruleset", "classic", "--contract", "H", "--hand", "", "--trick", ""],
    ],
)
def test_legal_malformed_input_exits_2(capsys, argv):
    code, out, err = run(capsys, "legal", *argv)
    assert code == 2 and out == "" and err.strip()


def test_bench_prints_the_rate_last(capsys):
    code, out, _ = run(capsys, "bench", "--seconds", "0.3")
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.startswith("random deals/s: ") and int(last.split(": ")[1]) > 0
