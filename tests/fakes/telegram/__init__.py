"""A local fake of the Telegram Bot API for end-to-end tests of the Telegram adapter."""

from .server import FakeTelegram
from .state import ApiError, Call, FakeChat, FakeMessage, FakeUser

__all__ = ["ApiError", "Call", "FakeChat", "FakeMessage", "FakeTelegram", "FakeUser"]
