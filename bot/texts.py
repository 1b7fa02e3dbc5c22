"""Text pictures of a table and a hand (the console draws these; chat platforms show them
next to the rendered images). Every line is one whole message of the catalog."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bot.i18n import _
from engine import RULESETS, Action, card_text, cards_text

if TYPE_CHECKING:
    from bot.table import MatchRun, Seat, Table


def seat_label(seat: int) -> str:
    """Seats are 0..3 inside, 1..4 for people."""
    return str(seat + 1)


def seat_name(seat: Seat | None, locale: str) -> str:
    if seat is None:
        return _("seat-empty", locale)
    if seat.is_bot:
        return _bot_name(seat.name, seat.level, locale)
    return seat.name


# The texts below are built for every move of every table: their fixed parts (a bot's
# name, the header, a seat's line) are made once per distinct value and reused.


@lru_cache(maxsize=1024)
def _bot_name(name: str, level: str, locale: str) -> str:
    return _("seat-bot", locale, name=name, level=_(f"level-{level}", locale))


@lru_cache(maxsize=8192)
def _seat_line(key: str, locale: str, seat: int, name: str) -> str:
    team = _("team-a", locale) if seat % 2 == 0 else _("team-b", locale)
    return _(key, locale, seat=seat_label(seat), name=name, team=team)


@lru_cache(maxsize=4096)
def _header(table: str, ruleset: str, target: int, timer: int, locale: str) -> str:
    return _("table-header", locale, table=table, ruleset=ruleset, target=target, timer=timer)


def contract_text(contract: Any, locale: str) -> str:
    if contract is None:
        return ""
    trump = _(f"contract-{contract.trump}", locale)
    if getattr(contract, "multiplier", 1) == 2:
        return _("contract-contre", locale, trump=trump)
    if getattr(contract, "multiplier", 1) == 4:
        return _("contract-recontre", locale, trump=trump)
    return trump


def action_label(action: Action, locale: str) -> str:
    """A button's label for one legal action."""
    if action.kind == "pass":
        return _("label-pass", locale)
    if action.kind == "take":
        return _("label-take", locale)
    if action.kind == "bid":
        return _(f"contract-{action.contract}", locale)
    if action.kind == "contre":
        return _("label-contre", locale)
    if action.kind == "recontre":
        return _("label-recontre", locale)
    card = card_text(action.card)
    if action.belote and action.melds:
        return _("label-play-melds-belote", locale, card=card)
    if action.belote:
        return _("label-play-belote", locale, card=card)
    if action.melds:
        return _("label-play-melds", locale, card=card)
    return card


def bid_universe(view: Any, legal: list[Action]) -> list[Action]:
    """Every bid a player could make at this point of the auction, legal now or not.

    French: round 1 is pass / take, round 2 is pass and the four suits (the turned one is
    never legal then). Bulgarian: pass, the six contracts, contre and recontre. A legal
    action the list would miss is added at the end, so nothing legal is ever hidden.
    """
    rules = RULESETS.get(getattr(view, "ruleset", ""), None)
    if rules is not None and rules.auction == "french":
        if len(view.bids) < 4:
            out = [Action.pass_(), Action.take()]
        else:
            out = [Action.pass_(), *(Action.bid(s) for s in "CDHS")]
    else:
        out = [
            Action.pass_(),
            *(Action.bid(c) for c in ("C", "D", "H", "S", "NT", "AT")),
            Action.contre(),
            Action.recontre(),
        ]
    return out + [a for a in legal if a not in out]


def hand_order(view: Any) -> list[int]:
    """The cards of a view's hand in the order the hand picture shows them."""
    trump = view.contract.trump if view.contract is not None else None
    try:
        from bot.render.order import sort_hand
    except ImportError:
        return sorted(view.hand)
    return sort_hand(view.hand, trump)


def default_play(variants: list[Action], *, belote: bool = False, melds: bool = True) -> Action:
    """The variant of one card a player means by that card alone (``/play KH`` or its
    button): melds declared by default, belote when it was announced beforehand."""
    return max(variants, key=lambda a: (a.belote == belote) * 2 + (a.melds == melds))


def action_command(action: Action) -> str:
    """The command a player types for an action (what the console shows as choices)."""
    if action.kind == "play":
        flags = (" melds" if action.melds else "") + (" belote" if action.belote else "")
        return f"/play {card_text(action.card)}{flags}"
    if action.kind == "bid":
        return f"/bid {action.contract}"
    return f"/bid {action.kind}"


def seats_lines(t: Table, locale: str) -> list[str]:
    run = t.run if t.run is not None and not t.run.over else None
    lines = []
    for i in range(4):
        seat = run.seats[i] if run is not None else t.seats[i]
        if run is not None and run.left[i]:
            key = "seat-line-gone"
        elif run is not None and run.replaced[i]:
            key = "seat-line-away"
        elif run is not None and run.phase == "play" and run.to_move == i:
            key = "seat-line-turn"
        else:
            key = "seat-line"
        lines.append(_seat_line(key, locale, i, seat_name(seat, locale)))
    return lines


