"""The lists of docs/architecture.md name files and tests that exist: a list a newcomer
follows must not send him to a module that moved or a test that was renamed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
# A code span naming a path of the project: a folder (ending in /) or a file.
PATH = re.compile(r"`((?:court|server|config|static|tests|elections|templates)/[\w/.…-]*)`")
TEST = re.compile(r"`(test_\w+)`")


def defined_tests() -> set[str]:
    return {
        name
        for path in (ROOT / "tests").rglob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }


def test_every_path_the_architecture_names_exists() -> None:
    named = {p for p in PATH.findall(DOC) if "…" not in p}
    assert named, "the document names no path"
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_every_test_the_checklists_name_exists() -> None:
    named = set(TEST.findall(DOC.split("## What to touch for each kind of change")[1]))
    assert len(named) >= 20
    assert sorted(named - defined_tests()) == []


def test_a_renamed_test_would_be_caught() -> None:
    assert "test_no_such_check_anywhere" not in defined_tests()
