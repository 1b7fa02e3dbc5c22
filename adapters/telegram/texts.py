"""The adapter's own sentences, through the project's one translation function.

The core's catalog may not hold these ids yet; until it does, the English text here is
used, so a missing catalog entry never shows a bare message id to a player.
"""

from __future__ import annotations

from bot.show.i18n import _, has_text

ENGLISH: dict[str, str] = {
    "telegram-open-hand": "🂠 Open my hand",
    # no longer shown (the core's own "label-addbot" is); kept while catalogs hold it
    "telegram-add-bot": "Add bot",
    "telegram-start-needed": (
        "{name}, I can't write to you first: Telegram lets a bot speak only to people "
        "who have opened a chat with it. Tap “Open my hand” below, then Start, and your "
        "cards will be waiting for you there."
    ),
    "telegram-hand-in-private": "Your cards are in our private chat.",
    "telegram-settings-in-private": (
        "This group's settings are in our private chat: change them there."
    ),
    "telegram-start-needed-settings": (
        "{name}, I can't write to you first: Telegram lets a bot speak only to people "
        "who have opened a chat with it. Tap “Open the settings” below, then Start, and "
        "this group's settings will be waiting for you there."
    ),
    "telegram-open-settings": "⚙ Open the settings",
    # an answer added below the bot's latest one in a busy group (see adapters.telegram.pace)
    "telegram-folded-answer": "{name}: {answer}",
    "telegram-open-private-first": "Open our private chat first (tap Start there), then try again.",
    "telegram-welcome": (
        "Hello {name}! Your hands will appear here when you play. Add me to a group and "
        "type /table create there to open a table."
    ),
    "telegram-nothing-waiting": (
        "Nothing is waiting for you right now. Your next hand will appear here."
    ),
    "telegram-sent-privately": "I sent you the answer in our private chat.",
    "telegram-failed": "Something went wrong on my side; nothing was changed. Please try again.",
    "telegram-cmd-table": "Open a table: /table create [classic|club|bulgarian|coinche]",
    "telegram-cmd-join": "Sit at the table",
    "telegram-cmd-leave": "Leave your seat",
    "telegram-cmd-addbot": "Seat a bot: /addbot [level]",
    "telegram-cmd-start": "Start the match (in a group); open your hands (in private)",
    "telegram-cmd-bid": "Bid: /bid pass | take | C D H S | NT | AT | contre | recontre | 90 H",
    "telegram-cmd-pass": "Pass (bidding)",
    "telegram-cmd-coinche": "Coinche: double the other side's bid (x2)",
    "telegram-cmd-surcoinche": "Coinche: redouble after a coinche (x4)",
    "telegram-cmd-play": "Play a card: /play TD",
    "telegram-cmd-belote": "Announce belote",
    "telegram-cmd-hand": "Show my hand in our private chat",
    "telegram-cmd-web": "Open the table in your browser (a private link)",
    "telegram-cmd-score": "Show the score",
    "telegram-cmd-seed": "Add your own seed to the deal: /seed HEX",
    "telegram-cmd-verify": "Check that a deal was fair: /verify [match]",
    "telegram-cmd-replay": "Watch a deal of a finished match: /replay [match] [deal]",
    "telegram-cmd-rules": "The rules of this table",
    "telegram-cmd-help": "How to play with me",
    "telegram-cmd-back": "Take your seat back",
    "telegram-cmd-kick": "Remove a seat's player: /kick SEAT",
    "telegram-cmd-close": "Close the table",
    "telegram-cmd-settings": "This group's settings (admins change them)",
    "telegram-cmd-tournament": "Tournaments: /tournament create|join|start|standings",
    "telegram-cmd-ladder": "The ladder: /ladder create|join|withdraw|info|standings",
    "telegram-cmd-stats": "Your rating and results",
    "telegram-cmd-leaderboard": "The best players of this chat",
}


def text(msgid: str, locale: str | None = "en", /, **kwargs: object) -> str:
    """``_`` when the catalog knows ``msgid``; else the English text above."""
    if has_text(msgid, locale or "en") or has_text(msgid, "en"):
        return _(msgid, locale, **kwargs)
    english = ENGLISH.get(msgid, msgid)
    try:
        return english.format(**kwargs) if kwargs else english
    except (KeyError, IndexError, ValueError):
        return english
