"""What the renderer reads from the engine's views, in one place.

The renderer only reads attributes named in docs/engine-api.md (``SeatView``,
``Contract``, ``Action``, ``DealRecord``, ``DealResult``), so it draws from any object
with those names: the engine's own, or a test's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def playable_cards(view: Any) -> frozenset[int]:
    """Cards the seat may play now: those of the ``play`` actions among ``view.legal``."""
    return frozenset(
        a.card
        for a in (view.legal or ())
        if getattr(a, "kind", None) == "play" and a.card is not None
    )


def contract_trump(view: Any) -> str | None:
    contract = getattr(view, "contract", None)
    return None if contract is None else contract.trump


def get(obj: Any, name: str, default: Any = None) -> Any:
    """``obj.name`` or ``obj[name]``: deal results arrive as objects or as event dicts."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


#: The suits as Coinche's bids are written in the pictures (``90 ♥``).
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def bid_value_word(value: str | int, tr: Callable[[str], str]) -> str:
    """A Coinche bid's value as the pictures write it: ``90``, ``Capot``, ``Generale``."""
    word = {"250": "capot", "500": "generale"}.get(str(value), str(value))
    return {"capot": tr("Capot"), "generale": tr("Generale")}.get(word, word)


def doubling_word(contract: object, tr: Callable[[str], str]) -> str:
    """``Contre``/``Recontre``, or Coinche's ``Coinche``/``Surcoinche``, for a doubled contract."""
    coinche = get(contract, "bid") is not None
    if get(contract, "multiplier", 1) == 2:
        return tr("Coinche") if coinche else tr("Contre")
    return tr("Surcoinche") if coinche else tr("Recontre")


def bid_words(bid: str, tr: Callable[[str], str]) -> tuple[str, str | None]:
    """A bid's words and, for a suit, the suit letter drawn as a shape beside them."""
    kind, _, arg = bid.partition(" ")
    if kind == "bid" and " " in arg:  # Coinche: "bid 90 H", "bid capot NT"
        value, _, trump = arg.partition(" ")
        return f"{bid_value_word(value, tr)} {SUIT_SIGNS.get(trump) or trump}", None
    if kind == "bid":
        if arg == "NT":
            return tr("No trump"), None
        if arg == "AT":
            return tr("All trump"), None
        return "", arg
    return {
        "pass": tr("Pass"),
        "take": tr("Take"),
        "contre": tr("Contre"),
        "recontre": tr("Recontre"),
        "coinche": tr("Coinche"),
        "surcoinche": tr("Surcoinche"),
    }.get(kind, kind), None
