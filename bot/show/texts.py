"""Text pictures of a table and a hand (the console draws these; chat platforms show them
next to the rendered images). Every line is one whole message of the catalog."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bot.show.i18n import _
from engine import RULESETS, Action, CardPlayed, Event, MeldsShown, Redealt, card_text, cards_text
from engine.contract import BID_WORDS
from engine.options import OPTIONS

OPTION_ORDER = tuple(spec.name for spec in OPTIONS)

if TYPE_CHECKING:
    from bot.play.table import MatchRun, Seat, Table

Lines = list[tuple[str, str]]  # (kind, text): a message line by line, see table_lines


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
    key = "table-header" if timer > 0 else "table-header-untimed"
    return _(key, locale, table=table, ruleset=ruleset, target=target, timer=timer)


#: The suits as the cards show them; a Coinche bid reads ``90 ♥``.
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def value_label(value: int, locale: str) -> str:
    """A Coinche bid's value as a button shows it: ``90``, ``Capot``, ``Générale``."""
    word = BID_WORDS.get(value)
    return _(f"bid-{word}", locale) if word is not None else str(value)


def bid_label(value: int, contract: str, locale: str) -> str:
    """A Coinche bid as written everywhere: ``90 ♥``, ``Capot ♠``, ``Générale NT``."""
    trump = SUIT_SIGNS.get(contract) or _(f"contract-short-{contract}", locale)
    return _("bid-label", locale, value=value_label(value, locale), trump=trump)


def ruleset_text(ruleset: str, options: Any, locale: str) -> str:
    """The ruleset as a table's header names it, with the options its table set:
    ``coinche (No Trump, générale)``."""
    names = [name for name in OPTION_ORDER if options and options.get(name)]
    if not names:
        return ruleset
    shown = ", ".join(_(f"option-{name}", locale) for name in names)
    return _("ruleset-options", locale, ruleset=ruleset, options=shown)


def contract_text(contract: Any, locale: str) -> str:
    if contract is None:
        return ""
    bid = getattr(contract, "bid", None)
    if bid is not None:  # Coinche: the value bid, and its coinche or surcoinche
        shown = bid_label(bid, contract.trump, locale)
        mult = getattr(contract, "multiplier", 1)
        if mult == 2:
            return _("contract-coinche", locale, contract=shown)
        if mult == 4:
            return _("contract-surcoinche", locale, contract=shown)
        return shown
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
    if action.kind == "bid" and action.value is not None and action.contract is not None:
        return bid_label(action.value, action.contract, locale)
    if action.kind == "bid":
        return _(f"contract-{action.contract}", locale)
    if action.kind in ("coinche", "surcoinche"):
        return _(f"label-{action.kind}", locale)
    if action.kind == "contre":
        return _("label-contre", locale)
    if action.kind == "recontre":
        return _("label-recontre", locale)
    assert action.card is not None  # every other kind has returned above
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
        from bot.show.render.order import sort_hand
    except ImportError:
        return sorted(view.hand)
    return sort_hand(view.hand, trump)


def default_play(variants: list[Action], *, belote: bool = False, melds: bool = True) -> Action:
    """The variant of one card a player means by that card alone (``/play KH`` or its
    button): melds declared by default, belote when it was announced beforehand."""
    return max(variants, key=lambda a: (a.belote == belote) * 2 + (a.melds == melds))


def action_command(action: Action) -> str:
    """The command a player types for an action (what the console shows as choices)."""
    if action.kind == "play" and action.card is not None:
        flags = (" melds" if action.melds else "") + (" belote" if action.belote else "")
        return f"/play {card_text(action.card)}{flags}"
    if action.kind == "bid" and action.value is not None:
        return f"/bid {BID_WORDS.get(action.value, action.value)} {action.contract}"
    if action.kind == "bid":
        return f"/bid {action.contract}"
    if action.kind in ("coinche", "surcoinche"):
        return f"/{action.kind}"
    return f"/bid {action.kind}"


