"""Everything a user types, read in one place: ids, numbers, seeds, rulesets, cards, bids.

Each reader takes one word as typed (a command's argument, a button's payload part, a CLI
option) and returns a plain value or raises :class:`bot.refused.Refused` with a catalog
text that says what is accepted. The rules are the same for every reader, so no input can
reach a conversion or a query it would break:

- digits are ASCII ``0-9`` only (``str.isdigit`` also accepts ``²``, ``①`` or ``₂``, which
  ``int`` then refuses);
- a word is bounded in length before it is looked at further (``int`` refuses 4,300
  digits; SQLite cannot bind 2^63 or more);
- the range is checked on the digits, before any conversion or database call.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.table import LEVELS
from bot.refused import Refused
from engine import RULESETS, Action, InvalidCard, parse_card
from engine.actions import BID_VALUES

# An id is at most 18 digits: always below 2^63, so a database can bind it.
ID_DIGITS = 18
MAX_TEXT = 4096  # a whole command: more than any chat platform sends in one message
ECHO = 30  # how much of a refused word is shown back

_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[0-9]{1,7}(?:\.[0-9]{1,6})?", re.ASCII)
_HEX = re.compile(r"[0-9a-f]+", re.ASCII)


def echo(word: str, limit: int = ECHO) -> str:
    """A user's word fit to be shown back in a refusal: at most ``limit`` characters, and
    control or invisible characters written as escapes (``\\x1b``), never raw."""
    cut = word[:limit]
    out = []
    for ch in cut:
        if unicodedata.category(ch)[0] == "C":
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out) + ("…" if len(word) > limit else "")


def ascii_digits(word: str, max_digits: int = ID_DIGITS) -> int | None:
    """``word`` as a whole number when it is 1 to ``max_digits`` ASCII digits, else None."""
    if not 0 < len(word) <= max_digits or not _DIGITS.fullmatch(word):
        return None
    return int(word)


def _numeric_like(text: str) -> bool:
    """Does ``text`` look like a number to a person (``12``, ``²``, ``①``, ``١٢``)? Used only
    to decide that a word was meant as an id, so it gets the id's refusal."""
    return bool(text) and all(ch.isnumeric() for ch in text)


# ------------------------------------------------------------------------------- ids


def table_ref(word: str) -> int | None:
    """``t3`` / ``T3`` -> 3; None when ``word`` is not meant as a table (``TD`` is a card).
    A word written like a table id but not one (``t²``, ``t0``, 30 digits) is refused."""
    if len(word) < 2 or word[0] not in "tT" or not _numeric_like(word[1:]):
        return None
    n = ascii_digits(word[1:])
    if n is None or n < 1:
        raise Refused("err-table-id", word=echo(word))
    return n


def is_table_ref(word: str) -> bool:
    """Is ``word`` meant as a table id (well written or not)?"""
    return len(word) >= 2 and word[0] in "tT" and _numeric_like(word[1:])


def match_ref(word: str) -> int:
    """``m12``, ``M12`` or ``12`` -> 12."""
    text = word[1:] if word[:1] in ("m", "M") else word
    n = ascii_digits(text)
    if n is None or n < 1:
        raise Refused("err-match-id")
    return n


def event_ref(word: str, *, bare: bool = True) -> int | None:
    """``#2`` (or a bare ``2`` when ``bare``) -> 2, a tournament or ladder; None when the
    word is not meant as one. ``#x`` or ``#²`` is refused."""
    if word.startswith("#"):
        text = word[1:]
    elif bare and _numeric_like(word):
        text = word
    else:
        return None
    n = ascii_digits(text)
    if n is None or n < 1:
        raise Refused("err-event-id", word=echo(word))
    return n


def deal_number(word: str) -> int | None:
    """A deal of a match, counted from 1 (``/replay m12 3``); None when not a number."""
    if not _numeric_like(word):
        return None
    n = ascii_digits(word, 6)
    if n is None:
        raise Refused("err-deal-number", word=echo(word))
    return n


def seat_number(word: str) -> int:
    """``1`` to ``4`` -> the seat index 0 to 3."""
    n = ascii_digits(word, 1)
    if n is None or not 1 <= n <= 4:
        raise Refused("err-seat-number")
    return n - 1


def is_number(word: str) -> bool:
    """Does ``word`` look like a number (a seat, a deal), well written or not?"""
    return _numeric_like(word)


# ------------------------------------------------------------------------------- numbers


