"""What one person at a table may see, as plain values: the snapshot a full-screen client
(the terminal's table) draws from, instead of reading the core's objects or parsing the
texts of its posts.

It holds nothing secret: the person's own hand, the public state of the table (seats,
auction, contract, trick, last trick, scores, whose turn and the time left), never another
seat's cards nor the server seed before its reveal. Seats, deals and teams are numbered as
people count them (seat 1 to 4, deal 1 and up, team A = seats 1 and 3).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from bot.show import texts
from bot.show.i18n import _
from engine import RULESETS, card_text

if TYPE_CHECKING:
    from bot.play.table import Table


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the table shows it."""

    number: int  # 1 to 4
    name: str  # the name as the trick and the auction lines use it ("Ada")
    label: str  # the name as the seat lines show it ("Ada (bot, normal)")
    team: str  # "A" (seats 1 and 3) or "B" (seats 2 and 4)
    is_bot: bool
    away: bool  # the AI plays for this person until they are back
    gone: bool  # left the match: the AI plays
    to_move: bool


@dataclass(frozen=True)
class Play:
    """A card on the table: who played it (seat 1 to 4) and the card (``TD``)."""

    seat: int
    card: str


@dataclass(frozen=True)
class Choice:
    """Something the person may do now: what to type, and its label."""

    typed: str  # as typed in the terminal: "QH", "QH nomelds", "take", "NT"
    command: str  # the core's command: "/play QH", "/bid take"
    label: str  # a button's label ("QH", "Take", "No Trump", "90 ♥")
    card: str | None  # the card it plays, None for a bid
    value: int | None = None  # Coinche: the bid's value (80..160, 250 capot, 500 générale)
    shown: str = ""  # how the "you may" line writes it; Coinche's bids share one entry
    #: the engine's action, as a button carries it ("play QH melds", "bid 90 H", "take"):
    #: what a client that presses rather than types sends (the web table)
    action: str = ""


@dataclass(frozen=True)
class TableView:
    """A table as one person sees it now (see the module's docstring)."""

    table: str  # "t1"
    status: str  # "open" | "playing" | "closed"
    ruleset: str
    target: int
    timer: float  # seconds a person has for a turn; 0: no turn timer
    free_seats: int
    last_match: str | None  # "m3": the latest match played here
    match: str | None  # "m4": the match in progress (or just over)
    phase: str  # "lobby" | "seeds" | "drand" | "auction" | "play" | "over"
    my_seat: int | None  # 1 to 4
    my_seed_due: bool  # the fair deal waits for this person's seed
    seats: tuple[SeatInfo, ...]
    deal: int | None  # 1 and up
    dealer: int | None  # seat 1 to 4
    turned: str | None
    bids: tuple[tuple[int, str], ...]  # (seat, the bid as shown)
    contract: str | None  # "Hearts, doubled (contre)"
    trump: str | None  # "C" "D" "H" "S" "NT" "AT"
    taker: int | None  # seat 1 to 4
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    last_trick_winner: int | None
    tricks_taken: tuple[int, int]  # this deal, by team A and team B
    scores: tuple[int, int]
    to_move: int | None  # seat 1 to 4
    seconds_left: float | None  # the person to move's time; None: no timer or a bot's turn
    hand: tuple[str, ...]  # in the picture's order
    legal_cards: frozenset[str]
    choices: tuple[Choice, ...]
    winner: str | None  # "A" or "B" once the match is won
    aborted: bool
    #: the log position the view was made at: a move pressed from it names it, so that a
    #: press made on an older view is refused as stale, and a resent one as a double press
    seq: int = 0
    #: the last finished deal of the match, as its result picture says it (line by line)
    last_result: tuple[str, ...] = ()
    #: the server seed, revealed once the match is over (hex); None before
    seed: str | None = None


