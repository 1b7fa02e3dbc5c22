"""An abuse run on Telegram: random lines and forged presses, end to end through PTB.

A group has a match in progress: Alice (the host, a group administrator) and Bob are
seated with two bots, their hands in their private chats. Then a seeded generator sends
a few hundred random things as they would arrive from Telegram: typed lines in the group
and in private chats (known commands with tricky words, any unicode, very long lines),
and callback queries with forged data (up to Telegram's 64 bytes), real payloads taken
from every keyboard shown so far (other users' hand buttons included, stale ones too), by
the players, an outsider, and an administrator who is not seated. After every one:

- no error is logged (PTB's error handler logs the traceback at ERROR), no raw text;
- a typed command (a line starting with "/") is answered, a press gets its
  ``answerCallbackQuery`` (no silent line, no spinning button);
- a refusal (the core's ``Reply.ok`` False) changed no row of the database and nothing in
  the tables in memory;
- no group message shows a card still hidden in a seated player's hand, and until the
  reveal no message at all shows the server seed (the match log's first entry).

CI sends ``BELOTE_FUZZ_LINES`` (default 250) lines; ``BELOTE_FUZZ_EXAMPLES=5000`` sends
that many instead. ``BELOTE_FUZZ_SEED`` picks another run.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from adapters.telegram import TelegramAdapter
from adapters.telegram.commands import core_text
from tests.chat_abuse import (
    ENDING,
    ENDS_THE_MATCH,
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
from tests.core.test_fuzz_inputs import COMMANDS, INTERNAL, WORDS, errors_logged
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.telegram.test_match import command, hand_msg, playable

LINES = lines(ci=250)
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")
SENDS = ("sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageCaption")
# Who has written to the bot privately: a fact about Telegram (the bot may now write to
# them), recorded when they write, whatever the core answers.
OPENED_CHATS = ("telegram_users",)
# Which message shows which post; not what it shows (a table's "n s left" is the clock's).
COLUMNS = {"telegram_messages": "mkey, chat_id, message_id, kind"}


# ------------------------------------------------------------------------------ observing


async def snapshot(adapter: TelegramAdapter, db: Path) -> tuple[Any, ...]:
    """Every committed row, and the tables in memory (as tests/core/test_fuzz_inputs),
    once the bots due to move have moved (their moves are no one's refusal) and every
    post made so far is shown."""
    core = adapter.core
    for _ in range(400):
        await adapter.flush()
        await settle_core(core)
        if all(d.kind != "bot" for d in (await core.store.deadlines()).values()):
            break
        await asyncio.sleep(0.05)
    return snapshot_rows(core, db, skip=OPENED_CHATS, columns=COLUMNS)


def shown_text(params: dict[str, Any]) -> str:
    """The words a send or an edit shows (a picture's caption rides in its media)."""
    media = params.get("media")
    caption = media.get("caption") if isinstance(media, dict) else None
    return str(params.get("text") or params.get("caption") or caption or "")


# ------------------------------------------------------------------------------ the lines


def random_line(rng: random.Random, trusted: bool) -> str:
    if rng.random() < 0.2:
        line = random_text(rng)
        return line if line.strip() else "x"
    name = rng.choice(COMMANDS)
    while trusted and name in ENDS_THE_MATCH:
        name = rng.choice(COMMANDS)
    words = [rng.choice(WORDS) if rng.random() < 0.8 else random_text(rng, 10) for _ in range(4)]
    words = [w for w in words[: rng.randint(0, 4)] if "\n" not in w]
    suffix = rng.choice(["", "", "", "@belote_test_bot", "@other_bot", "@BELOTE_TEST_BOT"])
    first = rng.choice(["/", "/", "/", "", "//"]) + name.replace(" ", f"{suffix} ", 1)
    if " " not in name:
        first += suffix
    line = " ".join([first, *words]).strip()
    return line[:4096] or "/"


def random_data(rng: random.Random, pool: list[str], trusted: bool) -> str:
    data = _random_data(rng, pool)
    while trusted and ENDING.search(data):
        data = _random_data(rng, pool)
    return data


def _random_data(rng: random.Random, pool: list[str]) -> str:
    pick = rng.random()
    if pick < 0.5 and pool:
        return rng.choice(pool)
    if pick < 0.75 and pool:  # a real payload, one part changed
        parts = rng.choice(pool).split(":")
        parts[rng.randrange(len(parts))] = rng.choice([*WORDS, "0", "999", "t2", "-"])
        data = ":".join(parts)
    else:
        data = random_text(rng, 64)
    while len(data.encode()) > 64:  # Telegram carries at most 64 bytes
        data = data[:-1]
    return data or "x"


# ------------------------------------------------------------------------------ the run


class Run:
    def __init__(self, tg: FakeTelegram, adapter: TelegramAdapter, db: Path, group: FakeChat):
        self.tg, self.adapter, self.db, self.group = tg, adapter, db, group
        self.core = adapter.core
        self.recorder = Recorder(adapter.bridge.core)
        adapter.bridge.core = self.recorder
        self.seen_calls = len(tg.calls)
        self.seed: str | None = None
        self.revealed = False
        self.refused = 0
        self.deals: set[int] = set()

    def pool(self) -> list[str]:
        """Every callback payload any message ever showed (stale and private ones too)."""
        return sorted(
            {
                b["callback_data"]
                for m in self.tg.messages.values()
                for v in m.history
                for row in (v.reply_markup or {}).get("inline_keyboard", [])
                for b in row
                if "callback_data" in b
            }
        )

    async def answered(self, who: FakeUser, chat: FakeChat, sent: FakeMessage, k: int) -> None:
        """A command is answered: a reply in the group, a message in the private chat, or,
        for a move the core took without a word, the table or the hand shown anew there
        (``k``: the bot's calls before the line was sent)."""

        def reply() -> bool:
            shown = self.tg.chat_messages(chat)
            if chat.type == "private" and any(m.message_id > sent.message_id for m in shown):
                return True
            if any(m.reply_to == sent.message_id for m in shown):
                return True
            return self.recorder.done > 0 and any(
                c.method in (*SENDS, *EDITS) and str(c.params.get("chat_id")) == str(chat.id)
                for c in self.tg.calls[k:]
            )

        try:
            await self.tg.wait_for(reply, timeout=15)
        except TimeoutError:
            said = [(r.ok, r.text[:80]) for r in self.recorder.replies]
            raise AssertionError(
                f"no answer to {sent.text[:80]!r} by {who.first_name} in {chat.type}: {said}"
            ) from None

    def check_messages(self, hidden: tuple[int, set[str]] | None, typed: str) -> None:
        """The calls the bot made since the last check: no hidden card in a group, no
        server seed anywhere before the reveal."""
        calls, self.seen_calls = self.tg.calls[self.seen_calls :], len(self.tg.calls)
        now = hidden_cards(self.core, {0, 1})
        for call in calls:
            if call.method not in (*SENDS, *EDITS, "answerCallbackQuery") or not call.ok:
                continue
            body = shown_text(call.params)
            if "server seed was" in body:
                self.revealed = True
            if self.seed and not self.revealed:
                assert self.seed not in body.lower(), ("the seed shown", call.method, body[:200])
            group = str(call.params.get("chat_id")) == str(self.group.id)
            leaked = leaked_cards(body, hidden, now, typed) if group else set()
            assert not leaked, ("hidden cards in the group", sorted(leaked), body[:300])

    async def play_on(self, players: list[FakeUser]) -> bool:
        """The seated person whose turn it is makes a legal move (the match goes on, so
        the run meets every phase); False when it is no one's turn here."""
        run = self.core.tables[1].run if 1 in self.core.tables else None
        match = getattr(run, "match", None)
        if match is None or match.to_move not in (0, 1):
            return False
        player = players[match.to_move]
        hand = hand_msg(self.tg, self.adapter, player)
        if hand is None or not playable(hand):
            return False
        hidden = hidden_cards(self.core, {0, 1})
        query = self.tg.press(player, hand, playable(hand)[0])
        answer = await self.tg.wait_answer(query, timeout=15)
        assert not answer.get("text"), answer  # a legal move needs no notice
        await self.tg.settle(quiet=0.05)
        self.check_messages(hidden, "")
        self.deals.add(match.deal_number)
        return True

    async def step(self, rng: random.Random, people: list[tuple[FakeUser, bool]]) -> None:
        who, trusted = rng.choice(people)
        before = await snapshot(self.adapter, self.db)
        hidden = hidden_cards(self.core, {0, 1})
        self.recorder.clear()
        typed = ""
        if rng.random() < 0.55:
            chat = self.group if rng.random() < 0.6 else self.tg.private_chat(who)
            typed = random_line(rng, trusted)
            k = len(self.tg.calls)
            sent = self.tg.send_text(who, chat, typed)
            if typed.startswith("/") and core_text(typed, "belote_test_bot") is not None:
                await self.answered(who, chat, sent, k)
            else:
                await self.tg.settle(quiet=0.05)
        else:
            own = [m for m in self.tg.chat_messages(who.id) if m.buttons()]
            shown = [m for m in self.tg.chat_messages(self.group) if m.buttons()]
            message = rng.choice(own + shown if own and rng.random() < 0.5 else shown)
            typed = random_data(rng, self.pool(), trusted)
            query = self.tg.press(who, message, typed, forged=True)
            try:
                await self.tg.wait_answer(query, timeout=15)
            except TimeoutError:
                raise AssertionError(f"press {typed!r} by {who.first_name} unanswered") from None
        await self.adapter.flush()
        replies = list(self.recorder.replies)
        assert all(r.text != INTERNAL for r in replies), typed[:80]
        if any(not r.ok for r in replies):
            self.refused += 1
            after = await snapshot(self.adapter, self.db)
            said = [(r.ok, r.text[:80]) for r in replies], self.recorder.calls
            assert after == before, (f"refused {typed[:80]!r}", said, changes(before, after))
        elif replies:
            await self.tg.settle(quiet=0.05)  # what it set off (bots' moves) is over
        self.check_messages(hidden, typed)


async def start_match(
    tg: FakeTelegram, adapter: TelegramAdapter, alice: FakeUser, bob: FakeUser, group: FakeChat
) -> None:
    for player in (alice, bob):
        tg.start_bot(player)  # both private chats open: the hands go there
    await tg.settle(quiet=0.1)
    created = await command(tg, adapter, alice, group, "/table create --window 0 --timer 3600")
    assert "t1" in created.text, created.text
    await command(tg, adapter, bob, group, "/join")
    for _ in range(2):
        await command(tg, adapter, alice, group, "/addbot")
    await command(tg, adapter, alice, group, "/start")
    for player in (alice, bob):
        await tg.wait_for(lambda p=player: hand_msg(tg, adapter, p), timeout=30)
    await tg.settle(quiet=0.1)


async def test_random_lines_and_presses_on_telegram(
    tg: FakeTelegram, start_adapter: Any, tmp_path: Path
) -> None:
    alice = tg.add_user("Alice", username="alice")
    bob = tg.add_user("Bob", username="bob")
    eve = tg.add_user("Eve <b>", username=None, language_code="fr")
    adam = tg.add_user("Adam", username="adam", language_code="bg")
    group = tg.add_group("Belote club", admins=(alice, adam))
    db = tmp_path / "abuse.db"
    adapter = await start_adapter(db)
    await start_match(tg, adapter, alice, bob, group)
    core = adapter.core
    table = core.tables[1]
    assert table.run is not None and table.run.match is not None
    [first] = (await core.store.log(table.run.id))[:1]
    run = Run(tg, adapter, db, group)
    run.seed = first.data["server_seed"].lower()
    assert len(run.seed) == 64
    assert any(":" in d for d in run.pool())  # the hands' buttons are in the pool
    people = [(alice, True), (bob, True), (eve, False), (adam, True)]
    rng = random.Random(SEED)
    with errors_logged() as errors:
        for n in range(LINES):
            if rng.random() < 0.25 and await run.play_on([alice, bob]):
                continue
            await run.step(rng, people)
            assert not errors.records, (n, [r.getMessage()[:500] for r in errors.records])
    assert run.refused > LINES // 4 and len(run.deals) >= min(3, LINES // 80), (
        run.refused,
        run.deals,
    )  # the run met refusals, and the match went on through several deals
    assert 1 in core.tables  # nobody seated could end the match, and outsiders could not
