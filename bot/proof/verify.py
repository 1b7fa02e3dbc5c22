"""Check a match transcript: the seed, every deck, every hand, every action, every score.

Nothing here trusts the transcript: decks are re-made by the recipe from the revealed
inputs, and the match is replayed through the engine from those inputs and the recorded
actions, so the hands dealt, the contracts, each deal's count and the result are the
engine's and are compared with what the transcript says. The table is the ruleset's (four
seats, the 32-card deck): anything else is refused, never half checked.

Each check has a status: ``ok``, ``fail`` (something differs: the deals cannot be trusted),
``unchecked`` (a check that had to be made could not be: the verdict is "not verified",
never "fair") or ``skip`` (an optional extra, drand's own answer, that was not made: the
BLS signature check already proves drand's value). A check about one deal names it as
people count deals, from 1 ("deal 1"); the recipe's deal number stays k, from 0
("deck k=0"). Seats are 1 to 4 and teams A (seats 1 and 3) and B (seats 2 and 4).

web/verify/checks.js makes the same checks with the same names, statuses and deals: the
corpus under tests/corpus/ holds both to it.

The server seed is revealed by then, so showing it in the report is fine.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from bot.proof.drand import QUICKNET_CHAIN_HASH, Beacon, DrandClient, verify_beacon
from bot.proof.transcript import RECIPE, Transcript, deal_score, match_result
from engine import (
    RULESETS,
    DeckInputs,
    EngineError,
    Match,
    TableRules,
    card_text,
    shuffled_deck,
)

SERVER_SEED_BYTES = 32
SEAT_SEED_BYTES = 16
#: Every ruleset deals to four seats from the 32-card deck.
SEATS = 4
DECK_SIZE = 32
#: The largest drand round both checkers read exactly (a browser's numbers are exact up
#: to 2^53 - 1; quicknet reaches it in about 850 million years).
MAX_ROUND = 2**53 - 1

OK, FAIL, UNCHECKED, SKIP = "ok", "fail", "unchecked", "skip"
FAIR, UNFAIR, NOT_VERIFIED = "fair", "unfair", "not verified"
_CUMULATIVE = ("paid", "scores")


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    message: str
    deal: int | None = None  # the deal it is about, numbered from 1

    @property
    def ok(self) -> bool:
        return self.status in (OK, SKIP)


@dataclass
class VerifyReport:
    match: str
    checks: list[Check] = field(default_factory=list)
    _fails: int = 0

    @property
    def verdict(self) -> str:
        """``fair`` only when every check that had to be made was made and passed."""
        if any(c.status == FAIL for c in self.checks):
            return UNFAIR
        if not self.checks or any(c.status == UNCHECKED for c in self.checks):
            return NOT_VERIFIED
        return FAIR

    @property
    def ok(self) -> bool:
        return self.verdict == FAIR

    @property
    def failed(self) -> list[Check]:
        """The checks that failed or could not be made."""
        return [c for c in self.checks if not c.ok]

    @property
    def deals(self) -> list[int]:
        """The deals (from 1) a failed check names, in order."""
        return sorted({c.deal for c in self.checks if c.status == FAIL and c.deal is not None})

    @property
    def deal(self) -> int | None:
        """The first deal that went wrong (from 1), or None."""
        return self.deals[0] if self.deals else None

    def check(self, name: str) -> Check | None:
        """The check of that name (``None`` when it was not run)."""
        return next((c for c in self.checks if c.name == name), None)

    @property
    def fails(self) -> int:
        """How many checks failed so far (kept as they are added: 10,000 deals)."""
        return self._fails

    def add(self, name: str, status: str, message: str, deal: int | None = None) -> None:
        self.checks.append(Check(name, status, message, deal))
        self._fails += status == FAIL

    def text(self) -> str:
        marks = {OK: "ok    ", FAIL: "FAILED", UNCHECKED: "NOT CHECKED", SKIP: "not asked"}
        lines = [f"Match {self.match}"]
        for c in self.checks:
            lines.append(f"  {marks[c.status]} {c.name}: {c.message}")
        verdict = self.verdict
        if verdict == FAIR:
            lines.append("Every check passed: the deals were fair.")
        elif verdict == NOT_VERIFIED:
            lines.append("Not verified: a check could not be made (see above).")
        else:
            n_bad = sum(c.status == FAIL for c in self.checks)
            where = f" First wrong: deal {self.deal}." if self.deal else ""
            lines.append(
                f"{n_bad} check{'s' if n_bad != 1 else ''} failed: "
                f"the deals cannot be trusted.{where}"
            )
        return "\n".join(lines)


# --- helpers ---------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """JSON equality as a browser sees it: numbers by value (1 == 1.0), but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _first_difference(told: Any, made: Any) -> str:
    """The first field of a deal's count that differs, for the message."""
    if isinstance(told, dict) and isinstance(made, dict):
        for key in made:
            if key not in told or not same(told[key], made[key]):
                return key
        return next((k for k in told if k not in made), "")
    return ""


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _hex(text: str | None, length: int) -> bytes | None:
    if text is None:
        return None
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        return None
    return raw if len(raw) == length and len(text) == 2 * length else None


