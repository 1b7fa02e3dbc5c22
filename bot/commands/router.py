"""The command router: a typed command or a pressed button, to the room that handles it.

It reads the words (``bot.commands.parse``) and picks the room; it decides nothing about
the game. ``/hand``, ``/score``, ``/rules`` and ``/help`` only read, and are answered here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.commands import parse
from bot.commands.inputs import Ctx
from bot.platform import Reply
from bot.play.ceremony import Ceremony
from bot.play.lobby import Lobby
from bot.play.registry import TableRegistry
from bot.play.table import MatchRun
from bot.play.turns import Turns
from bot.refused import Refused
from bot.show.i18n import _
from bot.show.posting import Presenter
from bot.store import Store
from engine import Action, EngineError

Handler = Callable[[Ctx], Awaitable[list[Reply]]]
#: A command of ``bot.tournaments`` (its name, then the input): see ``BeloteApp``.
TournamentCommand = Callable[[str, Ctx], Awaitable[list[Reply]]]
TournamentPress = Callable[[Ctx, str], Awaitable[list[Reply]]]

TOURNAMENT_COMMANDS = ("tournament", "ladder", "stats", "leaderboard")  # bot.tournaments
#: The buttons that do what their command does, at the button's table.
BUTTON_COMMANDS = frozenset({"hand", "join", "start", "addbot", "back", "web"})


class CommandRouter:
    """Command words and button codes to the rooms' handlers.

    ``store``: read only (``/score`` of a match that ended before a restart);
    ``tournament_command`` / ``tournament_press``: the tournament service's front, when
    it is attached (None: those words are unknown)."""

    def __init__(
        self,
        registry: TableRegistry,
        lobby: Lobby,
        ceremony: Ceremony,
        turns: Turns,
        presenter: Presenter,
        store: Store,
        *,
        default_ruleset: str,
        tournament_command: TournamentCommand | None = None,
        tournament_press: TournamentPress | None = None,
    ) -> None:
        self._registry = registry
        self._lobby = lobby
        self._ceremony = ceremony
        self._turns = turns
        self._presenter = presenter
        self._store = store
        self._default_ruleset = default_ruleset
        self._tournament_command = tournament_command
        self._tournament_press = tournament_press
        #: button payloads by prefix (``st:`` the settings'), answered by their own room
        self._presses: dict[str, TournamentPress] = {}
        self._handlers: dict[str, Handler] = {
            "table-create": lobby.create,
            "table-list": lobby.list_tables,
            "table-close": lobby.close,
            "tables": lobby.list_tables,
            "join": lobby.join,
            "sit": lobby.join,
            "leave": lobby.leave,
            "addbot": lobby.addbot,
            "start": ceremony.start,
            "bid": self.bid,
            "pass": self.pass_,
            "coinche": self._call(Action.coinche()),
            "surcoinche": self._call(Action.surcoinche()),
            "play": self.play,
            "belote": turns.belote,
            "hand": self.hand,
            "score": self.score,
            "seed": ceremony.seed,
            "verify": ceremony.verify,
            "replay": ceremony.replay,
            "rules": self.rules,
            "help": self.help,
            "back": turns.back,
            "kick": lobby.kick,
            "close": lobby.close,
        }

    def names(self) -> frozenset[str]:
        """The command words answered (``table``, ``join``, ``play``...)."""
        return frozenset(name.split("-")[0] for name in self._handlers)

    def handler(self, name: str) -> Handler | None:
        return self._handlers.get(name)

    def handle(self, name: str, handler: Handler) -> None:
        """Answer the command word ``name`` (and its button) with ``handler`` from now on:
        a command of one's own, or another answer to one of these."""
        self._handlers[name] = handler

    def handle_press(self, prefix: str, handler: TournamentPress) -> None:
        """Answer the buttons whose payload starts with ``prefix`` with ``handler``."""
        self._presses[prefix] = handler

    async def command(self, ctx: Ctx, text: str) -> list[Reply]:
        if len(text) > parse.MAX_TEXT:
            raise Refused("err-too-long", limit=parse.MAX_TEXT)
        words = text.strip().split()
        if not words:
            raise Refused("err-empty")
        name = words[0].lstrip("/").lower().split("@", 1)[0]
        args = words[1:]
        if name == "table" and args and args[0].lower() in ("create", "list", "close"):
            name = f"table-{args[0].lower()}"
            args = args[1:]
        elif name == "table":
            name = "table-list"
        ctx.args = args
        handler = self._handlers.get(name)
        if handler is None and name in TOURNAMENT_COMMANDS:
            if self._tournament_command is None:
                raise Refused("err-unknown-command", command=f"/{name}")
            return await self._tournament_command(name, ctx)
        if handler is None:
            raise Refused("err-unknown-command", command=parse.echo(words[0]))
        return await handler(ctx)

    async def press(self, ctx: Ctx, action: str) -> list[Reply]:
        if action.startswith("tn:"):
            if self._tournament_press is None:
                raise Refused("err-stale-button")
            return await self._tournament_press(ctx, action)
        for prefix, handler in self._presses.items():
            if action.startswith(prefix) and len(action) <= parse.MAX_PAYLOAD:
                return await handler(ctx, action)
        p = parse.press(action)
        t = self._registry.in_channel_by_id(p.table, ctx.channel)
        ctx.table = t
        ctx.args = [t.tid]
        code = p.code
        if code == "seed":
            return [Reply(_("seed-how", ctx.locale))]
        if code in BUTTON_COMMANDS:  # a table's or a hand's button is its command
            return await self._handlers[code](ctx)
        if (step := parse.value_step(code)) is not None:  # Coinche's bid, first step
            await self._turns.pick_value(ctx, t, p.seq, p.seat, step.value)
            return []
        try:
            act = Action.parse(code)
        except EngineError:
            raise Refused("err-stale-button") from None
        await self._turns.pressed(ctx, t, p.seq, p.seat, act)
        return []

    # --- moves: the words read here, the move made by the turns ----------------------

    async def bid(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx)
        if not ctx.args:
            raise Refused("err-bid-format")
        action = parse.bid(ctx.args)
        return await self._turns.player_action(ctx, t, action)

    def _call(self, action: Action) -> Handler:
        """``/coinche``, ``/surcoinche`` (Coinche): the same as ``/bid coinche``..."""

        async def call(ctx: Ctx) -> list[Reply]:
            t = self._registry.pick(ctx)
            return await self._turns.player_action(ctx, t, action)

        return call

    async def pass_(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx)
        return await self._turns.player_action(ctx, t, Action.pass_())

    async def play(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx)
        if not ctx.args:
            raise Refused("err-play-format")
        card = parse.card(ctx.args[0])
        flags = {a.lower() for a in ctx.args[1:4]}
        if len(ctx.args) > 4:
            raise Refused("err-play-format")
        if not flags <= {"belote", "melds", "nomelds"}:
            raise Refused("err-play-format")
        return await self._turns.play_card(ctx, t, card, flags)

    # --- reads -------------------------------------------------------------------------

    async def hand(self, ctx: Ctx) -> list[Reply]:
        """``/hand`` (or "Show my hand"): the player's hand, as the post it is."""
        t = self._registry.pick(ctx)
        async with self._registry.lock(t):  # never show a state whose commit is on its way
            run = t.run
            seat = t.seat_of(ctx.user.id)
            if run is None or run.match is None or run.over or seat is None:
                raise Refused("err-not-dealt")
            post = await self._presenter.hand(t, seat)
        return [
            Reply(
                post.text,
                image=post.image,
                image_name=post.image_name,
                buttons=post.buttons,
                key=post.key,  # the adapter's later hand posts edit this very message
                image_alt=post.image_alt,
            )
        ]

    async def score(self, ctx: Ctx) -> list[Reply]:
        t = self._registry.pick(ctx, seated=False)
        async with self._registry.lock(t):
            run = t.run
            if run is None and t.last_match is not None:  # the match ended before a restart
                entries = await self._store.log(t.last_match)
                run = MatchRun.replay(entries, t.id) if entries else None
            if run is None or run.match is None:
                raise Refused("err-no-score")
            watching = t.seat_of(ctx.user.id) is None and not ctx.user.is_admin
            if watching and not t.settings.spectators and not run.over:
                raise Refused("err-settings-spectators", table=t.tid)
            a, b = run.match.scores
        key = "score-final" if run.over else "score-reply"
        return [Reply(_(key, ctx.locale, table=t.tid, match=f"m{run.id}", a=a, b=b))]

    async def rules(self, ctx: Ctx) -> list[Reply]:
        ruleset = None
        for a in ctx.args:
            if not parse.is_table_ref(a):
                ruleset = parse.ruleset(a)
        if ruleset is None:
            here = self._registry.in_channel(ctx.channel)
            mine = [t for t in here if t.seat_of(ctx.user.id) is not None] or here
            ruleset = mine[0].settings.ruleset if mine else self._default_ruleset
        return [Reply(_(f"rules-{ruleset}", ctx.locale))]

    async def help(self, ctx: Ctx) -> list[Reply]:
        return [Reply(_("help", ctx.locale))]
