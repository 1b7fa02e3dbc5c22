"""Actions a seat can take, each with one canonical text (``"play KH belote"``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import card_text, parse_card
from engine.contract import CONTRACT_TEXTS
from engine.errors import IllegalAction, InvalidCard


@dataclass(frozen=True)
class Action:
    kind: str
    contract: str | None = None
    card: int | None = None
    belote: bool = False
    melds: bool = False

    @property
    def text(self) -> str:
        if self.kind == "bid":
            return f"bid {self.contract}"
        if self.kind == "play":
            if type(self.card) is int and 0 <= self.card < 32:
                return _PLAY_TEXTS[self.card * 4 + 2 * self.melds + self.belote]
            raise InvalidCard(f"Not a card number: {self.card!r}.")
        return self.kind

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def pass_() -> Action:
        return _PASS

    @staticmethod
    def take() -> Action:
        return _TAKE

    @staticmethod
    def bid(contract: str) -> Action:
        return Action("bid", contract=contract)

    @staticmethod
    def contre() -> Action:
        return _CONTRE

    @staticmethod
    def recontre() -> Action:
        return _RECONTRE

    @staticmethod
    def play(card: int, belote: bool = False, melds: bool = False) -> Action:
        if type(card) is int and 0 <= card < 32:
            return PLAY_ACTIONS[card * 4 + (2 if melds else 0) + (1 if belote else 0)]
        raise InvalidCard(f"Not a card number: {card!r}.")

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action text; raises InvalidCard / IllegalAction with a friendly message."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalAction(f"Not an action: {text!r}.")
        words = text.strip().split()
        if not words:
            raise IllegalAction(
                "Empty action: say pass, take, bid X, contre, recontre or play CARD."
            )
        kind = words[0].lower()
        rest = [w.lower() for w in words[1:]]
        if kind in ("pass", "take", "contre", "recontre") and not rest:
            return {"pass": _PASS, "take": _TAKE, "contre": _CONTRE, "recontre": _RECONTRE}[kind]
        if kind == "bid" and len(rest) == 1 and rest[0].upper() in CONTRACT_TEXTS:
            return cls.bid(rest[0].upper())
        if kind == "play" and rest:
            card = parse_card(words[1])
            flags = rest[1:]
            if flags in ([], ["belote"], ["melds"], ["melds", "belote"], ["belote", "melds"]):
                return cls.play(card, belote="belote" in flags, melds="melds" in flags)
        if kind == "play" and not rest:
            raise InvalidCard("Say which card to play, e.g. play TD.")
        raise IllegalAction(
            f"Unknown action {text.strip()[:30]!r}: say pass, take, bid C/D/H/S/NT/AT, "
            "contre, recontre or play CARD [melds] [belote]."
        )


# Every play action exists once: legal-action lists allocate nothing per card.
PLAY_ACTIONS: tuple[Action, ...] = tuple(
    Action("play", card=c, belote=bool(f & 1), melds=bool(f & 2))
    for c in range(32)
    for f in range(4)
)
_PLAY_TEXTS: tuple[str, ...] = tuple(
    f"play {card_text(c)}" + (" melds" if f & 2 else "") + (" belote" if f & 1 else "")
    for c in range(32)
    for f in range(4)
)
_PASS = Action("pass")
_TAKE = Action("take")
_CONTRE = Action("contre")
_RECONTRE = Action("recontre")
