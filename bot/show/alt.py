"""Each picture said in words, for people who cannot see it (a screen reader reads a
platform's attachment description, its alt text).

A picture's words are in its reader's language and say what the picture shows: a hand,
its cards (spoken: "Jack of Hearts", not "JH") and which of them may be played now; the
table, its players, the score, the contract and the cards on the table; a deal's result;
the standings; a replay. A platform that can carry them (Discord's attachment
``description``) shows them with the picture (:attr:`bot.platform.Post.image_alt`).
"""

from __future__ import annotations

from typing import Any

from bot.show.i18n import _
from bot.show.texts import played_tricks
from engine import card_text

#: Discord's limit on an attachment's description.
MOST = 1024


def card_words(card: int, locale: str) -> str:
    """``JH`` -> ``Jack of Hearts`` in ``locale``."""
    text = card_text(card)
    return _(
        "alt-card",
        locale,
        rank=_(f"alt-rank-{text[0]}", locale),
        suit=_(f"contract-{text[1]}", locale),
    )


def cards_words(cards: Any, locale: str) -> str:
    return ", ".join(card_words(c, locale) for c in cards)


def fit(text: str) -> str:
    """At most :data:`MOST` characters, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= MOST:
        return text
    return text[: MOST - 1].rsplit(" ", 1)[0] + "…"


def hand_alt(view: Any, order: list[int], table: str, locale: str, *, moving: bool) -> str:
    """A player's hand: the cards in the picture's order, then which may be played (on
    their turn in the play), or that it is their turn to bid, or not their turn."""
    parts = [_("alt-hand", locale, table=table, cards=cards_words(order, locale))]
    playable = [c for c in order if any(a.kind == "play" and a.card == c for a in view.legal)]
    if moving and playable:
        parts.append(_("alt-hand-playable", locale, cards=cards_words(playable, locale)))
    elif moving and view.legal:
        parts.append(_("alt-hand-bid", locale))
    else:
        parts.append(_("alt-hand-wait", locale))
    return fit(" ".join(parts))


def table_alt(view: Any, names: list[str], table: str, locale: str, *, contract: str) -> str:
    """The table: who sits where, the score, the contract, the cards on the table."""
    seats = ", ".join(_("alt-seat", locale, seat=i + 1, name=name) for i, name in enumerate(names))
    parts = [
        _("alt-table", locale, table=table, seats=seats),
        _("score-line", locale, a=view.scores[0], b=view.scores[1]) + ".",
    ]
    if contract:
        parts.append(contract + ".")
    if view.trick:
        played = ", ".join(f"{names[s]}: {card_words(c, locale)}" for s, c in view.trick)
        parts.append(_("alt-trick", locale, cards=played))
    else:
        parts.append(_("alt-no-trick", locale))
    return fit(" ".join(parts))


def result_alt(deal: int, lines: list[str], locale: str) -> str:
    """A deal's result: what its text says, the picture's table in words."""
    return fit(" ".join([_("alt-result", locale, deal=deal), *lines]))


def standings_alt(name: str, text: str, locale: str) -> str:
    return fit(" ".join([_("alt-standings", locale, name=name), text]))


def replay_alt(match: str, deal: int, record: Any, names: list[str], locale: str) -> str:
    """A deal's replay: each trick's cards, in the order played, and its winner."""
    parts = [_("alt-replay", locale, match=match, deal=deal)]
    for number, trick in enumerate(played_tricks(record), 1):
        played = ", ".join(f"{names[s]}: {card_words(c, locale)}" for s, c in trick.cards)
        winner = names[trick.winner]
        parts.append(_("alt-replay-trick", locale, number=number, cards=played, winner=winner))
    return fit(" ".join(parts))
