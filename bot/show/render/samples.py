"""Fixed sample scenes, built from the engine's own types: the reference pictures under
tests/render/reference, the README pictures in docs/pictures and bench/render.py all draw
these, so a change of look shows in all three at once.

Scenes are written out field by field (not played by the engine), so a change in the
engine's rules does not move the reference pictures; only a change of look does.
The replay sample is the exception: a whole deal played by the engine from a fixed deck.

``python -m bot.show.render.samples --references`` rewrites tests/render/reference/*.png;
``python -m bot.show.render.samples --docs`` rewrites docs/pictures/.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image

from bot.show.render.deal_result import compose_deal_result
from bot.show.render.hand import compose_hand
from bot.show.render.standings import StandingRow, compose_standings
from bot.show.render.table import compose_table
from engine import Action, Contract, DealResult, Match, Phase, SeatView, Trick

ROOT = Path(__file__).resolve().parents[3]
REFERENCE_DIR = ROOT / "tests" / "render" / "reference"
DOCS_DIR = ROOT / "docs" / "pictures"

TABLE_ID = "T-42"
NAMES = ("Alice", "Борис Пастернак", "Καλλιόπη", "Dave")

# A Bulgarian deal in its fourth trick: Hearts taken by Борис (seat 1), doubled by
# Alice's team; Καλλιόπη (seat 2) led the ace of spades, Dave followed, Alice to play.
_TRICKS = (
    Trick(leader=2, cards=((2, 20), (3, 16), (0, 17), (1, 19)), winner=2, points=30),
    Trick(leader=2, cards=((2, 7), (3, 0), (0, 1), (1, 6)), winner=2, points=15),
    Trick(leader=2, cards=((2, 15), (3, 13), (0, 8), (1, 9)), winner=2, points=14),
)
_CURRENT = ((2, 31), (3, 26))
ALICE_HAND = (2, 14, 18, 24, 29)  # 9C KD 9H 7S QS: must follow spades (7S, QS)
_BIDS = (
    (2, "bid C"),
    (3, "pass"),
    (0, "pass"),
    (1, "bid H"),
    (2, "contre"),
    (3, "pass"),
    (0, "pass"),
    (1, "pass"),
)


def table_view(seat: int | None = None) -> SeatView:
    """The sample table as ``seat`` sees it (None: the public, spectator's view)."""
    legal: tuple[Action, ...] = ()
    hand: tuple[int, ...] = ()
    if seat == 0:
        hand = ALICE_HAND
        legal = (Action.play(24), Action.play(29))
    elif seat is not None:
        raise ValueError("The sample holds only Alice's (seat 0) hand.")
    return SeatView(
        seat=seat,
        ruleset="bulgarian",
        target=151,
        phase=Phase.PLAY,
        k=5,
        dealer=1,
        to_move=0,
        hand=hand,
        hand_sizes=(5, 5, 4, 4),
        turned=None,
        bids=_BIDS,
        contract=Contract("H", 1, 2),
        trick=_CURRENT,
        leader=2,
        tricks=_TRICKS,
        belotes=(),
        melds=(),
        scores=(64, 97),
        hanging=0,
        last_result=None,
        legal=legal,
    )


def bidding_view() -> SeatView:
    """A club table while bidding: the turned card in the middle, two passes said."""
    return SeatView(
        seat=3,
        ruleset="club",
        target=1000,
        phase=Phase.BIDDING,
        k=0,
        dealer=0,
        to_move=3,
        hand=(0, 5, 12, 20, 31),
        hand_sizes=(5, 5, 5, 5),
        turned=21,
        bids=((1, "pass"), (2, "pass")),
        contract=None,
        trick=(),
        leader=None,
        tricks=(),
        belotes=(),
        melds=(),
        scores=(0, 0),
        hanging=0,
        last_result=None,
        legal=(Action.take(), Action.pass_()),
    )


def deal_result() -> DealResult:
    """A doubled Hearts contract set: the whole deal x2 goes to Alice's team (in tens)."""
    return DealResult(
        k=5,
        contract=Contract("H", 1, 2),
        card_points=(97, 65),
        tricks=(5, 3),
        melds=(20, 0),
        belotes=(0, 20),
        totals=(117, 85),
        outcome="set",
        points=(40, 0),
        held=0,
        paid=(0, 0),
        scores=(104, 97),
        capot=None,
    )


def standings_rows() -> list[StandingRow]:
    return [
        StandingRow(1, "Alice", 12, (31.5, 6), 7),
        StandingRow(2, "Борис Пастернак", 10, (29, 5), 7),
        StandingRow(3, "Καλλιόπη Παπαδοπούλου", 10, (27.5, 5), 7),
        StandingRow(4, "Dave", 8, (24, 4), 7),
        StandingRow(5, "Zoë Ångström", 6, (22.5, 3), 7),
        StandingRow(6, "Mateusz Wiśniewski", 4, (19, 2), 7),
    ]


STANDINGS_TITLE = "Spring Swiss · after round 7"
TIE_BREAKS = ("Buchholz", "Wins")


def played_match(seed: int = 11, ruleset: str = "club") -> Match:
    """A match whose first deal is played to its end by a seeded random player."""
    rng = random.Random(seed)
    match = Match(ruleset, decks=lambda k: random.Random(seed * 1000 + k).sample(range(32), 32))
    while match.to_move is not None and not any(d.result for d in match.deals):
        seat = match.to_move
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return match


def finished_deal(seed: int = 11, ruleset: str = "club"):
    """The first finished deal (a ``DealRecord`` with its result) of ``played_match``."""
    return next(d for d in played_match(seed, ruleset).deals if d.result is not None)


def reference_images() -> dict[str, Image.Image]:
    """Name -> PIL image of every reference picture."""
    view = table_view(None)
    return {
        "hand": compose_hand(table_view(0), table_id=TABLE_ID, seat_name=NAMES[0], names=NAMES)[0],
        "hand_four_colour": compose_hand(
            table_view(0), table_id=TABLE_ID, seat_name=NAMES[0], four_colour=True
        )[0],
        "table": compose_table(
            view, table_id=TABLE_ID, names=NAMES, time_left=27, show_last_trick=True
        )[0],
        "table_bidding": compose_table(
            bidding_view(), table_id="Zephyr", names=NAMES, time_left=54
        )[0],
        "deal_result": compose_deal_result(
            deal_result(), NAMES, target=151, table_id=TABLE_ID, ruleset="bulgarian"
        )[0],
        "standings": compose_standings(
            STANDINGS_TITLE,
            standings_rows(),
            tie_break_names=TIE_BREAKS,
            subtitle="7 of 7 rounds",
            highlight="Dave",
        )[0],
    }


def write_references() -> None:
    REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
    for name, img in reference_images().items():
        img.save(REFERENCE_DIR / f"{name}.png", optimize=True)


def write_docs() -> None:
    from bot.show.render.replay import compose_replay, render_replay

    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    images = reference_images()
    for name in ("hand", "hand_four_colour", "table", "table_bidding", "standings"):
        images[name].save(DOCS_DIR / f"{name}.png", optimize=True)
    record = finished_deal()
    compose_deal_result(record.result, NAMES, record=record, target=1000, table_id=TABLE_ID)[
        0
    ].save(DOCS_DIR / "deal_result.png", optimize=True)
    frames, _ = compose_replay(record, NAMES, table_id=TABLE_ID)
    frames[7].save(DOCS_DIR / "replay_frame.png", optimize=True)
    (DOCS_DIR / "replay.gif").write_bytes(render_replay(record, NAMES, table_id=TABLE_ID))


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the renderer's sample pictures.")
    parser.add_argument("--references", action="store_true", help="rewrite tests/render/reference/")
    parser.add_argument("--docs", action="store_true", help="rewrite docs/pictures/")
    args = parser.parse_args()
    if not (args.references or args.docs):
        parser.error("say --references, --docs or both")
    if args.references:
        write_references()
    if args.docs:
        write_docs()


if __name__ == "__main__":
    main()
