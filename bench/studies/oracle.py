"""What seeing hidden cards would be worth to the expert: the ceiling of inference.

    python bench/studies/oracle.py [--told partner|all] [--cards all|aces|aces-tens|trumps]
                           [--ruleset R] [--deals N] [--seed S] [--jobs J]

The duel is `belote arena --a expert --b sparring` (card play only, duplicate decks, the
lead in card points a deal), except that before each of its card decisions the expert is
told where some hidden cards are: the ``--cards`` of its partner's hand (``--told
partner``), or of every other hand (``--told all``).  Told means placed: the cards a seat
holds are fixed in every world the expert draws, and the told cards it does not hold are
excluded from it.  Nothing else changes, so the gap to the plain duel on the same decks
(``--cards none``) is what that information is worth: how much an inference, or a signal
between partners, could win at most.  A seat never sees the cards in a real game; this
counterfactual exists only here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine.ai.arena as arena
import engine.ai.player as player
from engine.ai.knowledge import Knowledge, knowledge_from_view
from engine.ai.sparring import SPARRING
from engine.ai.tables import FULL, SUIT_MASK
from engine.match import Match, SeatView

ACES = 0x80808080  # rank 7 of each suit
TENS = 0x08080808  # rank 3 of each suit
CARDS = ("none", "all", "aces", "aces-tens", "trumps")


class _Watched(Match):
    """The arena's match, remembered when a seat's view is taken (the expert's knowledge
    is built from that view a moment later, in the same process)."""

    current: Match | None = None

    def view(self, seat: int | None = None) -> SeatView:
        _Watched.current = self
        return super().view(seat)


def told_mask(cards: str, code: int) -> int:
    if cards == "all":
        return FULL
    if cards == "aces":
        return ACES
    if cards == "aces-tens":
        return ACES | TENS
    if cards == "trumps":
        return SUIT_MASK[code] if code < 4 else FULL
    return 0


def tell(k: Knowledge, hands: list[int], seats: list[int], mask: int) -> Knowledge:
    """``k`` with the ``mask`` cards of ``seats`` placed (held) or excluded (not held)."""
    for s in seats:
        k.known[s] |= hands[s] & mask
        k.excluded[s] |= mask & ~hands[s] & k.unseen
        k.excluded[s] &= ~k.known[s]
    return k


def install(told: str, cards: str) -> None:
    """Patch the arena so the expert is told ``cards`` of ``told`` (before any fork)."""

    def knowledge(view: SeatView) -> Knowledge:
        k = knowledge_from_view(view)
        m = _Watched.current
        mask = told_mask(cards, k.code)
        if m is None or not mask:
            return k
        partner = (k.seat + 2) % 4
        seats = [partner] if told == "partner" else [s for s in range(4) if s != k.seat]
        return tell(k, [m.hand_mask(s) for s in range(4)], seats, mask)

    setattr(arena, "Match", _Watched)  # noqa: B010 (the patch is the point)
    setattr(player, "knowledge_from_view", knowledge)  # noqa: B010


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--told", choices=("partner", "all"), default="partner")
    ap.add_argument("--cards", choices=CARDS, default="all")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=303)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    install(args.told, args.cards)
    report = arena.run_arena(
        args.ruleset,
        "expert",
        SPARRING,
        args.deals,
        args.seed,
        clock=time.perf_counter,
        jobs=args.jobs,
        play_only=True,
    )
    print(f"the expert told {args.cards} of {args.told}'s cards ({args.ruleset}):")
    for line in report.lines():
        print(line)


if __name__ == "__main__":
    main()
