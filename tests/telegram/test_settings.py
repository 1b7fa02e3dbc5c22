"""A group's own settings through python-telegram-bot on the fake Bot API: its admins
(asked of getChatAdministrators, cached, dropped on a chat_member update), a member, an
anonymous admin, the inline keyboard, bad values, a table running meanwhile and a
restart in the middle."""

from __future__ import annotations

from typing import Any

from tests.fakes.telegram import FakeTelegram
from tests.telegram.test_match import command, press


def core_of(adapter: Any) -> Any:
    return adapter.core


async def test_admins_members_anonymous_admins_keyboard_and_restart(
    tg: FakeTelegram, start_adapter: Any, tmp_path: Any
) -> None:
    alice = tg.add_user("Alice")
    bob = tg.add_user("Bob", language_code="fr")
    group = tg.add_group("Belote night", admins=(alice,))
    tg.start_bot(alice)
    tg.start_bot(bob)
    db = tmp_path / "belote.db"
    first = await start_adapter(db)

    # a match runs meanwhile
    await command(tg, first, alice, group, "/table create --timer 45")
    for _ in range(3):
        await command(tg, first, alice, group, "/addbot")
    await command(tg, first, alice, group, "/start")
    running = next(iter(core_of(first).tables.values()))

    refused = await command(tg, first, bob, group, "/settings set timer 20")
    assert refused.text.startswith("Seuls les membres"), refused.text  # in his language
    done = await command(tg, first, alice, group, "/settings set timer 20 target 1500")
    assert "timer is now 20" in done.text and "target is now 1500" in done.text
    # bad values: one line each, nothing changed
    for bad in ("max_tables 0", "levels godlike", "language klingon", "colour red", "timer"):
        line = (await command(tg, first, alice, group, f"/settings set {bad}")).text
        assert "\n" not in line and "is now" not in line, line
    asked = len(tg.calls_of("getChatAdministrators"))
    assert asked == 1, "the admin list is cached, not asked on every input"

    # bob is promoted: the chat_member update drops the cached list at once
    tg.set_admin(group, bob)
    await tg.wait_for(lambda: not first.bridge.admins.knows(group.id))
    ok = await command(tg, first, bob, group, "/settings set max_tables 3")
    assert "max_tables" in ok.text and "3" in ok.text
    tg.set_admin(group, bob, admin=False)
    await tg.wait_for(lambda: not first.bridge.admins.knows(group.id))
    again = await command(tg, first, bob, group, "/settings reset max_tables")
    assert again.text.startswith("Seuls les membres")

    # an anonymous admin writes as the group: an admin
    tg.send_as_group(group, "/settings set spectators off")
    await tg.wait_for(
        lambda: any("spectators is now off" in m.shown_text for m in tg.chat_messages(group))
    )

    # the inline keyboard, in the private chat, acting on the group's settings
    await command(tg, first, alice, group, "/settings")
    await first.flush()
    view = [m for m in tg.chat_messages(alice.id) if "(timer): 20" in m.shown_text][-1]
    await press(tg, alice, view, "st:k:ruleset")
    await first.flush()
    pick = [m for m in tg.chat_messages(alice.id) if "Pick a value" in m.shown_text][-1]
    choice = next(d for d in pick.callback_data() if d.startswith("st:s:ruleset:"))
    answer = await press(tg, alice, pick, choice)
    assert "ruleset is now" in (answer.get("text") or ""), answer
    member_view = await command(tg, first, bob, group, "/settings")
    assert "(timer)\u00a0: 20, réglé pour le serveur" in member_view.text  # his language
    assert not member_view.buttons()

    assert running.settings.timer == 45 and running.settings.target is None

    # a restart in the middle: nothing lost, the same rights
    await first.stop()
    second = await start_adapter(db)
    still = await command(tg, second, bob, group, "/settings set timer 90")
    assert still.text.startswith("Seuls les membres")
    history = (await command(tg, second, alice, group, "/settings log")).text
    for who, what in (
        ("Alice", "timer - → 20"),
        ("Bob", "max_tables - → 3"),
        ("Belote night", "spectators"),
    ):
        assert any(who in line and what in line for line in history.splitlines()), (who, history)
    await command(tg, second, alice, group, "/table create")
    newest = max(core_of(second).tables.values(), key=lambda t: t.id)
    assert newest.settings.timer == 20 and newest.settings.target == 1500
    assert newest.settings.spectators is False


