"""The four rulesets the bot hosts (docs/rules.md), as data the core branches on."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import UnknownRuleset


@dataclass(frozen=True)
class Ruleset:
    """What differs between tables. ``legal`` picks the play-obligation family."""

    name: str
    target: int  # default match target
    has_melds: bool
    auction: str  # "french" (turned card, two rounds), "bulgarian" or "coinche" (valued bids)
    legal: str  # "classic", "club" or "bulgarian"
    dealer_must_choose: bool = False  # club: round 2 never ends in a redeal
    contracts: tuple[str, ...] = ("C", "D", "H", "S")
    turned_card: bool = True
    rounding: bool = False  # bulgarian: scores in tens
    capot_bonus: int = 0  # bulgarian: +90; french: capot scores 252 instead of 162
    doubling: bool = False
    packets: tuple[int, ...] = (3, 2)  # dealt to each seat before the auction, in turn


RULESETS: dict[str, Ruleset] = {
    "classic": Ruleset(
        name="classic", target=1000, has_melds=False, auction="french", legal="classic"
    ),
    "club": Ruleset(
        name="club",
        target=1000,
        has_melds=True,
        auction="french",
        legal="club",
        dealer_must_choose=True,
    ),
    "bulgarian": Ruleset(
        name="bulgarian",
        target=151,
        has_melds=True,
        auction="bulgarian",
        legal="bulgarian",
        contracts=("C", "D", "H", "S", "NT", "AT"),
        turned_card=False,
        rounding=True,
        capot_bonus=90,
        doubling=True,
    ),
    "coinche": Ruleset(
        name="coinche",
        target=1000,
        has_melds=False,
        auction="coinche",
        legal="classic",
        turned_card=False,
        doubling=True,
        packets=(3, 2, 3),
    ),
}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    if isinstance(name, Ruleset):
        return name
    rules = RULESETS.get(str(name).strip().lower()) if isinstance(name, str) else None
    if rules is None:
        raise UnknownRuleset(
            f"Unknown ruleset {str(name)[:20]!r}: choose one of {', '.join(RULESETS)}."
        )
    return rules
