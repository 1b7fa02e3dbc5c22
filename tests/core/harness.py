"""A BeloteApp in fake time with a recording platform: whole matches in milliseconds."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import BeloteApp, Settings
from bot.ops.clock import FakeClock, SeededRandomness
from bot.ops.scheduler import FakeScheduler
from bot.platform import Channel, Post, RecordingPlatform, Reply, User
from bot.play.turns import Think
from bot.show.texts import action_command
from bot.store import Store, open_store

CHANNEL = Channel("test:room")
OTHER_CHANNEL = Channel("test:elsewhere")


def user(name: str, admin: bool = False) -> User:
    return User(id=f"test:{name}", name=name, is_admin=admin)


@dataclass
class Harness:
    app: BeloteApp
    store: Store
    clock: FakeClock
    scheduler: FakeScheduler
    platform: RecordingPlatform
    path: Path | str  # a SQLite file or a PostgreSQL URL
    replies: list[tuple[str, Reply]] = field(default_factory=list)
    answers: list[list[Reply]] = field(default_factory=list)  # each input's whole answer

    async def cmd(self, who: str | User, text: str, channel: Channel = CHANNEL) -> list[Reply]:
        u = who if isinstance(who, User) else user(who)
        return self._shown(u, await self.app.command(u, channel, text))

    async def press(self, who: str | User, action: str, channel: Channel = CHANNEL) -> list[Reply]:
        u = who if isinstance(who, User) else user(who)
        return self._shown(u, await self.app.press(u, channel, action))

    def _shown(self, u: User, out: list[Reply]) -> list[Reply]:
        """As an adapter does with an answer: the player's own new posts in it (their
        hand) are shown as those posts, so ``posts()`` sees every version a player saw;
        the rest is returned (``answers`` keeps the whole answer)."""
        self.answers.append(out)
        self.platform.posts += [r.post for r in out if r.post is not None]
        said = [r for r in out if r.post is None]
        self.replies += [(u.name, r) for r in said]
        return said

    async def advance(self, seconds: float = 0.0) -> None:
        await self.scheduler.advance(seconds)

    def table(self, tid: int = 1):
        return self.app.tables[tid]

    async def until_turn(self, seat: int, tid: int = 1, max_seconds: int = 300) -> None:
        """Let the bots play (a second at a time) until ``seat`` is to move."""
        for _ in range(max_seconds):
            if self.table(tid).run.to_move == seat:
                return
            await self.advance(1)
        raise AssertionError(f"seat {seat} never came to move")

    def posts(self, key_prefix: str = "", to_user: str | None = None) -> list[Post]:
        return [
            p
            for p in self.platform.posts
            if p.key.startswith(key_prefix) and (to_user is None or p.to_user == to_user)
        ]

    def last(self, key: str) -> Post:
        return [p for p in self.platform.posts if p.key == key][-1]

    async def play_human_turns(self, names: dict[int, str], max_steps: int = 5000) -> None:
        """Play every human seat's first legal action by command until the match ends."""
        t = self.table()
        for _ in range(max_steps):
            run = t.run
            if run is None or run.over:
                return
            mover = run.to_move
            if mover is not None and mover in names and not run.is_auto(mover):
                legal = run.match.legal_actions(mover)
                plain = [a for a in legal if not a.belote] or legal
                replies = await self.cmd(names[mover], action_command(plain[0]))
                assert all(r.ok for r in replies), replies
            else:
                await self.advance(1.0)
        raise AssertionError("the match did not end")


async def make_harness(
    path: Path | str,
    *,
    start: float = 1_800_000_000.0,
    drand: Any = None,
    owner: str = "harness",
    lease_seconds: float = 10.0,
    think: Think | None = None,
    store_options: dict[str, Any] | None = None,
    **settings: Any,
) -> Harness:
    """``store_options``: more for :func:`open_store` (``busy_timeout``, ``busy_wait``)."""
    clock = FakeClock(start)
    scheduler = FakeScheduler(clock)
    platform = RecordingPlatform()
    # one name across restarts: the same process restarted takes its tables back at once
    store = await open_store(
        path, owner=owner, lease_seconds=lease_seconds, **(store_options or {})
    )
    opts = {"drand": drand is not None, "render_images": False, "bot_delay": 1.0}
    opts.update(settings)
    app = BeloteApp(
        store,
        platform,
        clock=clock,
        drand=drand,
        settings=Settings(**opts),
        scheduler=scheduler,
        randomness=SeededRandomness(b"harness"),
        think=think,
    )
    await app.start()
    return Harness(app, store, clock, scheduler, platform, path)


async def table_with_bots(h: Harness, host: str = "alice", *create_args: str) -> None:
    args = " ".join(create_args)
    assert (await h.cmd(host, f"/table create {args}".strip()))[0].ok
    for _ in range(3):
        assert (await h.cmd(host, "/addbot"))[0].ok