def _seat_lines(t: Table, locale: str) -> Lines:
    run = t.run if t.run is not None and not t.run.over else None
    lines: Lines = []
    for i in range(4):
        seat = run.seats[i] if run is not None else t.seats[i]
        kind = "seat"
        if run is not None and run.left[i]:
            key = "seat-line-gone"
        elif run is not None and run.replaced[i]:
            key = "seat-line-away"
        elif run is not None and run.phase == "play" and run.to_move == i:
            key, kind = "seat-line-turn", "seat-turn"
        else:
            key = "seat-line"
        lines.append((kind, _seat_line(key, locale, i, seat_name(seat, locale))))
    return lines


def join(lines: Lines) -> str:
    return "\n".join(text for _kind, text in lines)


def table_lines(t: Table, locale: str, now: float | None = None) -> Lines:
    """The one public message of a table (edited in place as the match goes), line by
    line, each with its kind (``LINE_KINDS``), so that a terminal, which cannot edit a
    message, can choose what to print again."""
    s = t.settings
    lines: Lines = [
        (
            "header",
            _header(
                t.tid,
                ruleset_text(s.ruleset, s.options, locale),
                s.target or RULESETS[s.ruleset].target,
                int(s.timer),
                locale,
            ),
        )
    ]
    run = t.run
    if t.status == "closed":
        lines.append(("closed", _("table-closed", locale)))
        return lines
    lines += _seat_lines(t, locale)
    if run is None or (run.over and t.status == "open" and run.id != t.last_match):
        free = len(t.free_seats())
        lines.append(
            ("lobby", _("table-waiting", locale, free=free) if free else _("table-ready", locale))
        )
        return lines
    lines.append(("match", _("table-match", locale, match=f"m{run.id}")))
    if run.phase == "seeds":
        lines.append(("phase", _("table-phase-seeds", locale)))
    elif run.phase == "drand":
        lines.append(("phase", _("table-phase-drand", locale, round=run.drand_round)))
    if run.match is not None:
        lines += _match_lines(run, locale, now)
    if run.over:
        if run.aborted:
            lines.append(("over", _("table-aborted", locale)))
        else:
            lines.append(("over", _("table-over", locale)))
        lines.append(("seed", seed_line(run, locale)))
    return lines


def seed_line(run: MatchRun, locale: str) -> str:
    """The revealed server seed of a match that is over (never called before)."""
    assert run.over
    return _("table-seed-line", locale, seed=run.server_seed.hex(), match=f"m{run.id}")


def final_hand_lines(run: MatchRun, seat: int, locale: str) -> Lines:
    """A player's private message once the match is over: the result, nothing to press."""
    lines: Lines = [
        ("hand-over", _("hand-over", locale, table=f"t{run.table_id}", match=f"m{run.id}"))
    ]
    m = run.match
    if run.aborted or m is None or m.winner is None:
        lines.append(("over", _("table-aborted", locale)))
    else:
        team = _("team-a", locale) if m.winner == 0 else _("team-b", locale)
        a, b = m.scores
        lines.append(("winner", _("winner-line", locale, team=team, a=a, b=b)))
    lines.append(("seed", seed_line(run, locale)))
    return lines


def _name(run: MatchRun, seat: int, locale: str) -> str:
    """A seat's name in the match's lines (the seat lines say who is a bot)."""
    return run.seats[seat].name


