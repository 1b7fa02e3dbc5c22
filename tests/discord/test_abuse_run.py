"""An abuse run on Discord: random slash commands and forged buttons, through discord.py.

Alice (the host) and Bob play with two bots in #belote; Eve is an outsider and Mod has
Manage Server. A seeded generator then runs the commands the bot registered, with random
options of the right types (any unicode in strings, any integer in range, any choice),
and clicks buttons with forged custom ids, stale ones from earlier messages, and other
people's hand buttons. After every interaction:

- it was answered within Discord's 3 s (the fake refuses a later callback: 10062), and a
  deferred answer was completed;
- no error was logged;
- a refusal (the core's ``Reply.ok`` False) changed no row of the database and nothing in
  the tables in memory;
- no public message shows a card still hidden in a seated player's hand, and until the
  reveal none shows the server seed.

CI runs ``BELOTE_FUZZ_LINES`` (default 200) interactions; ``BELOTE_FUZZ_EXAMPLES=5000``
runs that many. ``BELOTE_FUZZ_SEED`` picks another run.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tests.chat_abuse import (
    ENDING,
    SEED,
    Recorder,
    changes,
    hidden_cards,
    leaked_cards,
    lines,
    random_text,
    settle_core,
    snapshot_rows,
)
from tests.core.test_fuzz_inputs import INTERNAL, WORDS, errors_logged
from tests.discord.conftest import World
from tests.fakes.discord import EPHEMERAL, FakeUser

LINES = lines(ci=200)
SUBCOMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
LOADING = 1 << 7
ENDS = {("table", "close"), ("table", "leave"), ("table", "kick"), ("close", None)}


def option_value(rng: random.Random, option: dict[str, Any]) -> Any:
    """A value Discord's client would send for this option: of its type, in its range,
    one of its choices (Discord checks these before the bot sees them)."""
    if option.get("choices"):
        return rng.choice(option["choices"])["value"]
    if option["type"] == INTEGER:
        low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        return rng.choice([low, high, rng.randint(low, high), min(max(0, low), high)])
    if option["type"] == BOOLEAN:
        return rng.random() < 0.5
    low, high = option.get("min_length", 1), option.get("max_length", 6000)
    text = rng.choice(WORDS) if rng.random() < 0.6 else random_text(rng, high)
    text = (text or "x")[:high]
    return text if len(text) >= low else text + "x" * (low - len(text))


def random_command(
    rng: random.Random, commands: list[dict[str, Any]], trusted: bool
) -> tuple[str, str | None, dict[str, Any]]:
    while True:
        command = rng.choice(commands)
        schema = command.get("options", [])
        sub = None
        subs = [o for o in schema if o["type"] == SUBCOMMAND]
        if subs:
            chosen = rng.choice(subs)
            sub, schema = chosen["name"], chosen.get("options", [])
        if trusted and (command["name"], sub) in ENDS:
            continue
        options = {
            o["name"]: option_value(rng, o)
            for o in schema
            if o.get("required") or rng.random() < 0.5
        }
        return command["name"], sub, options


class Run:
    def __init__(self, world: World, db: Path) -> None:
        assert world.bot is not None
        self.world, self.fake, self.db = world, world.fake, db
        self.adapter = world.bot.adapter
        self.core = self.adapter.app
        self.recorder = Recorder(self.core)
        self.adapter.app = self.recorder
        self.versions: dict[str, int] = {}
        self.pool: set[str] = set()
        self.seed = ""
        self.revealed = False
        self.refused = 0
        self.look()

    def look(self) -> None:
        """Every custom id shown so far joins the pool (they stay there when stale)."""
        for meta in self.fake.meta.values():
            for version in meta.versions:
                for row in version.get("components") or []:
                    for b in row.get("components", []):
                        if b.get("custom_id"):
                            self.pool.add(b["custom_id"])

    async def snapshot(self) -> Any:
        await settle_core(self.core)
        return snapshot_rows(self.core, self.db)

    async def look_after(self, hidden: tuple[int, set[str]] | None, typed: str) -> None:
        """The bots move; then the public messages are checked. The channel's lane shows
        posts at Discord's pace, so when a deal ended meanwhile, every post queued is shown
        first and checked for the seed only: the old deal's played cards are in the new
        hands."""
        await self.world.bots_play()  # the private lanes shown; the channel's at its pace
        now = hidden_cards(self.core, {0, 1})
        if hidden is not None and (now is None or now[0] != hidden[0]):
            await self.world.settle()
            hidden = None
        self.check_public(hidden, typed)
        self.look()

    def check_public(self, hidden: tuple[int, set[str]] | None, typed: str) -> None:
        """Every version of a public message made since the last look: no hidden card (of
        the deal it was made in), no server seed before the reveal."""
        now = hidden_cards(self.core, {0, 1})
        for mid, meta in self.fake.meta.items():
            seen = self.versions.get(mid, 0)
            self.versions[mid] = len(meta.versions)
            message = self.fake.messages.get(mid)
            if message is None or message["flags"] & EPHEMERAL:
                continue
            for version in meta.versions[seen:]:
                body = str(version.get("content") or "")
                body += " ".join(str(e.get("description") or "") for e in version.get("embeds", []))
                if "server seed was" in body:
                    self.revealed = True
                if not self.revealed:
                    assert self.seed not in body.lower(), ("the seed shown", body[:300])
                leaked = leaked_cards(body, hidden, now, typed)
                assert not leaked, ("hidden cards in public", sorted(leaked), body[:300])

    async def answered(self, interaction: Any, what: str) -> None:
        try:
            kind = await interaction.response(timeout=10)
        except TimeoutError:
            raise AssertionError(f"{what}: not answered within 3 s") from None
        if kind == 5:  # deferred: the answer must follow
            original = interaction.original_id

            def done() -> bool:
                message = self.fake.messages.get(original)
                if interaction.followup_ids:
                    return True
                return message is not None and not message["flags"] & LOADING

            try:
                await self.fake.wait_for(done, timeout=15)
            except TimeoutError:
                raise AssertionError(f"{what}: deferred, never answered") from None
        for _ in range(500):  # the core's call may end after the acknowledgement
            if self.recorder.running == 0 and not self.adapter._handling:
                break
            await asyncio.sleep(0.02)

    async def step(self, rng: random.Random, people: list[tuple[FakeUser, bool]]) -> None:
        who, trusted = rng.choice(people)
        channel = self.world.channel
        before = await self.snapshot()
        hidden = hidden_cards(self.core, {0, 1})
        self.recorder.clear()
        if rng.random() < 0.5:
            commands = self.fake._commands_for(channel.guild_id)
            name, sub, options = random_command(rng, commands, trusted)
            what = f"/{name} {sub or ''} {options!r}"[:200]
            interaction = await self.fake.slash(who, channel, name, options, subcommand=sub)
            typed = " ".join(str(v) for v in options.values())
        else:
            shown = [
                m["id"]
                for m in self.fake.channel_messages(channel)
                if self.fake.buttons(m["id"])
                and self.fake.meta[m["id"]].visible_to in (None, who.id)
            ]
            typed = rng.choice(sorted(self.pool)) if rng.random() < 0.7 else random_text(rng, 100)
            while trusted and ENDING.search(typed):
                typed = random_text(rng, 100)
            typed = typed or "x"
            what = f"click {typed[:100]!r}"
            interaction = await self.fake.click(who, rng.choice(shown), typed, force=True)
        await self.answered(interaction, f"{what} by {who.username}")
        replies = list(self.recorder.replies)
        assert all(r.text != INTERNAL for r in replies), what
        if any(not r.ok for r in replies):
            self.refused += 1
            after = await self.snapshot()
            said = [r.text[:80] for r in replies]
            assert after == before, (f"refused {what}", said, changes(before, after))
        await self.look_after(hidden, typed)

    async def play_on(self, players: list[FakeUser]) -> bool:
        """The seated person to move presses their hand's first enabled button."""
        table = self.core.tables.get(1)
        match = getattr(getattr(table, "run", None), "match", None)
        if match is None or match.to_move not in (0, 1):
            return False
        player = players[match.to_move]
        hand = self.world.live_hand(player)
        if hand is None:
            return False
        buttons = [b for b in self.fake.buttons(hand["id"]) if not b.get("disabled")]
        hidden = hidden_cards(self.core, {0, 1})
        interaction = await self.fake.click(player, hand["id"], buttons[0]["custom_id"])
        await self.answered(interaction, f"{player.username} plays")
        await self.look_after(hidden, "")
        return True


async def test_random_commands_and_clicks_on_discord(world: World) -> None:
    fake, alice, bob, channel = world.fake, world.alice, world.bob, world.channel
    eve = fake.add_user("eve")
    await world.start_bot()
    created = await fake.slash(
        alice, channel, "table", {"window": 0, "timer": 3600}, subcommand="create"
    )
    await created.response()
    await (await fake.slash(bob, channel, "table", {}, subcommand="join")).response()
    for _ in range(2):
        await (await fake.slash(alice, channel, "table", {}, subcommand="addbot")).response()
    await world.settle()
    table_id = world.table_messages()[0]["id"]
    start = next(b for b in fake.buttons(table_id) if b["custom_id"].endswith(":start"))
    await (await fake.click(alice, table_id, start["custom_id"])).response()
    await world.bots_play()
    for player in (alice, bob):  # each asks for their hand (an ephemeral message)
        await (await fake.slash(player, channel, "hand", {})).response()
    await fake.wait_for(lambda: world.live_hand(alice) or world.live_hand(bob))

    db = world.tmp / "belote.sqlite"
    run = Run(world, db)
    table = run.core.tables[1]
    [first] = (await run.core.store.log(table.run.id))[:1]
    run.seed = first.data["server_seed"].lower()
    assert len(run.seed) == 64 and run.pool
    people = [(alice, True), (bob, True), (eve, False), (world.mod, True)]
    rng = random.Random(SEED)
    with errors_logged() as errors:
        for n in range(LINES):
            if rng.random() < 0.25 and await run.play_on([alice, bob]):
                continue
            await run.step(rng, people)
            assert not errors.records, (n, [r.getMessage()[:500] for r in errors.records])
    assert run.refused > LINES // 4, run.refused
    assert 1 in run.core.tables
