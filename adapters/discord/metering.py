"""Discord's side of the operator's metrics: API errors and rate-limit waits.

discord.py sends every REST call and every interaction answer through one aiohttp
session; a trace on it sees each answer once, whatever code made the call.
"""

from __future__ import annotations

import aiohttp

from bot.ops import metrics


def metered() -> aiohttp.TraceConfig:
    """Counts, at the HTTP layer where every REST call and interaction answer passes once,
    Discord's errors and the 429s that make discord.py wait (``Retry-After`` seconds)."""

    async def on_end(_session: object, _ctx: object, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        if status == 429:
            wait = params.response.headers.get("Retry-After") or 0
            metrics.rate_limited("discord", float(wait))
        elif status >= 400:
            metrics.api_error("discord", status)

    async def on_exception(
        _session: object, _ctx: object, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        metrics.api_error("discord", type(params.exception).__name__)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace
