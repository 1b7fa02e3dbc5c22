"""verify_transcript passes on real engine matches and fails exactly where one is tampered."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from bot.proof.drand import DrandClient
from bot.proof.transcript import DealTranscript, DrandRecord, SeatRecord, Transcript
from bot.proof.verify import VerifyReport, verify_transcript
from engine import DeckInputs, Match
from tests.fakes.drand_relay import REAL_BEACONS, drand_relay, tampered


def failed(report: VerifyReport) -> set[str]:
    """The checks that failed (not those left unchecked after them)."""
    return {c.name for c in report.checks if c.status == "fail"}


def inputs_of(t: Transcript) -> DeckInputs:
    drand = t.drand
    return DeckInputs(
        bytes.fromhex(t.server_seed),
        tuple(None if s.seed is None else bytes.fromhex(s.seed) for s in t.seats),
        None if drand is None else drand.round,
        None if drand is None else bytes.fromhex(drand.value),
    )


def with_deal(t: Transcript, i: int, **changes: object) -> Transcript:
    deals = list(t.deals)
    deals[i] = dataclasses.replace(deals[i], **changes)
    return dataclasses.replace(t, deals=tuple(deals))


@pytest.mark.parametrize(
    "name", ["club_transcript", "bulgarian_transcript", "classic_redeal_transcript"]
)
async def test_good_transcript_passes(name: str, request: pytest.FixtureRequest) -> None:
    t: Transcript = request.getfixturevalue(name)
    assert t.result is not None and t.result["winner"] in (0, 1)
    report = await verify_transcript(t, online=False)
    assert report.ok, report.text()
    assert report.verdict == "fair" and report.deal is None
    names = [c.name for c in report.checks]
    assert [n for n in names if n != "drand online"][:3] == ["commitment", "drand", "table"]
    for n, d in enumerate(t.deals, start=1):  # numbered for people, from 1
        parts = {f"deal {n}: {part}" for part in ("deck", "hands", "play", "score")}
        assert parts <= set(names)
        assert report.check(f"deal {n}: deck").message.startswith(f"Deck k={d.k} ")
    assert names[-1] == "result"
    assert "Every check passed" in report.text()


def test_fixtures_cover_what_they_claim(
    club_transcript: Transcript, classic_redeal_transcript: Transcript
) -> None:
    assert len(club_transcript.deals) >= 3
    assert club_transcript.drand is not None
    redeals = [d for d in classic_redeal_transcript.deals if d.contract is None]
    assert redeals, "the pass-heavy classic match should have at least one redeal"
    assert classic_redeal_transcript.drand is None


async def test_tampered_server_seed(club_transcript: Transcript) -> None:
    other = hashlib.sha256(b"another seed").hexdigest()
    report = await verify_transcript(dataclasses.replace(club_transcript, server_seed=other))
    assert not report.ok
    assert "commitment" in failed(report)
    assert "changed its seed" in report.check("commitment").message


async def test_tampered_commitment_only(club_transcript: Transcript) -> None:
    t = dataclasses.replace(club_transcript, commitment="00" * 32)
    report = await verify_transcript(t)
    assert failed(report) == {"commitment"}


async def test_tampered_seat_seed(club_transcript: Transcript) -> None:
    seats = list(club_transcript.seats)
    seats[2] = SeatRecord(seats[2].name, "a4" + "a5" * 15, seats[2].bot)
    report = await verify_transcript(dataclasses.replace(club_transcript, seats=tuple(seats)))
    bad = failed(report)
    assert report.check("commitment").ok and report.check("drand").ok
    # every deck differs; the first deal is named, the replay stops there
    assert "deal 1: deck" in bad and report.deal == 1


async def test_tampered_deck(club_transcript: Transcript) -> None:
    deck = list(club_transcript.deals[1].deck)
    deck[5], deck[20] = deck[20], deck[5]
    report = await verify_transcript(with_deal(club_transcript, 1, deck=tuple(deck)))
    assert failed(report) == {"deal 2: deck"}
    assert report.deal == 2 and report.verdict == "unfair"
    assert "from card 6 on" in report.check("deal 2: deck").message


async def test_tampered_hand(club_transcript: Transcript) -> None:
    hands = [list(h) for h in club_transcript.deals[2].hands]
    hands[0][0], hands[3][0] = hands[3][0], hands[0][0]
    t = with_deal(club_transcript, 2, hands=tuple(tuple(h) for h in hands))
    report = await verify_transcript(t)
    assert report.deals == [3]
    assert "Seat 1 was dealt" in report.check("deal 3: hands").message


async def test_tampered_turned_card(club_transcript: Transcript) -> None:
    deal = club_transcript.deals[0]
    other = next(c for c in deal.deck if c != deal.turned)
    report = await verify_transcript(with_deal(club_transcript, 0, turned=other))
    assert report.deals == [1] and report.check("deal 1: hands").status == "fail"


async def test_illegal_action(club_transcript: Transcript) -> None:
    deal = club_transcript.deals[0]
    actions = list(deal.actions)
    i = next(n for n, (_, text) in enumerate(actions) if text.startswith("play"))
    seat, _ = actions[i]
    # a card that seat was never dealt
    foreign = next(c for c in deal.deck if c not in deal.hands[seat])
    actions[i] = (seat, f"play {foreign}")
    report = await verify_transcript(with_deal(club_transcript, 0, actions=tuple(actions)))
    bad = failed(report)
    assert "deal 1: play" in bad
    assert f"action {i + 1} " in report.check("deal 1: play").message.lower()
    assert not {"deal 1: deck", "deal 1: hands", "commitment", "drand"} & bad
    # the replay cannot go on: later deals are reported unchecked, never as passing
    assert report.check("deal 2: play").status == "unchecked"
    assert "Not checked" in report.check("deal 2: play").message
    assert report.check("result").status == "unchecked"
    assert report.verdict == "unfair" and report.deals == [1]


async def test_other_legal_action_changes_the_score(club_transcript: Transcript) -> None:
    """A different but legal play is caught too: the tricks, and so the score, change."""
    deal = club_transcript.deals[0]
    replay = Match(club_transcript.ruleset, inputs=inputs_of(club_transcript))
    actions = list(deal.actions)
    for n, (seat, text) in enumerate(deal.actions):
        others = [a.text for a in replay.legal_actions(seat) if a.text != text]
        plays = [a for a in others if a.startswith("play") and a.split()[1] != text.split()[1]]
        if plays and n > 8:
            actions[n] = (seat, plays[0])
            break
        replay.apply(seat, text)
    else:
        pytest.skip("no alternative play in deal 0")
    report = await verify_transcript(with_deal(club_transcript, 0, actions=tuple(actions)))
    # the later cards break the rules, or the count differs: deal 1 either way
    assert {"deal 1: play", "deal 1: score"} & failed(report) and report.deals == [1]
    assert report.check("deal 1: hands").ok and report.check("deal 1: deck").ok


async def test_tampered_score_and_result(club_transcript: Transcript) -> None:
    score = dict(club_transcript.deals[1].score)
    score["points"] = [p + 10 for p in score["points"]]
    report = await verify_transcript(with_deal(club_transcript, 1, score=score))
    assert failed(report) == {"deal 2: score"} and report.deal == 2
    result = dict(club_transcript.result)
    result["winner"] = 1 - result["winner"]
    report = await verify_transcript(dataclasses.replace(club_transcript, result=result))
    assert failed(report) == {"result"}


async def test_missing_and_extra_deals(club_transcript: Transcript) -> None:
    report = await verify_transcript(
        dataclasses.replace(club_transcript, deals=club_transcript.deals[:-1])
    )
    assert "result" in failed(report)
    assert report.deal == len(club_transcript.deals)  # the missing one
    extra = dataclasses.replace(club_transcript.deals[-1], k=len(club_transcript.deals))
    report = await verify_transcript(
        dataclasses.replace(club_transcript, deals=(*club_transcript.deals, extra))
    )
    assert report.deal == len(club_transcript.deals) + 1


async def test_tampered_drand_value(club_transcript: Transcript) -> None:
    d = club_transcript.drand
    value = bytearray(bytes.fromhex(d.value))
    value[31] ^= 1
    t = dataclasses.replace(club_transcript, drand=dataclasses.replace(d, value=value.hex()))
    report = await verify_transcript(t)
    bad = failed(report)
    assert "drand" in bad and report.check("commitment").ok
    assert "deal 1: deck" in bad


async def test_drand_signature_of_another_round(club_transcript: Transcript) -> None:
    """A real beacon of round 1 presented as round 2 (value and decks consistent)."""
    b1 = REAL_BEACONS[1]
    t = dataclasses.replace(
        club_transcript,
        drand=DrandRecord(club_transcript.drand.chain, 2, b1.randomness.hex(), b1.signature.hex()),
    )
    report = await verify_transcript(t)
    assert "drand" in failed(report)


async def test_drand_bit_flipped_signature(club_transcript: Transcript) -> None:
    bad_beacon = tampered(REAL_BEACONS[2], bit=3)
    t = dataclasses.replace(club_transcript, drand=DrandRecord.from_beacon(bad_beacon))
    report = await verify_transcript(t)
    assert "drand" in failed(report)


async def test_unrevealed_seed_fails_kindly(club_transcript: Transcript) -> None:
    report = await verify_transcript(dataclasses.replace(club_transcript, server_seed=None))
    assert not report.ok and report.verdict == "not verified"
    assert "not revealed" in report.check("commitment").message
    assert report.check("deal 1: deck") is None


async def test_malformed_inputs_fail_without_raising(club_transcript: Transcript) -> None:
    seats = list(club_transcript.seats)
    seats[0] = SeatRecord("Ana", "not hex", False)
    report = await verify_transcript(dataclasses.replace(club_transcript, seats=tuple(seats)))
    assert "inputs" in failed(report)
    report = await verify_transcript(dataclasses.replace(club_transcript, recipe="other/v9"))
    assert "table" in failed(report)
    deal = club_transcript.deals[0]
    garbage = dataclasses.replace(deal, actions=((9, "play ZZ"),), hands=((),), contract={"x": 1})
    report = await verify_transcript(with_deal(club_transcript, 0, **vars(garbage)))
    assert not report.ok


async def test_online_check_against_fake_relay(club_transcript: Transcript) -> None:
    async with drand_relay() as relay, DrandClient([relay.url], 2.0) as client:
        report = await verify_transcript(club_transcript, online=True, drand_client=client)
        assert report.ok, report.text()
        assert report.check("drand online").ok
        assert relay.requests == [f"/{club_transcript.drand.chain}/public/2"]
    async with drand_relay("down") as relay, DrandClient([relay.url], 2.0) as client:
        report = await verify_transcript(club_transcript, online=True, drand_client=client)
        # drand's own answer is an extra: the BLS check has proved the value already
        assert report.ok and report.check("drand online").status == "skip"


async def test_online_check_catches_a_different_value(club_transcript: Transcript) -> None:
    """drand serves round 2's real value; the transcript claims round 2 had another."""
    b1 = REAL_BEACONS[1]
    fake_round2 = {2: dataclasses.replace(REAL_BEACONS[2])}
    t = dataclasses.replace(
        club_transcript,
        drand=DrandRecord(club_transcript.drand.chain, 2, b1.randomness.hex(), b1.signature.hex()),
    )
    async with drand_relay(beacons=fake_round2) as relay, DrandClient([relay.url], 2.0) as c:
        report = await verify_transcript(t, online=True, drand_client=c)
        assert "drand" in failed(report)
        assert report.check("drand online") is None  # not asked for a value already refused
    forged = {2: tampered(REAL_BEACONS[2], bit=5)}
    async with drand_relay(beacons=forged) as relay, DrandClient([relay.url], 2.0) as c:
        report = await verify_transcript(club_transcript, online=True, drand_client=c)
    assert report.ok  # the client refuses a relay's forged beacon: nothing to compare


async def test_no_drand_is_reported_as_such(classic_redeal_transcript: Transcript) -> None:
    report = await verify_transcript(classic_redeal_transcript, online=True)
    assert report.ok  # online has nothing to ask without drand: no network use
    assert "without drand" in report.check("drand").message


def test_deal_transcript_is_frozen() -> None:
    deal = DealTranscript(0, 0, (), None, (), None, (), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        deal.k = 1  # type: ignore[misc]
