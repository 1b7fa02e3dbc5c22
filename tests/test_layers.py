"""The import graph of engine/, bot/ and adapters/: no circle anywhere, and the layers point
down only (engine <- bot <- adapters: engine imports nothing of bot/ or adapters/, bot/
nothing of adapters/).

Every import statement counts, wherever it stands: at the top of a module, inside a
function (a "lazy" import) or under ``if TYPE_CHECKING:``. An import moved into a function
or behind TYPE_CHECKING still means that a reader of one module needs the other, so it
must not be a way to hide a circle or a layer break.
"""

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "adapters")
#: Who may import whom: a package may import itself and the ones listed.
ALLOWED = {
    "engine": {"engine"},
    "bot": {"engine", "bot"},
    "adapters": {"engine", "bot", "adapters"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module's source; a compiled module (``engine/ai/_dds``) by its stub."""
    out = {}
    for package in PACKAGES:
        for suffix in ("*.pyi", "*.py"):  # the source wins over a stub of the same name
            for path in sorted((ROOT / package).rglob(suffix)):
                if "__pycache__" not in path.parts:
                    out[module_name(path)] = path
    return out


def imported(tree: ast.AST, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The project modules one module's source imports (``from a.b import c`` names
    ``a.b.c`` when that is a module, else ``a.b``)."""
    out: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]

    def add(target: str) -> None:
        while target and target not in known:  # ``import a.b.func`` -> a.b
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                add(full if full in known else source)
    return out


def import_graph() -> nx.DiGraph:
    modules = project_modules()
    known = set(modules)
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for target in sorted(imported(tree, name, path.name == "__init__.py", known)):
            graph.add_edge(name, target)
    return graph


def circles(graph: nx.DiGraph) -> list[tuple[list[str], list[str]]]:
    """Each group of modules that import one another round (a strongly connected
    component: every circle lies inside one), sorted, with one circle through it that shows
    the way round."""
    out = []
    for group in nx.strongly_connected_components(graph):
        if len(group) > 1:
            members = sorted(group)
            way = nx.find_cycle(graph.subgraph(group), source=members[0])
            out.append((members, [a for a, _b in way] + [way[0][0]]))
    return sorted(out)


def describe(found: list[tuple[list[str], list[str]]]) -> str:
    return "\n".join(
        f"{' -> '.join(way)}   (the circle's group: {', '.join(members)})" for members, way in found
    )


GRAPH = import_graph()
CIRCLES = circles(GRAPH)
#: The modules of the core rewrite (another branch), which was breaking the circles through
#: them when this test came in: adapters/discord (adapter, client, commands, widgets) and
#: bot's commands.inputs -> play.table -> store -> store.base <-> store.postgres.
CORE_REWRITE = ("bot.app", "bot.play", "bot.show.posting", "bot.commands", "bot.store", "adapters")
#: The graph without those modules: what is left must have no circle at all.
OUTSIDE_CORE = GRAPH.subgraph(n for n in GRAPH if not n.startswith(CORE_REWRITE))


def test_the_graph_sees_the_whole_project():
    assert {"engine.match", "bot.app", "adapters.cli"} <= set(GRAPH)
    assert GRAPH.has_edge("bot.play.table", "engine") or any(
        t.startswith("engine") for t in GRAPH.successors("bot.play.table")
    )


def test_a_circle_is_found_and_shown():
    toy = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")])
    assert circles(toy) == [(["a", "b", "c"], ["a", "b", "c", "a"])]
    assert "a -> b -> c -> a" in describe(circles(toy))


def test_relative_and_from_imports_resolve_to_modules():
    known = {"bot", "bot.store", "bot.store.base", "bot.store.sql", "engine"}
    tree = ast.parse("from . import sql\nfrom .base import Store\nimport engine.cards")
    assert imported(tree, "bot.store", True, known) == {"bot.store.sql", "bot.store.base", "engine"}
    tree = ast.parse("from .sql import q\nfrom bot.store import Write")
    assert imported(tree, "bot.store.base", False, known) == {"bot.store.sql", "bot.store"}


def test_no_import_circle():
    assert CIRCLES == [], "import circles:\n" + describe(CIRCLES)


def test_no_circle_outside_the_core_rewrite():
    outside = circles(OUTSIDE_CORE)
    assert outside == [], "import circles:\n" + describe(outside)


def layer_breaks(graph: nx.DiGraph) -> list[str]:
    return sorted(
        f"{a} imports {b}"
        for a, b in graph.edges
        if b.split(".")[0] not in ALLOWED[a.split(".")[0]]
    )


def test_a_layer_break_is_found():
    toy = nx.DiGraph([("engine.match", "bot.app"), ("bot.app", "engine.match")])
    toy.add_edge("bot.store", "adapters.cli")
    assert layer_breaks(toy) == ["bot.store imports adapters.cli", "engine.match imports bot.app"]


def test_layers_point_down_only():
    assert layer_breaks(GRAPH) == []
