"""Could a learned correction of the expert's means pick better cards?  Cross-validated.

    python bench/studies/correction.py --positions FILE [--deals N] [--seed S] [--ruleset R]
                               [--jobs J] [--means FILE]

The expert plays the card of best mean over its worlds.  If those means were biased in a
way the card's own facts reveal (a plain ace led too eagerly, a ten kept too long), a
correction learned from many decisions scored against the true deal would pick better.
This script asks whether one exists.  For every decision of ``bench/studies/regret.py``'s
positions (``--positions``, the same file and arguments) it runs the expert's search once,
as the expert plays it, and keeps every card's mean (``--means`` caches them: the search
is most of the time).  A card's score is then its mean plus ``w . facts``: the learned
policy's log-probability of the card, its points, trump, master of its suit, taking the
trick, the highest or lowest of its suit in hand, a singleton, a ten whose ace is out, a
plain master led; each also crossed with a lead, the taker's side and the cards left.
``w`` minimizes the expected regret of a softmax over the scores (temperature ``T``
points) with an L2 penalty ``lam``, fitted on four fifths of the decks and scored on the
fifth, five times over.  It prints the expert's regret (a team's regret a deal, as
``bench/studies/regret.py`` counts it) and, for each ``T`` and ``lam``, the cross-validated regret
with the paired difference and its 95% CI: below zero, the correction picks better
cards on decks it was not fitted to.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.studies.regret import Spot, deck_sums, positions
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.player import EXPERT_PLAN, position_rng
from engine.ai.policy import card_features, card_score
from engine.ai.search import best_card, plan_totals
from engine.ai.tables import POINTS, POWER, legal_mask

FOLDS = 5
SETTINGS = ((2.0, 0.3), (2.0, 0.1), (2.0, 0.03), (5.0, 0.3), (5.0, 0.1), (5.0, 0.03))
# card_features' indices of the facts used: points, trump, takes the trick, master,
# lowest of its suit in hand, highest, a singleton, a ten whose ace is out, a plain master led
FACTS = (0, 1, 3, 7, 9, 10, 12, 18, 23)


@dataclass(frozen=True)
class Searched:
    """The expert's search of one decision: every card's mean, the cards its race dropped
    and the card it plays."""

    means: dict[int, float]
    dropped: tuple[int, ...]
    pick: int


@dataclass(frozen=True)
class Decision:
    """One decision as the fit sees it: the candidate cards (those the race kept), their
    means less the best, their regrets in the true deal and their facts."""

    deck: int
    means: np.ndarray
    regrets: np.ndarray
    facts: np.ndarray
    pick: int  # the index of the expert's card among the candidates


def search(spot: Spot) -> Searched:
    """The expert's search of ``spot``, exactly as it plays the decision."""
    k = knowledge_from_view(spot.view)
    seed = position_rng(spot.view, "expert", spot.seed).getrandbits(64)
    found = plan_totals(k, EXPERT_PLAN, EXPERT_PLAN.decision_tier(k), seed)
    means = {c: found.mean(c) for c in found.cards}
    return Searched(means, tuple(found.dropped), best_card(k.code, found))


def card_facts(k: Knowledge, cards: list[int]) -> list[list[float]]:
    """Each of ``cards``' facts (the learned policy's log-probability among every legal
    card first), each also crossed with a lead, the taker's side and the share of the
    cards left."""
    gone = k.played
    for c in k.trick:
        gone |= 1 << c
    legal = legal_mask(k.kind, k.code, k.hand, k.trick)
    features = dict(card_features(k.code, k.seat, k.hand, legal, k.trick, gone, k.taker))
    scores = {c: card_score(x) for c, x in features.items()}
    top = max(scores.values())
    log_z = math.log(sum(math.exp(s - top) for s in scores.values()))
    lead = float(not k.trick)
    taker = float((k.seat & 1) == (k.taker & 1))
    left = k.cards_left / 32
    rows = []
    for c in cards:
        base = [scores[c] - top - log_z, *(features[c][i] for i in FACTS)]
        rows.append(
            base + [v * lead for v in base] + [v * taker for v in base] + [v * left for v in base]
        )
    return rows


def decision(spot: Spot, searched: Searched) -> Decision:
    """The fit's view of a decision; the candidates cheapest first, so that the first of
    equal scores is the card the expert plays among equal means (``search.best_card``)."""
    k = knowledge_from_view(spot.view)
    cards = [c for c in searched.means if c not in searched.dropped] or list(searched.means)
    cards.sort(key=lambda c: (POINTS[k.code][c], POWER[k.code][c]))
    best_mean = max(searched.means[c] for c in cards)
    best_value = max(spot.values.values())
    return Decision(
        spot.deck,
        np.array([searched.means[c] - best_mean for c in cards]),
        np.array([best_value - spot.values[c] for c in cards], dtype=float),
        np.array(card_facts(k, cards)),
        cards.index(searched.pick),
    )


