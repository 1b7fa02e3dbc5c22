"""The full-screen table (Textual), when stdout is a terminal.

The screen is drawn from two things only: the player's view of their table, which the
core gives through its documented query (``BeloteApp.table_views``, a
:class:`bot.show.seat_view.TableView`), and the posts it delivers, whose lines (with their
kinds) fill the log pane. What the player does goes back as commands (``/play QH``), the
same ones they could type; the core decides what is legal and says why not.

    ┌ status: table, deal, trump, score and target, whose turn, the timer ───────────┐
    │ auction / contract     partner (north)      last trick (F2)  │ log: melds,     │
    │ west                   the trick             east            │ belote, redeals,│
    │                        you (south)           deal, tricks     │ tricks, results │
    │ ▶ your turn: what you may type (or why a card was refused)                        │
    │ [7♥] [Q♥] [10♠] ... your hand, the cards you may play lit; ←/→ and Enter, or click│
    │ > the line you type in: 10H, Q♥, qh, /play 10H, pass, /help                       │
    └───────────────────────────────────────────────────────────────────────────────────┘

It fits 80x24 and grows with the terminal. Whatever someone typed (a name) is shown as
text, never as markup or terminal codes.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, HorizontalScroll, Vertical
from textual.widgets import Button, Input, RichLog, Static

from adapters.console.platform import DEFAULT_NAME, safe_line
from bot.platform import Post, Reply
from bot.show.i18n import _
from bot.show.seat_view import Choice, TableView
from bot.show.texts import value_label

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED = frozenset("DH")
_CARD = re.compile(r"(?<![A-Za-z0-9])([789TJQKA])([CDHS])(?![A-Za-z0-9])")
_COMMAND = re.compile(r"/(?:play|bid) (?=\S)")
# Coinche's first step of a bid, the screen's own (never sent to the core).
VALUE_STEP = "#value "
VALUES_STEP = "#values"
TABLE_LOG_KINDS = ("deal", "contract", "trick-won", "timeout", "winner", "over", "seed")
DIM_POSTS = ("commit", "seeds", "drand")
TRUMP_NAMES = ("NT", "AT")


def card_label(card: str) -> str:
    """``TD`` -> ``10♦``: the card as the screen draws it."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS[card[1]]


def cards(text: str, style: str = "") -> Text:
    """A line with its card texts drawn as symbols, hearts and diamonds in red."""
    out = Text(style=style)
    pos = 0
    for m in _CARD.finditer(text):
        out.append(text[pos : m.start()])
        out.append(card_label(m[0]), style="bold red" if m[2] in RED else "bold")
        pos = m.end()
    out.append(text[pos:])
    return out


_HEX = re.compile(r"\b([0-9a-f]{12})[0-9a-f]{8,}\b")


