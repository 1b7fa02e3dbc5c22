"""Check a match transcript: the seed, every deck, every hand, every action, drand.

Nothing here trusts the transcript: decks are re-made by the recipe from the revealed
inputs, and the match is replayed through the engine from those inputs and the recorded
actions, so the hands dealt, the contracts, the scores and the result are the engine's and
are compared with what the transcript says. Each check is reported with a sentence a
player can read; a failed check says exactly which deal and which part went wrong.

The server seed is revealed by then, so showing it in the report is fine.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from bot.proof.drand import QUICKNET_CHAIN_HASH, Beacon, DrandClient, verify_beacon
from bot.proof.transcript import RECIPE, Transcript, deal_score, match_result
from engine import DeckInputs, Match, card_text, shuffled_deck

SERVER_SEED_BYTES = 32
SEAT_SEED_BYTES = 16


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    message: str


@dataclass
class VerifyReport:
    match: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def check(self, name: str) -> Check | None:
        """The check of that name (``None`` when it was not run)."""
        return next((c for c in self.checks if c.name == name), None)

    def add(self, name: str, ok: bool, message: str) -> None:
        self.checks.append(Check(name, ok, message))

    def text(self) -> str:
        lines = [f"Match {self.match}"]
        for c in self.checks:
            lines.append(f"  {'ok    ' if c.ok else 'FAILED'} {c.name}: {c.message}")
        n_bad = len(self.failed)
        lines.append(
            "Every check passed: the deals were fair."
            if self.ok
            else f"{n_bad} check{'s' if n_bad != 1 else ''} failed."
        )
        return "\n".join(lines)


def _hex(text: str | None, length: int) -> bytes | None:
    if text is None:
        return None
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        return None
    return raw if len(raw) == length else None


def _inputs(t: Transcript, report: VerifyReport) -> DeckInputs | None:
    """The deck inputs the transcript states, or None (with a failed check) if malformed."""
    if t.recipe != RECIPE:
        report.add("recipe", False, f"Unknown recipe {t.recipe!r}; this checker knows {RECIPE}.")
        return None
    server_seed = _hex(t.server_seed, SERVER_SEED_BYTES)
    if server_seed is None:
        report.add("inputs", False, "The server seed is not 64 hexadecimal digits.")
        return None
    seeds: list[bytes | None] = []
    for i, seat in enumerate(t.seats):
        seed = None if seat.seed is None else _hex(seat.seed, SEAT_SEED_BYTES)
        if seat.seed is not None and seed is None:
            report.add("inputs", False, f"Seat {i} ({seat.name})'s seed is not 32 hex digits.")
            return None
        seeds.append(seed)
    drand_round = drand_value = None
    if t.drand is not None:
        drand_round = t.drand.round
        drand_value = _hex(t.drand.value, 32)
        if drand_value is None:
            report.add("inputs", False, "The drand value is not 64 hexadecimal digits.")
            return None
    size = len(t.deals[0].deck) if t.deals and len(t.deals[0].deck) == 24 else 32
    try:
        return DeckInputs(server_seed, tuple(seeds), drand_round, drand_value, size)
    except ValueError as exc:
        report.add("inputs", False, str(exc))
        return None


def _check_commitment(t: Transcript, report: VerifyReport) -> bool:
    if t.server_seed is None:
        report.add(
            "commitment",
            False,
            "The server has not revealed its seed yet: the match can be checked once it ends.",
        )
        return False
    try:
        digest = hashlib.sha256(bytes.fromhex(t.server_seed)).hexdigest()
    except ValueError:
        report.add("commitment", False, "The server seed is not hexadecimal.")
        return False
    if digest == t.commitment.strip().lower():
        report.add(
            "commitment",
            True,
            f"The server seed {t.server_seed} hashes to the commitment shown before the seeds.",
        )
        return True
    report.add(
        "commitment",
        False,
        f"The server seed hashes to {digest}, not to the commitment {t.commitment} "
        "shown before the seeds: the server changed its seed.",
    )
    return False


async def _check_drand(
    t: Transcript, report: VerifyReport, online: bool, client: DrandClient | None
) -> None:
    d = t.drand
    if d is None:
        report.add(
            "drand",
            True,
            "Dealt without drand (its value had not arrived in time): from the server's "
            "seed and the players' seeds alone.",
        )
        return
    if d.chain != QUICKNET_CHAIN_HASH:
        report.add("drand", False, f"Unknown drand chain {d.chain}; expected quicknet.")
        return
    try:
        beacon = d.beacon()
    except ValueError:
        report.add("drand", False, "The drand value or signature is not hexadecimal.")
        return
    if await asyncio.to_thread(verify_beacon, beacon):
        report.add(
            "drand",
            True,
            f"drand round {d.round}'s value is signed by quicknet's key (BLS signature checked).",
        )
    else:
        report.add(
            "drand",
            False,
            f"The drand value for round {d.round} is not quicknet's: its signature does not "
            "check against quicknet's public key.",
        )
    if not online:
        return
    own = client is None
    client = client or DrandClient()
    try:
        served: Beacon | None = await client.fetch(d.round)
    finally:
        if own:
            await client.aclose()
    if served is None:
        report.add("drand online", False, f"Could not get round {d.round} from drand to compare.")
    elif served.randomness == beacon.randomness:
        report.add("drand online", True, f"drand itself serves the same value for {d.round}.")
    else:
        report.add(
            "drand online",
            False,
            f"drand serves {served.randomness.hex()} for round {d.round}, "
            f"not the {d.value} the match was dealt from.",
        )


def _check_decks(t: Transcript, inputs: DeckInputs, report: VerifyReport) -> None:
    for i, deal in enumerate(t.deals):
        name = f"deal {deal.k}: deck"
        if deal.k != i:
            report.add(name, False, f"Deal number {deal.k} is out of order (expected {i}).")
            continue
        made = [card_text(c) for c in shuffled_deck(inputs, deal.k)]
        if list(deal.deck) == made:
            report.add(name, True, "The deck is the one the recipe makes from the seeds.")
        else:
            at = next(
                (j for j, (a, b) in enumerate(zip(deal.deck, made, strict=False)) if a != b),
                min(len(deal.deck), len(made)),
            )
            report.add(
                name,
                False,
                f"The deck differs from the recipe's from card {at + 1} on "
                f"(recipe: {' '.join(made[at : at + 4])}...).",
            )


def _apply(match: Any, seat: int, text: str) -> str | None:
    """Apply one action; the engine's error text when it is refused."""

    try:
        match.apply(seat, text)
    except ValueError as exc:
        return str(exc) or type(exc).__name__
    return None