def whole(word: str, low: int, high: int, key: str, /, **values: object) -> int:
    """A whole number from ``low`` to ``high`` (both at least 0), or ``Refused(key)``."""
    n = ascii_digits(word, len(str(high)))
    if n is None or not low <= n <= high:
        raise Refused(key, **values)
    return n


def seconds(word: str, low: float, high: float, key: str, /, **values: object) -> float:
    """A number of seconds (``20``, ``7.5``) from ``low`` to ``high``, or ``Refused(key)``."""
    if _DECIMAL.fullmatch(word) is None:
        raise Refused(key, **values)
    value = float(word)
    if not low <= value <= high:
        raise Refused(key, **values)
    return value


def target(word: str) -> int:
    return whole(word, 1, 100_000, "err-target")


def _seconds_between(low: float, high: float, key: str) -> Callable[[str], float]:
    """A reader of one setting in seconds (its range and its refusal text)."""

    def read(word: str) -> float:
        return seconds(word, low, high, key)

    return read


timer = _seconds_between(5, 3600, "err-timer")  # a table's turn timer
#: The words for no timer. Not ``0``: a timer is 5 to 3600 seconds or ``off``, wherever it is
#: typed (``/table create``, ``/settings set``, ``belote run --timer``, ``BELOTE_TIMER``), and
#: ``0`` is refused with the same line as ``4`` or ``99999``, never stored as ``off``.
NO_TIMER = frozenset({"off", "none"})


def table_timer(word: str) -> float:
    """A turn timer: 5 to 3600 seconds, or ``off`` (0.0: no timer, nobody's turn is ever
    played for them; what a person alone with bots wants)."""
    if word.strip().lower() in NO_TIMER:
        return 0.0
    return timer(word)


seed_window = _seconds_between(0, 600, "err-window")
bot_delay = _seconds_between(0, 60, "err-bot-delay")  # belote run --bot-delay

#: The turn timer of new tables, as the operator sets it (``belote run --timer``,
#: ``BELOTE_TIMER``): the same rule as a table's own.
default_timer = table_timer


# ------------------------------------------------------------------------------- words


def ruleset(word: str) -> str:
    name = word.lower()
    if name not in RULESETS:
        raise Refused("err-ruleset", value=echo(word), rulesets=", ".join(RULESETS))
    return name


def level(word: str) -> str:
    name = word.lower()
    if name not in LEVELS:
        raise Refused("err-level", levels=", ".join(LEVELS))
    return name


def seed_hex(word: str, nbytes: int = 16, key: str = "err-seed-format") -> bytes:
    """Exactly ``nbytes`` bytes written as ``2 * nbytes`` hex digits (``0x`` allowed)."""
    text = word.strip().lower()
    if text.startswith("0x"):
        text = text[2:]
    if len(text) != 2 * nbytes or not _HEX.fullmatch(text):
        raise Refused(key, digits=2 * nbytes)
    return bytes.fromhex(text)


#: Suits as screens draw them (and their outlined and emoji forms), read as the letters.
SUIT_SYMBOLS = {
    "♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S",
}  # fmt: skip
_EMOJI = "\ufe0f"  # the variation selector that makes ♥ an emoji: no meaning of its own


def card_word(word: str) -> str | None:
    """A card as typed, written the one way the core writes it (``TD``), or None when
    ``word`` is not written as a card: ``TD``, ``td``, ``10D``, ``10d``, ``Q♥``, ``q♥``,
    ``10♦`` (what the screens show) all read. Only the shape is checked here."""
    text = word.replace(_EMOJI, "")
    if not 2 <= len(text) <= 3:
        return None
    rank, suit = text[:-1].upper(), text[-1]
    suit = SUIT_SYMBOLS.get(suit, suit.upper())
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in "789TJQKA" or suit not in "CDHS":
        return None
    return rank + suit


def card(word: str) -> int:
    """``TD``, ``td``, ``10D``, ``Q♥`` -> the card."""
    text = card_word(word)
    if text is None:
        raise Refused("err-card", card=echo(word, 10))
    try:
        return parse_card(text)
    except InvalidCard:
        raise Refused("err-card", card=echo(word, 10)) from None


PLAY_FLAGS = ("melds", "nomelds", "belote")
BARE_BIDS = frozenset(
    {"pass", "take", "contre", "recontre", "coinche", "surcoinche"}
    | {"c", "d", "h", "s", "nt", "at"}
)


