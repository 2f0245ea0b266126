"""The one registry of event types (`court.events.EVENT_TYPES`): every event class is in it,
no second table of event types grows beside it, and what else the code knows of a type is a
class variable of the event."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import court.events
from court.events import EVENT_TYPES, Event

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "court" / "events" / "__init__.py"


def declared_events() -> set[type[Event]]:
    """Every event class the modules of court/events/ declare."""
    found: set[type[Event]] = set()
    for info in pkgutil.iter_modules(court.events.__path__):
        module = importlib.import_module(f"court.events.{info.name}")
        found |= {
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Event) and cls is not Event and cls.__module__ == module.__name__
        }
    return found


def event_type_tables(path: Path) -> list[str]:
    """The names a module binds to a table of event types: a dict whose values are an event
    class (`tuple[type[Event], int]`, `type[Event]`) by annotation."""
    tree = ast.parse(path.read_text())
    return [
        ast.unparse(node.target)
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign)
        and "type[Event]" in ast.unparse(node.annotation)
        and ast.unparse(node.annotation).startswith("dict[str")
    ]


def test_every_declared_event_class_is_in_the_one_registry() -> None:
    assert declared_events() - {cls for cls, _ in EVENT_TYPES.values()} == set()


def test_no_module_but_the_registry_keeps_a_table_of_event_types() -> None:
    """A list of event types kept apart (as the table's and the bot's events once were) drifts
    from the registry; their names and versions are said once, in court/events/__init__.py."""
    sources = [
        p
        for folder in ("court", "server")
        for p in (ROOT / folder).rglob("*.py")
        if "type[Event]" in p.read_text(encoding="utf-8")
    ]
    tables = {str(p.relative_to(ROOT)): event_type_tables(p) for p in sources}
    assert {path: names for path, names in tables.items() if names} == {
        str(REGISTRY.relative_to(ROOT)): ["EVENT_TYPES"]
    }


def test_the_table_finder_sees_a_second_table(tmp_path: Path) -> None:
    module = tmp_path / "second.py"
    module.write_text('EXTRA: dict[str, tuple[type[Event], int]] = {"X": (X, 1)}\n')
    assert event_type_tables(module) == ["EXTRA"]


def test_the_records_no_fact_is_followed_by_are_the_tables_the_notes_and_the_clocks() -> None:
    """R-9.1: a correction's lapse never names the table's own votes and answers, a fact's
    note or a clock's mark; every other record may follow from a fact."""
    marked = {name for name, (cls, _) in EVENT_TYPES.items() if cls.FOLLOWS_NO_FACT}
    table = {
        TYPE for TYPE, (cls, _) in EVENT_TYPES.items() if cls.__module__ == "court.events.table"
    }
    assert marked == {*table, "FactRecorded", "ClockStarted", "ClockStopped"}
