"""Real engine matches, played to the end by a seeded random player, and their transcripts."""

from __future__ import annotations

import random

import pytest

from bot.proof.transcript import Transcript, transcript_from_match
from engine import DeckInputs, Match, TableRules
from tests.corpus.generate import coinche_action
from tests.fakes.drand_relay import REAL_BEACONS

SERVER_SEED = bytes.fromhex("9f" * 16 + "3c" * 16)
SEAT_SEEDS = (bytes.fromhex("11" * 16), None, bytes.fromhex("a5" * 16), bytes.fromhex("07" * 16))
NAMES = ("Ana", "Bot Boris", "Chloé", "Dimo")
BOTS = (False, True, False, False)


def play_out(match: Match, seed: int, pass_bias: float = 0.0) -> Match:
    """Play random legal actions until the match ends (a few hundred actions).

    ``pass_bias``: how often a seat passes when it may, so that some deals are redealt.
    Coinche's auction is played as the corpus's random player bids (mostly the next value
    up): drawn from every legal bid, it would open at générale.
    """
    rng = random.Random(seed)
    while match.winner is None:
        seat = match.to_move
        if match.rules.auction == "coinche":
            match.apply(seat, coinche_action(match, seat, rng, pass_bias))
            continue
        legal = match.legal_actions(seat)
        passes = [a for a in legal if a.kind == "pass"]
        if passes and rng.random() < pass_bias:
            match.apply(seat, passes[0])
        else:
            match.apply(seat, rng.choice(legal))
    return match


def make_transcript(
    ruleset: str = "club",
    *,
    drand: bool = True,
    seed: int = 7,
    pass_bias: float = 0.0,
    options: tuple[str, ...] = (),
) -> Transcript:
    """A whole match of ``ruleset`` (with the table ``options`` set) and its transcript."""
    beacon = REAL_BEACONS[2] if drand else None
    inputs = DeckInputs(
        SERVER_SEED,
        SEAT_SEEDS,
        beacon.round if beacon else None,
        beacon.randomness if beacon else None,
    )
    target = 500 if ruleset in ("classic", "club") else None
    rules = TableRules(ruleset, target, **dict.fromkeys(options, True))
    match = play_out(Match(rules, inputs=inputs), seed, pass_bias)
    return transcript_from_match(
        match, match_id=f"{ruleset}-{seed}", names=NAMES, bots=BOTS, drand=beacon
    )


@pytest.fixture(scope="session")
def club_transcript() -> Transcript:
    return make_transcript("club")


@pytest.fixture(scope="session")
def bulgarian_transcript() -> Transcript:
    return make_transcript("bulgarian", seed=3)


@pytest.fixture(scope="session")
def coinche_transcript() -> Transcript:
    """Coinche with every option (No Trump, All Trump, générale, bid only), some deals
    redealt: a random player's bids run up to capot and générale."""
    return make_transcript(
        "coinche", seed=10, pass_bias=0.5, options=("no_trump", "all_trump", "generale", "bid_only")
    )


@pytest.fixture(scope="session")
def classic_redeal_transcript() -> Transcript:
    """Classic without drand, seats passing often: some deals are redealt (k still counts)."""
    return make_transcript("classic", drand=False, seed=11, pass_bias=0.8)