def _replay(t: Transcript, inputs: DeckInputs, report: VerifyReport) -> None:
    """Rebuild the match from the inputs and the actions; compare what the engine deals."""
    try:
        match = Match(ruleset=t.ruleset, inputs=inputs, target=t.target)
    except ValueError as exc:
        report.add("replay", False, f"The match cannot be rebuilt: {exc}")
        return
    stopped: str | None = None
    for i, deal in enumerate(t.deals):
        hands_name, play_name = f"deal {deal.k}: hands", f"deal {deal.k}: play"
        if stopped is not None:
            report.add(hands_name, False, f"Not checked: {stopped}")
            report.add(play_name, False, f"Not checked: {stopped}")
            continue
        refused = None
        for n, (seat, text) in enumerate(deal.actions, start=1):
            if len(match.deals) > i + 1 or match.winner is not None:
                refused = f"action {n} ({text!r} by seat {seat}) comes after the deal ended"
                break
            err = _apply(match, seat, text)
            if err is not None:
                refused = f"action {n} ({text!r} by seat {seat}) is refused by the rules: {err}"
                break
        if len(match.deals) <= i:
            report.add(hands_name, False, "The engine never dealt this deal.")
            report.add(play_name, False, refused or "The match had already ended.")
            stopped = f"the replay stopped at deal {deal.k}."
            continue
        rec = match.deals[i]
        # the hands the engine dealt from the recipe's deck and the ruleset's packets
        dealt = [[card_text(c) for c in h] for h in rec.hands]
        told = [list(h) for h in deal.hands]
        turned = None if rec.turned is None else card_text(rec.turned)
        bad_seats = [
            s for s in range(max(len(dealt), len(told))) if _hand(dealt, s) != _hand(told, s)
        ]
        if rec.dealer != deal.dealer:
            report.add(hands_name, False, f"Seat {rec.dealer} dealt, not seat {deal.dealer}.")
        elif turned != deal.turned:
            report.add(hands_name, False, f"The turned card was {turned}, not {deal.turned}.")
        elif bad_seats:
            s = bad_seats[0]
            report.add(
                hands_name,
                False,
                f"Seat {s} was dealt {' '.join(_hand(dealt, s))}, not {' '.join(_hand(told, s))}.",
            )
        else:
            report.add(hands_name, True, "Every hand is what the deck deals, packet by packet.")
        if refused is not None:
            report.add(play_name, False, refused[0].upper() + refused[1:].rstrip(".") + ".")
            stopped = f"the replay stopped at deal {deal.k}."
            continue
        if i + 1 < len(t.deals) and len(match.deals) == i + 1 and match.winner is None:
            report.add(play_name, False, "The deal is not over after its recorded actions.")
            stopped = f"the replay stopped at deal {deal.k}."
            continue
        contract = None if rec.contract is None else rec.contract.to_dict()
        score = deal_score(rec.result)
        if contract != deal.contract:
            report.add(play_name, False, f"The contract was {contract}, not {deal.contract}.")
        elif score != deal.score:
            report.add(play_name, False, f"The deal scored {score}, not {deal.score}.")
        else:
            report.add(
                play_name,
                True,
                f"All {len(deal.actions)} actions are legal and give the recorded score.",
            )
    if stopped is not None:
        report.add("result", False, f"Not checked: {stopped}")
        return
    if len(match.deals) > len(t.deals):
        report.add("result", False, "The engine dealt more deals than the transcript records.")
        return
    result = match_result(match)
    if t.result == result:
        report.add("result", True, f"{_result_text(t, result)}, as the replay gives.")
    else:
        report.add(
            "result",
            False,
            f"The replay gives: {_result_text(t, result)}; the transcript says {t.result}.",
        )