def _match_lines(run: MatchRun, locale: str, now: float | None) -> Lines:
    m = run.match
    assert m is not None
    v = m.view(None)
    lines: Lines = [("score", _("score-line", locale, a=v.scores[0], b=v.scores[1]))]
    if m.to_move is not None:
        lines.append(
            ("deal", _("deal-line", locale, deal=v.k + 1, dealer=_name(run, v.dealer, locale)))
        )
    if v.turned is not None and v.contract is None:
        lines.append(("turned", _("turned-line", locale, card=card_text(v.turned))))
    if v.bids:  # the whole auction stays on one line: how the contract came about
        bids = ", ".join(f"{run.seats[s].name}: {_bid_text(b, locale)}" for s, b in v.bids)
        lines.append(("bids", _("bids-line", locale, bids=bids)))
    if v.contract is not None:
        lines.append(
            (
                "contract",
                _(
                    "contract-line",
                    locale,
                    contract=contract_text(v.contract, locale),
                    taker=_name(run, v.contract.taker, locale),
                ),
            )
        )
    if v.trick:
        played = ", ".join(f"{run.seats[s].name} {card_text(c)}" for s, c in v.trick)
        lines.append(("trick", _("trick-line", locale, cards=played)))
    if v.tricks:
        lines.append(("trick-won", trick_won_line(run, len(v.tricks), v.tricks[-1], locale)))
    if v.last_result is not None and not v.tricks and not v.trick:
        lines.append(("last-deal", _("last-deal-line", locale, result=_result_text(v.last_result))))
    if run.last_action is not None and run.last_action[2] == "timeout":
        lines.append(
            ("timeout", _("timeout-line", locale, name=_name(run, run.last_action[0], locale)))
        )
    mover = run.to_move
    if mover is not None:
        if run.is_auto(mover) or run.timer <= 0:
            kind = "turn-bot" if run.is_auto(mover) else "turn"
            lines.append((kind, _("turn-line-bot", locale, name=_name(run, mover, locale))))
        else:
            left = max(0, int(run.last_at + run.timer - (now if now is not None else run.last_at)))
            lines.append(
                ("turn", _("turn-line", locale, name=_name(run, mover, locale), seconds=left))
            )
    elif m.winner is not None:
        winners = _("team-a", locale) if m.winner == 0 else _("team-b", locale)
        lines.append(
            ("winner", _("winner-line", locale, team=winners, a=v.scores[0], b=v.scores[1]))
        )
    return lines


def trick_won_line(run: MatchRun, number: int, trick: Any, locale: str) -> str:
    """``Trick 3: Ada 7H, Bruno AS, Chloe KH, you QH; Bruno wins it.``"""
    played = ", ".join(f"{run.seats[s].name} {card_text(c)}" for s, c in trick.cards)
    return _(
        "trick-won-line", locale, number=number, cards=played, winner=run.seats[trick.winner].name
    )


def _bid_text(bid: str, locale: str) -> str:
    """A bid as the auction line shows it: ``pass``, ``take``, ``Spades``, ``contre``,
    Coinche's ``90 ♥`` and ``Coinche!``."""
    kind, _sep, arg = bid.partition(" ")
    if kind == "bid" and " " in arg:
        action = Action.parse(bid)
        if action.value is not None and action.contract is not None:
            return bid_label(action.value, action.contract, locale)
    if kind == "bid" and arg:
        return _(f"contract-{arg}", locale)
    if kind in ("pass", "take", "contre", "recontre", "coinche", "surcoinche"):
        return _(f"label-{kind}", locale)
    return bid


def _result_text(result: Any) -> str:
    pts = getattr(result, "points", None) or getattr(result, "scores", None)
    if pts is not None:
        try:
            return f"{pts[0]} - {pts[1]}"
        except (TypeError, IndexError, KeyError):
            pass
    return str(result)


def hand_lines(run: MatchRun, seat: int, locale: str) -> Lines:
    """A player's private message: their cards and, on their turn, what they may do."""
    m = run.match
    assert m is not None
    v = m.view(seat)
    lines: Lines = [
        ("hand", _("hand-line", locale, table=f"t{run.table_id}", cards=cards_text(list(v.hand))))
    ]
    if v.contract is not None:
        lines.append(
            (
                "hand-contract",
                _("hand-contract", locale, contract=contract_text(v.contract, locale)),
            )
        )
    if v.legal and not run.is_auto(seat):
        every = _melds_with_every_card(v.legal)
        offered = choices(v.legal, belote=run.belote_intent[seat], melds_hint=every)
        lines.append(("your-turn", _("hand-your-turn", locale, choices=", ".join(offered))))
        if every:  # one line for the choice every card has, not a second copy of each
            card = next(a.card for a in v.legal if a.card is not None)
            example = f"/play {card_text(card)}"
            lines.append(("melds-hint", _("hand-melds-hint", locale, example=example)))
    elif run.replaced[seat]:
        lines.append(("away", _("hand-away", locale)))
    return lines