def table_view(t: Table, user_id: str, locale: str, now: float) -> TableView:
    """The snapshot of ``t`` for ``user_id`` (see :class:`TableView`)."""
    s = t.settings
    run = t.run
    live = run
    seat = t.seat_of(user_id)
    if seat is None and run is not None:
        seat = next((i for i, x in enumerate(run.seats) if x.user_id == user_id), None)
    target = s.target or RULESETS[s.ruleset].target
    seats = []
    for i in range(4):
        who = run.seats[i] if run is not None and not run.over else t.seats[i]
        seats.append(
            SeatInfo(
                number=i + 1,
                name=who.name if who is not None else texts.seat_name(who, locale),
                label=texts.seat_name(who, locale),
                team="A" if i % 2 == 0 else "B",
                is_bot=who is not None and who.is_bot,
                away=run is not None and not run.over and run.replaced[i],
                gone=run is not None and not run.over and run.left[i],
                to_move=run is not None and run.to_move == i,
            )
        )
    base = TableView(
        table=t.tid,
        status=t.status,
        ruleset=s.ruleset,
        target=target,
        timer=float(s.timer),
        free_seats=len(t.free_seats()),
        last_match=f"m{t.last_match}" if t.last_match is not None else None,
        match=None if live is None else f"m{live.id}",
        phase="lobby" if live is None else live.phase,
        my_seat=None if seat is None else seat + 1,
        my_seed_due=live is not None
        and live.phase == "seeds"
        and seat is not None
        and live.seat_seeds[seat] is None
        and not live.seats[seat].is_bot,
        seats=tuple(seats),
        deal=None,
        dealer=None,
        turned=None,
        bids=(),
        contract=None,
        trump=None,
        taker=None,
        trick=(),
        last_trick=(),
        last_trick_winner=None,
        tricks_taken=(0, 0),
        scores=(0, 0),
        to_move=None,
        seconds_left=None,
        hand=(),
        legal_cards=frozenset(),
        choices=(),
        winner=None,
        aborted=bool(live is not None and live.aborted),
        seq=live.seq if live is not None else 0,
    )
    if live is None or live.match is None:
        return base
    m = live.match
    v = m.view(seat)
    public = m.view(None)
    last = public.tricks[-1] if public.tricks else None
    if last is None and live.over and m.deals:
        done = texts.played_tricks(m.deals[-1]) if m.deals[-1].result is not None else []
        last = done[-1] if done else None
    mover = live.to_move
    left = None
    if mover is not None and not live.is_auto(mover) and live.timer > 0:
        left = max(0.0, live.last_at + live.timer - now)
    mine = seat is not None and mover == seat and not live.is_auto(seat)
    intent = seat is not None and live.belote_intent[seat]
    taken = [0, 0]
    for tr in public.tricks:
        taken[tr.winner % 2] += 1
    turned = v.turned if v.contract is None else None
    return replace(
        base,
        phase="over"
        if live.over
        else ("auction" if v.contract is None else "play")
        if live.phase == "play"
        else live.phase,
        deal=v.k + 1,
        dealer=v.dealer + 1,
        turned=None if turned is None else card_text(turned),
        bids=tuple((s_ + 1, texts._bid_text(b, locale)) for s_, b in v.bids),
        contract=texts.contract_text(v.contract, locale) if v.contract is not None else None,
        trump=v.contract.trump if v.contract is not None else None,
        taker=v.contract.taker + 1 if v.contract is not None else None,
        trick=tuple(Play(s_ + 1, card_text(c)) for s_, c in v.trick),
        last_trick=()
        if last is None
        else tuple(Play(s_ + 1, card_text(c)) for s_, c in last.cards),
        last_trick_winner=None if last is None else last.winner + 1,
        tricks_taken=(taken[0], taken[1]),
        scores=(v.scores[0], v.scores[1]),
        to_move=None if mover is None else mover + 1,
        seconds_left=left,
        hand=tuple(card_text(c) for c in texts.hand_order(v)) if seat is not None else (),
        legal_cards=frozenset(
            card_text(a.card) for a in v.legal if a.kind == "play" and a.card is not None
        )
        if mine
        else frozenset(),
        choices=_choices(v, intent, locale) if mine else (),
        winner=None if m.winner is None else "AB"[m.winner],
        last_result=_last_result(live, locale),
        seed=live.server_seed.hex() if live.over else None,
    )


