"""The folders are the architecture: `court/` and `elections/` are pure, `server/` holds every
adapter, and nothing in `server/` reaches past the service into the store. No module of the
project imports itself through others. Production modules stay under 400 lines and their
functions under 50."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from textwrap import indent

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRAMEWORKS = {
    "flask",
    "flask_socketio",
    "sqlmodel",
    "sqlalchemy",
    "marshmallow",
    "apispec",
    "socketio",
    "engineio",
    "werkzeug",
    "click",
    "alembic",
    "gevent",
    "gunicorn",
}
DRIVERS = {"sqlite3", "psycopg", "psycopg2", "redis"}
# The pure folders never read the clock, randomness, the environment, files or the network,
# and never log: times, ids and dice arrive as inputs.
IMPURE = {
    "random",
    "secrets",
    "uuid",
    "time",
    "datetime",
    "os",
    "pathlib",
    "io",
    "socket",
    "threading",
    "subprocess",
    "logging",
}
APPLICATION = {"server", "app", "config", "devtools"}
PURE_FOLDERS = ("court", "elections")
# What a store does; outside the store and the service nothing asks a store for it.
STORE_METHODS = {
    "append",
    "append_batches",
    "read",
    "rows",
    "head",
    "games",
    "snapshot",
    "save_snapshot",
}
# The service: court_service.py, its one replay path and its paths of whole logs.
SERVICE = {
    ROOT / "server" / "service" / "court_service.py",
    ROOT / "server" / "service" / "replay.py",
    ROOT / "server" / "service" / "whole_logs.py",
}


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def imported_modules(path: Path) -> set[str]:
    """The full names of the modules a file imports absolutely, and of the packages they lie
    in (`from server import http` names server.http)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {".".join(name.split(".")[:end]) for name in names for end in (2, 3)}


