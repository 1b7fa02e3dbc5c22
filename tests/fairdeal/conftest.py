"""Real engine matches, played to the end by a seeded random player, and their transcripts."""

from __future__ import annotations

import random

import pytest

from bot.proof.transcript import Transcript, transcript_from_match
from engine import DeckInputs, Match
from tests.fakes.drand_relay import REAL_BEACONS

SERVER_SEED = bytes.fromhex("9f" * 16 + "3c" * 16)
SEAT_SEEDS = (bytes.fromhex("11" * 16), None, bytes.fromhex("a5" * 16), bytes.fromhex("07" * 16))
NAMES = ("Ana", "Bot Boris", "Chloé", "Dimo")
BOTS = (False, True, False, False)


def play_out(match: Match, seed: int, pass_bias: float = 0.0) -> Match:
    """Play random legal actions until the match ends (a few hundred actions).

    ``pass_bias``: how often a seat passes when it may, so that some deals are redealt.
    """
    rng = random.Random(seed)
    while match.winner is None:
        seat = match.to_move
        legal = match.legal_actions(seat)
        passes = [a for a in legal if a.kind == "pass"]
        if passes and rng.random() < pass_bias:
            match.apply(seat, passes[0])
        else:
            match.apply(seat, rng.choice(legal))
    return match


def make_transcript(
    ruleset: str = "club", *, drand: bool = True, seed: int = 7, pass_bias: float = 0.0
) -> Transcript:
    beacon = REAL_BEACONS[2] if drand else None
    inputs = DeckInputs(
        SERVER_SEED,
        SEAT_SEEDS,
        beacon.round if beacon else None,
        beacon.randomness if beacon else None,
    )
    target = 500 if ruleset != "bulgarian" else None
    match = play_out(Match(ruleset, inputs=inputs, target=target), seed, pass_bias)
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
def classic_redeal_transcript() -> Transcript:
    """Classic without drand, seats passing often: some deals are redealt (k still counts)."""
    return make_transcript("classic", drand=False, seed=11, pass_bias=0.8)
