"""Typed errors of the engine.

Every error is a ``ValueError`` so that callers that only want "bad input" can catch one
thing, and every message is short and friendly enough to show a player as is.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidCard(EngineError):
    """A card text that is not one of the 32 cards (`7C` .. `AS`)."""


class InvalidSeed(EngineError):
    """Malformed deal-recipe input. The message never holds the server seed."""


class UnknownRuleset(EngineError):
    """A ruleset name the engine does not host."""


class IllegalAction(EngineError):
    """An action the rules do not allow now (wrong card, bid too low, ...).

    ``reason``, when the rules name one, says which rule in a word a caller can look up
    in its own language: ``follow-H`` (follow suit: a heart), ``beat-H`` (beat the
    highest heart), ``trump-H`` (trump: hearts are trump), ``overtrump``."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class NotYourTurn(EngineError):
    """An action from a seat that is not the one to move."""


class MatchOver(EngineError):
    """An action sent after the match has ended."""