def store_calls(path: Path) -> list[str]:
    """Calls of a store's methods on anything named like a store (`store.read`,
    `self.service().store.head`, `extensions["court_store"].append`)."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in STORE_METHODS
        ):
            receiver = ast.get_source_segment(source, node.func.value) or ""
            if "store" in receiver.lower():
                found.append(f"line {node.lineno}: {receiver}.{node.func.attr}")
    return found


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def oversized(path: Path, label: str | None = None) -> list[tuple[str, str, int]]:
    """The module, if over MAX_MODULE_LINES, and every function or method over
    MAX_FUNCTION_LINES (from its `def` line to its last, decorators excluded), as
    (path, qualified name or "<module>", lines)."""
    source = path.read_text(encoding="utf-8")
    label = label or path.relative_to(ROOT).as_posix()
    found = []
    if len(source.splitlines()) > MAX_MODULE_LINES:
        found.append((label, "<module>", len(source.splitlines())))

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, prefix)
                continue
            name = f"{prefix}{child.name}"
            length = (child.end_lineno or child.lineno) - child.lineno + 1
            if not isinstance(child, ast.ClassDef) and length > MAX_FUNCTION_LINES:
                found.append((label, name, length))
            visit(child, f"{name}.")

    visit(ast.parse(source), "")
    return found


PURE = [p for folder in PURE_FOLDERS for p in modules(folder)]
SERVER = modules("server")
PRODUCTION = [*PURE, *SERVER, ROOT / "app.py"]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50
# A module passes MAX_MODULE_LINES only for a reason said here in a line: a module is split
# where its responsibilities part, never into fragments that fit a count.
LONG_MODULES: dict[str, str] = {}


@pytest.mark.parametrize("path", PURE, ids=relative)
def test_pure_folders_import_no_framework_driver_or_application(path: Path) -> None:
    assert not imports(path) & (FRAMEWORKS | DRIVERS | APPLICATION)


@pytest.mark.parametrize("path", PURE, ids=relative)
def test_pure_folders_read_no_clock_randomness_environment_or_files(path: Path) -> None:
    assert not imports(path) & IMPURE


@pytest.mark.parametrize("path", modules("elections"), ids=relative)
def test_the_voting_core_knows_nothing_of_the_court(path: Path) -> None:
    assert "court" not in imports(path)


OUTSIDE_THE_STORE = [
    p
    for p in [*SERVER, ROOT / "app.py"]
    if "store" not in p.relative_to(ROOT).parts and p not in SERVICE
]


@pytest.mark.parametrize("path", OUTSIDE_THE_STORE, ids=relative)
def test_adapters_read_and_write_the_log_through_the_service_only(path: Path) -> None:
    assert store_calls(path) == []


# The two adapters a client talks to stand side by side: what both need (the client's
# address, the catalogue, the service) lies beside them, never in one of them.
SIDE_BY_SIDE = {"http": "server.live", "live": "server.http"}


@pytest.mark.parametrize("path", [*modules("server/http"), *modules("server/live")], ids=relative)
def test_the_http_and_socket_adapters_import_nothing_of_each_other(path: Path) -> None:
    other = SIDE_BY_SIDE[path.relative_to(ROOT / "server").parts[0]]
    assert other not in imported_modules(path)


def test_production_modules_and_functions_stay_small() -> None:
    found = [o for path in PRODUCTION for o in oversized(path)]
    listed = [
        f"{path} {name}: {lines} lines"
        for path, name, lines in found
        if not (name == "<module>" and path in LONG_MODULES)
    ]
    assert not listed, "over the size limits:\n" + "\n".join(listed)


def test_a_long_module_named_with_its_reason_is_long() -> None:
    """A reason outlives no split: a listed module back under the limit leaves the list."""
    long = {path for p in PRODUCTION for path, name, _ in oversized(p) if name == "<module>"}
    assert set(LONG_MODULES) <= long, f"under the limit now: {set(LONG_MODULES) - long}"


def test_the_rules_see_what_they_guard(tmp_path: Path) -> None:
    """Each rule fails on a module that breaks it: the checks are not vacuous."""
    assert {"decide", "evolve", "events", "state.py", "chain.py"} <= {
        part for p in modules("court") for part in p.relative_to(ROOT / "court").parts
    }
    assert "flask" in imports(ROOT / "server" / "http" / "games.py")
    assert {"http", "live", "store", "tools"} <= {p.parent.name for p in SERVER}
    bypass = tmp_path / "bypass.py"
    bypass.write_text("def f(service):\n    return service().store.head('g')\n")
    assert store_calls(bypass) == ["line 2: service().store.head"]
    engine = tmp_path / "engine.py"
    engine.write_text("from server.service.court_service import CourtService\nimport time\n")
    assert imports(engine) & APPLICATION and imports(engine) & IMPURE
    adapter = tmp_path / "adapter.py"
    for line in ("from server.http.api import client_address", "from server import live"):
        adapter.write_text(f"{line}\n")
        assert {"server.http", "server.live"} & imported_modules(adapter)
    adapter.write_text(
        "from server.clients.addresses import client_address\nimport server.service.talk\n"
    )
    assert not {"server.http", "server.live"} & imported_modules(adapter)


def test_the_size_rule_sees_long_functions_and_modules(tmp_path: Path) -> None:
    """A function is measured from its `def` line, decorators excluded; methods and nested
    functions are named by their qualified names; a module by its lines."""
    body = "".join(f"x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 2))
    fits = f"@decorated\n@twice\ndef fits():\n{indent(body, '    ')}    return 0\n"
    long = f"def long():\n{indent(body, '    ')}    x = 0\n    return x\n"
    nested = (
        f"    def m(self):\n        def inner():\n{indent(body, ' ' * 12)}            return 0\n"
    )
    source = tmp_path / "sizes.py"
    source.write_text(f"{fits}\n{long}\nclass C:\n{nested}")
    assert oversized(source, "sizes.py") == [
        ("sizes.py", "long", MAX_FUNCTION_LINES + 1),
        ("sizes.py", "C.m", MAX_FUNCTION_LINES + 1),
    ]
    source.write_text("x = 0\n" * MAX_MODULE_LINES)
    assert oversized(source, "sizes.py") == []
    source.write_text("x = 0\n" * (MAX_MODULE_LINES + 1))
    assert oversized(source, "sizes.py") == [("sizes.py", "<module>", MAX_MODULE_LINES + 1)]


# Every folder of Python the project runs: the graph of their imports holds no circle.
GRAPHED = ("court", "elections", "server", "config", "tests", "bench", "devtools", "app.py")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path, tops: tuple[str, ...] = GRAPHED) -> dict[str, set[str]]:
    """Which project modules each project module imports: every `import` and `from ... import`
    in it, at module level, under `TYPE_CHECKING` or inside a function alike, since each names
    a module the other one needs.

    `from pkg import name` imports the module `pkg.name` where there is one, else the package
    `pkg` (its `__init__.py`). Importing `pkg.mod` first runs the `__init__.py` of every package
    on the way, so it imports those packages too, except the packages the importer lies in
    itself: by the time a module of `pkg` runs, `pkg/__init__.py` has begun, and a module's
    import of its sibling `pkg.other` never starts it again. That is why a package whose
    `__init__.py` re-exports its modules, which import one another, is no circle; while a module
    that takes a name from its own package's `__init__.py` (`from pkg import name`), which
    imports that module back, is one. A script's folder without `__init__.py` (bench/) is on the
    path of its scripts, so `import common` there names bench/common.py."""
    paths = [
        p
        for top in tops
        for p in ([root / top] if top.endswith(".py") else modules_under(root / top))
    ]
    names = {module_name(path, root): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        script_folder = None if (path.parent / "__init__.py").exists() else package
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                wanted = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in names else base
                    for alias in node.names
                ]
            else:
                continue
            for target in wanted:
                if script_folder and f"{script_folder}.{target}" in names:
                    target = f"{script_folder}.{target}"
                parts = target.split(".")
                for end in range(1, len(parts)):
                    prefix = ".".join(parts[:end])
                    if prefix in names and not (
                        prefix == package or package.startswith(f"{prefix}.")
                    ):
                        targets.add(prefix)
                if target in names and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def modules_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "node_modules" not in p.parts)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that import one another (Tarjan's strongly
    connected components), as the modules in import order, the first repeated at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
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

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return [circle_in(graph, group) for group in groups]


def circle_in(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way from the group's first module back to itself, inside the group."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle in {sorted(group)}")


@functools.cache
def project_graph() -> dict[str, set[str]]:
    """The import graph of the whole project, built once for the tests that read it."""
    return import_graph(ROOT)


def test_no_module_imports_itself_through_others() -> None:
    found = circles(project_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_import_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The circle test fails on a circle closed by an import under `TYPE_CHECKING`, inside a
    function or by `from pkg import module`; a package re-exporting its modules is no circle."""
    (tmp_path / "pkg").mkdir()
    files = {
        "pkg/__init__.py": "from pkg.a import A\nfrom pkg.b import B\n",
        "pkg/a.py": "from pkg.b import B\nA = 1\n",
        "pkg/b.py": "B = 2\n",
        "one.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from two import X\n",
        "two.py": "def f():\n    from pkg import c\n",
        "pkg/c.py": "import one\n",
    }
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    graph = import_graph(tmp_path, ("pkg", "one.py", "two.py"))
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["two"] == {"pkg", "pkg.c"}
    assert circles(graph) == [["one", "two", "pkg.c", "one"]]
    (tmp_path / "pkg" / "b.py").write_text("from pkg import A\nB = 2\n")
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg", "pkg.b", "pkg"]]


def imports_of_test_modules(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a `test_*` module by another module, as "importer -> test module"."""
    return [
        f"{name} -> {target}"
        for name, targets in sorted(graph.items())
        for target in sorted(targets)
        if target.rpartition(".")[2].startswith("test_")
    ]


def test_tests_take_their_helpers_from_helper_modules_not_from_other_tests() -> None:
    """A helper one test file shares with another lives in a module named for what it holds
    (tests/court/moments.py, tests/server/live/live.py): importing a `test_*` module runs
    its tests' module-level code and hides the helper among tests."""
    assert imports_of_test_modules(project_graph()) == []


def test_the_test_import_rule_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_a.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "tests" / "test_b.py").write_text(
        "def test_b():\n    from tests.test_a import helper\n"
    )
    found = imports_of_test_modules(import_graph(tmp_path, ("tests",)))
    assert found == ["tests.test_b -> tests.test_a"]
