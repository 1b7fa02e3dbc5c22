"""Write the corpus of transcripts both checkers are held to (tests/corpus/*.json).

Run: python tests/corpus/generate.py
Genuine matches of every ruleset, with drand (the beacon fetched by the real DrandClient
from the fake relay on 127.0.0.1, which serves quicknet's real rounds) and without, played
to the end by the engine with seeded random players (Coinche's, with and without its table
options, by a random player that bids like people do: mostly the next value up, sometimes
a coinche); then tampered copies, each with the verdict and the deal (from 1) it must get.
The expectation comes from what was changed, never from running a checker. index.json
lists every case.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.proof.drand import DrandClient
from bot.proof.transcript import dumps, transcript_from_match
from engine import RULESETS, Action, DeckInputs, Match, TableRules
from tests.fakes.drand_relay import drand_relay

HERE = Path(__file__).resolve().parent
NAMES = ("Ana", "Bot Boris", "Chloé", "Dimo")
INJECT = ('<img src=x onerror="window.__injected=1">', "<script>window.__injected=2</script>")


def play_out(match: Match, rng: random.Random, pass_bias: float) -> Match:
    while match.winner is None:
        seat = match.to_move
        legal = match.legal_actions(seat)
        passes = [a for a in legal if a.kind == "pass"]
        if passes and rng.random() < pass_bias:
            match.apply(seat, passes[0])
        else:
            match.apply(seat, rng.choice(legal))
    return match


def coinche_action(match: Match, seat: int, rng: random.Random, pass_bias: float) -> Action:
    """A Coinche call as a random player makes it: pass (``pass_bias`` to open, more often
    over a bid), else now and then a coinche or a surcoinche, else mostly the lowest bid
    allowed (any contract), now and then any bid (capot, générale); in play, any legal
    card."""
    legal = match.legal_actions(seat)
    if legal[0].kind != "pass":
        return rng.choice(legal)
    doubles = [a for a in legal if a.kind in ("coinche", "surcoinche")]
    bids = [a for a in legal if a.kind == "bid"]
    standing = bool(doubles) or not bids or bids[0].value != 80
    if rng.random() < (0.5 + pass_bias / 2 if standing else pass_bias) or not (doubles or bids):
        return legal[0]
    if doubles and rng.random() < 0.1:
        return doubles[0]
    if not bids:
        return legal[0]
    if rng.random() < 0.08:
        return rng.choice(bids)
    lowest = [a for a in bids if a.value == bids[0].value]
    return rng.choice(lowest)


def play_out_coinche(match: Match, rng: random.Random, pass_bias: float) -> Match:
    while match.winner is None:
        seat = match.to_move
        match.apply(seat, coinche_action(match, seat, rng, pass_bias))
    return match


def genuine(
    ruleset: str,
    beacon: Any,
    seed: int,
    pass_bias: float,
    names=NAMES,
    options: tuple[str, ...] = (),
) -> dict:
    rng = random.Random(seed)
    server = rng.randbytes(32)
    seats = (rng.randbytes(16), None, rng.randbytes(16), rng.randbytes(16))
    inputs = DeckInputs(
        server, seats, beacon.round if beacon else None, beacon.randomness if beacon else None
    )
    target = {"classic": 400, "club": 500, "bulgarian": None, "coinche": None}[ruleset]
    rules = TableRules(ruleset, target, **dict.fromkeys(options, True))
    if ruleset == "coinche":
        match = play_out_coinche(Match(rules, inputs=inputs), rng, pass_bias)
    else:
        match = play_out(Match(ruleset, inputs=inputs, target=target), rng, pass_bias)
    t = transcript_from_match(
        match,
        match_id=f"{ruleset}-{seed}",
        names=names,
        bots=(False, True, False, False),
        drand=beacon,
    )
    return json.loads(dumps(t))


def played(t: dict) -> list[int]:
    return [i for i, d in enumerate(t["deals"]) if d["contract"] is not None]


def replay_to(t: dict, i: int) -> Match:
    """The engine's match at the start of deal i (actions of deals before i applied)."""
    inputs = DeckInputs(
        bytes.fromhex(t["server_seed"]),
        tuple(None if s["seed"] is None else bytes.fromhex(s["seed"]) for s in t["seats"]),
        None if t["drand"] is None else t["drand"]["round"],
        None if t["drand"] is None else bytes.fromhex(t["drand"]["value"]),
    )
    rules = TableRules.from_dict(
        {"ruleset": t["ruleset"], "target": t["target"], "options": t.get("options")}
    )
    m = Match(rules, inputs=inputs)
    for d in t["deals"][:i]:
        for seat, text in d["actions"]:
            m.apply(seat, text)
    return m


def revoke(t: dict, i: int) -> bool:
    """Replace one card of deal i by a card the seat holds that the rules forbid."""
    m = replay_to(t, i)
    for n, (seat, text) in enumerate(t["deals"][i]["actions"]):
        if m.phase == "play" and m.to_move == seat:
            legal = {a.card for a in m.legal_actions(seat)}
            held = set(m.hand(seat))
            bad = sorted(held - legal)
            if bad:
                t["deals"][i]["actions"][n][1] = Action.play(bad[0]).text
                return True
        m.apply(seat, text)
    return False


def false_belote(t: dict, i: int) -> bool:
    for n, (_, text) in enumerate(t["deals"][i]["actions"]):
        if text.startswith("play") and "belote" not in text and text[6] not in "KQ":
            t["deals"][i]["actions"][n][1] = text + " belote"
            return True
    return False


def thrown_in(t: dict, i: int, keep_hands: bool) -> None:
    d = t["deals"][i]
    rules = RULESETS[t["ruleset"]]
    passes = 8 if rules.auction == "french" else 4
    d["actions"] = [[(d["dealer"] + 1 + j) % 4, "pass"] for j in range(passes)]
    d["contract"] = None
    d["score"] = None
    if not keep_hands:  # the cards dealt before the auction (5, or coinche's 8)
        first = [(d["dealer"] + j) % 4 for j in (1, 2, 3, 4)]
        hands: list[list[str]] = [[], [], [], []]
        pos = 0
        for packet in rules.packets:
            for seat in first:
                hands[seat] += d["deck"][pos : pos + packet]
                pos += packet
        order = {c: j for j, c in enumerate(r + s for s in "CDHS" for r in "789TJQKA")}
        d["hands"] = [sorted(h, key=order.__getitem__) for h in hands]


def _bid_parts(text: str) -> tuple[str, str] | None:
    """(value word, contract) of a Coinche bid text ("bid 90 H"), else None."""
    words = text.split()
    return (words[1], words[2]) if len(words) == 3 and words[0] == "bid" else None


def bid_changed(t: dict, start: int) -> int | None:
    """The last bid of the first played deal from ``start`` on made another value (80, or
    90 when it was 80): the auction no longer gives the recorded contract. The deal's index."""
    for i in played(t)[start:]:
        for action in reversed(t["deals"][i]["actions"]):
            parts = _bid_parts(action[1])
            if parts:
                action[1] = f"bid {'90' if parts[0] == '80' else '80'} {parts[1]}"
                return i
    return None


def coinche_own_side(t: dict, start: int) -> int | None:
    """A pass of the standing bidder's partner, before any coinche, made a coinche: only
    an opponent may coinche. The deal's index."""
    for i in played(t)[start:]:
        bidder = None
        for action in t["deals"][i]["actions"]:
            seat, text = action
            if text == "coinche" or text.startswith("play"):
                break
            if _bid_parts(text):
                bidder = seat
            elif text == "pass" and bidder is not None and seat % 2 == bidder % 2:
                action[1] = "coinche"
                return i
    return None


def first_scored_differently(t: dict, bid_only: bool) -> int | None:
    """The first deal a made, undoubled contract scores differently once ``bid_only`` is
    flipped (the takers' card points counted or not)."""
    for i in played(t):
        d = t["deals"][i]
        if d["score"]["outcome"] == "made" and d["contract"]["multiplier"] == 1:
            return i
    return None


def first_bid_of(t: dict, words: tuple[str, ...]) -> int | None:
    """The first deal where someone bids one of ``words`` (a contract or "generale")."""
    for i, d in enumerate(t["deals"]):
        for _, text in d["actions"]:
            parts = _bid_parts(text)
            if parts and (parts[0] in words or parts[1] in words):
                return i
    return None


def coinche_cases(t: dict, mid: int, add: Any) -> None:
    """Tampered Coinche transcripts: the auction, the contract's doubling, the options."""
    c = copy.deepcopy(t)
    i = bid_changed(c, played(t).index(mid))
    if i is not None:
        add("bid-value", c, i + 1, "a bid's value changed (the contract is not the auction's)")
    c = copy.deepcopy(t)
    c["deals"][mid]["contract"]["multiplier"] = {1: 2, 2: 4, 4: 1}[
        c["deals"][mid]["contract"]["multiplier"]
    ]
    add("multiplier", c, mid + 1, "the contract's multiplier (coinche) changed")
    c = copy.deepcopy(t)
    i = coinche_own_side(c, 0)
    if i is not None:
        add("coinche-own-side", c, i + 1, "a coinche by the bidding side")
    options = t.get("options", {})
    if options:
        c = copy.deepcopy(t)
        del c["options"]
        firsts = [first_bid_of(t, ("NT", "AT", "generale"))]
        if options.get("bid_only"):
            firsts.append(first_scored_differently(t, bid_only=False))
        first = min(i for i in firsts if i is not None)
        add("options-removed", c, first + 1, "the table's options left out")
    else:
        c = copy.deepcopy(t)
        c["options"] = {"bid_only": True}
        first = first_scored_differently(t, bid_only=True)
        add("options-added", c, None if first is None else first + 1, "bid_only added")
    c = copy.deepcopy(t)
    c["options"] = {**options, "reverse_belote": True}
    add("option-unknown", c, None, "an unknown option")


def cases(genuines: dict[str, dict]) -> list[tuple[str, Any, str, int | None, str]]:
    """(name, transcript or text, verdict, deal from 1 or None, what was done)."""
    out: list[tuple[str, Any, str, int | None, str]] = []
    for name, t in genuines.items():
        out.append((f"genuine-{name}", t, "fair", None, "a real match, untouched"))
    for name, t in genuines.items():
        deals = t["deals"]
        mid = played(t)[len(played(t)) // 2]
        last = len(deals)

        def add(
            kind: str,
            changed: Any,
            deal: int | None,
            what: str,
            verdict: str = "unfair",
            name: str = name,
        ) -> None:
            out.append((f"{kind}-{name}", changed, verdict, deal, what))

        def thrown(i: int, deals: list = deals) -> bool:
            return 0 <= i < len(deals) and deals[i]["contract"] is None

        c = copy.deepcopy(t)
        for d in c["deals"]:
            d["deck"] = [x for x in d["deck"] if x[0] not in "78"]
        add("deck24", c, 1, "every deck written as a 24-card deck")
        c = copy.deepcopy(t)
        for d in c["deals"]:
            d["deck"] = [x for x in d["deck"] if x[0] not in "78"]
        aces = ["AC", "AD", "AH", "AS"]
        h = c["deals"][mid]["hands"]
        for s in range(4):
            h[s] = [x for x in h[s] if x not in aces]
        h[0] = aces + h[0][:4]
        add("deck24-aces", c, 1, "24-card decks and every ace in one hand")
        c = copy.deepcopy(t)
        h = c["deals"][mid]["hands"]
        h[0][0], h[1][0] = h[1][0], h[0][0]
        add("hands-swap", c, mid + 1, "a card swapped between two hands")
        c = copy.deepcopy(t)
        h = c["deals"][mid]["hands"]
        everyone = [x for hand in h for x in hand]
        aces_in = [x for x in everyone if x[0] == "A"]
        for s in range(4):
            h[s] = [x for x in h[s] if x[0] != "A"]
        h[2] = aces_in + h[2][: 8 - len(aces_in)]
        add("hands-aces", c, mid + 1, "every ace given to one seat")
        c = copy.deepcopy(t)
        c["deals"] = c["deals"][:-1]
        # after a genuine thrown-in deal, a dropped last deal looks like the last played
        # deal rewritten as thrown in: both are named, the thrown-in one first
        add(
            "last-dropped",
            c,
            last,
            "the last deal dropped (the result kept)"
            + (" [ambiguous]" if thrown(last - 2) else ""),
        )
        c = copy.deepcopy(t)
        c["deals"] = []
        add("no-deals", c, 1, '"deals": []')
        c = copy.deepcopy(t)
        del c["deals"]
        add("no-deals-field", c, 1, "no deals field")
        c = copy.deepcopy(t)
        c["deals"] = None
        add("no-deals-null", c, 1, '"deals": null')
        c = copy.deepcopy(t)
        if revoke(c, mid):
            add("revoke", c, mid + 1, "a card the rules forbid (revoke, no trump, no overtrump)")
        c = copy.deepcopy(t)
        thrown_in(c, mid, keep_hands=False)
        add(
            "thrown-in",
            c,
            mid + 1,
            "a played deal rewritten as thrown in (the first packets kept)"
            + (" [ambiguous]" if thrown(mid + 1) or thrown(mid - 1) else ""),
        )
        if t["ruleset"] != "coinche":  # coinche deals all 8 cards first: the same as above
            c = copy.deepcopy(t)
            thrown_in(c, mid, keep_hands=True)
            add("thrown-in-hands", c, mid + 1, "a played deal rewritten as thrown in (hands kept)")
        c = copy.deepcopy(t)
        thrown_in(c, played(t)[-1], keep_hands=False)
        add(
            "thrown-in-last",
            c,
            played(t)[-1] + 1,
            "the last played deal rewritten as thrown in"
            + (" [ambiguous]" if thrown(played(t)[-1] - 1) else ""),
        )
        c = copy.deepcopy(t)
        c["deals"][mid]["score"]["points"][0] += 10
        add("score-points", c, mid + 1, "a deal's points raised by 10")
        c = copy.deepcopy(t)
        c["deals"][mid]["score"]["card_points"][1] += 1
        add("score-cards", c, mid + 1, "a deal's card points changed")
        c = copy.deepcopy(t)
        c["result"]["winner"] = 1 - c["result"]["winner"]
        add("result-winner", c, None, "the winner swapped")
        c = copy.deepcopy(t)
        c["deals"][mid]["contract"]["trump"] = next(
            s for s in ("C", "D", "H", "S") if s != c["deals"][mid]["contract"]["trump"]
        )
        add("contract", c, mid + 1, "the contract's trump changed")
        c = copy.deepcopy(t)
        c["deals"][mid]["actions"][0][0] = (c["deals"][mid]["actions"][0][0] + 1) % 4
        add("out-of-turn", c, mid + 1, "the first bid given to the next seat")
        c = copy.deepcopy(t)
        dk = c["deals"][mid]["deck"]
        dk[3], dk[30] = dk[30], dk[3]
        add("deck-swap", c, mid + 1, "two cards of a deck swapped")
        c = copy.deepcopy(t)
        c["deals"][mid]["k"] = 10**30
        add("k-huge", c, mid + 1, "a deal's k set to 10^30")
        c = copy.deepcopy(t)
        c["deals"].append(copy.deepcopy(c["deals"][-1]))
        c["deals"][-1]["k"] = last
        add("extra-deal", c, last + 1, "a deal added after the match ended")
        c = copy.deepcopy(t)
        if false_belote(c, mid):
            add("false-belote", c, mid + 1, "belote announced with a card that is not K or Q")
        c = copy.deepcopy(t)
        c["server_seed"] = "00" + c["server_seed"][2:]
        add("server-seed", c, 1, "the server seed changed (commitment and every deck)")
        c = copy.deepcopy(t)
        c["seats"] = c["seats"][:3]
        add("three-seats", c, None, "three seats")
        c = copy.deepcopy(t)
        c["ruleset"] = "belote-x"
        add("ruleset", c, None, "an unknown ruleset")
        c = copy.deepcopy(t)
        c["recipe"] = "belot.club/deal/v0"
        add("recipe", c, None, "an unknown recipe")
        c = copy.deepcopy(t)
        del c["server_seed"]
        add("unrevealed", c, None, "no server seed", verdict="not verified")
        if t["ruleset"] == "coinche":
            coinche_cases(t, mid, add)
        if t["ruleset"] == "classic":
            c = copy.deepcopy(t)
            c["options"] = {"no_trump": True}
            add("option-ruleset", c, None, "a Coinche option on a classic table")
        c = copy.deepcopy(t)
        c["seats"][0]["name"] = INJECT[0]
        c["seats"][2]["name"] = INJECT[1]
        c["match"] = INJECT[0]
        add("inject-names", c, None, "markup in names (must show as text)", verdict="fair")
        c = copy.deepcopy(t)
        c["deals"][mid]["hands"][1][0] = INJECT[0]
        add("inject-card", c, mid + 1, "markup in a hand")
        if t["drand"] is not None:
            c = copy.deepcopy(t)
            c["drand"]["round"] = 3_000_000_000_000
            add("drand-round", c, 1, "drand round 3e12 (every deck changes)")
            c = copy.deepcopy(t)
            c["drand"]["round"] = 2**64 + 5
            add("drand-round-huge", c, None, "drand round above 2^64")
            c = copy.deepcopy(t)
            v = c["drand"]["value"]
            c["drand"]["value"] = ("0" if v[0] != "0" else "1") + v[1:]
            add("drand-value", c, 1, "drand's value changed (signature and every deck)")
    out.append(("shape-array", "[1, 2, 3]", "error", None, "a JSON array"))
    out.append(("shape-text", '"a transcript"', "error", None, "a JSON string"))
    out.append(("shape-not-json", "{deals: [", "error", None, "not JSON"))
    g = next(iter(genuines.values()))
    c = copy.deepcopy(g)
    c["deals"] = 5
    out.append(("shape-deals-number", c, "error", None, '"deals": 5'))
    c = copy.deepcopy(g)
    c["deals"][0]["actions"][0] = {"seat": 1}
    out.append(("shape-action", c, "error", None, "an action that is not a pair"))
    c = copy.deepcopy(g)
    c["deals"][0]["k"] = 1e400
    out.append(
        ("shape-k-infinite", json.dumps(c).replace("Infinity", "1e400"), "error", None, "k = 1e400")
    )
    c = copy.deepcopy(g)
    c["options"] = {"no_trump": "yes"}
    out.append(("shape-option", c, "error", None, "an option that is not true or false"))
    return out


async def main() -> int:
    async with drand_relay() as relay:
        client = DrandClient([relay.url], timeout=2.0)
        beacon = await client.fetch(2)
        await client.aclose()
    assert beacon is not None, "the fake relay did not serve round 2"
    genuines = {}
    for ruleset in ("classic", "club", "bulgarian"):
        for with_drand in (True, False):
            for seed, bias in ((1, 0.0), (2, 0.6)):
                key = f"{ruleset}-{'drand' if with_drand else 'nodrand'}-{seed}"
                genuines[key] = genuine(ruleset, beacon if with_drand else None, seed, bias)
    # Coinche, plain and with every option; the seeds picked so that, between them, the
    # matches hold coinche and surcoinche, bids of capot and générale, No Trump and All
    # Trump, a side taking every trick, belotes and redeals (pass bias 0.6)
    every = ("no_trump", "all_trump", "generale", "bid_only")
    for options, with_drand, seed, bias in (
        ((), True, 6, 0.0),
        ((), False, 4, 0.6),
        (every, True, 12, 0.0),
        (every, False, 8, 0.6),
    ):
        kind = "coinche-options" if options else "coinche"
        key = f"{kind}-{'drand' if with_drand else 'nodrand'}-{seed}"
        drand = beacon if with_drand else None
        genuines[key] = genuine("coinche", drand, seed, bias, NAMES, options)
    for old in HERE.glob("*.json"):
        old.unlink()
    index = []
    for name, body, verdict, deal, what in cases(genuines):
        ambiguous = what.endswith(" [ambiguous]")
        what = what.removesuffix(" [ambiguous]")
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")
        index.append(
            {
                "file": f"{name}.json",
                "verdict": verdict,
                "deal": deal,
                "ambiguous": ambiguous,
                "what": what,
            }
        )
    (HERE / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    print(f"{len(index)} transcripts written to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
