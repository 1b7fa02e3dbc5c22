"""The declared settings: one declaration per setting, read by every front end.

A declaration says the setting's name, how a typed word becomes its value (the readers of
:mod:`bot.commands.parse`, so a bad value is refused with the one line that says what is
accepted), how a value is written back (the text stored and shown), its default (the
operator's, from :class:`Defaults`), a few typical values (a keyboard's buttons, an
autocomplete's list), whether a channel may set its own, and its label's message id.
Adding a setting is adding one entry to :data:`SETTINGS` (and its label in the catalogs);
the store keeps values as text and needs no migration. A table option of the engine
(:data:`engine.OPTIONS`) is a setting by itself: its default at the tables of the
rulesets that know it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.commands import parse
from bot.play.table import LEVELS
from bot.refused import Refused
from bot.show.i18n import LOCALE_DIR
from engine import OPTIONS, RULESETS

MAX_ROLES = 10  # role ids a server may name as its settings' admins
ON = frozenset({"on", "yes", "true", "1"})
OFF = frozenset({"off", "no", "false", "0"})


@dataclass(frozen=True)
class Defaults:
    """The operator's defaults (``belote run`` flags and environment): what a community
    gets for a setting it has not set."""

    ruleset: str = "club"
    timer: float = 60.0
    ai_level: str = "normal"
    max_tables: int = 20
    ladder_days: int = 7


@dataclass(frozen=True)
class Setting:
    """One declared setting (see the module's docstring)."""

    name: str
    read: Callable[[str], Any]
    write: Callable[[Any], str]
    default: Callable[[Defaults], Any]
    choices: Callable[[], tuple[str, ...]] = field(default=lambda: ())
    per_channel: bool = True
    label: str = ""  # a message id; "" -> "setting-<name>"
    #: an engine option's documentation, shown when the catalogs have no label for it
    doc: str = ""

    @property
    def label_id(self) -> str:
        return self.label or f"setting-{self.name.replace('_', '-')}"

    def shown(self, value: Any) -> str:
        return self.write(value)


# ------------------------------------------------------------------------------ readers


def onoff(name: str) -> Callable[[str], bool]:
    def read(word: str) -> bool:
        low = word.lower()
        if low in ON:
            return True
        if low in OFF:
            return False
        raise Refused("err-setting-onoff", name=name)

    return read


def _onoff_text(value: bool) -> str:
    return "on" if value else "off"


def whole(name: str, low: int, high: int) -> Callable[[str], int]:
    def read(word: str) -> int:
        return parse.whole(word, low, high, "err-setting-whole", name=name, low=low, high=high)

    return read


def _target(word: str) -> int | None:
    if word.lower() in ("default", "ruleset"):
        return None
    return parse.target(word)


def _timer_text(value: float) -> str:
    return "off" if not value else f"{value:g}"


def _levels(word: str) -> tuple[str, ...]:
    parts = [p for p in word.lower().replace(";", ",").split(",") if p]
    if not parts or len(parts) > len(LEVELS) * 2:
        raise Refused("err-setting-levels", levels=", ".join(LEVELS))
    chosen = set()
    for p in parts:
        if p not in LEVELS:
            raise Refused("err-setting-levels", levels=", ".join(LEVELS))
        chosen.add(p)
    return tuple(level for level in LEVELS if level in chosen)


def languages() -> tuple[str, ...]:
    """``auto`` (each person's own) and every language with a catalog."""
    found = sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())
    return ("auto", *found)


def _language(word: str) -> str:
    low = word.lower()
    if low not in languages():
        raise Refused("err-setting-language", languages=", ".join(languages()))
    return low


def _roles(word: str) -> tuple[str, ...]:
    """Role ids, as typed (``123``), as a mention (``<@&123>``), comma-separated; ``none``."""
    if word.lower() == "none":
        return ()
    out: list[str] = []
    for part in word.split(","):
        text = part.strip().removeprefix("<@&").removesuffix(">")
        n = parse.ascii_digits(text, 20)
        if n is None or len(out) >= MAX_ROLES:
            raise Refused("err-setting-roles", most=MAX_ROLES)
        if str(n) not in out:
            out.append(str(n))
    return tuple(out)


def _list_text(value: tuple[str, ...]) -> str:
    return ",".join(value) if value else "none"


# ------------------------------------------------------------------------------ the settings


def _option(spec: Any) -> Setting:
    return Setting(
        spec.name,
        onoff(spec.name),
        _onoff_text,
        lambda d: False,
        lambda: ("on", "off"),
        label=f"setting-option-{spec.name.replace('_', '-')}",
        doc=spec.doc,
    )


def _declared() -> tuple[Setting, ...]:
    fixed = (
        Setting("ruleset", parse.ruleset, str, lambda d: d.ruleset, lambda: tuple(RULESETS)),
        Setting(
            "target",
            _target,
            lambda v: "ruleset" if v is None else str(v),
            lambda d: None,
            lambda: ("ruleset", "500", "1000", "1500", "2000"),
        ),
        Setting(
            "timer",
            parse.table_timer,
            _timer_text,
            lambda d: d.timer,
            lambda: ("off", "15", "30", "60", "120"),
        ),
        Setting(
            "levels",
            _levels,
            ",".join,
            lambda d: LEVELS,
            lambda: (",".join(LEVELS), "easy,normal", "normal,hard,expert", *LEVELS),
        ),
        Setting("language", _language, str, lambda d: "auto", languages),
        Setting("tables", onoff("tables"), _onoff_text, lambda d: True, lambda: ("on", "off")),
        Setting(
            "max_tables",
            whole("max_tables", 1, 1000),
            str,
            lambda d: d.max_tables,
            lambda: ("1", "2", "5", "10", "20"),
        ),
        Setting(
            "spectators", onoff("spectators"), _onoff_text, lambda d: True, lambda: ("on", "off")
        ),
        Setting(
            "host_rules", onoff("host_rules"), _onoff_text, lambda d: True, lambda: ("on", "off")
        ),
    )
    late = (
        Setting(
            "admin_roles",
            _roles,
            _list_text,
            lambda d: (),
            lambda: ("none",),
            per_channel=False,
        ),
        Setting(
            "ladder_days",
            whole("ladder_days", 1, 365),
            str,
            lambda d: d.ladder_days,
            lambda: ("7", "14", "28", "90"),
            per_channel=False,
        ),
        Setting(
            "ladder_opens_in",
            whole("ladder_opens_in", 0, 24 * 90),
            str,
            lambda d: 0,
            lambda: ("0", "24", "72", "168"),
            per_channel=False,
        ),
    )
    return (*fixed, *(_option(spec) for spec in OPTIONS), *late)


#: Every setting, in the order the fronts show them.
SETTINGS: tuple[Setting, ...] = _declared()
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def setting(word: str) -> Setting:
    """The setting a typed name means (``max-tables`` and ``max_tables`` both), or the
    refusal that lists the names."""
    name = word.lower().replace("-", "_")
    found = BY_NAME.get(name)
    if found is None:
        raise Refused(
            "err-setting-unknown",
            name=parse.echo(word),
            names=", ".join(s.name for s in SETTINGS),
        )
    return found


def option_names(ruleset: str) -> list[str]:
    """The option settings that apply at ``ruleset``'s tables."""
    return [s.name for s in OPTIONS if ruleset in s.rulesets]