async def test_an_anonymous_admin_reads_the_settings_in_the_group(
    tg: FakeTelegram, start_adapter: Any
) -> None:
    """GroupAnonymousBot has no private chat: ``/settings`` from an anonymous admin shows
    the values in the group, with the command form to change them, not a start link."""
    alice = tg.add_user("Alice")
    group = tg.add_group("Belote night", admins=(alice,))
    adapter = await start_adapter()
    tg.send_as_group(group, "/settings")
    view = await tg.wait_for(
        lambda: next((m for m in tg.chat_messages(group) if "(timer)" in m.shown_text), None)
    )
    assert "/settings set NAME VALUE" in view.shown_text
    assert not view.buttons(), "a keyboard in the group would answer into a private chat"
    assert not any("write to you first" in m.shown_text for m in tg.chat_messages(group))
    # and the timer's one rule, through the group's anonymous admin too
    tg.send_as_group(group, "/settings set timer 0")
    refused = await tg.wait_for(
        lambda: next((m for m in tg.chat_messages(group) if "5 to 3600" in m.shown_text), None)
    )
    assert refused.shown_text == "The turn timer must be from 5 to 3600 seconds, or off."
    shown = (await command(tg, adapter, tg.add_user("Dan"), group, "/settings")).text
    assert "(timer): 60 · default 60" in shown, "nothing was stored"


POINTERS = {
    "en": ("This group's settings are in our private chat", "Open the settings"),
    "fr": ("Les réglages de ce groupe sont dans notre conversation privée", "Ouvrir les réglages"),
    "bg": ("Настройките на тази група са в личния ни чат", "Отвори настройките"),
}


async def test_an_admins_settings_pointer_speaks_of_the_settings_in_each_language(
    tg: FakeTelegram, start_adapter: Any
) -> None:
    """After an admin's ``/settings`` in a group, the group's pointer is about the settings
    (not "your cards"), and so is the start-needed answer and its button; the button's
    ``/start`` shows that group's settings in the private chat."""
    admins = {lang: tg.add_user(f"Admin-{lang}", language_code=lang) for lang in POINTERS}
    newcomers = {lang: tg.add_user(f"New-{lang}", language_code=lang) for lang in POINTERS}
    group = tg.add_group("Belote night", admins=(*admins.values(), *newcomers.values()))
    adapter = await start_adapter()
    for lang, (pointer, button) in POINTERS.items():
        tg.start_bot(admins[lang])
        said = (await command(tg, adapter, admins[lang], group, "/settings")).text
        assert said.startswith(pointer), (lang, said)
        assert "cartes" not in said and "картите" not in said and "cards" not in said
        view = [m for m in tg.chat_messages(admins[lang].id) if "(timer)" in m.shown_text]
        assert view and view[-1].callback_data(), lang

        needed = await command(tg, adapter, newcomers[lang], group, "/settings")
        assert button in needed.text and "hand" not in needed.text.lower(), (lang, needed.text)
        assert "main" not in needed.text and "картите" not in needed.text, (lang, needed.text)
        (link,) = [b for b in needed.buttons() if "url" in b]
        assert button in link["text"], (lang, link)
        tg.open_deep_link(newcomers[lang], link["url"])
        opened = await tg.wait_for(
            lambda u=newcomers[lang]: next(
                (m for m in tg.chat_messages(u.id) if "(timer)" in m.shown_text), None
            )
        )
        assert opened.callback_data(), "an admin's view there carries the keyboard"