class Table:
    """The decisions stacked, each padded to 8 cards, for the fit's vector arithmetic."""

    def __init__(self, decisions: list[Decision]) -> None:
        n, width = len(decisions), decisions[0].facts.shape[1]
        self.decks = np.array([d.deck for d in decisions])
        self.pick = np.array([d.pick for d in decisions])
        self.means = np.full((n, 8), -1e9)
        self.regrets = np.zeros((n, 8))
        self.facts = np.zeros((n, 8, width))
        self.mask = np.zeros((n, 8), dtype=bool)
        for i, d in enumerate(decisions):
            m = len(d.means)
            self.means[i, :m] = d.means
            self.regrets[i, :m] = d.regrets
            self.facts[i, :m] = d.facts
            self.mask[i, :m] = True

    def picks(self, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The card each decision of ``rows`` plays with the correction ``w``."""
        scores = self.means[rows] + self.facts[rows] @ w
        scores[~self.mask[rows]] = -1e12
        return np.argmax(scores, axis=1)

    def regret_of(self, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return self.regrets[rows, self.picks(w, rows)]

    def fit(self, rows: np.ndarray, lam: float, temperature: float, steps: int = 400) -> np.ndarray:
        """``w`` by gradient descent on the softmax's expected regret, plus ``lam |w|^2``."""
        means, regrets = self.means[rows], self.regrets[rows]
        facts, mask = self.facts[rows], self.mask[rows]
        w = np.zeros(facts.shape[2])
        for _ in range(steps):
            s = (means + facts @ w) / temperature
            s[~mask] = -1e12
            p = np.exp(s - s.max(axis=1, keepdims=True)) * mask
            p /= p.sum(axis=1, keepdims=True)
            expected = (p * regrets).sum(axis=1, keepdims=True)
            grad = np.einsum("dc,dcf->f", p * (regrets - expected), facts) / temperature
            w -= grad / len(rows) + lam * w
        return w

    def cross_validated(self, lam: float, temperature: float) -> np.ndarray:
        """Each decision's regret with the correction fitted on the other folds' decks."""
        out = np.zeros(len(self.decks))
        everything = np.arange(len(self.decks))
        for fold in range(FOLDS):
            test = everything[self.decks % FOLDS == fold]
            w = self.fit(everything[self.decks % FOLDS != fold], lam, temperature)
            out[test] = self.regret_of(w, test)
        return out


def team_deal(table: Table, regrets: np.ndarray) -> np.ndarray:
    """A team's regret a deal, deck by deck (``regret.per_deck``'s count)."""
    return np.array(deck_sums(table.decks.tolist(), regrets.tolist()))


def searched_all(spots: list[Spot], path: Path | None, jobs: int) -> list[Searched]:
    if path is not None and path.exists():
        kept = json.loads(path.read_text())
        return [
            Searched({int(c): v for c, v in s["means"].items()}, tuple(s["dropped"]), s["pick"])
            for s in kept
        ]
    with ProcessPoolExecutor(jobs) as pool:
        found = list(pool.map(search, spots, chunksize=8))
    if path is not None:
        rows = [{"means": s.means, "dropped": list(s.dropped), "pick": s.pick} for s in found]
        path.write_text(json.dumps(rows))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", required=True, metavar="FILE")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--means", metavar="FILE", help="keep (or read) the expert's means here")
    args = ap.parse_args()
    spots = positions(Path(args.positions), args.ruleset, args.deals, args.seed, args.jobs)
    found = searched_all(spots, Path(args.means) if args.means else None, args.jobs)
    table = Table([decision(s, f) for s, f in zip(spots, found, strict=True)])
    everything = np.arange(len(spots))
    shipped = table.regrets[everything, table.pick]
    base = team_deal(table, shipped)
    print(
        f"{len(spots)} decisions, {len(base)} decks: "
        f"the expert's regret {base.mean():.2f} a team a deal"
    )
    for temperature, lam in SETTINGS:
        cv = table.cross_validated(lam, temperature)
        corrected = team_deal(table, cv)
        diff = corrected - base
        ci = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
        print(
            f"T {temperature:g}, lam {lam:g}: cross-validated {corrected.mean():.2f}, "
            f"paired {diff.mean():+.2f} (+-{ci:.2f}); {int((cv != shipped).sum())} decisions differ"
        )


if __name__ == "__main__":
    main()
