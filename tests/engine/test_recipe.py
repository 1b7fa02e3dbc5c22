"""The fair-deal recipe of docs/rules.md#the-deck-of-deal-k, byte for byte."""

import hashlib
import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DeckInputs, InvalidSeed, cards_text, commitment, parse_seed_hex, shuffled_deck

ZERO_INPUTS = DeckInputs(bytes(32), (bytes(16), None))


def reference_deck(server, seats, drand_round, drand_value, k, size=32):
    """The recipe written straight from the table of docs/rules.md#the-deck-of-deal-k,
    independently of engine/."""
    msg_tail = bytes([len(seats)])
    for s in seats:
        msg_tail += b"\x00" if s is None else bytes([16]) + s
    msg_tail += (drand_round or 0).to_bytes(8, "big") + (drand_value or bytes(32))

    def stream():
        b = 0
        while True:
            msg = b"belot.club/deal/v1" + k.to_bytes(4, "big") + b.to_bytes(4, "big") + msg_tail
            yield from hmac.new(server, msg, hashlib.sha256).digest()
            b += 1

    it = stream()
    deck = list(range(32))
    for i in range(31, 0, -1):
        x = next(it)
        while x >= 256 - (256 % (i + 1)):
            x = next(it)
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    if size == 24:
        deck = [c for c in deck if c % 8 >= 2]
    return deck


def test_all_zero_inputs_give_the_published_deck():
    deck = shuffled_deck(ZERO_INPUTS, 0)
    assert cards_text(deck).startswith("AD 9H TS 7C 8H TC 7D KH")


def test_commitment_is_the_sha256_of_the_server_seed_in_lower_case_hex():
    seed = bytes(range(32))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert commitment(seed) == commitment(seed).lower()


@settings(max_examples=60, deadline=None)
@given(
    server=st.binary(min_size=32, max_size=32),
    seats=st.lists(
        st.one_of(st.none(), st.binary(min_size=16, max_size=16)), min_size=2, max_size=4
    ),
    drand=st.one_of(
        st.none(), st.tuples(st.integers(1, 2**63), st.binary(min_size=32, max_size=32))
    ),
    k=st.integers(0, 2**32 - 1),
    size=st.sampled_from([32, 24]),
)
def test_deck_matches_the_recipe_written_from_the_seed(server, seats, drand, k, size):
    rnd, val = drand if drand else (None, None)
    inputs = DeckInputs(server, tuple(seats), rnd, val, size)
    assert shuffled_deck(inputs, k) == reference_deck(server, seats, rnd, val, k, size)


def test_the_24_card_deck_sets_aside_sevens_and_eights_keeping_the_order():
    full = shuffled_deck(ZERO_INPUTS, 5)
    short = shuffled_deck(DeckInputs(bytes(32), (bytes(16), None), size=24), 5)
    assert short == [c for c in full if c % 8 >= 2] and len(short) == 24


def test_every_input_changes_the_deck():
    base = shuffled_deck(ZERO_INPUTS, 0)
    assert shuffled_deck(ZERO_INPUTS, 1) != base
    assert shuffled_deck(DeckInputs(bytes(31) + b"\x01", (bytes(16), None)), 0) != base
    assert shuffled_deck(DeckInputs(bytes(32), (bytes(16), bytes(16))), 0) != base
    assert shuffled_deck(DeckInputs(bytes(32), (bytes(16), None, None)), 0) != base
    assert shuffled_deck(DeckInputs(bytes(32), (bytes(16), None), 1, bytes(32)), 0) != base


@pytest.mark.parametrize(
    "kwargs",
    [
        {"server_seed": bytes(31), "seat_seeds": (None, None)},
        {"server_seed": bytes(32), "seat_seeds": (bytes(15), None)},
        {"server_seed": bytes(32), "seat_seeds": (None,)},
        {"server_seed": bytes(32), "seat_seeds": (None,) * 5},
        {"server_seed": bytes(32), "seat_seeds": (None, None), "drand_round": 3},
        {"server_seed": bytes(32), "seat_seeds": (None, None), "drand_value": bytes(32)},
        {
            "server_seed": bytes(32),
            "seat_seeds": (None, None),
            "drand_round": 3,
            "drand_value": bytes(8),
        },
        {"server_seed": bytes(32), "seat_seeds": (None, None), "size": 36},
    ],
)
def test_malformed_inputs_raise_invalid_seed(kwargs):
    with pytest.raises(InvalidSeed):
        DeckInputs(**kwargs)


@pytest.mark.parametrize("text", ["", "zz" * 16, "00" * 15, "00" * 17, "0" * 31])
def test_malformed_seed_hex_raises_invalid_seed(text):
    with pytest.raises(InvalidSeed):
        parse_seed_hex(text, 16)


def test_seed_errors_and_repr_never_show_the_server_seed():
    secret = "ab" * 31 + "cd"
    inputs = DeckInputs(bytes.fromhex(secret), (None, None))
    assert secret not in repr(inputs)
    with pytest.raises(InvalidSeed) as exc:
        parse_seed_hex(secret + "00", 32)
    assert secret not in str(exc.value)
    with pytest.raises(InvalidSeed) as exc:
        parse_seed_hex(secret[:-1] + "g", 32)
    assert secret[:-1] not in str(exc.value)


def test_inputs_round_trip_through_json_form():
    inputs = DeckInputs(bytes(range(32)), (bytes(16), None, b"\x01" * 16, None), 77, b"\x02" * 32)
    assert DeckInputs.from_dict(inputs.to_dict()) == inputs