def _seat(s: int) -> str:
    return f"seat {s + 1}"


# --- the checks ------------------------------------------------------------------------


def _check_commitment(t: Transcript, report: VerifyReport) -> None:
    if t.server_seed is None:
        report.add(
            "commitment",
            UNCHECKED,
            "The server has not revealed its seed yet: the match can be checked once it ends.",
        )
        return
    seed = _hex(t.server_seed.strip().lower(), SERVER_SEED_BYTES)
    if seed is None:
        report.add("commitment", FAIL, "The server seed is not 64 hexadecimal digits.")
        return
    digest = hashlib.sha256(seed).hexdigest()
    if digest == t.commitment.strip().lower():
        report.add(
            "commitment",
            OK,
            f"The server seed {t.server_seed} hashes to the commitment shown before the seeds.",
        )
        return
    report.add(
        "commitment",
        FAIL,
        f"The server seed hashes to {digest}, not to the commitment {t.commitment} "
        "shown before the seeds: the server changed its seed.",
    )


async def _check_drand(
    t: Transcript, report: VerifyReport, online: bool, client: DrandClient | None
) -> None:
    d = t.drand
    if d is None:
        report.add(
            "drand",
            OK,
            "Dealt without drand (its value had not arrived in time): from the server's "
            "seed and the players' seeds alone.",
        )
        return
    if d.chain.strip().lower() != QUICKNET_CHAIN_HASH:
        report.add("drand", FAIL, f"Unknown drand chain {d.chain}; expected quicknet.")
        return
    if not 1 <= d.round <= MAX_ROUND:
        report.add("drand", FAIL, f"{d.round} is not a drand round (1 to 2^53 - 1).")
        return
    value = _hex(d.value.strip().lower(), 32)
    signature = _hex(d.signature.strip().lower(), 48)
    if value is None or signature is None:
        report.add("drand", FAIL, "The drand value or signature is not hexadecimal.")
        return
    beacon = Beacon(d.round, value, signature)
    if await asyncio.to_thread(verify_beacon, beacon):
        report.add(
            "drand",
            OK,
            f"drand round {d.round}'s value is signed by quicknet's key (BLS signature checked).",
        )
    else:
        report.add(
            "drand",
            FAIL,
            f"The drand value for round {d.round} is not quicknet's: its signature does not "
            "check against quicknet's public key.",
        )
        return
    if not online:
        report.add(
            "drand online",
            SKIP,
            "Not asked (--online asks): the signature check above does not need it.",
        )
        return
    own = client is None
    client = client or DrandClient()
    try:
        served: Beacon | None = await client.fetch(d.round)
    finally:
        if own:
            await client.aclose()
    if served is None:
        report.add(
            "drand online",
            SKIP,
            f"Could not get round {d.round} from drand to compare; the signature check "
            "above does not need it.",
        )
    elif served.randomness == beacon.randomness:
        report.add("drand online", OK, f"drand itself serves the same value for {d.round}.")
    else:
        report.add(
            "drand online",
            FAIL,
            f"drand serves {served.randomness.hex()} for round {d.round}, "
            f"not the {d.value} the match was dealt from.",
        )


def _check_table(t: Transcript, report: VerifyReport) -> bool:
    """The ruleset, the recipe and the table: anything this checker cannot replay exactly
    is refused here, before any deal is looked at."""
    why = None
    if t.recipe != RECIPE:
        why = f"Unknown recipe {t.recipe!r}; this checker knows {RECIPE}."
    elif t.ruleset not in RULESETS:
        why = f"Unknown ruleset {t.ruleset[:20]!r}; the bot plays {', '.join(RULESETS)}."
    elif len(t.seats) != SEATS:
        why = f"{len(t.seats)} seats: every ruleset is played by {SEATS}."
    elif t.target is not None and t.target <= 0:
        why = f"The target {t.target} is not a positive number of points."
    else:
        try:
            rules = table_rules(t)
        except EngineError as exc:
            why = str(exc)
    if why:
        report.add("table", FAIL, why + " Nothing else is checked.")
        return False
    options = "".join(f", {name}" for name in rules.options)
    report.add(
        "table",
        OK,
        f"{t.ruleset}{options}, {SEATS} seats, the {DECK_SIZE}-card deck, recipe {RECIPE}.",
    )
    return True