def _brief(lines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The fair-deal posts in the log, their long hex values cut to 12 digits (the whole
    values are in the match's transcript: /verify, belote export), so the log keeps
    room for the game; a seat that sent no seed is left out."""
    return [(k, _HEX.sub(r"\1…", t)) for k, t in lines if not t.endswith(": none")]


def offered(choices: Sequence[Choice]) -> tuple[list[str], str | None]:
    """What the prompt lists, and the card of the melds hint. When every card may be
    played with or without its melds, each card is listed once and the ``nomelds`` choice
    is said once beside the list (as the chat's hand does), instead of a second copy of
    every card; typing ``7C nomelds`` still works, the core reads it."""
    typed = list(dict.fromkeys(c.shown or c.typed for c in choices))  # Coinche: ``90 ♥``
    plain = [c.card for c in choices if c.card is not None and c.typed == c.card]
    if not plain or any(f"{card} nomelds" not in typed for card in plain):
        return typed, None
    return [t for t in typed if not any(t == f"{card} nomelds" for card in plain)], plain[0]


def own_seat(name: str, locale: str) -> str:
    """The player's own seat: ``ana (you)``, but ``you`` alone for a player whose name is
    already the word (the terminal's default name)."""
    return name if name.casefold() == DEFAULT_NAME else _("tui-you", locale, name=name)


class CardLine(Input):
    """The line the player types in. On an empty line ←/→ choose a card of the hand and
    Enter plays it; with text, they move the cursor as usual."""

    BINDINGS: ClassVar[list[Binding]] = [
        Binding("left", "choose(-1)", show=False),
        Binding("right", "choose(1)", show=False),
    ]

    def action_choose(self, step: int) -> None:
        if self.value:
            if step < 0:
                self.action_cursor_left()
            else:
                self.action_cursor_right()
            return
        choose = getattr(self.app, "choose_card", None)
        if choose is not None:
            choose(step)


class LogPane(RichLog):
    """The log. A line written scrolls it to its end (RichLog's own ``auto_scroll``); so
    does a change of its height, when the lines under the table (the deal's score, a
    refusal) take rows from it or give them back: else its newest lines hide below."""

    def on_resize(self, event: events.Resize) -> None:
        self.scroll_end(animate=False, immediate=False, x_axis=False)


STATUS_SEP = " · "
NAME_ROOM = 16  # cells a long name keeps before any part of the status line is dropped


class _StatusPart:
    """One part of the status line. ``drop``: dropped when the line is too long, the
    lowest first (0: never); ``short``: what it shrinks to instead before that; a part
    with a ``name`` is written by ``template(name)`` and gives up cells of the name."""

    def __init__(
        self, text: str, *, drop: int = 0, short: str | None = None, name: str | None = None
    ) -> None:
        self.text = safe_line(text)
        self.drop = drop
        self.short = short
        self.name = name
        self.template: Callable[[str], str] | None = None
        self.shown = True

    def render(self, name_cells: int | None) -> str:
        if self.name is None or self.template is None:
            return self.text
        name = self.name if name_cells is None else cut_cells(self.name, name_cells)
        return safe_line(self.template(name))


def cut_cells(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal cells, an ellipsis ending a cut one."""
    if cell_len(text) <= cells:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > cells - 1:
            break
        out += ch
    return out + "…"


def fit_status(parts: list[_StatusPart], width: int) -> str:
    """The status line in ``width`` cells, whatever the names and the ruleset: a long name
    is shortened first (to :data:`NAME_ROOM`), then the least useful parts go (no timer,
    the deal's number, the ruleset's name), then the name shrinks to what is left; the
    line never wraps (a second line would push the table down)."""

    def line(name_cells: int | None) -> str:
        return STATUS_SEP.join(p.render(name_cells) for p in parts if p.shown)

    for name_cells in (None, NAME_ROOM):
        if cell_len(line(name_cells)) <= width:
            return line(name_cells)
    for rank in sorted({p.drop for p in parts if p.drop}):
        for p in parts:
            if p.drop == rank:
                if p.short is not None:  # shrinks rather than goes (the table's id stays)
                    p.text = safe_line(p.short)
                else:
                    p.shown = False
        if cell_len(line(NAME_ROOM)) <= width:
            return line(NAME_ROOM)
    if any(p.name is not None and p.shown for p in parts):
        spare = width - cell_len(line(1)) + 1  # the cells the name may have
        if spare >= 2:
            return line(spare)
    return cut_cells(line(1), width)


class TableTui(App[None]):
    """The table on screen (see the module's docstring)."""

    TITLE = "Belote"
    full_screen = True  # what adapters.console.run looks for (it imports no Textual)
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 2; background: $primary-background; color: $text;
              padding: 0 1; }
    #body { height: 1fr; }
    #table { width: 1fr; min-width: 44; layout: grid; grid-size: 3 3;
             grid-columns: 1fr 1fr 1fr; grid-rows: 1fr 1fr 1fr; }
    #log { width: 42%; min-width: 30; max-width: 70; border-left: vkey $primary; padding: 0 1; }
    .cell { height: 100%; content-align: center middle; text-align: center; padding: 0 1; }
    .seat { color: $text; }
    .seat.turn { background: $success 25%; }
    #trick { border: round $success; }
    #info, #last { content-align: left top; text-align: left; color: $text-muted; }
    #trick { padding: 0; }
    #summary { height: auto; max-height: 2; padding: 0 1; }
    #prompt { height: auto; max-height: 4; padding: 0 1; }
    #hand, #bids { height: 1; padding: 0 1; }
    #hand Button, #bids Button { margin: 0 1 0 0; min-width: 5; }
    #hand Button.selected, #bids Button.selected { text-style: bold reverse; }
    #hand Button:disabled { color: $text-muted; }
    #keys { height: 1; color: $text-muted; padding: 0 1; }
    #line { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("ctrl+c", "leave", "save and quit", priority=True, show=False),
        Binding("ctrl+d", "leave", "save and quit", priority=True, show=False),
        Binding("ctrl+q", "leave", "save and quit", priority=True, show=False),
        Binding("f2", "last_trick", "last trick", priority=True, show=False),
    ]

    def __init__(
        self,
        me: str,
        locale: str,
        *,
        views: Callable[[], list[TableView]] | None = None,
        send: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__()
        self.me = me
        self.locale = locale
        self.views = views or (lambda: [])
        self.send = send
        self.view: TableView | None = None
        self.view_at = time.monotonic()
        self.after_match: Callable[[], None] | None = None
        self.ready = asyncio.Event()
        self.show_last = False
        self.picked_value: int | None = None  # Coinche: the value picked, before its contract
        self.selected = 0
        self.refused: Text | None = None
        self.question: str | None = None
        self._seen: dict[str, dict[str, str]] = {}
        self._held: list[Text] | None = None
        self._pending: list[Text] = []  # log lines before the screen is up
        self.logged: list[str] = []  # every line of the log pane, unwrapped
        self._refresh_due = False
        self._rows: dict[str, tuple[tuple[Any, ...], list[Button]]] = {}  # (items, buttons)
        self._commit: dict[str, list[tuple[str, str]]] = {}
        # the last deal's result, on the table until the next deal's first card:
        # (match "m1", the deal's number, the line)
        self.summary: tuple[str, int, Text] | None = None
        self.gone = False

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="table"):
                yield Static(id="info", classes="cell")
                yield Static(id="seat-north", classes="cell seat")
                yield Static(id="last", classes="cell")
                yield Static(id="seat-west", classes="cell seat")
                yield Static(id="trick", classes="cell")
                yield Static(id="seat-east", classes="cell seat")
                yield Static(id="deal", classes="cell")
                yield Static(id="seat-south", classes="cell seat")
                yield Static(id="tricks", classes="cell")
            yield LogPane(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="summary")
        yield Static(id="prompt")
        yield HorizontalScroll(id="bids")
        yield HorizontalScroll(id="hand")
        yield Static(Text(_("tui-keys", self.locale)), id="keys")
        yield CardLine(placeholder=_("tui-placeholder", self.locale), id="line")

    def on_mount(self) -> None:
        self.query_one("#line", CardLine).focus()
        self.set_interval(1.0, self.tick)
        self.ready.set()
        self.redraw()

    # --- what the core sends ------------------------------------------------------------

    def show(self, post: Post) -> None:
        """A post of the core: what is news goes to the log; the table is redrawn."""
        lines = list(post.lines) or [("text", line) for line in post.text.split("\n")]
        lines = [(kind, safe_line(text)) for kind, text in lines]
        what = post.key.split(":", 1)[0]
        if post.to_user is not None and post.to_user != self.me:
            return
        if what == "table":
            self._table(post.key, lines)
        elif what == "hand":
            self._changed(post.key, [(k, t) for k, t in lines if k == "away"], "yellow")
        elif what == "result":
            if post.key not in self._seen:
                self._result(post.key, lines)
                self._seen[post.key] = dict(lines)
        elif what == "announce":
            self._changed(post.key, lines, "bold magenta")
        elif what == "commit":
            # the terminal sends the player's seed itself: the commitment is shown in its
            # final words, with the seeds (its first version asks for a seed to type)
            self._commit[post.key] = lines
        elif what in DIM_POSTS:
            commit = self._commit.pop(post.key.replace(what + ":", "commit:", 1), None)
            if commit is not None:
                self._changed(post.key.replace(what + ":", "commit:", 1), _brief(commit), "dim")
            self._changed(post.key, _brief(lines), "dim")
        else:
            self._changed(post.key, lines, "")
        self.refresh_soon()

    def _table(self, key: str, lines: list[tuple[str, str]]) -> None:
        seen = self._seen.setdefault(key, {})
        kinds = dict(lines)
        for kind in TABLE_LOG_KINDS:
            text = kinds.get(kind)
            if text is None or text == seen.get(kind):
                continue
            if kind == "contract" and "bids" in kinds:
                self.log_line(cards(kinds["bids"], "dim"))
            style = {"deal": "bold", "contract": "bold cyan", "winner": "bold yellow"}.get(kind, "")
            if kind == "deal":
                self.log_line(Text(""))
            self.log_line(cards(text, style))
        ended = "over" in kinds and "over" not in seen and "match" in seen
        seen.clear()
        seen.update(kinds)
        if ended and self.after_match is not None:
            self.after_match()

    def _result(self, key: str, lines: list[tuple[str, str]]) -> None:
        """A finished deal. Its post carries the deal's last trick (the table's post has
        moved on to the next deal by then): that trick goes to the log first, then the
        result, in the order they happened. The result and the score stay on the table
        (``summary``) while the next deal's auction goes on; nothing waits for a key."""
        tricks = {seen.get("trick-won") for seen in self._seen.values()}
        for kind, text in lines:
            if kind == "trick-won" and text not in tricks:
                self.log_line(cards(text))
        rest = [(kind, text) for kind, text in lines if kind != "trick-won"]
        for i, (_kind, text) in enumerate(rest):
            self.log_line(cards(text, "bold yellow" if i == 0 else ""))
        _what, match, k = [*key.split(":"), "", ""][:3]
        said = dict(rest)
        head = rest[0][1] if rest else ""
        summary = cards(head, "bold yellow")
        if "result-scored" in said:
            summary.append(" ")
            summary.append(said["result-scored"], style="yellow")
        if k.isdigit():
            self.summary = (f"m{match}", int(k) + 1, summary)

    def _changed(self, key: str, lines: list[tuple[str, str]], style: str) -> None:
        seen = self._seen.setdefault(key, {})
        old = set(seen.values())
        for i, (_kind, text) in enumerate(lines):
            if text not in old:
                self.log_line(cards(text, style))
            seen[str(i)] = text

    def answer(self, name: str, reply: Reply) -> None:
        """The core's answer to what the player typed or pressed; a refusal (with the
        rule's reason when the core gives it) also stays above the hand until the next
        move."""
        text = "\n".join(safe_line(line) for line in reply.text.split("\n"))
        if not reply.ok:
            text = _COMMAND.sub("", text)  # what may be played, as typed here: QH, pass
            self.refused = cards(text, "bold red")
            self.log_line(cards(text, "red"))
        else:
            self.log_line(cards(text))
        self.refresh_soon()

    def notice(self, text: str) -> None:
        """The terminal's own words (welcome, goodbye)."""
        if self.gone:
            sys.stdout.write(safe_line(text.strip("\n")) + "\n")
            sys.stdout.flush()
            return
        for line in text.split("\n"):
            self._write(Text(safe_line(line), style="cyan"), held=False)

    def ask(self, question: str | None) -> None:
        """A question of the terminal's (go on, or a new table?) kept above the hand."""
        self.question = None if question is None else safe_line(question)
        self.refresh_soon()

    def hold(self) -> None:
        self._held = []

    def release(self) -> None:
        held, self._held = self._held or [], None
        for line in held:
            self._write(line, held=False)

    def log_line(self, line: Text) -> None:
        self._write(line, held=True)

    def _write(self, line: Text, *, held: bool) -> None:
        if held and self._held is not None:
            self._held.append(line)
            return
        self.logged.append(line.plain)
        self._pending.append(line)  # written by the next redraw, in Textual's own task
        self.refresh_soon()

    # --- drawing ------------------------------------------------------------------------

    def refresh_soon(self) -> None:
        """Redraw once the core has finished its change (several posts come together).
        The core's posts come from its own tasks: the redraw is queued as a message, so
        it runs in Textual's task (never a timer started from another task's context)."""
        if self._refresh_due or not self.ready.is_set() or self.gone or not self.is_running:
            return
        self._refresh_due = True
        self.call_later(self.redraw)

    def redraw(self) -> None:
        self._refresh_due = False
        if self.gone or not self.is_running:
            return
        if self._pending:
            log = self.query_one("#log", RichLog)
            for line in self._pending:
                log.write(line)
            self._pending.clear()
        views = self.views()
        playing = [v for v in views if v.status == "playing"]
        view = (playing or views or [None])[-1]
        if view != self.view:
            if view is not None and self.view is not None and view.choices != self.view.choices:
                self.refused = None
            self.view = view
            self.view_at = time.monotonic()
        self.draw()

    def tick(self) -> None:
        v = self.view
        if v is not None and v.seconds_left is not None:
            self.draw_status()

    def seat_name(self, number: int | None) -> str:
        v = self.view
        if v is None or number is None:
            return ""
        return v.seats[number - 1].name

    def draw(self) -> None:
        self.draw_status()
        self.draw_table()
        self.draw_summary()
        self.draw_prompt()
        self.draw_hand()

    def draw_status(self) -> None:
        v = self.view
        loc = self.locale
        status = self.query_one("#status", Static)
        if v is None:
            status.update(Text(_("tui-waiting", loc)))
            return
        head = _StatusPart(f"{v.table} · {v.ruleset}", drop=3, short=v.table)
        parts = [head]
        if v.deal is not None:
            parts.append(_StatusPart(_("tui-deal", loc, deal=v.deal), drop=2))
        if v.trump is not None:
            trump = v.trump if v.trump in TRUMP_NAMES else SUITS[v.trump]
            parts.append(_StatusPart(_("tui-trump", loc, trump=trump)))
        elif v.phase == "auction":
            parts.append(_StatusPart(_("tui-auction", loc)))
        score = _("tui-score", loc, a=v.scores[0], b=v.scores[1], target=v.target)
        short = _("tui-score-short", loc, a=v.scores[0], b=v.scores[1])
        parts.append(_StatusPart(score, drop=4, short=short))  # the target: on the first screen
        turn: _StatusPart | None = None
        if v.to_move is not None:
            if v.to_move == v.my_seat:
                parts.append(_StatusPart(_("tui-your-turn", loc)))
            else:
                turn = _StatusPart("", name=safe_line(self.seat_name(v.to_move)))
                turn.template = lambda name: _("tui-turn", loc, name=name)
                parts.append(turn)
        if v.winner is not None:
            team = _("team-a" if v.winner == "A" else "team-b", loc)
            parts.append(_StatusPart(_("tui-winner", loc, team=team)))
        if v.seconds_left is not None:
            left = max(0, int(v.seconds_left - (time.monotonic() - self.view_at)))
            parts.append(_StatusPart(_("tui-seconds", loc, seconds=left)))
        elif v.timer <= 0:
            parts.append(_StatusPart(_("tui-no-timer", loc), drop=1))
        line = fit_status(parts, self.status_width())
        text = Text(line)
        if v.trump in RED:
            text.highlight_words([SUITS[v.trump]], "bold red")
        status.update(text)

    def status_width(self) -> int:
        """The cells the status line has: the screen's width less its padding."""
        return max(20, (self.size.width or 80) - 2)

    def position(self, seat: int) -> str:
        """Where seat 1..4 sits on screen: the player at the bottom, play going round
        clockwise (the next to play on the left)."""
        me = (self.view.my_seat if self.view is not None else None) or 2
        return ("south", "west", "north", "east")[(seat - me) % 4]

    def draw_table(self) -> None:
        v = self.view
        loc = self.locale
        if v is None:
            return
        for s in v.seats:
            name = own_seat(s.name, loc) if s.number == v.my_seat else s.name
            team = _("team-a" if s.team == "A" else "team-b", loc)
            text = Text(safe_line(name), style="bold")
            text.append("\n" + _("tui-seat", loc, seat=s.number, team=team), style="dim")
            marks = [safe_line(s.label[len(s.name) :].strip(" ()"))] if s.is_bot else []
            if s.away or s.gone:
                marks.append(_("tui-away", loc))
            if s.number == v.dealer:
                marks.append(_("tui-dealer", loc))
            if s.number == v.taker:
                marks.append(_("tui-taker", loc))
            if marks:
                text.append("\n" + " · ".join(marks), style="italic")
            widget = self.query_one(f"#seat-{self.position(s.number)}", Static)
            widget.set_class(s.to_move, "turn")
            widget.update(text)
        self.query_one("#trick", Static).update(self.trick_text(v))
        info = Text()
        if v.contract is not None:
            info.append(_("contract-line", loc, contract=v.contract, taker=self.seat_name(v.taker)))
        elif v.bids or v.turned:
            info.append(_("tui-auction", loc) + "\n", style="bold")
            if v.turned:
                info.append_text(cards(_("turned-line", loc, card=v.turned)))
                info.append("\n")
            for seat, bid in v.bids[-4:]:
                info.append(f"{safe_line(self.seat_name(seat))}: {bid}\n")
        self.query_one("#info", Static).update(info)
        last = Text()
        if self.show_last:
            if v.last_trick:
                who = self.seat_name(v.last_trick_winner)
                last.append(_("tui-last-trick", loc, name=who) + "\n", style="bold")
                for p in v.last_trick:
                    last.append(safe_line(self.seat_name(p.seat)) + " ")
                    last.append_text(cards(p.card))
                    last.append("\n")
            else:
                last.append(_("tui-no-last-trick", loc))
        self.query_one("#last", Static).update(last)
        self.query_one("#tricks", Static).update(
            Text(_("tui-tricks", loc, a=v.tricks_taken[0], b=v.tricks_taken[1]), style="dim")
            if v.phase == "play"
            else Text("")
        )
        self.query_one("#deal", Static).update(Text(v.match or "", style="dim"))

    def trick_text(self, v: TableView) -> Text:
        """The cards of the trick, each on its player's side of the table."""
        at = {self.position(p.seat): card_label(p.card) for p in v.trick}
        styles = {self.position(p.seat): p.card[1] in RED for p in v.trick}

        def one(pos: str) -> Text:
            shown = at.get(pos, "")
            return Text(f"{shown:^4}", style="bold red" if styles.get(pos) else "bold")

        # each line is centred in the cell: ten columns wide, so that it fits the cell of
        # an 80-column screen without breaking a card over two lines
        text = Text()
        text.append_text(one("north"))
        text.append("\n")
        text.append_text(one("west"))
        text.append("  ")
        text.append_text(one("east"))
        text.append("\n")
        text.append_text(one("south"))
        return text

    def draw_summary(self) -> None:
        """The last deal's result and score, under the table, until the next deal's first
        card is played (or another match is on): a moment to read it that never holds up
        the table."""
        v = self.view
        if self.summary is not None and v is not None:
            match, deal, _line = self.summary
            played = v.phase == "play" and (bool(v.trick) or any(v.tricks_taken))
            if v.match != match or (v.deal is not None and v.deal > deal and played):
                self.summary = None
        widget = self.query_one("#summary", Static)
        widget.display = self.summary is not None
        widget.update(self.summary[2] if self.summary is not None else Text(""))

    def draw_prompt(self) -> None:
        v = self.view
        prompt = self.query_one("#prompt", Static)
        text = Text()
        if self.question is not None:
            text.append("? " + self.question, style="bold yellow")
        if self.refused is not None:
            if text:
                text.append("\n")
            text.append_text(self.refused)
        if v is not None and v.status == "open" and v.phase == "over":
            if text:
                text.append("\n")
            text.append("» ", style="bold green")  # ▶ is for a turn only
            text.append(_("tui-new-match", self.locale), style="green")
        if v is not None and v.choices:
            listed, melds_card = offered(v.choices)
            if text:
                text.append("\n")
            text.append("▶ ", style="bold green")
            text.append_text(
                cards(_("tui-you-may", self.locale, choices=", ".join(listed)), "green")
            )
            if melds_card is not None:
                hint = _("hand-melds-hint", self.locale, example=melds_card)
                text.append("\n")
                text.append_text(cards(hint, "dim"))
        prompt.update(text)

    def playable(self) -> list[tuple[str, str]]:
        """(label, command) of each choice ←/→ and Enter go through: the cards of the
        hand (the ones that may not be played now with no command), or the bids."""
        v = self.view
        if v is None:
            return []
        if v.phase == "auction" and any(c.value is not None for c in v.choices):
            return self._coinche_steps(v)
        if v.phase == "auction" and v.choices:
            return [(c.label, c.command) for c in v.choices]
        out = []
        for card in v.hand:
            usual = next((c for c in v.choices if c.card == card), None)
            out.append((card, usual.command if usual is not None else ""))
        return out

    def _coinche_steps(self, v: TableView) -> list[tuple[str, str]]:
        """Coinche's bids in two steps, as on the chat platforms: the values still open,
        then the contracts of the value picked (and ◀ back to the values); pass and
        coinche or surcoinche on both. Picking a value is this screen's own business."""
        calls = [(c.label, c.command) for c in v.choices if c.value is None]
        values = list(dict.fromkeys(c.value for c in v.choices if c.value is not None))
        if self.picked_value in values:
            bids = [(c.label, c.command) for c in v.choices if c.value == self.picked_value]
            return [*bids, (_("label-bid-values", self.locale), VALUES_STEP), *calls]
        steps = [(value_label(value, self.locale), f"{VALUE_STEP}{value}") for value in values]
        return [*steps, *calls]

    def draw_hand(self) -> None:
        v = self.view
        items = self.playable()
        bidding = v is not None and v.phase == "auction" and bool(v.choices)
        hand = [(card, "") for card in v.hand] if bidding and v is not None else items
        if not bidding and v is not None and not items:
            hand = [(card, "") for card in v.hand]
        enabled = [i for i, (_label, command) in enumerate(items) if command]
        if enabled and self.selected not in enabled:
            self.selected = enabled[0]
        self._fill("#hand", hand, None if bidding else self.selected)
        bids = self.query_one("#bids", HorizontalScroll)
        bids.display = bidding
        self._fill("#bids", items if bidding else [], self.selected if bidding else None)

    def _fill(self, where: str, items: list[tuple[str, str]], selected: int | None) -> None:
        """A row of buttons (the hand, or the bids), rebuilt only when it changed."""
        row = self.query_one(where, HorizontalScroll)
        key = tuple(items)
        drawn = self._rows.get(where)
        if drawn is None or drawn[0] != key:
            row.remove_children()
            buttons = []
            for label, command in items:
                shown = cards(label) if _CARD.fullmatch(label) else Text(safe_line(label))
                b = Button(
                    shown,
                    compact=True,
                    disabled=not command,
                    variant="primary" if command else "default",
                )
                b.command = command  # type: ignore[attr-defined]
                buttons.append(b)
            row.mount_all(buttons)
            drawn = self._rows[where] = (key, buttons)
        # the buttons just made: the old ones stay in the row until their removal is done
        for i, b in enumerate(drawn[1]):
            b.set_class(i == selected, "selected")

    # --- what the player does ------------------------------------------------------------

    def choose_card(self, step: int) -> None:
        items = self.playable()
        enabled = [i for i, (_label, command) in enumerate(items) if command]
        if not enabled:
            return
        at = enabled.index(self.selected) if self.selected in enabled else 0
        self.selected = enabled[(at + step) % len(enabled)]
        self.draw_hand()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            items = self.playable()
            if 0 <= self.selected < len(items) and items[self.selected][1]:
                await self.play(items[self.selected][1])
            return
        if text.lower() in ("last", "/last"):
            self.action_last_trick()
            return
        await self.play(text)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        command = getattr(event.button, "command", "")
        self.query_one("#line", CardLine).focus()
        if command:
            await self.play(command)

    async def play(self, text: str) -> None:
        if text == VALUES_STEP or text.startswith(VALUE_STEP):  # Coinche: a value picked
            word = text.removeprefix(VALUE_STEP)
            self.picked_value = int(word) if word.isdigit() else None
            self.selected = 0
            self.draw_hand()
            return
        self.picked_value = None
        self.refused = None
        self.selected = 0  # the next turn's choices start at their first, not where this was
        if self.send is not None:
            await self.send(text)
        self.redraw()

    def action_last_trick(self) -> None:
        self.show_last = not self.show_last
        self.draw()

    def action_leave(self) -> None:
        self.exit()
