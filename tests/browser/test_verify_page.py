"""The browser check of a match (web/verify), in a real headless Chromium.

A transcript the real bot made passes every check; each kind of tampering fails the check
it should, with a message that says what differs; a file that is not a transcript says so;
the replay steps through a whole deal.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import urllib.parse

import pytest

from tests.fakes.drand_relay import REAL_BEACONS, tampered

SUMMARY = "#summary"


def open_page(page, site, relay, transcript, query: str = "") -> dict[str, tuple[str, str]]:
    """Open the page on ``transcript`` (given by URL in the address) and wait for every
    check; returns {check name: (status, message)} as the page shows them."""
    url = site.put(f"t{id(transcript)}-{len(site.files)}.json", transcript)
    address = f"{site.url}/verify/index.html?relay={urllib.parse.quote(relay.url)}{query}"
    page.goto("about:blank")
    page.goto(f"{address}#url={urllib.parse.quote(url)}")
    return shown_checks(page)


def shown_checks(page) -> dict[str, tuple[str, str]]:
    page.wait_for_selector('html[data-state="done"]', timeout=30_000)
    rows = page.eval_on_selector_all(
        "#checks li",
        "els => els.map(e => [e.dataset.name, e.dataset.status, "
        "e.querySelector('.message').textContent])",
    )
    assert not page.errors, page.errors
    return {name: (status, message) for name, status, message in rows}


def summary(page) -> tuple[str, str]:
    return page.get_attribute(SUMMARY, "data-status"), page.text_content(SUMMARY)


def failed(checks) -> dict[str, str]:
    return {name: msg for name, (status, msg) in checks.items() if status == "fail"}


# --- a genuine match -----------------------------------------------------------------------


def test_a_match_the_bot_dealt_passes_every_check(page, site, relay_ok, genuine):
    checks = open_page(page, site, relay_ok, genuine)
    deals = len(genuine["deals"])
    assert deals >= 2
    expected = {"commitment", "drand", "drand online", "table", "result"}
    for n in range(1, deals + 1):  # deals numbered from 1, as people count them
        expected |= {f"deal {n}: {part}" for part in ("deck", "hands", "play", "score")}
    assert set(checks) == expected
    assert all(status == "ok" for status, _ in checks.values()), failed(checks)
    assert "BLS signature checked" in checks["drand"][1]
    assert "serves the same value for round 1" in checks["drand online"][1]
    status, text = summary(page)
    assert status == "ok" and text.startswith("Every check passed: the deals were fair.")
    assert page.get_attribute("html", "data-verdict") == "fair"
    assert page.get_attribute("html", "data-deal") == ""
    # drand was asked by the browser itself, for the round of the match
    assert any(p.endswith("/public/1") for p in relay_ok.relay.requests)


def test_the_verify_answer_attaches_the_transcript_and_links_to_the_page(bot_verify):
    text, reply = bot_verify
    assert reply.ok and reply.file_name.endswith(".json")
    assert "https://" in reply.text and "/verify/" in reply.text
    assert reply.file_name in reply.text
    data = json.loads(text)
    assert hashlib.sha256(bytes.fromhex(data["server_seed"])).hexdigest() == data["commitment"]


@pytest.mark.parametrize(
    ("ruleset", "drand", "seed", "pass_bias"),
    [("bulgarian", True, 3, 0.0), ("classic", False, 11, 0.8), ("club", True, 5, 0.3)],
)
def test_every_ruleset_and_redeals_pass(page, site, relay_ok, ruleset, drand, seed, pass_bias):
    from bot.proof.transcript import dumps
    from tests.fairdeal.conftest import make_transcript

    t = make_transcript(ruleset, drand=drand, seed=seed, pass_bias=pass_bias)
    checks = open_page(page, site, relay_ok, dumps(t))
    assert checks and not failed(checks)
    if pass_bias > 0.5:
        assert any(d.contract is None for d in t.deals)  # redeals were made and checked
    if not drand:
        assert "Dealt without drand" in checks["drand"][1]
        assert "drand online" not in checks


def test_the_24_card_deck_is_refused(page, site, relay_ok, genuine):
    """No ruleset deals it: decks written as the recipe's 24-card decks are refused, and
    the hands and the play are never left unchecked (forged hands cannot pass)."""
    from engine import DeckInputs, card_text, shuffled_deck

    t = copy.deepcopy(genuine)
    seeds = tuple(None if s["seed"] is None else bytes.fromhex(s["seed"]) for s in t["seats"])
    inputs = DeckInputs(
        bytes.fromhex(t["server_seed"]),
        seeds,
        t["drand"]["round"],
        bytes.fromhex(t["drand"]["value"]),
        size=24,
    )
    for d in t["deals"]:
        d["deck"] = [card_text(c) for c in shuffled_deck(inputs, d["k"])]
    checks = open_page(page, site, relay_ok, t)
    assert checks["deal 1: deck"] == (
        "fail",
        "The deck has 24 cards; every ruleset deals the 32-card deck.",
    )
    assert page.get_attribute("html", "data-verdict") == "unfair"
    assert page.get_attribute("html", "data-deal") == "1"
    assert "skip" not in {status for status, _ in checks.values()}


# --- tampered matches ----------------------------------------------------------------------


def test_a_changed_server_seed_fails_the_commitment_and_the_decks(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    seed = bytearray.fromhex(t["server_seed"])
    seed[0] ^= 1
    t["server_seed"] = seed.hex()
    checks = open_page(page, site, relay_ok, t)
    status, message = checks["commitment"]
    assert status == "fail"
    assert hashlib.sha256(bytes(seed)).hexdigest() in message
    assert f"not to the commitment {t['commitment']}" in message
    assert checks["deal 1: deck"][0] == "fail"
    assert checks["drand"][0] == "ok"  # the rest still says what it can
    status, text = summary(page)
    assert status == "fail" and "commitment" in text


def test_a_changed_deck_fails_that_deal_and_says_which_cards(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    deck = t["deals"][1]["deck"]
    a, b = deck[5], deck[9]
    deck[5], deck[9] = b, a
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 2: deck"}
    message = checks["deal 2: deck"][1]
    assert message.startswith("Deck k=1 differs from the recipe's from card 6 on (recipe: ")
    assert f"(recipe: {a} " in message


def test_a_hand_not_from_its_deck_names_the_deal_seat_and_card(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    hands = t["deals"][0]["hands"]
    given, taken = hands[3][0], hands[2][0]
    hands[2][0], hands[3][0] = given, taken  # seats 2 and 3 swap a card
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 1: hands"}
    message = checks["deal 1: hands"][1]
    assert message.startswith("Seat 3 was dealt ") and given in message  # seats from 1
    assert page.get_attribute("html", "data-deal") == "1"


def test_a_drand_value_that_is_not_its_signatures_hash_fails_drand(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    value = bytearray.fromhex(t["drand"]["value"])
    value[-1] ^= 0x80
    t["drand"]["value"] = value.hex()
    checks = open_page(page, site, relay_ok, t)
    status, message = checks["drand"]
    assert status == "fail" and "is not quicknet's" in message
    # the decks were made from another value
    assert checks["deal 1: deck"][0] == "fail"


def test_a_forged_signature_fails_the_bls_check(page, site, relay_ok, genuine):
    """The value is the hash of its signature, but the signature is not quicknet's."""
    t = copy.deepcopy(genuine)
    forged = tampered(REAL_BEACONS[1])
    t["drand"]["signature"] = forged.signature.hex()
    t["drand"]["value"] = forged.randomness.hex()
    checks = open_page(page, site, relay_ok, t, "&drand=off")
    status, message = checks["drand"]
    assert status == "fail"
    assert "does not check against quicknet's public key" in message


