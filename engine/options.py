"""A table's rules: its ruleset and the options a table may set within it.

One typed value says everything the engine needs beyond the deck to play and score a
match, so the same value is what a host picks, what a server's settings bound, what a
match's log and transcript record, and what ``belote verify`` replays. An option is one
declaration here (a field with its :func:`option` metadata); every front end, the settings
and the transcript read the declarations rather than naming the options again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.errors import EngineError
from engine.rulesets import RULESETS, Ruleset, get_ruleset

#: The targets a table may set: the smallest and the largest.
TARGET_RANGE = (1, 100_000)


def option(rulesets: tuple[str, ...], doc: str) -> Any:
    """Declare a yes/no option of the rulesets named, off by default."""
    return field(default=False, metadata={"rulesets": rulesets, "doc": doc})


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: its name, the rulesets that know it, what it changes."""

    name: str
    rulesets: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class TableRules:
    """The ruleset, the match target (``None``: the ruleset's own) and the options.

    Built only valid: an unknown ruleset, a target out of range or an option the ruleset
    does not know raises :class:`~engine.errors.EngineError` with a message that says what
    is accepted, and nothing is built."""

    ruleset: str = "club"
    target: int | None = None
    no_trump: bool = option(("coinche",), "No Trump may be bid (its own card order and total)")
    all_trump: bool = option(("coinche",), "All Trump may be bid (its own card order and total)")
    generale: bool = option(("coinche",), "générale may be bid: one player takes every trick")
    bid_only: bool = option(
        ("coinche",), "a contract made scores the bid only, not the bid plus the card points"
    )

    def __post_init__(self) -> None:
        name = self.ruleset.strip().lower() if isinstance(self.ruleset, str) else self.ruleset
        get_ruleset(name)  # raises UnknownRuleset, saying which exist
        object.__setattr__(self, "ruleset", name)
        t = self.target
        low, high = TARGET_RANGE
        if t is not None and (type(t) is not int or not low <= t <= high):
            raise EngineError(f"The target must be a whole number from {low} to {high}.")
        for spec in OPTIONS:
            value = getattr(self, spec.name)
            if type(value) is not bool:
                raise EngineError(f"The option {spec.name} is yes or no.")
            if value and name not in spec.rulesets:
                raise EngineError(
                    f"The option {spec.name} is for {', '.join(spec.rulesets)} tables only."
                )

    @property
    def rules(self) -> Ruleset:
        return RULESETS[self.ruleset]

    @property
    def match_target(self) -> int:
        """The score that ends the match."""
        return self.target if self.target is not None else self.rules.target

    @property
    def options(self) -> dict[str, bool]:
        """The options set (those not at their default), by name."""
        return {s.name: True for s in OPTIONS if getattr(self, s.name)}

    def with_changes(self, **changes: Any) -> TableRules:
        """A copy with ``changes``; validated whole, as a new value is."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """``{"ruleset", "target", "options"}``: what a log and a transcript record."""
        return {"ruleset": self.ruleset, "target": self.target, "options": self.options}

    @classmethod
    def from_dict(cls, data: Any) -> TableRules:
        """From :meth:`to_dict`'s shape (``options`` may be missing: none set)."""
        if not isinstance(data, dict):
            raise EngineError("A table's rules are a JSON object.")
        opts = data.get("options") or {}
        if not isinstance(opts, dict):
            raise EngineError("A table's options are a JSON object of names to true/false.")
        unknown = sorted(set(opts) - OPTION_NAMES)
        if unknown:
            raise EngineError(
                f"Unknown option {str(unknown[0])[:20]!r}: the options are "
                f"{', '.join(sorted(OPTION_NAMES))}."
            )
        try:
            return cls(ruleset=data["ruleset"], target=data.get("target"), **opts)
        except KeyError:
            raise EngineError("A table's rules name their ruleset.") from None
        except TypeError:
            raise EngineError("A table's rules do not have the right shape.") from None


def _declared() -> tuple[OptionSpec, ...]:
    return tuple(
        OptionSpec(f.name, f.metadata["rulesets"], f.metadata["doc"])
        for f in fields(TableRules)
        if "rulesets" in f.metadata
    )


#: Every option, in declaration order.
OPTIONS: tuple[OptionSpec, ...] = _declared()
OPTION_NAMES: frozenset[str] = frozenset(s.name for s in OPTIONS)


def options_of(ruleset: str) -> tuple[OptionSpec, ...]:
    """The options a ruleset's tables may set."""
    name = get_ruleset(ruleset).name
    return tuple(s for s in OPTIONS if name in s.rulesets)