def table_rules(t: Transcript) -> TableRules:
    """The rules the transcript names: its ruleset, target and options (raises EngineError,
    saying why, for an unknown option, one its ruleset does not know, or a target out of
    the range a table may set: the replay could not be the engine's)."""
    return TableRules.from_dict({"ruleset": t.ruleset, "target": t.target, "options": t.options})


def _inputs(t: Transcript, report: VerifyReport) -> DeckInputs | None:
    """The deck inputs the transcript states, or None (with a failed check) if malformed."""
    server_seed = _hex((t.server_seed or "").strip().lower(), SERVER_SEED_BYTES)
    if server_seed is None:
        report.add("inputs", FAIL, "The server seed is not 64 hexadecimal digits.")
        return None
    seeds: list[bytes | None] = []
    for i, seat in enumerate(t.seats):
        seed = None if seat.seed is None else _hex(seat.seed.strip().lower(), SEAT_SEED_BYTES)
        if seat.seed is not None and seed is None:
            report.add("inputs", FAIL, f"{_seat(i).capitalize()}'s seed is not 32 hex digits.")
            return None
        seeds.append(seed)
    drand_round = drand_value = None
    if t.drand is not None:
        drand_round = t.drand.round
        drand_value = _hex(t.drand.value.strip().lower(), 32)
        if drand_value is None or not 1 <= drand_round <= MAX_ROUND:
            report.add("inputs", FAIL, "The drand round or value cannot be read.")
            return None
    try:
        return DeckInputs(server_seed, tuple(seeds), drand_round, drand_value, DECK_SIZE)
    except ValueError as exc:
        report.add("inputs", FAIL, str(exc))
        return None


def _apply(match: Match, seat: int, text: str) -> str | None:
    """Apply one action; the engine's error text when it is refused."""
    try:
        match.apply(seat, text)
    except ValueError as exc:
        return str(exc) or type(exc).__name__
    return None


def _check_deck(report: VerifyReport, i: int, told: tuple[str, ...], k: int, made: list[str]):
    n = i + 1
    name = f"deal {n}: deck"
    if k != i:
        report.add(name, FAIL, f"Recorded as deck k={k}; deal {n} is dealt from deck k={i}.", n)
        return
    if len(told) != DECK_SIZE:
        report.add(
            name,
            FAIL,
            f"The deck has {len(told)} cards; every ruleset deals the {DECK_SIZE}-card deck.",
            n,
        )
        return
    if list(told) == made:
        report.add(name, OK, f"Deck k={i} is the one the recipe makes from the seeds.", n)
        return
    at = next(j for j, (a, b) in enumerate(zip(told, made, strict=True)) if a != b)
    report.add(
        name,
        FAIL,
        f"Deck k={i} differs from the recipe's from card {at + 1} on "
        f"(recipe: {' '.join(made[at : at + 4])}...).",
        n,
    )