@contextlib.contextmanager
def relay_mode(relay, mode: str):
    """The fake relay misbehaves for the duration (see tests/fakes/drand_relay.py)."""
    relay.relay.mode = mode
    try:
        yield relay
    finally:
        relay.relay.mode = "ok"


def test_a_relay_serving_another_value_fails_drand_online(page, site, relay, genuine):
    with relay_mode(relay, "tampered"):
        checks = open_page(page, site, relay, genuine)
    assert set(failed(checks)) == {"drand online"}
    assert "not the value the match was dealt from" in checks["drand online"][1]


def test_offline_the_page_says_drand_was_not_asked(page, site, relay, genuine):
    with relay_mode(relay, "down"):
        checks = open_page(page, site, relay, genuine)
    assert checks["drand online"][0] == "skip"
    assert "Could not get round 1 from drand" in checks["drand online"][1]
    status, text = summary(page)
    # drand's own answer is an extra: the BLS signature check proved the value already
    assert status == "ok" and text.startswith("Every check passed")


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("{not json", "This is not JSON"),
        ("[1, 2, 3]", "A transcript is a JSON object."),
        ('{"match": "m1", "ruleset": "club", "commitment": "00"}', 'has no "seats" field'),
    ],
)
def test_a_malformed_file_says_it_is_not_a_transcript(page, site, relay_ok, body, says):
    checks = open_page(page, site, relay_ok, body)
    assert checks == {}
    status, text = summary(page)
    assert status == "error"
    assert text.startswith("This is not a match transcript: ") and says in text
    assert page.is_hidden("#replay")


