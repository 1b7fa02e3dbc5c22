"""A Coinche match on Telegram, as a French player plays it: real PTB, real core, fake
Bot API. Amélie (her Telegram in French) opens a Coinche table in her group, seats three
bots and starts; her hand lives in her private chat. She bids in two steps by the hand's
buttons (a value, then its contract), and the auction's wrong calls are refused with the
rule's reason in French while nothing changes. The match ends and the seed is revealed.

The deal is seeded ("telegram-tests"): Amélie deals, Ada (seat 2) opens 80 in the suit
her hand asks for (the bots' bidding decides which), Bruno and Chloe pass; Amélie bids
90 ♥ and the bots pass.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from bot.show.i18n import _ as tr
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.telegram.test_match import command, hand_msg, playable, press, table_msg

FR = "fr"


@dataclass
class Coinche:
    """A started Coinche table in a group: Amélie in seat 1, three bots."""

    tg: FakeTelegram
    adapter: Any
    amelie: FakeUser
    group: FakeChat

    @property
    def run(self) -> Any:
        return self.adapter.core.tables[1].run

    def state(self) -> tuple[int, tuple[tuple[int, str], ...]]:
        """What a refused call must not change: the match's move count and its bids."""
        return self.run.seq, tuple(self.run.match.view(None).bids)

    def hand(self) -> FakeMessage:
        found = hand_msg(self.tg, self.adapter, self.amelie)
        assert found is not None
        return found

    def table(self) -> FakeMessage:
        return table_msg(self.tg, self.adapter, self.group)

    async def her_turn(self) -> FakeMessage:
        """Her hand once it is her turn (it has buttons) and all the bots did is shown."""
        await self.tg.wait_for(lambda: (h := self.hand()) and h.callback_data(), timeout=30)
        await self.adapter.flush()
        return self.hand()

    async def typed_in_private(self, text: str) -> FakeMessage:
        """She types next to her hand; the bot's answer there."""
        private = self.tg.private_chat(self.amelie)
        count = len(self.tg.chat_messages(private))
        self.tg.send_text(self.amelie, private, text)
        answer = (await self.tg.wait_for(lambda: self.tg.chat_messages(private)[count:]))[0]
        await self.adapter.flush()
        return answer


def data(hand: FakeMessage, code: str) -> str:
    """The callback data of the hand's button for ``code`` (``t1:5:0:value 90``)."""
    found = [d for d in hand.callback_data() if d.split(":", 3)[3] == code]
    assert found, (code, hand.callback_data())
    return found[0]


def codes(hand: FakeMessage) -> list[str]:
    """The action part of each button of the hand (``t1:5:0:value 90`` -> ``value 90``)."""
    return [d.split(":", 3)[3] for d in hand.callback_data()]


def head(key: str, **values: object) -> str:
    """The catalog's French text of ``key`` up to its seed or commitment."""
    return tr(key, FR, **{**values, "seed": "\0", "commitment": "\0"}).split("\0")[0]


def posted(tg: FakeTelegram, group: FakeChat, start: str) -> FakeMessage | None:
    """The group's post starting with ``start``."""
    return next((m for m in tg.chat_messages(group) if m.shown_text.startswith(start)), None)


def word_after(start: str, message: FakeMessage) -> str:
    """The word after ``start`` in the message: a seed, a commitment."""
    return message.shown_text.removeprefix(start).split()[0].rstrip(".")


async def coinche_table(tg: FakeTelegram, start_adapter: Any) -> Coinche:
    amelie = tg.add_user("Amélie", language_code=FR)
    group = tg.add_group("Club de coinche", admins=(amelie,))
    tg.start_bot(amelie)  # she talked to the bot before: her hand goes straight to her
    adapter = await start_adapter()
    created = await command(tg, adapter, amelie, group, "/table create coinche --target 1")
    assert "t1" in created.text and "coinche" in created.text
    for _ in range(3):
        await command(tg, adapter, amelie, group, "/addbot")
    lobby = table_msg(tg, adapter, group)
    start = next(d for d in lobby.callback_data() if d.endswith(":start"))
    assert "m1" in (await press(tg, amelie, lobby, start))["text"]  # the match begins
    return Coinche(tg, adapter, amelie, group)


def adas_opening(game: Coinche) -> tuple[str, str]:
    """The bid Ada (a bot, seat 2) opened with: 80 in the suit her hand asks for, as the
    log writes it and as the table shows it ("bid 80 S", "80 ♠")."""
    seat, bid = game.state()[1][0]
    assert seat == 1 and bid.startswith("bid 80 "), bid
    return bid, "80 " + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[bid[-1]]


