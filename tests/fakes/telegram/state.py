"""What the fake Bot API server knows: users, chats, topics, messages and every call.

Kept apart from the HTTP layer so that tests can look at the world the bot built
(the current text, picture and keyboard of each message, and each earlier version)
without parsing requests again.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any


class ApiError(Exception):
    """A Bot API failure, answered as Telegram does: ``{"ok": false, ...}``."""

    def __init__(
        self,
        code: int,
        description: str,
        retry_after: int | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.parameters = dict(parameters or {})
        if retry_after is not None:
            self.parameters["retry_after"] = retry_after

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str) -> ApiError:
    return ApiError(400, f"Bad Request: {text}")


def forbidden(text: str) -> ApiError:
    return ApiError(403, f"Forbidden: {text}")


@dataclass
class FakeUser:
    """A Telegram account that the test drives."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False
    started_bot: bool = False  # has opened the private chat with the bot
    blocked_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "is_bot": self.is_bot,
            "first_name": self.first_name,
        }
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    id: int
    type: str  # "private" | "group" | "supergroup"
    title: str | None = None
    is_forum: bool = False
    user: FakeUser | None = None  # the other side of a private chat
    topics: dict[int, str] = field(default_factory=dict)
    admins: set[int] = field(default_factory=set)
    creator: int | None = None
    migrated_to: int | None = None  # a basic group upgraded to a supergroup

    def to_api(self) -> dict[str, Any]:
        if self.type == "private" and self.user is not None:
            data = {"id": self.id, "type": "private", "first_name": self.user.first_name}
            if self.user.username:
                data["username"] = self.user.username
            return data
        data = {"id": self.id, "type": self.type, "title": self.title or ""}
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass
class Photo:
    """An uploaded picture: the bytes stay on the server, the bot sees a file_id."""

    file_id: str
    file_unique_id: str
    data: bytes
    width: int
    height: int

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def to_api(self) -> list[dict[str, Any]]:
        return [
            {
                "file_id": self.file_id,
                "file_unique_id": self.file_unique_id,
                "width": self.width,
                "height": self.height,
                "file_size": len(self.data),
            }
        ]


@dataclass
class Document:
    """An uploaded file (``sendDocument``): the bot sees a file_id, the chat its name."""

    file_id: str
    file_unique_id: str
    file_name: str
    data: bytes

    def to_api(self) -> dict[str, Any]:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.file_name,
            "file_size": len(self.data),
        }


@dataclass
class Version:
    """One state of a message: what it showed after a send or an edit."""

    text: str | None
    caption: str | None
    photo: Photo | None
    reply_markup: dict[str, Any] | None


@dataclass
class FakeMessage:
    chat: FakeChat
    message_id: int
    date: int
    sender: FakeUser
    thread_id: int | None = None
    text: str | None = None
    entities: list[dict[str, Any]] | None = None
    caption: str | None = None
    photo: Photo | None = None
    document: Document | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    history: list[Version] = field(default_factory=list)

    @property
    def version(self) -> int:
        """How many times the message changed since it was sent (0 = as sent)."""
        return len(self.history) - 1

    @property
    def shown_text(self) -> str:
        return self.text if self.text is not None else (self.caption or "")

    def snapshot(self) -> None:
        self.history.append(Version(self.text, self.caption, self.photo, self.reply_markup))

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button, row after row."""
        return buttons_of(self.reply_markup)

    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons() if "callback_data" in b]

    def button(self, label_part: str) -> dict[str, Any]:
        """The first button whose label contains ``label_part`` (case-insensitive)."""
        for b in self.buttons():
            if label_part.lower() in b["text"].lower():
                return b
        labels = [b["text"] for b in self.buttons()]
        raise LookupError(f"no button like {label_part!r} in {labels}")

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_api(),
            "from": self.sender.to_api(),
        }
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            if self.chat.is_forum:
                data["is_topic_message"] = True
        if self.text is not None:
            data["text"] = self.text
        if self.entities:
            data["entities"] = self.entities
        if self.photo is not None:
            data["photo"] = self.photo.to_api()
        if self.document is not None:
            data["document"] = self.document.to_api()
        if self.caption is not None:
            data["caption"] = self.caption
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        return data


def buttons_of(markup: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not markup:
        return []
    return [b for row in markup.get("inline_keyboard", []) for b in row]


@dataclass
class Call:
    """One request the bot made, and what the fake answered."""

    seq: int
    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, int]]  # part name -> (file name, size in bytes)
    body_size: int
    status: int = 200
    result: Any = None
    description: str | None = None
    decided: bool = False  # the answer is made (``answer_late``: it may not be out yet)
    at: float = 0.0  # time.monotonic() when it arrived

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass
class CallbackQuery:
    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answered: dict[str, Any] | None = None


class Counter:
    """Monotonic ids, shared by everything that needs one."""

    def __init__(self, start: int = 1) -> None:
        self._it = itertools.count(start)

    def __call__(self) -> int:
        return next(self._it)
