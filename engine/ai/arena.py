"""Duplicate matches between two AI levels: how much stronger is A than B, luck removed.

Every deck is played twice, the teams swapping seats, so both teams hold the same cards
once each.  A *deal* here is the first scored deal of a fresh match on that deck sequence
(redeals included).  The measure is the deal's **raw points** (before Bulgarian rounding
to tens; French points are raw already), A's team minus B's; per deck the two tables are
averaged, and the 95 % confidence interval comes from the spread of those per-deck
averages.  Timing uses a clock the caller passes in (the engine has none of its own).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.ai.coinche_2026 import BASELINES, baseline_bid
from engine.ai.player import choose_action, position_rng
from engine.ai.sparring import DEFAULT_WORLDS, SPARRING, sparring_action
from engine.match import DealRecord, DealResult, Match, SeatView

MAX_REDEALS = 24
# Card-play-only duels: every seat bids as this level, so both tables of a deck reach the
# same contract by the same seat, and only the card play differs.
PLAY_ONLY_BIDDER = "hard"
# The baselines of the Coinche bidding before issue 66 (``coinche_2026``): they play as
# hard / expert and bid Coinche as those did then.
ARENA_LEVELS = ("easy", "normal", "hard", "expert", SPARRING, *BASELINES)


def arena_action(
    view: SeatView,
    level: str,
    seed: int,
    budget_s: float | None = None,
    play_only: bool = False,
    worlds: int = DEFAULT_WORLDS,
) -> Action:
    """A level's action, or the sparring partner's; with ``play_only`` the auction is
    the fixed bidder's for every seat."""
    legal = tuple(view.legal)
    bidding = bool(legal) and legal[0].kind != "play"
    if bidding and (play_only or level == SPARRING):
        return choose_action(view, PLAY_ONLY_BIDDER, seed)
    if level in BASELINES:
        if bidding and view.ruleset == "coinche" and len(legal) > 1:
            text = baseline_bid(view, level, position_rng(view, BASELINES[level], seed))
            return next((a for a in legal if a.text == text), legal[0])
        return choose_action(view, BASELINES[level], seed, budget_s)
    if level == SPARRING:
        if len(legal) == 1:
            return legal[0]
        return sparring_action(view, worlds, position_rng(view, f"{SPARRING}{worlds}", seed))
    return choose_action(view, level, seed, budget_s)


# The calls that double a contract (Bulgarian, Coinche).
DOUBLINGS = ("contre", "recontre", "coinche", "surcoinche")


def raw_points(result: DealResult, bulgarian: bool) -> tuple[int, int]:
    """The points each team scored on the deal, before rounding to tens (French and
    Coinche points are never rounded: as scored)."""
    if not bulgarian:
        return result.points
    tot = result.totals
    ct = result.contract.taker_team
    ot = 1 - ct
    mult = result.contract.multiplier
    pts = [0, 0]
    if mult == 1:
        if result.outcome == "made":
            pts = list(tot)
        elif result.outcome == "set":
            pts[ot] = tot[0] + tot[1]
        else:
            pts[ot] = tot[ot]
    else:
        whole = (tot[0] + tot[1]) * mult
        if result.outcome == "made":
            pts[ct] = whole
        elif result.outcome == "set":
            pts[ot] = whole
    return pts[0], pts[1]


@dataclass
class LevelStats:
    times: list[float] = field(default_factory=list)
    contracts: int = 0
    made: int = 0
    margin: float = 0.0  # sum of (takers' total - defenders' total)
    deals: int = 0
    contres: int = 0  # Contre / Recontre (Coinche: coinche / surcoinche) said by this level
    contres_won: int = 0  # ... on deals its team won
    thrown_in: int = 0  # deals every seat passed (redealt) at this level's tables
    # Coinche: auctions in which this level's partners bid different suits twice or more
    # (a bid naming another contract than the partner's last bid), the bidding wars
    switched: int = 0

    def merge(self, other: LevelStats) -> None:
        self.times.extend(other.times)
        self.contracts += other.contracts
        self.made += other.made
        self.margin += other.margin
        self.deals += other.deals
        self.contres += other.contres
        self.contres_won += other.contres_won
        self.thrown_in += other.thrown_in
        self.switched += other.switched

    def summary(self) -> dict[str, float]:
        t = sorted(self.times)
        mean = sum(t) / len(t) if t else 0.0
        p95 = t[min(len(t) - 1, math.ceil(0.95 * len(t)) - 1)] if t else 0.0
        return {
            "decisions": len(t),
            "mean_s": mean,
            "p95_s": p95,
            "max_s": t[-1] if t else 0.0,
            "contracts": self.contracts,
            "deals": self.deals,
            "made": self.made,
            "margin": self.margin / self.contracts if self.contracts else 0.0,
            "contres": self.contres,
            "contres_won": self.contres_won,
            "thrown_in": self.thrown_in,
            "switched": self.switched,
        }


