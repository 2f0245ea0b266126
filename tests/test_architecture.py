"""Dependencies point inward: the engine imports no framework, the voting core knows no court."""

from __future__ import annotations

import ast
from pathlib import Path

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
    "redis",
    "psycopg",
    "alembic",
}
# Adapter modules sit at the edge and may use frameworks; everything else is core.
ADAPTERS = {
    "store.py",
    "store_sqlite.py",
    "store_pg.py",
    "migrate.py",
    "schemas.py",
    "view_schemas.py",
    "ports.py",
    "web.py",
    "web_play.py",
    "api.py",
    "cli.py",
    "pages.py",
    "sockets.py",
    "presence.py",
    "presence_redis.py",
    "pushes.py",
    "relay.py",
    "web_lobby.py",
    "web_history.py",
    "deadlines.py",
    "simulate.py",
    "sim_facts.py",
    "migrations",
}
# The engine never reads the clock, randomness, the environment or files.
IMPURE = {"random", "secrets", "uuid", "time", "datetime", "os", "pathlib", "config"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def core_modules(package: str) -> list[Path]:
    return [
        p
        for p in sorted((ROOT / package).rglob("*.py"))
        if not ADAPTERS & {p.name, *p.relative_to(ROOT / package).parts}
    ]


ENGINE = [p for p in core_modules("court") if p.name != "service.py"]


@pytest.mark.parametrize(
    "path",
    core_modules("court") + core_modules("elections"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_core_modules_import_no_framework(path: Path) -> None:
    assert not imports(path) & FRAMEWORKS


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_modules_read_no_clock_randomness_config_or_files(path: Path) -> None:
    assert not imports(path) & IMPURE


@pytest.mark.parametrize(
    "path", sorted((ROOT / "elections").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_voting_core_knows_nothing_of_the_court(path: Path) -> None:
    assert "court" not in imports(path)


def test_the_check_sees_the_engine() -> None:
    folders = {p.parent.name for p in ENGINE} | {p.name for p in ENGINE}
    assert {"decide", "evolve", "events", "state.py", "chain.py"} <= folders
    assert "flask" in imports(ROOT / "court" / "web.py")
