"""The table as a person reads it in a terminal: compact, coloured, one line per trick.

The core's posts are written for chat, where one table message is edited in place at
every move. Printed again at every move, that is a wall of repeated lines; so this screen
reads each post line by line with the kind the core gives each line (``Post.lines``) and
prints only what a player follows:

- a match's start: the table's header and its four seats, once;
- each deal: who deals, the turned card, the whole auction on one line with the contract;
- each trick once it is complete, with its winner (the 8th comes with the deal's result);
- on the player's turn: the trick so far, their hand with the cards they may play marked,
  and what to type;
- after each deal: the result as the result picture has it;
- the fair-deal posts (commitment, seeds, drand, the reveal) dimmed.

Suits are drawn as symbols, hearts and diamonds in red; ``NO_COLOR`` turns colours off.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import partialmethod
from typing import TextIO

from adapters.console.platform import safe_line
from bot.platform import Post, Reply

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED = frozenset("DH")
_CARD = re.compile(r"(?<![A-Za-z0-9])([789TJQKA])([CDHS])(?![A-Za-z0-9])")
_COMMAND = re.compile(r"/(?:play|bid) ")
CARD_KINDS = frozenset({"turned", "trick", "trick-won", "hand"})
ON_CHANGE = ("header", "match", "deal", "turned", "trick-won", "timeout", "away")
AT_END = ("winner", "over", "closed")  # the seed: the reveal post says it


class Style:
    """ANSI styles, or none at all."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour and text else text

    bold = partialmethod(_sgr, "1")
    dim = partialmethod(_sgr, "2")
    red = partialmethod(_sgr, "31")
    green = partialmethod(_sgr, "32")
    yellow = partialmethod(_sgr, "33")
    cyan = partialmethod(_sgr, "36")

    def card(self, rank: str, suit: str, *, symbol: bool = True, legal: bool = False) -> str:
        shown = ("10" if rank == "T" else rank) + SUITS[suit] if symbol else rank + suit
        if legal:
            shown = f"[{shown}]"
        styled = self.red(shown) if suit in RED else shown
        return self._sgr("1", styled) if legal else styled