def test_a_deal_with_a_broken_shape_is_malformed(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    del t["deals"][0]["deck"]
    open_page(page, site, relay_ok, t)
    status, text = summary(page)
    assert status == "error" and 'Deal 1 has no "deck" field' in text
    assert page.get_attribute("html", "data-verdict") == "error"


# --- the ways in ---------------------------------------------------------------------------


def _blank(page, site, relay) -> None:
    page.goto(f"{site.url}/verify/index.html?relay={urllib.parse.quote(relay.url)}")
    page.wait_for_selector('html[data-state="idle"]')


def test_a_chosen_file(page, site, relay_ok, genuine, tmp_path):
    path = tmp_path / "belote-m1.json"
    path.write_text(json.dumps(genuine), encoding="utf-8")
    _blank(page, site, relay_ok)
    page.set_input_files("#file", str(path))
    checks = shown_checks(page)
    assert checks and not failed(checks)


def test_a_dropped_file(page, site, relay_ok, genuine):
    _blank(page, site, relay_ok)
    page.evaluate(
        """text => {
            const data = new DataTransfer();
            data.items.add(new File([text], "belote-m1.json", {type: "application/json"}));
            document.querySelector("#drop").dispatchEvent(
                new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        json.dumps(genuine),
    )
    checks = shown_checks(page)
    assert checks and not failed(checks)


def test_pasted_text(page, site, relay_ok, genuine):
    _blank(page, site, relay_ok)
    page.fill("#paste", json.dumps(genuine))
    page.click("#check")
    checks = shown_checks(page)
    assert checks and not failed(checks)


def test_nothing_but_drand_is_asked(page, site, relay_ok, genuine):
    """The page loads its own files and the transcript named in its address, then asks
    drand for one round: no other request leaves the browser."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    open_page(page, site, relay_ok, genuine)
    others = [u for u in asked if not u.startswith((site.url, relay_ok.url))]
    assert others == []
    to_relay = [u for u in asked if u.startswith(relay_ok.url)]
    assert [urllib.parse.urlparse(u).path.rsplit("/", 1)[-1] for u in to_relay] == ["1"]


# --- the replay ----------------------------------------------------------------------------


def test_the_replay_steps_through_a_whole_deal(page, site, relay_ok, genuine):
    open_page(page, site, relay_ok, genuine)
    deal = genuine["deals"][0]
    plays = [(seat, text) for seat, text in deal["actions"] if text.startswith("play")]
    assert len(plays) == 32
    steps = int(page.get_attribute("#replay", "data-steps"))
    assert steps == 34  # as dealt, 32 cards, the score
    for seat in range(4):
        shown = page.eval_on_selector_all(
            f'#table .seat[data-seat="{seat}"] .hand .card', "els => els.map(e => e.dataset.card)"
        )
        assert sorted(shown) == sorted(deal["hands"][seat])
    for n, (seat, text) in enumerate(plays, start=1):
        card, said = text.split()[1], " ".join(text.split()[2:])
        page.click("#step")
        assert page.get_attribute("#replay", "data-step") == str(n)
        trick = page.eval_on_selector_all("#table .trick .card", "e => e.map(x => x.dataset.card)")
        assert trick[-1] == card and len(trick) == (n - 1) % 4 + 1
        shown = page.locator("#table .trick .card").last.locator(".said")
        assert (shown.text_content() if said else shown.count()) == (said or 0)  # belote, melds
        in_hand = page.eval_on_selector_all(
            f'#table .seat[data-seat="{seat}"] .hand .card', "els => els.map(e => e.dataset.card)"
        )
        assert card not in in_hand
        if n % 4 == 0:
            assert page.locator("#table .trick .card.winner").count() == 1
    page.click("#step")
    assert page.locator("#table .score").is_visible()
    score = page.text_content("#table .score")
    assert str(deal["score"]["points"][0]) in score and str(deal["score"]["points"][1]) in score
    page.click("#first")
    assert page.locator("#table .hand .card").count() == 32


def test_the_replay_plays_by_itself_at_the_chosen_speed(page, site, relay_ok, genuine):
    open_page(page, site, relay_ok, genuine)
    page.select_option("#deal", "1")
    assert page.get_attribute("#replay", "data-replay-deal") == "2"  # deals counted from 1
    page.select_option("#speed", "4")
    page.click("#play")
    page.wait_for_function(
        "() => Number(document.querySelector('#replay').dataset.step) >= 5", timeout=10_000
    )
    page.click("#play")  # pause
    at = page.get_attribute("#replay", "data-step")
    page.wait_for_timeout(600)
    assert page.get_attribute("#replay", "data-step") == at
    assert page.get_attribute("#replay", "data-playing") == "false"


def test_a_screenshot_of_the_page(page, site, relay_ok, genuine, tmp_path):
    """What docs/pictures/verify.png shows (python -m tests.browser.screenshot makes it)."""
    from tests.browser.screenshot import shoot

    out = tmp_path / "verify.png"
    shoot(page, site, relay_ok, genuine, out)
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000


def test_opened_from_disk_it_works_too(page, relay_ok, genuine, tmp_path):
    """Saved with its files and opened from disk (file://), the page checks a chosen file."""
    from tests.browser.conftest import WEB

    path = tmp_path / "belote-m1.json"
    path.write_text(json.dumps(genuine), encoding="utf-8")
    address = (WEB / "verify" / "index.html").as_uri()
    page.goto(f"{address}?relay={urllib.parse.quote(relay_ok.url)}")
    page.wait_for_selector('html[data-state="idle"]')
    page.set_input_files("#file", str(path))
    checks = shown_checks(page)
    assert checks and all(status == "ok" for status, _ in checks.values()), failed(checks)


def test_when_its_scripts_cannot_run_it_says_so(page, site):
    page.route("**/vendor/*", lambda route: route.abort())
    page.goto(f"{site.url}/verify/index.html")
    page.wait_for_selector("#broken:not([hidden])", timeout=10_000)
    assert "Keep index.html with its files" in page.text_content("#broken")
    assert page.is_hidden("#load")


def test_served_it_never_shows_that_note(page, site, relay_ok, genuine):
    open_page(page, site, relay_ok, genuine)
    assert page.is_hidden("#broken")


def test_a_card_missing_from_a_hand_is_named(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    gone = t["deals"][2]["hands"][1].pop()
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 3: hands"}
    message = checks["deal 3: hands"][1]
    assert message.startswith("Seat 2 was dealt ") and gone in message


def test_a_changed_dealer_or_turned_card_is_said(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    t["deals"][1]["dealer"] = 3
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 2: hands"}
    assert checks["deal 2: hands"][1] == "Seat 2 dealt, not seat 4."
    t = copy.deepcopy(genuine)
    t["deals"][2]["turned"] = "7C" if t["deals"][2]["turned"] != "7C" else "8C"
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 3: hands"}
    assert f"not {t['deals'][2]['turned']}." in checks["deal 3: hands"][1]


def test_a_card_played_out_of_turn_or_not_held_fails_the_play(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    actions = t["deals"][0]["actions"]
    plays = [i for i, (_, text) in enumerate(actions) if text.startswith("play")]
    first, second = plays[0], plays[1]
    actions[first], actions[second] = actions[second], actions[first]  # the second plays first
    checks = open_page(page, site, relay_ok, t)
    assert set(failed(checks)) == {"deal 1: play"}
    assert "breaks the rules: it is seat" in checks["deal 1: play"][1]


def test_the_recipe_in_the_browser_is_the_engines(page, site):
    """The page's recipe against engine/recipe.py, on random inputs: 2 to 4 seats, seats
    without a seed, with and without drand, both deck sizes, deal numbers far apart."""
    import random

    from engine import DeckInputs, card_text, shuffled_deck

    rng = random.Random(17)
    cases = []
    for _ in range(40):
        seats = [
            None if rng.random() < 0.3 else rng.randbytes(16) for _ in range(rng.randint(2, 4))
        ]
        drand = rng.random() < 0.5
        inputs = DeckInputs(
            rng.randbytes(32),
            tuple(seats),
            rng.randint(1, 1 << 40) if drand else None,
            rng.randbytes(32) if drand else None,
            rng.choice((32, 24)),
        )
        k = rng.choice((0, 1, 7, rng.randint(0, 1 << 31)))
        made = [card_text(c) for c in shuffled_deck(inputs, k)]
        cases.append([inputs.to_dict(), k, made])
    page.goto(f"{site.url}/verify/index.html")
    wrong = page.evaluate(
        """async cases => {
            const r = window.BeloteVerify.recipe;
            const out = [];
            for (const [d, k, want] of cases) {
                const seeds = d.seat_seeds.map(s => s === null ? null : r.fromHex(s));
                const value = d.drand_value === null ? null : r.fromHex(d.drand_value);
                const maker = await r.deckMaker(
                    r.fromHex(d.server_seed), seeds, d.drand_round || 0, value, d.size);
                const got = await maker.deck(k);
                if (got.join(" ") !== want.join(" ")) out.push([k, got, want]);
            }
            return out;
        }""",
        cases,
    )
    assert wrong == []


def test_a_changed_seat_seed_fails_every_deck_and_the_summary_says_why(
    page, site, relay_ok, genuine
):
    t = copy.deepcopy(genuine)
    t["seats"][0]["seed"] = "00" * 16
    checks = open_page(page, site, relay_ok, t)
    decks = {n for n in checks if n.endswith(": deck")}
    assert set(failed(checks)) >= decks and checks["commitment"][0] == "ok"
    status, text = summary(page)
    assert status == "fail" and "an input is not the one the match was dealt from" in text


def test_a_match_not_over_says_to_come_back(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    del t["server_seed"]
    checks = open_page(page, site, relay_ok, t)
    assert checks["commitment"] == (
        "unchecked",
        "The server has not revealed its seed yet: the match can be checked once it ends.",
    )
    status, text = summary(page)
    assert status == "unchecked" and text.startswith("Not verified: the server has not revealed")
    assert page.get_attribute("html", "data-verdict") == "not-verified"


def test_the_replay_shows_what_was_announced_with_a_card(page, site, relay_ok):
    from bot.proof.transcript import dumps
    from tests.fairdeal.conftest import make_transcript

    t = make_transcript("club")  # deal 0 opens with seat 1's "play 8D melds"
    assert (1, "play 8D melds") in t.deals[0].actions
    open_page(page, site, relay_ok, dumps(t))
    page.click("#step")
    card = page.locator("#table .trick .card").last
    assert card.get_attribute("data-card") == "8D"
    assert card.locator(".said").text_content() == "melds"


def test_a_deal_left_out_is_out_of_order(page, site, relay_ok, genuine):
    t = copy.deepcopy(genuine)
    del t["deals"][1]
    checks = open_page(page, site, relay_ok, t)
    want = "Recorded as deck k=2; deal 2 is dealt from deck k=1."
    assert checks["deal 2: deck"] == ("fail", want)
    assert checks["deal 3: hands"][0] == checks["deal 3: play"][0] == "unchecked"


# --- Coinche -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("drand", "seed", "options"),
    [(True, 10, ("no_trump", "all_trump", "generale", "bid_only")), (False, 3, ())],
)
def test_a_coinche_match_passes_and_shows_its_bids(page, site, relay_ok, drand, seed, options):
    """Every check passes, as `belote verify` says; each deal's play line and the replay
    say the contract with its bid (capot and générale by name, the coinche)."""
    from bot.proof.transcript import dumps
    from engine import Contract
    from tests.fairdeal.conftest import make_transcript

    t = make_transcript("coinche", drand=drand, seed=seed, pass_bias=0.5, options=options)
    checks = open_page(page, site, relay_ok, dumps(t))
    assert checks and not failed(checks)
    assert checks["table"][1].startswith("coinche" + "".join(f", {o}" for o in options) + ", 4")
    inputs = page.text_content("#inputs-list")
    assert ("Table options" + ", ".join(options) in inputs) == bool(options), inputs
    words = {250: "capot", 500: "générale"}
    for i, deal in enumerate(t.deals):
        contract = Contract.from_dict(deal.contract)
        if contract is None:
            continue
        play = checks[f"deal {i + 1}: play"][1]
        assert f"contract {contract.text}, taken by seat {contract.taker + 1};" in play
        page.select_option("#deal", str(i))
        shown = page.text_content("#table .contract")
        assert shown.startswith(f"{words.get(contract.bid, contract.bid)} ")
        if contract.multiplier > 1:
            assert f"×{contract.multiplier} (" in shown
        # all eight cards dealt before the auction: every hand starts full
        assert page.locator("#table .hand .card").count() == 32


def test_an_unknown_option_is_refused_as_belote_verify_refuses_it(page, site, relay_ok):
    from bot.proof.transcript import dumps
    from tests.fairdeal.conftest import make_transcript

    t = json.loads(dumps(make_transcript("coinche", seed=3, options=("bid_only",))))
    t["options"]["reverse_belote"] = True
    checks = open_page(page, site, relay_ok, t)
    assert checks["table"] == (
        "fail",
        "Unknown option reverse_belote: the options are all_trump, bid_only, generale, "
        "no_trump. Nothing else is checked.",
    )
    assert not [name for name in checks if name.startswith("deal")]
    assert page.get_attribute("html", "data-verdict") == "unfair"
    t["options"] = {"no_trump": "yes"}  # not true or false: not a transcript, for both
    open_page(page, site, relay_ok, t)
    status, text = summary(page)
    assert status == "error" and "The options must map names to true or false." in text


def test_the_coinche_rules_in_the_page_are_the_engines(page, site):
    """engine.js against the engine on Coinche positions: the legal calls in every
    auction state of many random matches (each option on and off), the reason a call is
    refused, and the count of each deal."""
    import random

    from engine import Action, TableRules
    from engine.match import Match
    from tests.corpus.generate import coinche_action

    # calls that are often not allowed, each for its own reason
    BAD = ("coinche", "surcoinche", "bid 80 H", "bid 90 NT", "bid generale S", "bid H", "take")

    rng = random.Random(54)
    option_sets = [
        (),
        ("no_trump",),
        ("all_trump", "generale"),
        ("no_trump", "all_trump", "generale", "bid_only"),
    ]
    cases = []
    for n in range(24):
        options = option_sets[n % len(option_sets)]
        decks = [rng.sample(range(32), 32) for _ in range(40)]
        m = Match(TableRules("coinche", **dict.fromkeys(options, True)), decks=decks)
        steps = []
        while m.winner is None and len(m.deals) < 6:
            seat = m.to_move
            legal = refused = None
            if m.phase == "bidding":
                legal = [a.text for a in m.legal_actions(seat)]
                refused = {
                    bad: m.refusal(seat, Action.parse(bad)).reason
                    for bad in BAD
                    if bad not in legal
                }
            action = coinche_action(m, seat, rng, 0.4)
            steps.append([seat, action.text, legal, refused])
            m.apply(seat, action)
        scores = [d.result.to_dict() if d.result else None for d in m.deals]
        cases.append([dict.fromkeys(options, True), decks, steps, scores])
    page.goto(f"{site.url}/verify/index.html")
    wrong = page.evaluate(
        """cases => {
            const E = window.BeloteVerify.engine;
            const same = window.BeloteVerify.checks.same;
            const out = [];
            for (const [options, decks, steps, scores] of cases) {
                const m = new E.Match("coinche", (k) => decks[k], null, options);
                for (const [seat, text, legal, refused] of steps) {
                    if (legal !== null) {
                        const got = m.legalBids(seat);
                        if (got.join("|") !== legal.join("|")) out.push(["legal", legal, got]);
                        for (const [bad, reason] of Object.entries(refused)) {
                            try {
                                m.apply(seat, bad);
                                out.push(["allowed", bad]);
                            } catch (err) {
                                if (!(err instanceof E.EngineError)) throw err;
                                if (err.key !== `why-${reason}`) out.push([bad, reason, err.key]);
                            }
                        }
                    }
                    m.apply(seat, text);
                }
                const made = m.deals.map((d) => d.result);
                if (!same(made, scores)) out.push(["scores", scores, made]);
            }
            return out;
        }""",
        cases,
    )
    assert wrong == []


def test_coinche_calls_at_another_table_are_refused_by_name(page, site):
    page.goto(f"{site.url}/verify/index.html?lang=en")
    said = page.evaluate(
        """() => {
            const E = window.BeloteVerify.engine;
            const { say } = window.BeloteVerify.i18n;
            const deck = Array.from({ length: 32 }, (_, c) => c);
            const out = {};
            for (const ruleset of ["classic", "bulgarian"]) {
                const m = new E.Match(ruleset, () => deck, null);
                for (const text of ["coinche", "surcoinche", "bid 80 H"]) {
                    try { m.apply(1, text); out[`${ruleset} ${text}`] = "allowed"; }
                    catch (err) { out[`${ruleset} ${text}`] = say(err.key, err.params); }
                }
            }
            return out;
        }"""
    )
    assert said["classic coinche"] == "nobody may say coinche now."
    assert said["bulgarian surcoinche"] == "nobody may say surcoinche now."
    assert said["classic bid 80 H"] == (
        "a bid has no value in classic: it names a contract (bid H)."
    )
