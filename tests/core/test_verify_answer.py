"""/verify answers with the transcript attached and a link to the browser check."""

from __future__ import annotations

from bot.proof.transcript import loads
from tests.core.harness import make_harness, table_with_bots


async def test_verify_attaches_the_transcript_and_links_to_the_page(tmp_path):
    h = await make_harness(tmp_path / "b.db", verify_page="https://example.org/check/")
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    (reply,) = await h.cmd(
        "alice",
        "/verify",
    )
    assert reply.ok and "checks passed" in reply.text
    assert reply.file_name == "belote-m1.json"
    assert "open https://example.org/check/ and drop the attached belote-m1.json" in reply.text
    transcript = loads(reply.file)
    assert transcript.match == "m1" and transcript.server_seed is not None
    assert transcript == await h.app.transcript(1)
    await h.app.stop()


async def test_the_link_is_in_the_players_language(tmp_path):
    from bot.platform import User

    h = await make_harness(tmp_path / "b.db")
    await table_with_bots(h)
    await h.cmd("alice", "/start")
    await h.play_human_turns({0: "alice"})
    (reply,) = await h.cmd(User("test:zoe", "Zoé", locale="fr"), "/verify")
    assert "Vérifie toi-même" in reply.text and "/verify/" in reply.text
    await h.app.stop()
