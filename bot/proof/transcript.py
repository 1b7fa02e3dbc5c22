"""The match transcript: everything anyone needs to re-make and check every deal.

One JSON document per match. It holds the three inputs of the fair deal (the server's
commitment and, once the match is over, its seed; each seat's seed; drand's round, value
and signature), then every deal as dealt and played, then the result. ``bot.proof.verify``
re-makes each deck from the inputs and replays the actions through the engine.

The format (``docs/fairdeal.md`` has a worked example)::

    {"match": "t42-m3", "ruleset": "club", "target": null,
     "recipe": "belot.club/deal/v1", "commitment": "<64 hex>", "server_seed": "<64 hex>",
     "seats": [{"name": "Ana", "seed": "<32 hex>", "bot": false}, ...],
     "drand": {"chain": "<64 hex>", "round": 123, "value": "<64 hex>",
               "signature": "<96 hex>"} | null,
     "deals": [{"k": 0, "dealer": 0, "deck": ["9H", ...], "turned": "JC" | null,
                "hands": [["7C", ...], ...], "contract": {"trump": "H", "taker": 1,
                "multiplier": 1} | null, "actions": [[1, "take"], [1, "play 9S"], ...],
                "score": [team 0, team 1]}],
     "result": {"winner": 0 | 1 | null, "scores": [team 0, team 1]}}

``server_seed`` is left out until the reveal: a transcript of a running match never holds
the secret. ``target`` (null: the ruleset's own) is needed to replay where the match ends.
``options`` (``{"no_trump": true, ...}``, left out when the table set none) are the
ruleset's table options (``engine.TableRules``), needed to replay the auction and the count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.proof.drand import QUICKNET_CHAIN_HASH, Beacon
from engine import card_text, commitment

#: The recipe of docs/rules.md#the-deck-of-deal-k; its text is also the HMAC's first bytes.
RECIPE = "belot.club/deal/v1"


class TranscriptError(ValueError):
    """A transcript that cannot be read; the message says what is wrong, kindly."""


@dataclass(frozen=True)
class SeatRecord:
    name: str
    seed: str | None  # 32 hex digits, or None for a seat a bot plays (or no seed sent)
    bot: bool = False


@dataclass(frozen=True)
class DrandRecord:
    chain: str
    round: int
    value: str  # 64 hex digits: sha256 of the signature
    signature: str  # 96 hex digits

    @classmethod
    def from_beacon(cls, beacon: Beacon, chain: str = QUICKNET_CHAIN_HASH) -> DrandRecord:
        return cls(chain, beacon.round, beacon.randomness.hex(), beacon.signature.hex())

    def beacon(self) -> Beacon:
        """As a :class:`Beacon` (``ValueError`` when the hex is malformed)."""
        return Beacon(self.round, bytes.fromhex(self.value), bytes.fromhex(self.signature))


@dataclass(frozen=True)
class DealTranscript:
    k: int
    dealer: int
    deck: tuple[str, ...]
    turned: str | None
    hands: tuple[tuple[str, ...], ...]
    contract: dict[str, Any] | None
    actions: tuple[tuple[int, str], ...]
    score: Any


@dataclass(frozen=True)
class Transcript:
    match: str
    ruleset: str
    commitment: str
    seats: tuple[SeatRecord, ...]
    deals: tuple[DealTranscript, ...] = ()
    result: dict[str, Any] | None = None
    server_seed: str | None = field(default=None, repr=False)
    drand: DrandRecord | None = None
    recipe: str = RECIPE
    target: int | None = None
    options: dict[str, bool] = field(default_factory=dict)

    # --- JSON -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "match": self.match,
            "ruleset": self.ruleset,
            "target": self.target,
        }
        if self.options:
            out["options"] = dict(self.options)
        out |= {"recipe": self.recipe, "commitment": self.commitment}
        if self.server_seed is not None:
            out["server_seed"] = self.server_seed
        out["seats"] = [{"name": s.name, "seed": s.seed, "bot": s.bot} for s in self.seats]
        out["drand"] = (
            None
            if self.drand is None
            else {
                "chain": self.drand.chain,
                "round": self.drand.round,
                "value": self.drand.value,
                "signature": self.drand.signature,
            }
        )
        out["deals"] = [
            {
                "k": d.k,
                "dealer": d.dealer,
                "deck": list(d.deck),
                "turned": d.turned,
                "hands": [list(h) for h in d.hands],
                "contract": d.contract,
                "actions": [[seat, text] for seat, text in d.actions],
                "score": d.score,
            }
            for d in self.deals
        ]
        out["result"] = self.result
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Transcript:
        """Build from parsed JSON; :class:`TranscriptError` says what is missing or wrong."""
        if not isinstance(data, dict):
            raise TranscriptError("A transcript is a JSON object.")
        try:
            seats = tuple(
                SeatRecord(
                    name=_str(s["name"], "seat name"),
                    seed=_opt_str(s.get("seed"), "seat seed"),
                    bot=bool(s.get("bot", False)),
                )
                for s in _list(data["seats"], "seats")
            )
            drand = data.get("drand")
            drand_rec = (
                None
                if drand is None
                else DrandRecord(
                    chain=_str(drand["chain"], "drand chain"),
                    round=_int(drand["round"], "drand round"),
                    value=_str(drand["value"], "drand value"),
                    signature=_str(drand["signature"], "drand signature"),
                )
            )
            # "deals": null is no deals, as no field is: the checks then say deal 1 is missing
            raw = data.get("deals")
            deals = tuple(_deal_from_dict(d) for d in _list([] if raw is None else raw, "deals"))
            target = data.get("target")
            options = data.get("options") or {}
            if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, bool) for k, v in options.items()
            ):
                raise TranscriptError("The options must map names to true or false.")
            return cls(
                match=str(data["match"]),
                ruleset=_str(data["ruleset"], "ruleset"),
                target=None if target is None else _int(target, "target"),
                options=dict(options),
                recipe=_str(data.get("recipe", RECIPE), "recipe"),
                commitment=_str(data["commitment"], "commitment"),
                server_seed=_opt_str(data.get("server_seed"), "server seed"),
                seats=seats,
                drand=drand_rec,
                deals=deals,
                result=data.get("result"),
            )
        except KeyError as exc:
            raise TranscriptError(f"The transcript has no {exc.args[0]!r} field.") from None
        except (TypeError, AttributeError):
            raise TranscriptError("The transcript's fields do not have the right shape.") from None


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise TranscriptError(f"The {what} must be text.")
    return v


def _opt_str(v: Any, what: str) -> str | None:
    return None if v is None else _str(v, what)


def _int(v: Any, what: str) -> int:
    # 3.0 is read as 3, as a browser reads it (JSON has one kind of number)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TranscriptError(f"The {what} must be a whole number.")
    return v


def _list(v: Any, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise TranscriptError(f"The {what} must be a list.")
    return v


def _deal_from_dict(d: Any) -> DealTranscript:
    if not isinstance(d, dict):
        raise TranscriptError("Each deal must be a JSON object.")
    actions = []
    for a in _list(d.get("actions", []), "actions"):
        if not isinstance(a, list) or len(a) != 2:
            raise TranscriptError("Each action must be a pair [seat, text].")
        actions.append((_int(a[0], "action's seat"), _str(a[1], "action's text")))
    contract = d.get("contract")
    if contract is not None and not isinstance(contract, dict):
        raise TranscriptError("A deal's contract must be an object or null.")
    return DealTranscript(
        k=_int(d["k"], "deal number k"),
        dealer=_int(d["dealer"], "dealer"),
        deck=tuple(_str(c, "card") for c in _list(d["deck"], "deck")),
        turned=_opt_str(d.get("turned"), "turned card"),
        hands=tuple(
            tuple(_str(c, "card") for c in _list(h, "hand")) for h in _list(d["hands"], "hands")
        ),
        contract=contract,
        actions=tuple(actions),
        score=d.get("score"),
    )


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def dumps(t: Transcript) -> str:
    """The transcript as JSON text: one field per line, a deck or a hand on one line, so
    that a person can read it and a diff shows what changed."""
    data = t.to_dict()
    out = ["{"]
    for i, (key, value) in enumerate(data.items()):
        comma = "," if i < len(data) - 1 else ""
        if key == "seats" and value:
            rows = [f"    {_compact(s)}" for s in value]
            out.append('  "seats": [\n' + ",\n".join(rows) + f"\n  ]{comma}")
        elif key == "deals" and value:
            deals = []
            for deal in value:
                fields = [f"      {_compact(k)}: {_compact(v)}" for k, v in deal.items()]
                deals.append("    {\n" + ",\n".join(fields) + "\n    }")
            out.append('  "deals": [\n' + ",\n".join(deals) + f"\n  ]{comma}")
        else:
            out.append(f"  {_compact(key)}: {_compact(value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


#: A transcript nests five deep. json's parser recurses in C as deep as the text nests, and
#: py_ecc raises the interpreter's recursion limit to 100000 when it is imported, so past
#: that point "[[[[..." would overflow the C stack (a crash, not a RecursionError): deeper
#: text is refused before it is parsed.
MAX_NESTING = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep(text: str | bytes) -> bool:
    # latin-1 maps every byte to one character: brackets and quotes are found in UTF-8 text
    scan = text.decode("latin-1") if isinstance(text, bytes) else text
    depth = 0
    for m in _BRACKET.finditer(_JSON_STRING.sub("", scan)):
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_NESTING:
            return True
    return False


def loads(text: str | bytes) -> Transcript:
    """Parse JSON text; :class:`TranscriptError` (friendly) when it is not a transcript."""
    if _too_deep(text):
        raise TranscriptError("This is not a transcript: it is nested too deeply.")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TranscriptError(f"This is not JSON ({exc}).") from None
    except RecursionError:  # "[[[[...": nested deeper than any transcript
        raise TranscriptError("This is not a transcript: it is nested too deeply.") from None
    return Transcript.from_dict(data)


def dump(t: Transcript, path: str | Path) -> None:
    Path(path).write_text(dumps(t), encoding="utf-8")


def load(path: str | Path) -> Transcript:
    """Read a transcript file; ``OSError`` when unreadable, :class:`TranscriptError` else."""
    return loads(Path(path).read_bytes())


# --- from the engine ---------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(card_text(c) for c in cards)


def _jsonable(value: Any) -> Any:
    """A DealResult, Contract, tuple... as plain JSON values."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    for method in ("to_dict", "to_json_dict"):
        fn = getattr(value, method, None)
        if callable(fn):
            return _jsonable(fn())
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    return str(value)


