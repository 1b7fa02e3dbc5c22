"""A bot's decision is a function of the position and its seed, in every process: a
process that takes a table over must make the move the dead one would have made. Python
randomizes the order of a set of strings from process to process (PYTHONHASHSEED), so
the same matches are played in processes of different hash seeds and their decisions
compared, auction and card play, for every ruleset."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import hashlib
from engine import RULESETS
from engine.match import Match
from engine.recipe import DeckInputs
from bot.play.thinking import choose

out = []
for ruleset in sorted(RULESETS):
    for n in range(400):  # auctions: ties between suits are where an order shows
        inputs = DeckInputs(hashlib.sha256(f"{ruleset}{n}".encode()).digest(), (None,) * 4)
        m = Match(ruleset=ruleset, inputs=inputs, target=300)
        plays = 200 if n < 4 else 0  # and a few whole deals of card play
        for step in range(60 + plays):
            seat = m.to_move
            if seat is None:
                break
            a = choose(m.view(seat), "normal" if n % 2 else "easy", n * 1000 + step)
            out.append(a.text)
            if a.kind == "play" and not plays:
                break
            m.apply(seat, a)
print(hashlib.sha256(" ".join(out).encode()).hexdigest(), len(out))
"""


def _decisions(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_easy_and_normal_bots_decide_the_same_whatever_the_hash_seed():
    first = _decisions("1")
    assert int(first.split()[1]) > 1000  # auctions and tricks were played
    for seed in ("2", "3", "4"):
        assert _decisions(seed) == first
