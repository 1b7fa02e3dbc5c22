"""The platform-neutral types every adapter speaks (see docs/bot-api.md).

The core says *what* to post *where* (a channel, or one user privately) with text, an
optional picture and the buttons offered; each adapter maps that to its own widgets and
maps clicks and commands back to :meth:`bot.app.BeloteApp.command` / ``press``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class User:
    """Someone typing or clicking; ``id`` is platform-scoped (``"console:alice"``)."""

    id: str
    name: str
    is_admin: bool = False  # the platform's own admin right there (Manage Server, group admin)
    locale: str = "en"
    #: the platform's role ids the user holds there (Discord): a server may name roles
    #: whose members change its settings (``bot.community``)
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Channel:
    """Where a table lives; ``id`` is platform-scoped (``"discord:guild/channel"``).

    ``parent``: the id of the channel this one belongs to, when the platform says so (a
    Discord thread's or forum post's channel, the forum): the place's settings are its
    parent's, then its own over them. It is a fact of the moment, not part of the place's
    identity (two channels with the same id are the same place, whatever parent each was
    given), so it is left out of comparisons."""

    id: str
    parent: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Button:
    """One choice offered; ``action`` is opaque to adapters and comes back to ``press``."""

    label: str
    action: str
    enabled: bool = True
    style: str = "secondary"  # "primary" | "secondary" | "success" | "danger"
    #: a link button: it opens this address (the web table) instead of coming back as a
    #: press; ``action`` is then unused
    url: str | None = None


Buttons = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True)
class Post:
    """A message to show; the same ``key`` means: edit the earlier message in place."""

    channel: Channel
    key: str
    text: str
    image: bytes | None = None
    image_name: str = "table.png"
    buttons: Buttons = ()
    to_user: str | None = None  # a User.id: private to that user; None: public
    #: what ``image`` shows, in words, in its reader's language (bot.show.alt): the
    #: attachment description a screen reader reads (Discord); "" without a picture
    image_alt: str = ""
    # ``text`` line by line, each with its kind (``"trick-won"``, ``"turn"``... see
    # bot.show.texts.table_lines), for a platform that cannot edit a message (the terminal)
    # and chooses which lines to print again; chat adapters ignore it.
    lines: tuple[tuple[str, str], ...] = ()
    # The moment a picture shows, ``m3-deal02-045`` (match, deal, log position), so that
    # a platform keeping pictures as files can name them; "" when not about a match.
    moment: str = ""
    # The order in which the core made its posts (it makes a table's posts under the
    # table's lock): of two versions of one key, the higher is the newer, however they
    # reach the adapter (delivered, or in an answer). 0: not stamped.
    version: int = 0


@dataclass(frozen=True)
class Reply:
    """An answer for the acting user only (ephemeral on Discord, a notice on Telegram).

    ``ok`` is False when the input was refused (bad card, stale button...): adapters may
    show it as an alert. Nothing changed in that case. ``key``: the post key this reply
    shows, when it is one (``/hand`` and "Show my hand" give the player's ``hand:`` key),
    so an adapter knows exactly which later posts edit it. ``file``: a document sent with
    the answer, named ``file_name`` (``/verify`` attaches the match transcript, so a player
    can check it on their own device).
    """

    text: str
    ok: bool = True
    image: bytes | None = None
    image_name: str = "hand.png"
    buttons: Buttons = ()
    key: str | None = None
    image_alt: str = ""  # what ``image`` shows, in words (see Post.image_alt)
    file: bytes | None = None
    file_name: str = "transcript.json"
    # A private post the input made for the acting user (their new hand after their card,
    # a notice): it comes back in the answer to their input, never through ``deliver``.
    # An adapter shows it as it shows that post key (editing the message that shows it),
    # comparing ``post.version`` with what it delivered meanwhile. None for a plain answer.
    post: Post | None = None
    #: a refusal's message id (``err-double-press``), for a client that acts on it
    reason: str = ""

    @classmethod
    def showing(cls, post: Post) -> Reply:
        """The answer that carries ``post``, a private post of the acting user."""
        return cls(
            post.text,
            image=post.image,
            image_name=post.image_name,
            buttons=post.buttons,
            key=post.key,
            image_alt=post.image_alt,
            post=post,
        )


@dataclass(frozen=True)
class TableChoice:
    """A table a user may name (``tid``), as an autocomplete shows it."""

    tid: str
    ruleset: str
    status: str
    free: int  # seats free
    seated: bool  # the user sits there


@dataclass(frozen=True)
class Choices:
    """What a user may pick in a channel now (``BeloteApp.choices``): the tables there
    (their own first), and at the table where it is their move, the cards they may play
    (``TD``) and the bids they may make (``/bid`` words: ``pass``, ``hearts``...)."""

    tables: tuple[TableChoice, ...] = ()
    cards: tuple[str, ...] = ()
    bids: tuple[str, ...] = ()


class Platform(Protocol):
    """What the core needs from an adapter: deliver a post (new, or an edit by key), and
    say which channels this process serves (its shards; a platform's own channels only,
    when several platforms share one database)."""

    async def deliver(self, post: Post) -> None: ...

    def serves(self, channel_id: str) -> bool: ...


class NullPlatform:
    """Drops every post: for benchmarks and headless runs."""

    async def deliver(self, post: Post) -> None:
        return None

    def serves(self, channel_id: str) -> bool:
        return True


class RecordingPlatform:
    """Keeps every post in order: for tests, and for the console adapter's base."""

    def __init__(self) -> None:
        self.posts: list[Post] = []

    async def deliver(self, post: Post) -> None:
        self.posts.append(post)

    def serves(self, channel_id: str) -> bool:
        return True
