"""The corpus of transcripts both checkers run (see generate.py); index.json lists them."""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def corpus() -> list[dict]:
    """Every case: {file, verdict, deal, what}; ``text`` added, the file's content."""
    cases = json.loads((HERE / "index.json").read_text(encoding="utf-8"))
    for case in cases:
        case["text"] = (HERE / case["file"]).read_text(encoding="utf-8")
    return cases
