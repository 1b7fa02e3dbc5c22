"""Actions a seat can take, each with one canonical text (``"play KH belote"``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import card_text, parse_card
from engine.contract import BID_WORDS, CAPOT_BID, CONTRACT_TEXTS, GENERALE_BID
from engine.errors import IllegalAction, InvalidCard


@dataclass(frozen=True)
class Action:
    kind: str
    contract: str | None = None
    card: int | None = None
    belote: bool = False
    melds: bool = False
    value: int | None = None  # Coinche: the bid's value (80..160, capot 250, générale 500)

    @property
    def text(self) -> str:
        if self.kind == "bid":
            if self.value is not None:
                return f"bid {BID_WORDS.get(self.value, str(self.value))} {self.contract}"
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
    def bid(contract: str, value: int | None = None) -> Action:
        """``bid H`` (French second round, Bulgarian) or, with a value, Coinche's
        ``bid 90 H`` / ``bid capot H`` / ``bid generale H``."""
        return Action("bid", contract=contract, value=value)

    @staticmethod
    def coinche() -> Action:
        return _COINCHE

    @staticmethod
    def surcoinche() -> Action:
        return _SURCOINCHE

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
        if kind in _WORDS and not rest:
            return _WORDS[kind]
        if kind == "bid" and len(rest) == 1 and rest[0].upper() in CONTRACT_TEXTS:
            return cls.bid(rest[0].upper())
        if kind == "bid" and len(rest) == 2 and rest[1].upper() in CONTRACT_TEXTS:
            value = BID_VALUES.get(rest[0])
            if value is not None:
                return cls.bid(rest[1].upper(), value)
        if kind == "play" and rest:
            card = parse_card(words[1])
            flags = rest[1:]
            if flags in ([], ["belote"], ["melds"], ["melds", "belote"], ["belote", "melds"]):
                return cls.play(card, belote="belote" in flags, melds="melds" in flags)
        if kind == "play" and not rest:
            raise InvalidCard("Say which card to play, e.g. play TD.")
        raise IllegalAction(
            f"Unknown action {text.strip()[:30]!r}: say pass, take, bid C/D/H/S/NT/AT, "
            "bid 80..160/capot/generale SUIT, contre, recontre, coinche, surcoinche or "
            "play CARD [melds] [belote]."
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
_COINCHE = Action("coinche")
_SURCOINCHE = Action("surcoinche")
_WORDS = {a.kind: a for a in (_PASS, _TAKE, _CONTRE, _RECONTRE, _COINCHE, _SURCOINCHE)}
#: Coinche's bid values as typed: 80, 90, ... 160, capot (or 250), générale (or 500).
COINCHE_VALUES: tuple[int, ...] = (*range(80, 161, 10), CAPOT_BID, GENERALE_BID)
BID_VALUES: dict[str, int] = {str(v): v for v in COINCHE_VALUES} | {
    "capot": CAPOT_BID,
    "generale": GENERALE_BID,
    "générale": GENERALE_BID,
}
