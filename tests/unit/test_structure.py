"""The shape of the source tree (ARCHITECTURE.md, "Code design: tables, one job per file").

- No module of ``elicit_tray`` imports its way back to itself: the import graph is built from
  the AST of every module under ``src/elicit_tray``, with the imports at module level *and* those
  inside functions (a function-level import that closes a cycle is a cycle that merely waits
  for its first call). Imports under ``if TYPE_CHECKING:`` are left out: they never run, they
  only name types for annotations.
- No source file over :data:`MAX_FILE_LINES` lines.
- No function over :data:`MAX_FUNCTION_LINES` lines, except the flat tables of
  :data:`FLAT_TABLES`, each with the reason it is one.
- The code points only at texts a clone has: no ``issue N`` reference, no ``notes/`` or
  ``notes §`` reference, no ``../shared`` and no ``/work/`` path. A ``§`` may cite a
  specification (RFC, ECMA, JSON Schema) only.

Each test reports every offender, not just the first. Pure Python: reads the sources, imports
nothing of ``elicit_tray``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "elicit_tray"

#: Longest source file, in lines (ARCHITECTURE.md: "No source file over 600 lines").
MAX_FILE_LINES = 600
#: Longest function, in lines from ``def`` to its last line, nested functions counted on their own.
MAX_FUNCTION_LINES = 80
#: ``"path/inside/elicit_tray.py:qualified.name"`` -> why it is a flat table (one row per line
#: of a fixed shape, nothing to split by job). A new entry says so in a comment at the function
#: too, e.g. ``"cli.py:_parser": "argparse table: one add_argument per option, no logic"``.
FLAT_TABLES: dict[str, str] = {}


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (``__init__`` as the package)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in ``tree``, at any depth, outside ``if TYPE_CHECKING:`` bodies."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the body only names types
            continue
        stack.extend(ast.iter_child_nodes(node))


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The modules of the package that ``node`` (in ``module``) imports."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    found = {f"{source}.{alias.name}" for alias in node.names} & known  # submodules named
    named_only = any(f"{source}.{alias.name}" not in known for alias in node.names)
    if source in known and (node.module is not None or named_only):
        found.add(source)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (module level and inside functions)."""
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        graph[name] = set().union(*(_targets(name, is_package, node, known) for node in _imports(tree))) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (``[a, b, ..., a]``) through each strongly connected group of ``graph``
    (Tarjan's algorithm, iterative), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return sorted(_cycle_in(graph, group) for group in groups)


def _cycle_in(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle through the first module of ``group`` (breadth first, inside it)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & group):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(f"no cycle in {group}")  # pragma: no cover - Tarjan found one


def test_the_cycle_finder_finds_cycles() -> None:
    """The finder itself: a direct and a longer cycle are reported, a diamond is not."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c", "f"}, "f": set(), "g": {"f", "h"}, "h": {"f"}}
    assert cycles(graph) == [["a", "b", "a"], ["c", "d", "e", "c"]]


def test_the_graph_counts_function_level_imports_and_skips_type_checking_ones() -> None:
    """The graph of the real package holds a known function-level import and resolves relative
    imports of both kinds (``from .x import y`` and ``from . import x``)."""
    graph = import_graph()
    assert "elicit_tray.checker" in graph["elicit_tray"]  # inside elicit_tray.check()
    assert "elicit_tray.ipc.jsonrpc" in graph["elicit_tray.ipc.protocol"]  # from . import jsonrpc
    assert "elicit_tray.display" in graph["elicit_tray.request"]
    assert "elicit_tray.schema" not in graph["elicit_tray.request"]  # only under TYPE_CHECKING


def test_no_module_imports_its_way_back_to_itself() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def _source_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def test_no_source_file_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in _source_files()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    }
    assert not long, f"files over {MAX_FILE_LINES} lines: {long}"


def _functions() -> Iterator[tuple[str, int]]:
    """(``"path:qualified.name"``, lines) of every function of the package."""

    def walk(node: ast.AST, prefix: str, where: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    yield f"{where}:{name}", child.end_lineno - child.lineno + 1
                yield from walk(child, f"{name}.", where)
            else:
                yield from walk(child, prefix, where)

    for path in _source_files():
        yield from walk(ast.parse(path.read_text(encoding="utf-8")), "", str(path.relative_to(PACKAGE)))


def test_no_function_is_over_80_lines_unless_it_is_a_listed_flat_table() -> None:
    lines = dict(_functions())
    long = {name: n for name, n in lines.items() if n > MAX_FUNCTION_LINES and name not in FLAT_TABLES}
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines (split them, or list a flat table): {long}"


def test_every_listed_flat_table_exists_is_long_and_says_why() -> None:
    lines = dict(_functions())
    stale = {name: lines.get(name) for name, why in FLAT_TABLES.items() if lines.get(name, 0) <= MAX_FUNCTION_LINES}
    assert not stale, f"listed flat tables that are gone or now short (remove them from FLAT_TABLES): {stale}"
    assert all(why.strip() for why in FLAT_TABLES.values())


#: What a clone cannot follow, with what it is.
_UNFOLLOWABLE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b[Ii]ssues?\s+#?\d+"), "an issue reference"),
    (re.compile(r"\bnotes/|\bnotes\s*(?:§|section\b)"), "a reference to notes"),
    (re.compile(r"\.\./shared"), "a ../shared path"),
    (re.compile(r"/work/"), "a /work/ path"),
    (re.compile(r"(?<!docs/)\b(?:DESIGN|STYLE)\.md\b|\bshared/"), "a design text outside the repository"),
)
#: A ``§`` may follow one of these on its line: a specification's own sections.
_SPEC = re.compile(r"\bRFC\s?\d+|\bECMA-?\d+|\bJSON Schema\b")


#: A design document of the repository (``docs/wrap-design.md``): a file that cites one may
#: cite its sections as a bare ``§2.5`` (``tests/unit/test_wrap_core.py`` checks each exists).
_OWN_DOC = re.compile(r"\bdocs/[\w-]+\.md\b")


def unfollowable(text: str) -> list[tuple[int, str]]:
    """(line number, what) of every reference in ``text`` that a clone cannot follow."""
    found = []
    cited = _OWN_DOC.findall(text)
    own_sections = bool(cited) and all((SRC.parent / doc).is_file() for doc in cited)
    for number, line in enumerate(text.splitlines(), 1):
        found += [(number, what) for regex, what in _UNFOLLOWABLE if regex.search(line)]
        if not own_sections and any(not _SPEC.search(line[: m.start()]) for m in re.finditer("§", line)):
            found.append((number, "a § that cites no specification"))
    return found


def test_the_reference_finder_tells_citations_from_unfollowable_references() -> None:
    assert unfollowable("JSON Schema 2020-12 §6.3.3 / Validation §4.3; RFC 6901 §3; ECMA-262 §22.2") == []
    assert [what for _n, what in unfollowable("(issue 13 §6)")] == [
        "an issue reference",
        "a § that cites no specification",
    ]
    assert sorted({n for n, _what in unfollowable("ok\nsee notes/proxy-design.md\nnotes §8\n(§2.5)")}) == [2, 3, 4]
    assert unfollowable("``/work/shared/notes/url-safety.md``")
    assert unfollowable("../shared/notes") and not unfollowable("docs/url-safety.md")
    assert unfollowable('DESIGN.md "UI rules"; STYLE.md; ``shared/cases``') == [
        (1, "a design text outside the repository")
    ]
    assert unfollowable('docs/design.md "UI rules"') == []
    assert unfollowable("docs/wrap-design.md §2\n(§2.5)") == []  # a design document of the repository
    assert unfollowable("docs/no-such-design.md §2\n(§2.5)") != []


def test_the_code_cites_only_what_a_clone_has() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {what}"
        for path in sorted(SRC.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix in {".py", ".md", ".txt", ".toml", ".json"}
        for number, what in unfollowable(path.read_text(encoding="utf-8"))
    ]
    assert not found, "references a clone cannot follow:\n" + "\n".join(found)