def table_text(t: Table, locale: str, now: float | None = None) -> str:
    """The one public message of a table, edited in place as the match goes."""
    s = t.settings
    lines = [
        _header(t.tid, s.ruleset, s.target or RULESETS[s.ruleset].target, int(s.timer), locale)
    ]
    run = t.run
    if t.status == "closed":
        lines.append(_("table-closed", locale))
        return "\n".join(lines)
    lines += seats_lines(t, locale)
    if run is None or (run.over and t.status == "open" and run.id != t.last_match):
        free = len(t.free_seats())
        lines.append(_("table-waiting", locale, free=free) if free else _("table-ready", locale))
        return "\n".join(lines)
    lines.append(_("table-match", locale, match=f"m{run.id}"))
    if run.phase == "seeds":
        lines.append(_("table-phase-seeds", locale))
    elif run.phase == "drand":
        lines.append(_("table-phase-drand", locale, round=run.drand_round))
    if run.match is not None:
        lines += _match_lines(run, locale, now)
    if run.over:
        if run.aborted:
            lines.append(_("table-aborted", locale))
        else:
            lines.append(_("table-over", locale))
        lines.append(seed_line(run, locale))
    return "\n".join(lines)


def seed_line(run: MatchRun, locale: str) -> str:
    """The revealed server seed of a match that is over (never called before)."""
    assert run.over
    return _("table-seed-line", locale, seed=run.server_seed.hex(), match=f"m{run.id}")


def final_hand_text(run: MatchRun, seat: int, locale: str) -> str:
    """A player's private message once the match is over: the result, nothing to press."""
    lines = [_("hand-over", locale, table=f"t{run.table_id}", match=f"m{run.id}")]
    m = run.match
    if run.aborted or m is None or m.winner is None:
        lines.append(_("table-aborted", locale))
    else:
        team = _("team-a", locale) if m.winner == 0 else _("team-b", locale)
        a, b = m.scores
        lines.append(_("winner-line", locale, team=team, a=a, b=b))
    lines.append(seed_line(run, locale))
    return "\n".join(lines)


def _name(run: MatchRun, seat: int, locale: str) -> str:
    return seat_name(run.seats[seat], locale)


def _match_lines(run: MatchRun, locale: str, now: float | None) -> list[str]:
    m = run.match
    assert m is not None
    v = m.view(None)
    lines = [_("score-line", locale, a=v.scores[0], b=v.scores[1])]
    if m.to_move is not None:
        lines.append(_("deal-line", locale, deal=v.k + 1, dealer=_name(run, v.dealer, locale)))
    if v.contract is not None:
        lines.append(
            _(
                "contract-line",
                locale,
                contract=contract_text(v.contract, locale),
                taker=_name(run, v.contract.taker, locale),
            )
        )
    elif v.turned is not None:
        lines.append(_("turned-line", locale, card=card_text(v.turned)))
    if v.contract is None and v.bids:
        bids = ", ".join(f"{_name(run, s, locale)}: {b}" for s, b in v.bids)
        lines.append(_("bids-line", locale, bids=bids))
    if v.trick:
        played = ", ".join(f"{_name(run, s, locale)} {card_text(c)}" for s, c in v.trick)
        lines.append(_("trick-line", locale, cards=played))
    elif v.tricks:
        last = v.tricks[-1]
        played = ", ".join(f"{_name(run, s, locale)} {card_text(c)}" for s, c in last.cards)
        lines.append(
            _("last-trick-line", locale, cards=played, winner=_name(run, last.winner, locale))
        )
    if v.last_result is not None and not v.tricks and not v.trick:
        lines.append(_("last-deal-line", locale, result=_result_text(v.last_result)))
    if run.last_action is not None and run.last_action[2] == "timeout":
        lines.append(_("timeout-line", locale, name=_name(run, run.last_action[0], locale)))
    mover = run.to_move
    if mover is not None:
        if run.is_auto(mover):
            lines.append(_("turn-line-bot", locale, name=_name(run, mover, locale)))
        else:
            left = max(0, int(run.last_at + run.timer - (now if now is not None else run.last_at)))
            lines.append(_("turn-line", locale, name=_name(run, mover, locale), seconds=left))
    elif m.winner is not None:
        winners = _("team-a", locale) if m.winner == 0 else _("team-b", locale)
        lines.append(_("winner-line", locale, team=winners, a=v.scores[0], b=v.scores[1]))
    return lines


def _result_text(result: Any) -> str:
    pts = getattr(result, "points", None) or getattr(result, "scores", None)
    if pts is not None:
        try:
            return f"{pts[0]} - {pts[1]}"
        except (TypeError, IndexError, KeyError):
            pass
    return str(result)


def hand_text(run: MatchRun, seat: int, locale: str) -> str:
    """A player's private message: their cards and, on their turn, what they may do."""
    m = run.match
    assert m is not None
    v = m.view(seat)
    lines = [_("hand-line", locale, table=f"t{run.table_id}", cards=cards_text(list(v.hand)))]
    if v.contract is not None:
        lines.append(_("hand-contract", locale, contract=contract_text(v.contract, locale)))
    if v.legal and not run.is_auto(seat):
        choices = ", ".join(action_command(a) for a in v.legal)
        lines.append(_("hand-your-turn", locale, choices=choices))
    elif run.replaced[seat]:
        lines.append(_("hand-away", locale))
    return "\n".join(lines)


def seeds_text(run: MatchRun, locale: str) -> str:
    lines = [_("seeds-header", locale, match=f"m{run.id}")]
    for i, seat in enumerate(run.seats):
        seed = run.seat_seeds[i]
        lines.append(
            _(
                "seeds-line",
                locale,
                seat=seat_label(i),
                name=seat_name(seat, locale),
                seed=seed.hex() if seed is not None else "none",
            )
        )
    return "\n".join(lines)
