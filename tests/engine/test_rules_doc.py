"""docs/rules.md is the rules document the code and tests cite: every citation resolves to
one of its sections, its worked deck examples are what the engine deals, and nothing in the
repository sends a reader to a rules document that is not in it."""

import re
from pathlib import Path

import pytest

from engine import DeckInputs, cards_text, shuffled_deck
from engine.recipe import commitment

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
SKIP_DIRS = {".git", ".venv", "node_modules", "vendor", "__pycache__", ".mypy_cache"}
TEXT_SUFFIXES = {".py", ".md", ".po", ".toml", ".txt", ".js", ".html", ".yaml", ".yml", ".sh"}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    return {
        slug(line.lstrip("#"))
        for line in RULES.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def repository_texts() -> list[tuple[Path, str]]:
    out = []
    for path in ROOT.rglob("*"):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            out.append((path, path.read_text(encoding="utf-8", errors="replace")))
    return out


def test_slug_follows_githubs_anchors():
    assert slug("Bulgarian: the end of the match") == "bulgarian-the-end-of-the-match"
    assert slug("Classic: belote-rebelote") == "classic-belote-rebelote"


def test_every_citation_of_a_rules_section_names_a_heading():
    known = anchors()
    cited: list[tuple[str, str]] = []
    for path, text in repository_texts():
        for m in re.finditer(r"rules\.md#([\w-]+)", text):
            cited.append((str(path.relative_to(ROOT)), m.group(1)))
        # the legal-play reference test names several sections in one parenthesis
        for m in re.finditer(r"rules\.md \(([#\w\-, ]+)\)", text):
            cited += [(str(path.relative_to(ROOT)), a.strip(" #")) for a in m.group(1).split(",")]
    assert len(cited) > 50, "the rule tests cite their sections"
    broken = [(f, a) for f, a in cited if a not in known]
    assert broken == []


@pytest.mark.parametrize(
    "name", ["test_rules_common", "test_rules_classic", "test_rules_club", "test_rules_bulgarian"]
)
def test_every_rule_test_sits_under_a_cited_section(name):
    lines = (ROOT / "tests" / "engine" / f"{name}.py").read_text(encoding="utf-8").splitlines()
    section = None
    uncited = []
    for line in lines:
        if line.startswith("# docs/rules.md#"):
            section = line
        elif line.startswith("def test_") and section is None:
            uncited.append(line)
    assert uncited == []


def test_nothing_points_to_a_rules_document_outside_the_repository():
    outside = re.compile("RULES" + r"\.md|\bseeds?[ _]0\d\d\b|\.\./shared")
    hits = [
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for path, text in repository_texts()
        for m in outside.finditer(text)
    ]
    assert hits == []


def documented_decks() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("### The deck of deal k") : text.index("### Dealing from the deck")]
    return re.findall(r"`((?:[789TJQKA][CDHS] ){31}[789TJQKA][CDHS])`", section)


def test_the_worked_decks_are_the_engines():
    zero = DeckInputs(bytes(32), (bytes(16), None))
    four = DeckInputs(
        bytes(range(32)),
        (bytes([1] * 16), None, bytes([3] * 16), bytes([4] * 16)),
        drand_round=1000,
        drand_value=bytes([0xAB] * 32),
    )
    made = [shuffled_deck(zero, 0), shuffled_deck(four, 0), shuffled_deck(four, 1)]
    assert documented_decks() == [cards_text(d) for d in made]
    assert commitment(bytes(range(32))) in RULES.read_text(encoding="utf-8")