def _melds_with_every_card(legal: Any) -> bool:
    """Does every card the player may play leave the choice of declaring melds?"""
    plays = [a for a in legal if a.kind == "play"]
    return bool(plays) and all(
        any(b.card == a.card and b.melds for b in plays)
        and any(b.card == a.card and not b.melds for b in plays)
        for a in plays
    )


def valued_bids_command(legal: Any) -> str:
    """Coinche's bids, up to 66 of them, as one entry to type: ``/bid 90…160|capot
    C|D|H|S`` (each value bid with each contract)."""
    values = list(dict.fromkeys(a.value for a in legal if a.kind == "bid" and a.value))
    contracts = list(dict.fromkeys(a.contract for a in legal if a.kind == "bid" and a.value))
    numbers = [v for v in values if v not in BID_WORDS]
    parts = []
    if numbers:
        parts.append(str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}…{numbers[-1]}")
    parts += [BID_WORDS[v] for v in values if v in BID_WORDS]
    return f"/bid {'|'.join(parts)} {'|'.join(contracts)}"


def choices(legal: Any, *, belote: bool = False, melds_hint: bool = False) -> list[str]:
    """What a player may type now, one entry per choice: a card alone plays its usual
    variant (melds declared, belote if announced before), and a card that leaves a choice
    also gets the words that make the other one (``/play TD nomelds``, ``/play KH belote``).
    ``melds_hint``: the melds choice is said once beside the list, not with every card."""
    out: list[str] = []
    cards: dict[int, list[Action]] = {}
    valued = False
    for a in legal:
        if a.kind == "play":
            cards.setdefault(a.card, []).append(a)
        elif a.kind == "bid" and a.value is not None:
            if not valued:
                out.append(valued_bids_command(legal))  # Coinche: one entry for them all
            valued = True
        else:
            out.append(action_command(a))
    for card, variants in cards.items():
        usual = default_play(variants, belote=belote)
        out.append(f"/play {card_text(card)}")
        for a in variants:
            if a == usual:
                continue
            if usual.belote and not a.belote:
                continue  # belote was announced: the card carries it
            flags = []
            if a.melds != usual.melds:
                if melds_hint and not a.belote:
                    continue
                flags.append("melds" if a.melds else "nomelds")
            if a.belote:
                flags.append("belote")
            if flags:
                out.append(" ".join([f"/play {card_text(card)}", *flags]))
    return out


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


def result_lines(run: MatchRun, record: Any, locale: str) -> Lines:
    """A finished deal as its result picture has it: the contract and its outcome, the
    last trick, where the points came from, what was scored and the match score."""
    r = record.result
    c = r.contract
    team_of = [_("team-a", locale), _("team-b", locale)]
    taker_team = team_of[c.taker % 2]
    outcome = _(f"outcome-{r.outcome}", locale, held=r.held)
    if r.capot is not None:
        outcome = _("outcome-capot", locale, outcome=outcome, team=team_of[r.capot])
    lines: Lines = [
        (
            "result",
            _(
                "result-head",
                locale,
                deal=r.k + 1,
                contract=contract_text(c, locale),
                taker=run.seats[c.taker].name,
                team=taker_team,
                outcome=outcome,
            ),
        )
    ]
    tricks = played_tricks(record)
    if tricks:
        lines.append(("trick-won", trick_won_line(run, len(tricks), tricks[-1], locale)))
    factor = 2 if c.trump == "NT" else 1
    cards = list(r.card_points)
    last = [0, 0]
    if tricks and len(tricks) == 8:
        last[tricks[-1].winner % 2] = 10
        cards[tricks[-1].winner % 2] -= 10

    def pair(values: Any) -> str:
        return f"{values[0]}–{values[1]}"

    lines.append(
        (
            "result-points",
            _(
                "result-points",
                locale,
                cards=pair([x * factor for x in cards]),
                last=pair([x * factor for x in last]),
                melds=pair(r.melds),
                belote=pair(r.belotes),
                total=pair(r.totals),
            ),
        )
    )
    target = run.target or RULESETS[run.ruleset].target
    lines.append(
        (
            "result-scored",
            _(
                "result-scored",
                locale,
                a=_signed(r.points[0] + r.paid[0]),
                b=_signed(r.points[1] + r.paid[1]),
                sa=r.scores[0],
                sb=r.scores[1],
                target=target,
            ),
        )
    )
    return lines


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def played_tricks(record: Any) -> list[Any]:
    """The deal's complete tricks (cards in play order and the winner), from its record."""
    from bot.show.render.history import tricks_of

    return [
        _Trick(tuple((p.seat, p.card) for p in t.plays), t.winner)
        for t in tricks_of(record)
        if t.winner is not None
    ]