def _last_result(run: Any, locale: str) -> tuple[str, ...]:
    """The lines of the match's last finished deal (its result picture's figures)."""
    done = [d for d in run.match.deals if d.result is not None]
    if not done:
        return ()
    return tuple(text for _kind, text in texts.result_lines(run, done[-1], locale))


def _choices(v: Any, belote: bool, locale: str) -> tuple[Choice, ...]:
    """What may be done now, written as typed in the terminal (no ``/play``)."""
    if any(a.kind == "bid" and a.value is not None for a in v.legal):
        return _coinche_choices(v, locale)
    out = []
    for command in texts.choices(v.legal, belote=belote):
        typed = command.removeprefix("/play ").removeprefix("/bid ")
        words = typed.split()
        card = words[0] if command.startswith("/play ") else None
        label = typed if card is not None else _bid_label(words[0], locale)
        out.append(
            Choice(
                typed=typed,
                command=command,
                label=label,
                card=card,
                shown=typed,
                action=_action_text(v.legal, words, card is not None, belote),
            )
        )
    return tuple(out)


def _action_text(legal: Any, words: list[str], is_card: bool, belote: bool) -> str:
    """The engine action a typed choice stands for (the one its chat button carries): a
    card alone is its usual variant, ``nomelds`` / ``melds`` / ``belote`` pick another."""
    if not is_card:
        return words[0] if words[0] in ("pass", "take", "contre", "recontre") else f"bid {words[0]}"
    variants = [a for a in legal if a.kind == "play" and card_text(a.card) == words[0]]
    usual = texts.default_play(variants, belote=belote)
    flags = set(words[1:])
    melds = usual.melds if not flags & {"melds", "nomelds"} else "melds" in flags
    said = usual.belote or "belote" in flags
    picked = next((a for a in variants if a.melds == melds and a.belote == said), usual)
    return str(picked.text)


def _coinche_choices(v: Any, locale: str) -> tuple[Choice, ...]:
    """Coinche's auction: every legal bid (a screen groups them by value), pass, and
    coinche or surcoinche; the bids share one entry of the "you may" line."""
    together = texts.valued_bids_command(v.legal).removeprefix("/bid ")
    out = []
    for a in v.legal:
        command = texts.action_command(a)
        typed = command.removeprefix("/bid ").lstrip("/")
        value = a.value if a.kind == "bid" else None
        out.append(
            Choice(
                typed=typed,
                command=command,
                label=texts.action_label(a, locale),
                card=None,
                value=value,
                shown=together if value is not None else typed,
                action=str(a.text),
            )
        )
    return tuple(out)


def _bid_label(word: str, locale: str) -> str:
    if word in ("pass", "take", "contre", "recontre"):
        return _(f"label-{word}", locale)
    return _(f"contract-{word}", locale)


def seat_views(tables: list[Table], user_id: str, locale: str, now: float) -> list[TableView]:
    return [table_view(t, user_id, locale, now) for t in tables]


_FIELDS = tuple(f.name for f in fields(TableView))


def view_json(view: TableView) -> dict[str, Any]:
    """The view as JSON values, for a client on the other side of a socket (the web
    table): the same fields, a set as a sorted list. Built by hand, not by ``asdict``
    (which deep-copies every value: six times the cost of the move itself, measured by
    bench/web_table.py); the inner dicts are the dataclasses' own, to be read only."""
    out = {name: getattr(view, name) for name in _FIELDS}
    out["seats"] = [vars(s) for s in view.seats]
    out["trick"] = [vars(p) for p in view.trick]
    out["last_trick"] = [vars(p) for p in view.last_trick]
    out["choices"] = [vars(c) for c in view.choices]
    out["legal_cards"] = sorted(view.legal_cards)
    return out
