"""What the Discord adapter reports to the operator, as real discord.py meets the fake:
its connection, Discord's 429s (waits) and errors."""

from __future__ import annotations

from bot.ops import metrics
from tests.discord.conftest import World
from tests.ops.samples import sample


async def test_connection_rate_limits_and_errors_are_counted(world: World) -> None:
    fake, alice, channel = world.fake, world.alice, world.channel
    await world.start_bot()
    assert metrics.connections()["discord"] is True
    assert sample("belote_platform_connected", platform="discord") == 1

    waits = sample("belote_platform_rate_limit_waits_total", platform="discord")
    waited = sample("belote_platform_rate_limit_wait_seconds_total", platform="discord")
    errors = sample("belote_platform_api_errors_total", platform="discord", status="403")
    # the table message meets a 429 (discord.py waits and sends it again)
    fake.fail_next("POST", r"/channels/\d+/messages", status=429, retry_after=0.2)
    created = await fake.slash(alice, channel, "table", {}, subcommand="create")
    await created.response()
    await fake.wait_for(lambda: world.table_messages())
    assert sample("belote_platform_rate_limit_waits_total", platform="discord") == waits + 1
    assert (
        sample("belote_platform_rate_limit_wait_seconds_total", platform="discord") >= waited + 0.2
    )

    # then its edit is refused: Missing Permissions
    fake.fail_next("PATCH", r"/channels/\d+/messages/\d+", status=403, code=50013, times=5)
    await (await fake.slash(alice, channel, "table", {}, subcommand="addbot")).response()
    await fake.wait_for(
        lambda: (
            sample("belote_platform_api_errors_total", platform="discord", status="403") > errors
        )
    )

    await world.stop_bot()
    assert metrics.connections()["discord"] is False
