"""Fit the policy model (engine/ai/policy.py) to the choices of strong players in self-play.

    python bench/studies/policy_fit.py [--deals N] [--seed S] [--jobs J] [--write]

Plays ``--deals`` decks card play only (every seat bids as hard) at two kinds of table:
four sparring partners, and two experts against two sparring partners.  Every card
decision with a choice is recorded with what the player knew (its hand, the trick, the
cards gone) and the card it chose.  The model (a softmax over the legal cards of each
card's score by a network with one hidden layer) is fitted to them by maximum likelihood
with a small L2 penalty; a fifth of the decks is held out.  It prints the held-out log loss and
top-card accuracy beside a uniform guess and the rules of thumb, and with ``--write``
replaces engine/ai/policy_weights.py.  The play is deterministic and so is the fit, so
the same arguments give the same weights.
(A second model fitted to the expert's cards alone, for the partner's, measured worse on
the expert's held-out cards than this one: log loss 0.892 against 0.721.)
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engine.ai.player as player  # noqa: E402
from bench.studies.selfplay import card_choices  # noqa: E402
from engine.ai.heuristic import normal_card  # noqa: E402
from engine.ai.policy import HIDDEN, INPUTS, SIZE, card_features  # noqa: E402

# The expert recorded is the one without the model (its worlds weighed by the rules of
# thumb), so the data, and the weights, do not depend on the weights being fitted.
RECORDED = replace(player.EXPERT_PLAN, infer_plays=True, infer_policy=False, oversample=1)
player.LEVEL_SPECS["expert"] = player.Level("sampled", RECORDED)
# kind, code, seat, hand, legal, trick, gone, taker, card, the player's level
Decision = tuple[int, int, int, int, int, tuple[int, ...], int, int, int, str]


def record_deck(job: tuple[str, int, int]) -> list[Decision]:
    """Every card decision with a choice at both tables of deck ``i``."""
    ruleset, seed, i = job
    out: list[Decision] = []
    for c in card_choices(ruleset, seed, i):
        k, card = c.knowledge, c.action.card
        assert card is not None
        decision = (k.kind, k.code, k.seat, k.hand, c.legal, tuple(k.trick))
        out.append((*decision, k.played, k.taker, card, c.level))
    return out


def design(decisions: list[Decision]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of inputs (one per legal card), their decision index, 1 for the chosen card."""
    rows, group, chosen = [], [], []
    for g, (_kind, code, seat, hand, legal, trick, gone, taker, card, _lv) in enumerate(decisions):
        for c, x in card_features(code, seat, hand, legal, trick, gone, taker):
            rows.append(x)
            group.append(g)
            chosen.append(float(c == card))
    return np.array(rows), np.array(group), np.array(chosen)


def unpack(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The layout of ``policy.card_score``: first layer (input-major), biases, output."""
    first = INPUTS * HIDDEN
    return w[:first].reshape(INPUTS, HIDDEN), w[first : first + HIDDEN], w[first + HIDDEN :]


def scores(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w1, b1, v = unpack(w)
    h = np.tanh(x @ w1 + b1)
    return h, h @ v


def softmax(s: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    top = np.full(n, -np.inf)
    np.maximum.at(top, group, s)
    e = np.exp(s - top[group])
    z = np.zeros(n)
    np.add.at(z, group, e)
    return e / z[group]


def fit(x: np.ndarray, group: np.ndarray, chosen: np.ndarray, l2: float, steps: int) -> np.ndarray:
    """Maximum likelihood by Adam (full batch, a fixed start and fixed steps: deterministic)."""
    n = int(group.max()) + 1
    w = np.concatenate(
        [
            np.random.default_rng(1).normal(0, 0.3, INPUTS * HIDDEN),
            np.zeros(HIDDEN),
            np.random.default_rng(2).normal(0, 0.3, HIDDEN),
        ]
    )
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        h, s = scores(x, w)
        ds = (softmax(s, group, n) - chosen) / n
        _w1, _b1, out = unpack(w)
        dh = np.outer(ds, out) * (1 - h * h)
        grad = np.concatenate([(x.T @ dh).ravel(), dh.sum(0), h.T @ ds]) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.01 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    assert len(w) == SIZE
    return w


def report(name: str, decisions: list[Decision], w: np.ndarray) -> None:
    x, group, chosen = design(decisions)
    n = len(decisions)
    p = softmax(scores(x, w)[1], group, n)
    loss = -np.log(p[chosen == 1]).mean()
    best = np.zeros(n)
    np.maximum.at(best, group, p)
    hits = (p[chosen == 1] == best).mean()
    uniform = np.log(np.bincount(group)).mean()
    rules = np.mean(
        [
            normal_card(k, c, s, h, lg, list(t), gone, tk) == card
            for k, c, s, h, lg, t, gone, tk, card, _lv in decisions
        ]
    )
    print(
        f"{name}: {n} decisions; log loss {loss:.3f} (uniform {uniform:.3f}); "
        f"top card {hits:.1%} (the rules of thumb {rules:.1%})"
    )


def write(w: np.ndarray, args: argparse.Namespace) -> None:
    lines = [
        '"""The policy model\'s weights (``policy.py``), written by',
        "``python bench/studies/policy_fit.py"
        f' --deals {args.deals} --seed {args.seed} --write``."""',
        "",
        "WEIGHTS: tuple[float, ...] = (",
    ]
    lines += [f"    {x:.6f}," for x in w]  # one a line, as ruff format writes it
    lines.append(")")
    (ROOT / "engine" / "ai" / "policy_weights.py").write_text("\n".join(lines) + "\n")


def load_or_play(args: argparse.Namespace) -> list[list[Decision]]:
    """The decisions of every deck: played, or read from ``--load`` (``--save`` keeps them)."""
    if args.load:
        rows = [json.loads(line) for line in Path(args.load).read_text().splitlines()]
        decks: list[list[Decision]] = [[] for _ in range(args.deals)]
        for i, d in rows:
            if i < args.deals:
                decks[i].append((*d[:5], tuple(d[5]), *d[6:]))
        return decks
    jobs = [(args.ruleset, args.seed, i) for i in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        decks = list(pool.map(record_deck, jobs))
    if args.save:
        lines = [json.dumps([i, d]) for i, deck in enumerate(decks) for d in deck]
        Path(args.save).write_text("\n".join(lines) + "\n")
    return decks


def fitted(name: str, decks: list[list[Decision]], args: argparse.Namespace) -> np.ndarray:
    """Fit on four decks in five, report on the fifth."""
    held_out = [d for i, deck in enumerate(decks) if i % 5 == 4 for d in deck]
    train = [d for i, deck in enumerate(decks) if i % 5 != 4 for d in deck]
    w = fit(*design(train), args.l2, args.steps)
    report(f"{name}, fitted on", train, w)
    if held_out:
        report(f"{name}, held out", held_out, w)
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--deals", type=int, default=320)
    ap.add_argument("--seed", type=int, default=9001)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--l2", type=float, default=3e-4)
    ap.add_argument("--steps", type=int, default=750)
    ap.add_argument("--save", help="keep the recorded decisions in this file (JSON lines)")
    ap.add_argument("--load", help="fit on decisions saved by --save instead of playing")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    decks = load_or_play(args)
    w = fitted("every player", decks, args)
    experts = [[d for d in deck if d[-1] == "expert"] for deck in decks]
    held_out = [d for i, deck in enumerate(experts) if i % 5 == 4 for d in deck]
    if held_out:
        report("the expert's cards alone, held out", held_out, w)
    if args.write:
        write(w, args)
        print("wrote engine/ai/policy_weights.py")


if __name__ == "__main__":
    main()
