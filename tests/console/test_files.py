"""A file an answer carries (/verify's transcript) is saved by the console, which says where."""

from __future__ import annotations

import io

from adapters.console.platform import ConsolePlatform
from bot.platform import Reply


def test_an_attached_transcript_is_saved_next_to_the_pictures(tmp_path):
    out = io.StringIO()
    platform = ConsolePlatform(out=out, images_dir=tmp_path / "pictures")
    platform.reply(
        "ana", Reply("Match m1: all checks passed.", file=b'{"match": "m1"}', file_name="m1.json")
    )
    saved = tmp_path / "pictures" / "m1.json"
    assert saved.read_bytes() == b'{"match": "m1"}'
    assert out.getvalue().splitlines() == [
        "@ana | Match m1: all checks passed.",
        f"@ana | Saved {saved}.",
    ]


def test_without_a_pictures_folder_it_goes_to_the_current_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    platform = ConsolePlatform(out=io.StringIO())
    platform.reply("ana", Reply("ok", file=b"{}", file_name="../m 2.json"), locale="fr")
    assert (tmp_path / ".._m_2.json").read_bytes() == b"{}"  # no way out of the folder
