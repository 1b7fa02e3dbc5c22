"""The core's posts and replies as Discord message parts: text, one file, rows of buttons.

Every button is an :class:`ActionButton`, a ``discord.ui.DynamicItem`` whose custom id is
``b:`` + the core's opaque action (which carries the table, a turn nonce and the choice).
The class is registered once at start (``Client.add_dynamic_items``), so a button keeps
working on any message, even one posted before the bot restarted: nothing is kept per
message in memory, and the core decides from its own stored state whether the press is
still good.

A button on a direct message reads ``b:@<place>:<action>``: the place (see
:func:`adapters.discord.ids.place_of`) names the table's channel, because a click in a DM
comes from the DM channel, not from the table's. At most 3 + 27 + 1 + 60 (+ ``#n``)
characters: within Discord's 100.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.platform import Button, Buttons


class _Presses(Protocol):
    async def on_press(
        self, interaction: discord.Interaction, action: str, *, place: str | None = None
    ) -> None: ...


class _Client(Protocol):
    """What a click needs of the bot's client (``adapters.discord.client``): its adapter."""

    @property
    def adapter(self) -> _Presses: ...


CUSTOM_ID_PREFIX = "b:"
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_LABEL = 80
MAX_CONTENT = 2000

STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"b:(?:@(?P<place>[0-9a-z_]+\.[0-9a-z]+):)?(?P<action>.+?)(?:#(?P<dup>\d+))?",
):
    """A button whose custom id carries the core's action (and, on a direct message, the
    table's place), valid across restarts."""

    def __init__(
        self,
        action: str,
        *,
        place: str | None = None,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:MAX_LABEL] or "?",
                style=style,
                disabled=disabled,
                row=row,
                custom_id=custom_id or custom_id_of(action, place),
            )
        )
        self.action = action
        self.place = place

    @classmethod
    def parse(cls, custom_id: str) -> tuple[str, str | None] | None:
        """(the core's action, the place or None) in one of our custom ids; None if the
        custom id is not ours."""
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        return (match["action"], match["place"]) if match else None

    @classmethod
    def action_of(cls, custom_id: str) -> str | None:
        """The core's action in one of our custom ids, or None if it is not ours."""
        parsed = cls.parse(custom_id)
        return parsed[0] if parsed else None

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(match["action"], place=match["place"], custom_id=item.custom_id)  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        client = cast(_Client, interaction.client)
        await client.adapter.on_press(interaction, self.action, place=self.place)


def custom_id_of(action: str, place: str | None = None) -> str:
    """``b:<action>``, or ``b:@<place>:<action>`` for a button on a direct message."""
    return f"{CUSTOM_ID_PREFIX}@{place}:{action}" if place else CUSTOM_ID_PREFIX + action


def layout(buttons: Buttons) -> list[list[Button]]:
    """The core's rows, fitted to Discord's limits (5 rows of 5): rows that are too long
    are re-flowed five by five; what does not fit in 25 buttons is dropped."""
    rows = [list(r) for r in buttons if r]
    if any(len(r) > MAX_PER_ROW for r in rows) or len(rows) > MAX_ROWS:
        flat = [b for r in rows for b in r][: MAX_ROWS * MAX_PER_ROW]
        rows = [flat[i : i + MAX_PER_ROW] for i in range(0, len(flat), MAX_PER_ROW)]
    return rows[:MAX_ROWS]


def build_view(buttons: Buttons, place: str | None = None) -> discord.ui.View | None:
    """A persistent view (no timeout) of :class:`ActionButton`s, or None for no buttons;
    ``place``: the table's, for a direct message (see the module docstring)."""
    rows = layout(buttons)
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        for button in row:
            if button.url:  # a link (the web table): Discord opens it, nothing comes back
                view.add_item(discord.ui.Button(label=button.label, url=button.url, row=index))
                continue
            custom_id = custom_id_of(button.action, place)
            count = seen.get(custom_id, 0)
            seen[custom_id] = count + 1
            if count:  # Discord refuses two equal custom ids on one message
                custom_id = f"{custom_id}#{count}"
            view.add_item(
                ActionButton(
                    button.action,
                    place=place,
                    label=button.label,
                    style=STYLES.get(button.style, discord.ButtonStyle.secondary),
                    disabled=not button.enabled,
                    row=index,
                    custom_id=custom_id,
                )
            )
    return view


@dataclass(frozen=True)
class OutgoingMessage:
    """One message's worth of what the core said, ready for any discord.py send/edit."""

    content: str
    image: bytes | None
    image_name: str
    buttons: Buttons
    place: str | None = None  # the table's place, when shown in a DM (see build_view)
    document: tuple[str, bytes] | None = None  # (name, bytes): a file sent with it
    #: the picture's attachment description (its alt text, read by screen readers)
    image_alt: str = ""

    @property
    def rich(self) -> bool:
        """A picture or buttons: a hand or a prompt, not a one-line answer."""
        return self.image is not None or bool(self.buttons)

    @property
    def asks(self) -> bool:
        """Does it ask its reader to act now: any button not disabled? The core puts
        enabled choices on a hand only when it is that player's move (and a "Back" on the
        hand of one the AI replaced), so this says "your move" without any game logic."""
        return any(button.enabled for row in self.buttons for button in row)

    def file(self) -> discord.File | None:
        if self.image is None:
            return None
        return discord.File(
            io.BytesIO(self.image),
            filename=self.image_name,
            description=self.image_alt[:ALT_MOST] or None,
        )

    def files(self) -> list[discord.File]:
        """The picture, then the document (``/verify``'s transcript), when there are."""
        files = [f] if (f := self.file()) is not None else []
        if self.document is not None:
            files.append(discord.File(io.BytesIO(self.document[1]), filename=self.document[0]))
        return files

    def send_kwargs(self) -> dict[str, Any]:
        """For ``send``/``send_message``/``followup.send`` (a new message)."""
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": NO_PINGS}
        files = self.files()
        if files:
            kwargs["files"] = files
        view = build_view(self.buttons, self.place)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``edit``/``edit_message``/``edit_original_response``: replaces everything
        (the old picture and buttons go when the new post has none)."""
        return {
            "content": self.content,
            "allowed_mentions": NO_PINGS,
            "attachments": self.files(),
            "view": build_view(self.buttons, self.place),
        }


def plain_text(text: str) -> str:
    """The core writes plain text; Discord reads markdown and mentions. Escaped, a name
    such as ``**Eve**``, ``@everyone`` or ``<@123456789012345678>`` (or a word a player
    typed, shown back in a refusal) reads as typed: no bold, no link, no ping (and
    every message also goes with no allowed mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


NO_PINGS = discord.AllowedMentions.none()
ALT_MOST = 1024  # Discord's limit on an attachment's description


def shown(
    text: str,
    image: bytes | None,
    image_name: str,
    buttons: Buttons,
    place: str | None = None,
    document: tuple[str, bytes] | None = None,
    *,
    alt: str = "",
) -> OutgoingMessage:
    """The core's post or answer as a message; ``alt``: what the picture shows, in words
    (sent as its attachment description, not escaped: Discord reads no markdown there)."""
    text = plain_text(text)
    content = text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"
    return OutgoingMessage(content, image, image_name, buttons, place, document, alt)