def _result_text(t: Transcript, result: dict[str, Any]) -> str:
    s0, s1 = result["scores"]
    winner = result["winner"]
    if winner not in (0, 1):
        return f"No winner yet, {s0} to {s1}"
    names = " & ".join(seat.name for i, seat in enumerate(t.seats) if i % 2 == winner)
    won, lost = (s0, s1) if winner == 0 else (s1, s0)
    return f"Team {winner} ({names}) won {won} to {lost}"


_PART_ORDER = {"deck": 0, "hands": 1, "play": 2}


def _check_order(check: Check) -> tuple[int, int, int]:
    """Report order: the inputs, then deal by deal (deck, hands, play), then the result."""
    if check.name.startswith("deal "):
        k, _, part = check.name[5:].partition(": ")
        return (1, int(k) if k.isdigit() else 0, _PART_ORDER.get(part, 3))
    return (2 if check.name in ("result", "replay") else 0, 0, 0)


def _hand(hands: list[list[str]], seat: int) -> list[str]:
    return sorted(hands[seat]) if seat < len(hands) else []


async def verify_transcript(
    t: Transcript, *, online: bool = False, drand_client: DrandClient | None = None
) -> VerifyReport:
    """Run every check on ``t``; never raises for a bad transcript (it fails checks).

    ``online``: also ask drand (``drand_client``, or the public relays) for the round's value.
    """
    report = VerifyReport(t.match)
    commitment_ok = _check_commitment(t, report)
    await _check_drand(t, report, online, drand_client)
    if t.server_seed is None:
        return report
    inputs = _inputs(t, report)
    if inputs is None:
        return report
    del commitment_ok  # the decks are checked whatever the commitment says
    _check_decks(t, inputs, report)
    try:
        _replay(t, inputs, report)
    except Exception as exc:  # an engine bug must not hide the other checks' answers
        report.add("replay", False, f"The replay broke down: {type(exc).__name__}: {exc}")
    report.checks.sort(key=_check_order)
    return report


def verify_transcript_sync(
    t: Transcript, *, online: bool = False, drand_client: DrandClient | None = None
) -> VerifyReport:
    """:func:`verify_transcript` for code that has no event loop (the CLI)."""
    return asyncio.run(verify_transcript(t, online=online, drand_client=drand_client))