def _action_text(action: Any) -> str:
    return action if isinstance(action, str) else action.text


def deal_score(result: Any) -> Any:
    """What a deal scored, as JSON: the engine's DealResult as a dict (None if unfinished)."""
    return _jsonable(result)


def transcript_from_match(
    match: Any,
    *,
    match_id: str,
    names: Sequence[str],
    bots: Sequence[bool] | None = None,
    drand: Beacon | None = None,
    reveal: bool | None = None,
    target: int | None = None,
) -> Transcript:
    """Build the transcript of an ``engine.Match`` dealt from ``DeckInputs``.

    ``names``/``bots`` describe the seats in order; ``drand`` is the beacon the deal used
    (its round and value must be the match inputs'). The server seed is written only when
    ``reveal`` is true, which by default means: the match is over.
    """
    inputs = match.inputs
    if inputs is None:
        raise ValueError("Only a match dealt from DeckInputs has a fair-deal transcript.")
    n = len(inputs.seat_seeds)
    if len(names) != n:
        raise ValueError(f"{n} seats but {len(names)} names.")
    bots = tuple(bots) if bots is not None else (False,) * n
    if inputs.drand_round is not None:
        if drand is None:
            raise ValueError("The deal used drand: give its beacon (with the signature).")
        if drand.round != inputs.drand_round or drand.randomness != inputs.drand_value:
            raise ValueError("The drand beacon given is not the one the match was dealt from.")
        drand_rec: DrandRecord | None = DrandRecord.from_beacon(drand)
    else:
        drand_rec = None
    if reveal is None:
        reveal = match.winner is not None or str(getattr(match, "phase", "")).endswith("OVER")
    deals = []
    for rec in match.deals:
        deals.append(
            DealTranscript(
                k=rec.k,
                dealer=rec.dealer,
                deck=_cards(rec.deck),
                turned=None if rec.turned is None else card_text(rec.turned),
                hands=tuple(_cards(h) for h in rec.hands),
                contract=None if rec.contract is None else rec.contract.to_dict(),
                actions=tuple((seat, _action_text(a)) for seat, a in rec.actions),
                score=deal_score(rec.result),
            )
        )
    return Transcript(
        match=match_id,
        ruleset=match.ruleset.name if hasattr(match.ruleset, "name") else str(match.ruleset),
        target=target if target is not None else getattr(match, "target", None),
        options=dict(match.table_rules.options) if hasattr(match, "table_rules") else {},
        commitment=commitment(inputs.server_seed),
        server_seed=inputs.server_seed.hex() if reveal else None,
        seats=tuple(
            SeatRecord(name, None if seed is None else seed.hex(), bool(bot))
            for name, seed, bot in zip(names, inputs.seat_seeds, bots, strict=True)
        ),
        drand=drand_rec,
        deals=tuple(deals),
        result=match_result(match),
    )


def match_result(match: Any) -> dict[str, Any]:
    """``{"winner": team or None, "scores": [team 0, team 1]}``."""
    return {"winner": match.winner, "scores": list(match.scores)}