class _Trick:
    """What ``trick_won_line`` reads of a trick: its cards in play order and its winner."""

    def __init__(self, cards: tuple[tuple[int, int], ...], winner: int) -> None:
        self.cards = cards
        self.winner = winner


def announcement_lines(run: MatchRun, events: Sequence[Event], locale: str) -> Lines:
    """What the table is told as it happens: each meld shown (and whether it counts),
    belote announced, a deal everybody passed and that is dealt again. One line each,
    kinds ``meld``, ``belote``, ``redeal``; empty when nothing of the kind happened."""
    lines: Lines = []
    for e in events:
        if isinstance(e, CardPlayed) and e.belote:
            seat = e.seat
            lines.append(
                (
                    "belote",
                    _(
                        "announce-belote",
                        locale,
                        name=_name(run, seat, locale),
                        team=_team(seat, locale),
                    ),
                )
            )
        elif isinstance(e, MeldsShown):
            for seat, meld, counts in e.melds:
                key = "announce-meld" if counts else "announce-meld-void"
                lines.append(
                    (
                        "meld",
                        _(
                            key,
                            locale,
                            name=_name(run, seat, locale),
                            team=_team(seat, locale),
                            meld=meld_name(meld.to_dict(), locale),
                            points=meld.points,
                        ),
                    )
                )
        elif isinstance(e, Redealt):
            lines.append(("redeal", _("announce-redeal", locale, deal=e.k + 1)))
    return lines


def _team(seat: int, locale: str) -> str:
    return _("team-a", locale) if seat % 2 == 0 else _("team-b", locale)


def meld_name(meld: dict[str, Any], locale: str) -> str:
    """``a tierce to KH``, ``a carré of jacks`` in the player's language, from the
    engine's meld (its ``kind`` and ``cards``)."""
    cards = list(meld.get("cards", ()))
    if meld.get("kind") == "carre":
        return _("meld-carre", locale, rank=cards[0][0] if cards else "?")
    length = len(cards)
    top = cards[-1] if cards else "?"
    key = {3: "meld-tierce", 4: "meld-quarte", 5: "meld-quinte"}.get(length, "meld-run")
    return _(key, locale, card=top, length=length)


def replay_lines(record: Any, names: Sequence[str], locale: str, head: str) -> Lines:
    """``/replay``'s caption: in words what its animated picture shows (for whoever cannot
    see it, and where a caption is all a chat shows of it): every hand as dealt, the
    contract, each trick's four cards and who took it, and the deal's points."""
    from engine import parse_card, trick_winner

    lines: Lines = [("replay", head)]
    for seat, hand in enumerate(record.hands):
        lines.append(
            ("replay-hand", _("replay-hand", locale, name=names[seat], cards=cards_text(hand)))
        )
    contract = record.contract
    if contract is not None:
        said = _("hand-contract", locale, contract=contract_text(contract, locale))
        lines.append(("replay-contract", said))
    plays = [
        (seat, parse_card(str(action).split()[1]))
        for seat, action in record.actions
        if str(action).split()[:1] == ["play"]
    ]
    for n in range(0, len(plays) - len(plays) % 4, 4):
        trick = plays[n : n + 4]
        if contract is None:
            break
        winner = trick[trick_winner(contract.trump, [c for _s, c in trick])][0]
        lines.append(
            (
                "replay-trick",
                _(
                    "replay-trick",
                    locale,
                    number=n // 4 + 1,
                    cards=cards_text([c for _s, c in trick]),
                    name=names[winner],
                ),
            )
        )
    result = record.result
    if result is not None:
        lines.append(
            ("replay-points", _("replay-points", locale, a=result.points[0], b=result.points[1]))
        )
    return lines