def mean_ci95(xs: list[float]) -> tuple[float, float]:
    """The mean of per-deck results and 1.96 standard errors (infinite below two)."""
    n = len(xs)
    if not n:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


@dataclass
class ArenaReport:
    ruleset: str
    a: str
    b: str
    per_deck: list[float]
    stats: dict[str, LevelStats]
    measure: str = "raw deal points (before rounding to tens)"
    card_play_only: bool = False

    @property
    def mean(self) -> float:
        return mean_ci95(self.per_deck)[0]

    @property
    def ci95(self) -> float:
        return mean_ci95(self.per_deck)[1]

    def lines(self) -> list[str]:
        what = (
            f"card play only (every seat bids as {PLAY_ONLY_BIDDER}, so both tables play the "
            "same contract); "
            if self.card_play_only
            else ""
        )
        out = [
            f"arena {self.ruleset}: {self.a} (A) vs {self.b} (B), {len(self.per_deck)} decks "
            f"each played twice with the teams swapped; {what}points are {self.measure}"
        ]
        for name in dict.fromkeys((self.a, self.b)):
            s = self.stats[name].summary()
            out.append(
                f"  {name}: {s['decisions']} decisions, mean {s['mean_s'] * 1000:.1f} ms, "
                f"p95 {s['p95_s'] * 1000:.1f} ms, max {s['max_s'] * 1000:.1f} ms"
            )
        for name in dict.fromkeys((self.a, self.b)):
            s = self.stats[name].summary()
            if self.card_play_only:
                continue
            if s["contracts"]:
                out.append(
                    f"  {name} bidding: took {s['contracts']} of {s['deals']} deals' contracts, "
                    f"made {100 * s['made'] / s['contracts']:.0f}%, "
                    f"mean margin {s['margin']:+.1f} (takers' total minus defenders')"
                )
            else:
                out.append(f"  {name} bidding: took no contract in {s['deals']} deals")
            if s["thrown_in"]:
                out.append(f"  {name} tables: {s['thrown_in']} deals thrown in (all passed)")
            if self.ruleset == "coinche":
                out.append(
                    f"  {name} partners: bid different suits twice or more in "
                    f"{s['switched']} of {s['deals']} auctions "
                    f"({100 * s['switched'] / max(1, s['deals']):.1f}%)"
                )
            if s["contres"]:
                said = "coinche/surcoinche" if self.ruleset == "coinche" else "Contre/Recontre"
                out.append(
                    f"  {name} doubling: {s['contres']} {said}, "
                    f"{s['contres_won']} on deals its team won"
                )
        unit = "card points" if self.card_play_only else "points"
        out.append(
            f"{self.a} vs {self.b}: {self.mean:+.1f} {unit} per deal "
            f"(95% CI +-{self.ci95:.1f}) over {len(self.per_deck)} deals"
        )
        return out


def deck_source(seed: int, i: int) -> Callable[[int], list[int]]:
    """The deck sequence of duplicate deal ``i`` (same for both tables)."""

    def deck(k: int) -> list[int]:
        return random.Random(f"arena|{seed}|{i}|{k}").sample(range(32), 32)

    return deck


def table_levels(a: str, b: str, table: int) -> tuple[str, str, str, str]:
    """The seats' levels at table 0 or 1 of a deck: the teams swap seats at the second."""
    return (a, b, a, b) if table == 0 else (b, a, b, a)


def table_seed(seed: int, i: int, table: int) -> int:
    """The AIs' seed at table 0 or 1 of duplicate deal ``i``."""
    return seed * 100_003 + i * 2 + table


def partner_switches(actions: list[tuple[int, str]]) -> tuple[int, int]:
    """Per team, the Coinche bids naming another contract than the partner's last bid:
    ``100 C`` ... ``130 S`` ``140 C`` ``150 S`` is three for that team."""
    last: dict[int, str] = {}
    out = [0, 0]
    for seat, text in actions:
        words = text.split()
        if len(words) != 3 or words[0] != "bid":
            continue
        partner = last.get((seat + 2) % 4)
        if partner is not None and partner != words[2]:
            out[seat % 2] += 1
        last[seat] = words[2]
    return out[0], out[1]