def _first_packets(rec: Any, packets: tuple[int, ...]) -> list[list[int]]:
    """The cards each seat holds before the auction ends: the ruleset's packets, from the
    seat after the dealer (3 then 2: five cards; coinche's 3, 2, 3: all eight)."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for packet in packets:
        for j in range(1, 5):
            hands[(rec.dealer + j) % 4] += rec.deck[pos : pos + packet]
            pos += packet
    return hands


def _hands_problem(rec: Any, deal: Any, packets: tuple[int, ...]) -> str | None:
    told = [sorted(h) for h in deal.hands]
    if rec.hands:
        dealt = [sorted(card_text(c) for c in h) for h in rec.hands]
    else:  # the auction never ended (an action was refused): the first packets only
        dealt = [sorted(card_text(c) for c in h) for h in _first_packets(rec, packets)]
        told = [
            sorted(c for c in h if c in dealt[s]) if s < len(dealt) else sorted(h)
            for s, h in enumerate(deal.hands)
        ]
    turned = None if rec.turned is None else card_text(rec.turned)
    if rec.dealer != deal.dealer:
        return f"{_seat(rec.dealer).capitalize()} dealt, not {_seat(deal.dealer)}."
    if turned != deal.turned:
        return f"The turned card was {turned}, not {deal.turned}."
    if len(told) != SEATS:
        return f"{len(told)} hands are recorded, not {SEATS}."
    for s in range(SEATS):
        if dealt[s] != told[s]:
            return (
                f"{_seat(s).capitalize()} was dealt {' '.join(dealt[s])}, "
                f"not {' '.join(told[s]) or 'nothing'}."
            )
    return None


def _blame_thrown_in(t: Transcript, i: int, score: Any) -> range | None:
    """When deal i's count is right but the totals carried into it are not, and the deals
    just before it are recorded as thrown in, one of them was played and scored: the
    recorded totals after deal i then agree with deal i's (a deal's own totals that were
    changed would not). The indices of that run of thrown-in deals (the evidence fits any
    of them: each is named), or None."""
    told = t.deals[i].score
    if not isinstance(told, dict) or not isinstance(score, dict):
        return None
    if any(not same(told.get(key), score[key]) for key in score if key not in _CUMULATIVE):
        return None
    j = i
    while j > 0 and t.deals[j - 1].contract is None:
        j -= 1
    if j == i:
        return None
    after = next((d.score for d in t.deals[i + 1 :] if d.contract is not None), None)
    if isinstance(after, dict):
        try:
            parts = [[after[key][x] for key in ("scores", "points", "paid")] for x in (0, 1)]
        except (KeyError, TypeError, IndexError):
            return None
        if not all(_is_number(v) for row in parts for v in row):
            return None
        carried = [s - p - q for s, p, q in parts]
        return range(j, i) if same(carried, told.get("scores")) else None
    result = t.result if isinstance(t.result, dict) else {}
    return range(j, i) if same(result.get("scores"), told.get("scores")) else None


def _play_actions(match: Match, i: int, deal: Any) -> str | None:
    """Apply deal i's recorded actions to the engine's match; why one is refused, or None.
    A thrown-in deal (no contract) may hold passes only."""
    if deal.contract is None:
        bid = next((a for a in deal.actions if a[1].strip().lower() != "pass"), None)
        if bid is not None:
            return f"Recorded as thrown in, yet {_seat(bid[0])} says {bid[1]!r}."
    for a, (seat, text) in enumerate(deal.actions, start=1):
        if len(match.deals) > i + 1 or match.winner is not None:
            return f"Action {a} ({text!r} by {_seat(seat)}) comes after the deal ended."
        err = _apply(match, seat, text)
        if err is not None:
            return f"Action {a} ({text!r} by {_seat(seat)}) breaks the rules: {err}"
    return None


def _check_end(t: Transcript, match: Match, report: VerifyReport) -> None:
    """After the last deal recorded: the match is over, with the recorded result."""
    result = match_result(match)
    if match.winner is None:
        missing = len(match.deals)
        if _unfinished(t) and t.deals:
            report.add("result", UNCHECKED, "Not verified: the match never ended.")
            return
        j = len(t.deals)
        while j > 0 and t.deals[j - 1].contract is None:
            j -= 1
        for m in range(j + 1, len(t.deals) + 1):  # a match ends on a played deal
            report.add(
                f"deal {m}: play",
                FAIL,
                f"Recorded as thrown in, yet the match ends after it: a match ends on a "
                f"played deal, so deal {m} was played (or a deal after it is missing).",
                m,
            )
        report.add(
            "result",
            FAIL,
            f"The match is not over after the {len(t.deals)} deals recorded: "
            f"deal {missing} is missing ({_result_text(result)} so far).",
            missing,
        )
        return
    if same(result, t.result):
        report.add("result", OK, f"{_result_text(result)}, as the replay gives.")
    else:
        report.add(
            "result",
            FAIL,
            f"The replay gives: {_result_text(result)}; the transcript says {t.result}.",
        )


def _replay(t: Transcript, inputs: DeckInputs, report: VerifyReport) -> None:
    """Rebuild the match from the inputs and the actions; compare what the engine deals,
    what it allows and how it counts with what the transcript records."""
    match = Match(table_rules(t), inputs=inputs, target=t.target)
    stopped: int | None = None  # the deal (from 1) after which nothing can be compared
    for i, deal in enumerate(t.deals):
        n = i + 1
        made = [card_text(c) for c in shuffled_deck(inputs, i)]
        if stopped is not None:  # the decks do not depend on the play: each is checked
            _check_deck(report, i, deal.deck, deal.k, made)
            for part in ("hands", "play", "score"):
                why = f"Not checked: deal {stopped} failed."
                report.add(f"deal {n}: {part}", UNCHECKED, why, n)
            continue
        fails_before = report.fails
        _check_deck(report, i, deal.deck, deal.k, made)
        if len(match.deals) <= i:
            report.add(
                f"deal {n}: hands",
                FAIL,
                f"The match was over after deal {i}: deal {n} was never dealt.",
                n,
            )
            stopped = n
            continue
        refused = _play_actions(match, i, deal)
        rec = match.deals[i]
        problem = _hands_problem(rec, deal, match.rules.packets)
        report.add(
            f"deal {n}: hands",
            FAIL if problem else OK,
            problem or "Every hand is what the deck deals, packet by packet.",
            n,
        )
        over = len(match.deals) > i + 1 or match.winner is not None
        if refused is None and not over:
            if i + 1 == len(t.deals) and _unfinished(t):
                report.add(f"deal {n}: play", UNCHECKED, "The match stopped during this deal.", n)
                report.add(f"deal {n}: score", UNCHECKED, "Not counted: the deal never ended.", n)
                report.add("result", UNCHECKED, "Not verified: the match never ended.")
                return
            refused = "The deal is not over after its recorded actions."
        if refused is not None:
            report.add(f"deal {n}: play", FAIL, refused, n)
            report.add(f"deal {n}: score", UNCHECKED, "Not checked: the play failed.", n)
            stopped = n
            continue
        contract = None if rec.contract is None else rec.contract.to_dict()
        if not same(contract, deal.contract):
            report.add(
                f"deal {n}: play",
                FAIL,
                f"The bidding gives the contract {contract}, not {deal.contract}.",
                n,
            )
            report.add(f"deal {n}: score", UNCHECKED, "Not checked: the contract differs.", n)
            stopped = n
            continue
        what = (
            "everybody passed: thrown in"
            if rec.contract is None
            else f"contract {rec.contract.text}, taken by {_seat(rec.contract.taker)}; "
            f"{len(deal.actions)} actions, every bid and card legal"
        )
        report.add(f"deal {n}: play", OK, f"As the rules allow: {what}.", n)
        score = deal_score(rec.result)
        if same(score, deal.score):
            report.add(
                f"deal {n}: score",
                OK,
                "Nothing scored (thrown in)."
                if score is None
                else "The count of the cards, melds and belote gives the recorded score.",
                n,
            )
        else:
            for j in _blame_thrown_in(t, i, score) or ():
                report.add(
                    f"deal {j + 1}: play",
                    FAIL,
                    f"Recorded as thrown in, yet the totals carried into deal {n} count points "
                    f"scored in it: deal {j + 1} was played.",
                    j + 1,
                )
            field_ = _first_difference(deal.score, score)
            report.add(
                f"deal {n}: score",
                FAIL,
                f"The cards give {score}, not the recorded {deal.score}"
                + (f" ({field_} differs)." if field_ else "."),
                n,
            )
            stopped = n
        if report.fails > fails_before:
            stopped = n  # a wrong deck or hand: the first deal that went wrong is this one
    if stopped is not None:
        report.add("result", UNCHECKED, f"Not checked: deal {stopped} failed.")
        return
    _check_end(t, match, report)


def _unfinished(t: Transcript) -> bool:
    """The transcript says the match never ended (no winner): what it holds is checked,
    but the verdict can only be "not verified"."""
    return isinstance(t.result, dict) and "winner" in t.result and t.result["winner"] is None


def _result_text(result: dict[str, Any]) -> str:
    s0, s1 = result["scores"]
    winner = result["winner"]
    if winner not in (0, 1):
        return f"No winner yet, team A {s0} to team B {s1}"
    won, lost = (s0, s1) if winner == 0 else (s1, s0)
    seats = "seats 1 and 3" if winner == 0 else "seats 2 and 4"
    return f"Team {'AB'[winner]} ({seats}) won {won} to {lost}"


async def verify_transcript(
    t: Transcript, *, online: bool = False, drand_client: DrandClient | None = None
) -> VerifyReport:
    """Run every check on ``t``; never raises for a bad transcript (it fails checks).

    ``online``: also ask drand (``drand_client``, or the public relays) for the round's value.
    """
    report = VerifyReport(t.match)
    _check_commitment(t, report)
    await _check_drand(t, report, online, drand_client)
    if t.server_seed is None or not _check_table(t, report):
        return report
    inputs = _inputs(t, report)
    if inputs is None:
        return report
    try:
        _replay(t, inputs, report)
    except Exception as exc:  # an engine bug must not read as "fair"
        report.add("replay", UNCHECKED, f"The replay broke down: {type(exc).__name__}: {exc}")
    return report


def verify_transcript_sync(
    t: Transcript, *, online: bool = False, drand_client: DrandClient | None = None
) -> VerifyReport:
    """:func:`verify_transcript` for code that has no event loop (the CLI)."""
    return asyncio.run(verify_transcript(t, online=online, drand_client=drand_client))