async def test_a_coinche_match_by_the_hands_buttons_ends_with_the_seed_revealed(
    tg: FakeTelegram, start_adapter: Any
) -> None:
    game = await coinche_table(tg, start_adapter)
    committed = head("commit-post-nowindow", match="m1", table="t1")
    commit = await tg.wait_for(lambda: posted(tg, game.group, committed))
    commitment = word_after(committed, commit)

    hand = await game.her_turn()
    ada, ada_shown = adas_opening(game)
    assert game.state()[1] == ((1, ada), (2, "pass"), (3, "pass"))
    # step one: the values still open above Ada's 80, pass, and coinche (Ada is an
    # opponent); no générale, it is not an option of this table
    assert codes(hand) == [
        *(f"value {v}" for v in range(90, 161, 10)),
        "value capot",
        "pass",
        "coinche",
    ]
    labels = [b["text"] for b in hand.buttons()]
    assert labels[:2] == ["90", "100"] and "Capot" in labels and tr("label-pass", FR) in labels
    before = game.state()
    # a value picked: the same message shows that value's contracts; the match waits
    answer = await press(tg, game.amelie, hand, data(hand, "value 100"))
    assert not answer.get("text")
    await game.adapter.flush()
    assert game.state() == before and game.hand().message_id == hand.message_id
    hand = game.hand()
    contracts = ["bid 100 C", "bid 100 D", "bid 100 H", "bid 100 S"]
    assert codes(hand) == [*contracts, "values", "pass", "coinche"]
    assert [b["text"] for b in hand.buttons()][:4] == ["100 ♣", "100 ♦", "100 ♥", "100 ♠"]
    # back to the values, and 90 instead
    await press(tg, game.amelie, hand, data(hand, "values"))
    await game.adapter.flush()
    hand = game.hand()
    assert codes(hand)[0] == "value 90" and game.state() == before
    await press(tg, game.amelie, hand, data(hand, "value 90"))
    await game.adapter.flush()
    hand = game.hand()
    assert codes(hand)[:4] == ["bid 90 C", "bid 90 D", "bid 90 H", "bid 90 S"]
    answer = await press(tg, game.amelie, hand, data(hand, "bid 90 H"))
    assert not answer.get("text")  # a legal bid needs no notice
    # the group's table shows her bid after Ada's, then the contract and its taker
    contract_line = tr("contract-line", FR, contract="90 ♥", taker="Amélie")
    shown = await tg.wait_for(lambda: contract_line in (t := game.table().shown_text) and t)
    assert f"Ada: {ada_shown}" in shown
    assert shown.index(f"Ada: {ada_shown}") < shown.index("Amélie: 90 ♥")
    assert game.state()[1][3:] == ((0, "bid 90 H"), (1, "pass"), (2, "pass"), (3, "pass"))

    # the cards: she presses a card of her hand each turn until the match ends
    revealed = head("reveal-post", match="m1")

    def her_move_or_the_end() -> FakeMessage | str | None:
        if posted(tg, game.group, revealed):
            return "over"
        hand = game.hand()
        return hand if hand.callback_data() else None

    for _turn in range(40):
        hand = await tg.wait_for(her_move_or_the_end, timeout=30)
        if hand == "over":
            break
        answer = await press(tg, game.amelie, hand, playable(hand)[0])
        assert not answer.get("text"), answer
    else:
        raise AssertionError("the match did not end")
    await game.adapter.flush()
    assert game.run.over
    contract = game.run.match.view(None).contract
    assert contract is not None and (contract.bid, contract.taker) == (90, 0)

    # the deal's result names the contract and its taker ("Donne 1 : 90 ♥, pris par
    # Amélie (équipe A), ..."); then the seed is revealed, the one the commitment promised
    result = tr("result-head", FR, deal=1, contract="90 ♥", taker="Amélie", team="\0", outcome="")
    assert posted(tg, game.group, result.split(" (\0")[0]) is not None
    over = posted(tg, game.group, revealed)
    assert over is not None and commitment in over.shown_text
    seed = word_after(revealed, over)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    final = await tg.wait_for(lambda: seed in (t := game.table().shown_text) and t, timeout=15)
    assert "Amélie: 90 ♥" in final  # the table keeps the deal's bids to the end


async def test_wrong_calls_in_the_auction_are_refused_in_french_and_change_nothing(
    tg: FakeTelegram, start_adapter: Any
) -> None:
    game = await coinche_table(tg, start_adapter)
    hand = await game.her_turn()
    first = hand.callback_data()
    before = game.state()
    ada, ada_shown = adas_opening(game)
    assert before[1][0] == (1, ada)  # Ada's 80 stands

    # a bid below the standing one, typed next to her hand: the rule, in French
    other = next(s for s in "CDHS" if s != ada[-1])
    answer = await game.typed_in_private(f"/bid 80 {other}")
    assert tr("err-rule-bid-higher", FR, standing=ada_shown) in answer.text
    assert tr("err-rule-bid-higher", "en", standing=ada_shown) not in answer.text
    assert game.state() == before and game.hand().callback_data() == first

    # a surcoinche with no coinche, typed in the group: the rule, there
    answer = await command(tg, game.adapter, game.amelie, game.group, "/surcoinche")
    assert tr("err-rule-surcoinche-no-coinche", FR) in answer.text
    assert game.state() == before and game.hand().callback_data() == first

    # a value no longer open (80, from a modified client): the rule again, as a notice
    version = game.hand().version
    forged = first[0].rsplit(":", 1)[0] + ":value 80"
    answer = await press(tg, game.amelie, hand, forged, forged=True)
    assert tr("err-rule-bid-higher", FR, standing=ada_shown) in answer["text"]
    await game.adapter.flush()
    assert game.state() == before and game.hand().version == version

    # her bid by the two steps, 90 ♥; the bots pass and the cards go round to her
    await press(tg, game.amelie, hand, data(hand, "value 90"))
    await game.adapter.flush()
    await press(tg, game.amelie, game.hand(), data(game.hand(), "bid 90 H"))
    await tg.wait_for(lambda: codes(game.hand())[:1] and codes(game.hand())[0][:5] == "play ")
    await game.adapter.flush()
    moved = game.state()
    assert moved[1][3:] == ((0, "bid 90 H"), (1, "pass"), (2, "pass"), (3, "pass"))

    # a value button of before, pressed late: out of date, nothing changes
    version = game.hand().version
    stale = next(d for d in first if d.endswith(":value 100"))
    answer = await press(tg, game.amelie, game.hand(), stale, stale_ok=True)
    assert answer["text"] == tr("err-stale-button", FR)
    await game.adapter.flush()
    assert game.state() == moved and game.hand().version == version