def colour_wanted(out: TextIO) -> bool:
    """Colours on a terminal, unless ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(out, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"


class Screen:
    """Prints posts for the person at this terminal (``me``: their user id)."""

    def __init__(
        self, out: TextIO, me: str, colour: bool | None = None, *, device_seeds: bool = False
    ) -> None:
        self.out = out
        self.me = me
        self.style = Style(colour_wanted(out) if colour is None else colour)
        # the terminal sends the player's seed itself: the commitment is shown once the
        # seeds are in (its first version asks for a seed nobody has to type)
        self.device_seeds = device_seeds
        self._held: list[str] | None = None
        self.after_match: Callable[[], None] | None = None  # e.g. offer a new match
        self._commit: dict[str, list[tuple[str, str]]] = {}
        self._seen: dict[str, dict[str, str]] = {}  # post key -> kind -> last text
        self._trick = ""  # the trick in progress, as the table shows it
        self._bids = ""
        self._hand_size: dict[str, tuple[str, int]] = {}
        self._away: dict[str, str | None] = {}
        self._last_trick = ""

    # --- writing ------------------------------------------------------------------------

    def write(self, *lines: str) -> None:
        for line in lines:
            if not line:
                continue
            if self._held is not None:
                self._held.append(line)
            else:
                self.out.write(line + "\n")
        self.out.flush()

    def hold(self) -> None:
        """Keep what the core shows until :meth:`release` (a greeting goes first)."""
        self._held = []

    def release(self) -> None:
        held, self._held = self._held or [], None
        self.write(*held)

    def cards(self, text: str, legal: frozenset[str] = frozenset()) -> str:
        """Card texts (``TD``) drawn as ``10♦``; ``legal`` ones marked."""
        return _CARD.sub(
            lambda m: self.style.card(m[1], m[2], legal=m[0] in legal),
            text,
        )

    def typed(self, text: str) -> str:
        """A turn's choices as the player types them (``QH``, ``pass``), suits coloured."""
        text = _COMMAND.sub("", text)
        return _CARD.sub(lambda m: self.style.card(m[1], m[2], symbol=False), text)

    # --- posts --------------------------------------------------------------------------

    def show(self, post: Post) -> None:
        lines = list(post.lines) or [("text", line) for line in post.text.split("\n")]
        lines = [(kind, safe_line(text)) for kind, text in lines]  # names as typed, escaped
        what = post.key.split(":", 1)[0]
        if what == "table":
            self._table(post.key, lines)
        elif what == "hand":
            if post.to_user == self.me:
                self._hand(post, lines)
            else:
                self._changed(post.key, lines, prefix=f"@{post.to_user}: ")
        elif what == "result":
            self._result(post.key, lines)
        elif what == "commit" and self.device_seeds:
            self._commit[post.key] = lines  # shown with the seeds, in its final words
        elif what in ("commit", "seeds", "drand"):
            commit = self._commit.pop(post.key.replace("seeds:", "commit:"), None)
            if commit is not None:
                self._changed(post.key.replace("seeds:", "commit:"), commit, style=self.style.dim)
            self._changed(post.key, lines, style=self.style.dim)
        else:  # the reveal, notices, anything new
            self._changed(post.key, lines)

    def _changed(self, key: str, lines: list[tuple[str, str]], *, prefix: str = "", style=None):
        """Print the lines of a post that are new since its last version."""
        seen = self._seen.setdefault(key, {})
        old = set(seen.values())
        for i, (_kind, text) in enumerate(lines):
            if text not in old:
                self.write((style or (lambda s: s))(prefix + text))
            seen[str(i)] = text
        for stale in [k for k in seen if int(k) >= len(lines)]:
            del seen[stale]

    def _table(self, key: str, lines: list[tuple[str, str]]) -> None:
        seen = self._seen.setdefault(key, {})
        kinds = dict(lines)  # the last line of each kind
        self._trick = kinds.get("trick", "")
        self._bids = kinds.get("bids", "")
        new_match = "match" in kinds and kinds["match"] != seen.get("match")
        if new_match and "header" in kinds:
            self.write(self.style.bold(kinds["header"]))
        for kind, text in lines:
            if kind in ("seat", "seat-turn"):
                if new_match:
                    self.write("  " + self.style.dim(text))
                continue
            if kind in ("header", "lobby"):  # the lobby is set up by commands and their replies
                continue
            if kind == "contract" and text != seen.get(kind):
                self.write("  " + self.cards(self._bids) if self._bids else "")
                self.write(self.style.bold(text))
            elif kind == "score" and kind not in seen:
                self.write(self.style.cyan(text))
            elif kind == "trick-won" and text == self._last_trick:
                continue  # the 8th trick came with the deal's result
            elif kind in ON_CHANGE and text != seen.get(kind):
                shown = self.cards(text) if kind in CARD_KINDS else text
                if kind in ("header", "match", "deal"):
                    shown = self.style.bold(shown)
                    if kind == "deal":
                        shown = "\n" + shown
                if kind == "trick-won":
                    self._last_trick = text
                self.write(("  " if kind == "trick-won" else "") + shown)
            elif kind in AT_END and text != seen.get(kind):
                if kind == "winner":
                    text = self.style.bold(self.style.yellow(text[:1].upper() + text[1:]))
                self.write(text)
        ended = "over" in kinds and "over" not in seen and "match" in seen
        seen.clear()
        seen.update(kinds)
        if ended and self.after_match is not None:
            self.after_match()

    def _hand(self, post: Post, lines: list[tuple[str, str]]) -> None:
        kinds = dict(lines)
        if "hand" not in kinds:  # the match is over: the table says how it ended
            return
        hand = kinds["hand"]
        size = len(_CARD.findall(hand))
        deal = post.moment.rsplit("-", 1)[0]  # m3-deal02: a new deal shows the new hand
        was = self._hand_size.get(post.key)
        grew = was is None or was[0] != deal or size > was[1]
        self._hand_size[post.key] = (deal, size)
        turn = kinds.get("your-turn")
        if turn is None:
            if grew:
                self.write(self.cards(hand))
            away = kinds.get("away")
            if away is not None and away != self._away.get(post.key):
                self.write(self.style.yellow(away))
            self._away[post.key] = away
            return
        self._away[post.key] = None
        legal = frozenset(
            b.label for row in post.buttons for b in row if b.enabled and _CARD.fullmatch(b.label)
        )
        if legal and self._trick:
            self.write("  " + self.cards(self._trick))
        elif not legal and self._bids:
            self.write("  " + self._bids)
        if len(legal) == size:  # every card may be played: nothing to tell apart
            legal = frozenset()
        self.write(self.cards(hand, legal), self.style.green("▶ " + self.typed(turn)))
        if "melds-hint" in kinds:
            self.write(self.style.dim(self.typed(kinds["melds-hint"])))

    def _result(self, key: str, lines: list[tuple[str, str]]) -> None:
        if key in self._seen:
            return
        self._seen[key] = dict(lines)
        for kind, text in lines:
            if kind == "result":
                self.write(self.style.bold(self.style.yellow(text)))
            elif kind == "trick-won":
                self._last_trick = text
                self.write("  " + self.cards(text))
            else:
                self.write("  " + text)

    # --- answers and the terminal's own lines -----------------------------------------

    def answer(self, name: str, reply: Reply) -> None:
        text = "\n".join(safe_line(line) for line in reply.text.split("\n"))
        if not reply.ok:
            text = self.style.red(self.typed(text))  # what may be played, as typed here
        self.write(*text.split("\n"))

    def notice(self, text: str) -> None:
        """The terminal's own words: printed at once, even while the core's are held."""
        for line in text.split("\n"):
            self.out.write(self.style.cyan(safe_line(line)) + "\n")
        self.out.flush()
