# ruff: noqa: E501  (whole sentences read better unbroken)
"""Every text of tournaments, ladders and ratings, through the project's one translation
function (`bot.show.i18n._`). Until these ids are in the catalogs, the English text below is
used, formatted the same way; whole sentences with named placeholders only.
"""

from __future__ import annotations

from bot.show.i18n import _, has_text

ENGLISH: dict[str, str] = {
    # refusals
    "tour-err-usage": "Usage: {usage}",
    "tour-err-unknown": "There is no tournament {tid} here.",
    "tour-err-none-here": "There is no tournament in this channel. Create one with /tournament create.",
    "tour-err-format": "Unknown format {value}: choose roundrobin, swiss or elimination.",
    "tour-err-ruleset": "Unknown ruleset {value}: choose {rulesets}.",
    "tour-err-option": "Unknown option {value}.",
    "tour-err-number": "{option} needs a whole number between {low} and {high}.",
    "tour-err-points": "Points must go down from a win to a draw to a loss.",
    "tour-err-best-of": "A meeting is a single match or the best of three: --best-of 1 or 3.",
    "tour-err-not-open": "{name} is not taking entries.",
    "tour-err-already-in": "You are already in {name}.",
    "tour-err-left": "You left {name}; you cannot come back.",
    "tour-err-not-in": "You are not in {name}.",
    "tour-err-organiser": "Only the organiser of {name} (or a server manager) can do that.",
    "tour-err-started": "{name} has already started.",
    "tour-err-not-started": "{name} has not started yet.",
    "tour-err-players-even": "Teams of two need an even number of players: {count} have joined.",
    "tour-err-players-few": "{name} needs at least {needed} players: {count} have joined.",
    "tour-err-rotate-four": "Rotating partners is for exactly one table of four: {count} have joined.",
    "tour-err-setup": "{name} cannot start: {reason}",
    "tour-err-player": "Nobody called {who} plays in {name}.",
    "tour-err-match": "There is no match {match} in {name}.",
    "tour-err-outcome": "Say who won: a, b or draw.",
    "tour-err-correct": "That result cannot be changed: {reason}",
    "tour-err-ladder": "That is a ladder: use /ladder.",
    "tour-err-not-ladder": "That is not a ladder.",
    "tour-err-disabled": "Tournaments are not running on this bot.",
    # answers
    "tour-created": "{name} (#{tid}) is created: {format}, {ruleset}. Join with /tournament join {tid}.",
    "tour-ladder-created": "Ladder {name} (#{tid}) is created: {ruleset}, {days} days from {opens}. Join with /ladder join {tid}.",
    "tour-joined": "You are in {name} (#{tid}).",
    "tour-withdrew": "You withdrew from {name}: you keep what you scored.",
    "tour-dropped": "{who} is dropped from {name}.",
    "tour-started": "{name} has started.",
    "tour-result-set": "Match {match} of {name}: result recorded.",
    "tour-no-rounds": "No round has been paired yet.",
    # posts
    "tour-post-created": "New tournament: {name} (#{tid}), {format}, {ruleset}. /tournament join {tid}",
    "tour-post-teams": "{name}: the teams for the whole event are\n{teams}",
    "tour-post-round": "{name}, round {round}:\n{lines}",
    "tour-post-pairing": "match {match}: {a} vs {b}",
    "tour-post-bye": "sits out (scored as a win): {who}",
    "tour-post-seat": "Take your seats within 3 minutes, or you are out. Time limit of the round: {minutes} minutes.",
    "tour-post-no-show": "{name}: {who} did not take a seat in time and is out of the tournament.",
    "tour-post-time": "{name}: match {match} was not decided in time: {loser}.",
    "tour-post-time-both": "both sides lose it",
    "tour-post-withdrew": "{name}: {who} withdrew.",
    "tour-post-over": "{name} is over. {winner}",
    "tour-post-winner": "Winner: {who}.",
    "tour-post-no-pairing": "{name}: round {round} cannot be paired without a rematch, so the event ends here and the standings are final.",
    "tour-post-no-pairing-bye": "{name}: round {round} would need someone to sit out a second time, so the event ends here and the standings are final.",
    "tour-post-ladder-open": "Ladder {name} is open: every rated {ruleset} match from the lobby counts until {closes}.",
    "tour-post-ladder-closed": "Ladder {name} is closed.",
    # pages
    "tour-info": "{name} (#{tid}): {format}, {ruleset}, {status}\nOrganiser: {creator}\n{numbers}\nPlayers: {players}",
    "tour-info-points": "Points: win {win}, draw {draw}, loss {loss}.",
    "tour-info-rounds": "Time limit of a round: {minutes} minutes; 3 minutes to take your seat.",
    "tour-info-swiss": "Rounds: {rounds}.",
    "tour-info-best-of": "Meetings: best of {best_of}.",
    "tour-info-rotate": "One table of four, partners changing every round.",
    "tour-info-ladder": "Open from {opens} to {closes} ({days} days).",
    "tour-format-roundrobin": "Round-robin",
    "tour-format-swiss": "Swiss",
    "tour-format-elimination": "Elimination",
    "tour-format-ladder": "Ladder",
    "tour-btn-join": "Join",
    "tour-btn-standings": "Standings",
    "tour-err-stale": "That button is no longer valid.",
    "tour-status-open": "taking entries",
    "tour-status-scheduled": "opens later",
    "tour-status-running": "running",
    "tour-status-over": "over",
    "tour-standings-title": "{name}: standings",
    "tour-standings-line": "{place}. {who}: {points} {tiebreaks}",
    "tour-withdrawn-mark": "(withdrawn)",
    "tour-pairings-line": "match {match}: {a} vs {b}: {result}",
    "tour-pairings-playing": "playing",
    "tour-tb-h2h": "H2H",
    "tour-tb-diff": "+/-",
    "tour-tb-opp": "opp. pts",
    "tour-tb-rating": "rating",
    "tour-tb-reached": "round",
    # ratings
    "stats-none": "{who} has no rated match yet.",
    "stats-line": "{ruleset}: {rating}{provisional}, {matches} matches ({wins} won, {draws} drawn, {losses} lost)",
    "stats-provisional": " (provisional)",
    "stats-title": "{who}: ratings",
    "leaderboard-title": "Leaderboard: {ruleset}",
    "leaderboard-empty": "Nobody has played {needed} rated {ruleset} matches yet.",
    "leaderboard-line": "{place}. {who}: {rating} ({matches} matches)",
}


def tt(msgid: str, locale: str | None = "en", /, **kwargs: object) -> str:
    """The text of `msgid` in `locale`: the catalog's when it has one, else the English."""
    if has_text(msgid, locale or "en") or msgid not in ENGLISH:
        return _(msgid, locale, **kwargs)
    text = ENGLISH[msgid]
    return text.format(**kwargs) if kwargs else text


def catalog_text() -> str:
    """The English texts as a gettext catalog, to merge into
    `assets/locale/en/LC_MESSAGES/belote.po` (and to translate from)."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(locale="en", project="belote-bot", fuzzy=False)
    for key, text in ENGLISH.items():
        catalog.add(key, text)
    buf = io.BytesIO()
    write_po(buf, catalog, omit_header=True, width=0)
    return buf.getvalue().decode()


if __name__ == "__main__":
    print(catalog_text(), end="")