def play_deal(
    ruleset: str,
    levels: tuple[str, str, str, str],
    decks: Callable[[int], list[int]],
    seed: int,
    clock: Callable[[], float] | None,
    stats: dict[str, LevelStats],
    budget_s: float | None = None,
    play_only: bool = False,
    worlds: int = DEFAULT_WORLDS,
) -> DealRecord | None:
    """Play until the first scored deal; record decision times per level."""
    m = Match(ruleset, decks=decks)
    while m.to_move is not None:
        if len(m.deals) > MAX_REDEALS:
            return None
        seat = m.to_move
        view = m.view(seat)
        level = levels[seat]
        t0 = clock() if clock else 0.0
        action = arena_action(view, level, seed, budget_s, play_only, worlds)
        if clock:
            stats[level].times.append(clock() - t0)
        m.apply(seat, action)
        for k, d in enumerate(m.deals):
            if d.result is not None:
                # the deals before the scored one were thrown in; the one after it is
                # the next deal, already dealt
                for name in dict.fromkeys(levels):
                    stats[name].thrown_in += k
                return d
    return None


def play_deck(
    ruleset: str,
    a: str,
    b: str,
    seed: int,
    i: int,
    clock: Callable[[], float] | None = None,
    budget_s: float | None = None,
    play_only: bool = False,
    worlds: int = DEFAULT_WORLDS,
) -> tuple[float, dict[str, LevelStats]]:
    """Duplicate deal ``i``: the deck played at two tables with the teams swapped.

    Returns A's mean lead over the two tables and the levels' figures for this deck, so
    decks can be played in any order (or in parallel) and merged.  With ``play_only``
    the lead is in card points (last trick included), the contract being the same at
    both tables.
    """
    stats = {a: LevelStats(), b: LevelStats()}
    bulgarian = ruleset == "bulgarian"
    decks = deck_source(seed, i)
    diffs = []
    for table in range(2):
        levels = table_levels(a, b, table)
        a_team = 0 if table == 0 else 1
        record = play_deal(
            ruleset,
            levels,
            decks,
            table_seed(seed, i, table),
            clock,
            stats,
            budget_s,
            play_only,
            worlds,
        )
        if record is None:
            diffs.append(0.0)
            continue
        result = record.result
        assert result is not None  # play_deal returns a scored deal
        pts = raw_points(result, bulgarian)
        measured = result.card_points if play_only else pts
        diffs.append(measured[a_team] - measured[1 - a_team])
        taker_team = result.contract.taker_team
        taker_level = levels[result.contract.taker]
        for name in dict.fromkeys((a, b)):
            stats[name].deals += 1
        st = stats[taker_level]
        st.contracts += 1
        st.made += result.outcome == "made"
        st.margin += result.totals[taker_team] - result.totals[1 - taker_team]
        for team, switches in enumerate(partner_switches(record.actions)):
            stats[levels[team]].switched += switches >= 2
        for seat, text in record.actions:
            if text in DOUBLINGS:
                stats[levels[seat]].contres += 1
                stats[levels[seat]].contres_won += pts[seat % 2] > pts[1 - seat % 2]
    return sum(diffs) / 2, stats


def _play_deck_job(job: tuple[Any, ...]) -> tuple[float, dict[str, LevelStats]]:
    return play_deck(*job)


def run_arena(
    ruleset: str,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    clock: Callable[[], float] | None = None,
    progress: Callable[[ArenaReport], None] | None = None,
    budget_s: float | None = None,
    jobs: int = 1,
    play_only: bool = False,
    worlds: int = DEFAULT_WORLDS,
) -> ArenaReport:
    """Play ``deals`` duplicate decks; with ``jobs`` > 1 the decks are shared among that
    many processes (same results: every deck depends only on the seed and its index).

    A duel with the sparring partner is always card play only (it does not bid)."""
    play_only = play_only or SPARRING in (a, b)
    measure = "card points (last trick included)" if play_only else ArenaReport.measure
    stats = {a: LevelStats(), b: LevelStats()}
    per_deck: list[float] = []
    work = [(ruleset, a, b, seed, i, clock, budget_s, play_only, worlds) for i in range(deals)]
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        results = pool.map(_play_deck_job, work) if pool else map(_play_deck_job, work)
        for lead, deck_stats in results:
            per_deck.append(lead)
            for name, st in deck_stats.items():
                stats[name].merge(st)
            if progress:
                progress(ArenaReport(ruleset, a, b, list(per_deck), stats, measure, play_only))
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return ArenaReport(ruleset, a, b, per_deck, stats, measure, play_only)
