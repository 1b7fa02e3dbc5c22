"""Secrets registered with bot.ops.redact never reach a log handler's output."""

import io
import logging

from bot.ops import redact


def _logger() -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    logger = logging.getLogger("test.redact")
    logger.handlers[:] = [handler]
    logger.propagate = False
    redact.install(logger)
    return logger, out


def test_a_registered_seed_is_masked_in_message_args_and_traceback() -> None:
    seed = bytes(range(32))
    logger, out = _logger()
    redact.register(seed)
    try:
        try:
            raise ValueError(f"bad seed {seed.hex()}")
        except ValueError:
            logger.exception("while handling %s", seed.hex().upper())
    finally:
        redact.forget(seed)
    text = out.getvalue()
    assert seed.hex() not in text and seed.hex().upper() not in text
    assert text.count(redact.MASK) >= 2
    assert "ValueError" in text  # the traceback is still there


def test_a_forgotten_secret_is_shown_again() -> None:
    logger, out = _logger()
    redact.register("sekret-token-123")
    redact.forget("sekret-token-123")
    logger.warning("token %s", "sekret-token-123")
    assert "sekret-token-123" in out.getvalue()
