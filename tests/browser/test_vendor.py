"""The vendored BLS library is exactly what web/verify/vendor/revendor.sh made from the
versions it pins: nobody edits it by hand, and its banner names those versions."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "web" / "verify" / "vendor"


def test_the_bundle_is_the_one_recorded():
    recorded = dict(
        reversed(line.split()) for line in (VENDOR / "SHA256SUMS").read_text().splitlines()
    )
    bundle = (VENDOR / "noble-bls12-381.js").read_bytes()
    assert hashlib.sha256(bundle).hexdigest() == recorded["noble-bls12-381.js"]


def test_its_banner_names_the_pinned_versions_and_licence():
    pinned = json.loads((VENDOR / "package.json").read_text())["dependencies"]["@noble/curves"]
    lock = json.loads((VENDOR / "package-lock.json").read_text())["packages"]
    hashes = lock["node_modules/@noble/hashes"]["version"]
    assert lock["node_modules/@noble/curves"]["version"] == pinned
    first = (VENDOR / "noble-bls12-381.js").read_text(encoding="utf-8").splitlines()[0]
    assert f"@noble/curves {pinned} and @noble/hashes {hashes} (MIT" in first
    assert (VENDOR / "LICENSE-noble").read_text().startswith("The MIT License")