def bare_move(text: str) -> str | None:
    """A move typed without its command, as a player reads it on screen, as the core's
    command: ``10H`` / ``Q♥`` / ``qh nomelds`` -> ``/play TH`` ..., ``pass`` / ``NT`` ->
    ``/bid pass`` ...; ``/play 10H`` -> ``/play TH``. None when ``text`` is not a move (it
    is then read as a command: ``help``, ``/score``...). A word that is not a card after
    ``/play`` is left for the core, which says what a card is."""
    words = text.split()
    if not words:
        return None
    if words[0].lower() == "/play" and len(words) >= 2:
        shown = card_word(words[1])
        return None if shown is None else " ".join(["/play", shown, *words[2:]])
    shown = card_word(words[0])
    if shown is not None and all(w.lower() in PLAY_FLAGS for w in words[1:]):
        return " ".join(["/play", shown, *(w.lower() for w in words[1:])])
    if len(words) == 1 and words[0].lower() in BARE_BIDS:
        return f"/bid {words[0]}"
    if len(words) == 2 and is_bid_value(words[0]) and contract_word(words[1]) is not None:
        return f"/bid {words[0]} {words[1]}"  # Coinche: ``90 H``, ``capot ♠``
    return None


_CALLS = ("pass", "take", "contre", "recontre", "coinche", "surcoinche")
_CONTRACTS = ("C", "D", "H", "S", "NT", "AT")


@dataclass(frozen=True)
class ValueStep:
    """A press on a Coinche hand's first step: a value (its contracts come next), or
    ``None``, back to the values."""

    value: int | None


def value_step(code: str) -> ValueStep | None:
    """``value 90``, ``value capot``, ``values`` -> the step; None when ``code`` is not
    one. A value that is no bid's is a stale (or forged) button."""
    if code == "values":
        return ValueStep(None)
    if not code.startswith("value "):
        return None
    value = BID_VALUES.get(code.removeprefix("value ").lower())
    if value is None:
        raise Refused("err-stale-button")
    return ValueStep(value)


def is_bid_value(word: str) -> bool:
    """Is ``word`` a Coinche bid's value (``90``, ``capot``, ``générale``)?"""
    return word.lower() in BID_VALUES


def contract_word(word: str) -> str | None:
    """A contract as typed (``H``, ``h``, ``♥``, ``nt``) -> ``H``; None when it is not one."""
    text = word.replace(_EMOJI, "")
    text = SUIT_SYMBOLS.get(text, text).upper()
    return text if text in _CONTRACTS else None


def bid(words: list[str]) -> Action:
    """``pass``, ``take``, ``contre``, ``recontre``, ``coinche``, ``surcoinche``, a contract
    ``C D H S NT AT``, or Coinche's value and contract: ``90 H``, ``capot S``, ``250 ♠``."""
    if len(words) == 1:
        low = words[0].lower()
        if low in _CALLS:
            return Action.parse(low)
        contract = contract_word(words[0])
        if contract is not None:
            return Action.bid(contract)
    if len(words) == 2 and is_bid_value(words[0]):
        contract = contract_word(words[1])
        if contract is not None:
            return Action.bid(contract, BID_VALUES[words[0].lower()])
    raise Refused("err-bid-format")


# ------------------------------------------------------------------------------- buttons


@dataclass(frozen=True)
class Press:
    """A table button's payload: ``t<table>:<log position>:<seat or ->:<code>``."""

    table: int
    seq: int
    seat: int | None
    code: str


MAX_PAYLOAD = 100  # Discord's custom id limit; Telegram's is 64 bytes


def press(action: str) -> Press:
    """Read a table button's payload; anything else (forged, cut, from an old version) is
    a stale button."""
    if len(action) > MAX_PAYLOAD:
        raise Refused("err-stale-button")
    parts = action.split(":", 3)
    if len(parts) != 4 or len(parts[0]) < 2 or parts[0][0] != "t":
        raise Refused("err-stale-button")
    table = ascii_digits(parts[0][1:])
    seq = ascii_digits(parts[1], 9)
    seat = None if parts[2] == "-" else ascii_digits(parts[2], 1)
    if table is None or seq is None or (parts[2] != "-" and (seat is None or seat > 3)):
        raise Refused("err-stale-button")
    return Press(table, seq, seat, parts[3])


def tournament_press(action: str) -> tuple[str, int]:
    """``tn:<what>:<tournament>`` -> (what, tournament id)."""
    parts = action.split(":")
    if len(action) > MAX_PAYLOAD or len(parts) != 3 or parts[0] != "tn":
        raise Refused("err-stale-button")
    n = ascii_digits(parts[2])
    if n is None:
        raise Refused("err-stale-button")
    return parts[1], n
