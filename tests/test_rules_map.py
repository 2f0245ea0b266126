"""docs/rules-map.md maps every rule id to the modules that enforce it and the tests that check
it: the map covers every id, names files that exist, and each id is cited by a test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rule_ids import RULE_IDS

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| (R-\d+\.\d+|§\d+) \| [^|]+ \| (?P<code>[^|]+) \| (?P<tests>[^|]+) \|$")


def rows() -> dict[str, tuple[list[str], list[str]]]:
    found = {}
    for line in (ROOT / "docs" / "rules-map.md").read_text().splitlines():
        match = ROW.match(line)
        if match:
            paths = [re.findall(r"`([^`]+)`", match[g]) for g in ("code", "tests")]
            found[match[1]] = (paths[0], paths[1])
    return found


def test_the_map_has_one_row_per_rule_id() -> None:
    assert [r for r in rows() if r.startswith("R-")] == RULE_IDS


def test_every_file_the_map_names_exists() -> None:
    missing = [
        p for code, tests in rows().values() for p in code + tests if not (ROOT / p).exists()
    ]
    assert missing == []


def test_every_rule_id_is_cited_by_a_test_the_map_names() -> None:
    uncited = []
    for rule, (_code, tests) in rows().items():
        if not rule.startswith("R-"):
            continue
        texts = [(ROOT / t).read_text() for t in tests if (ROOT / t).is_file()]
        if not any(re.search(rf"{re.escape(rule)}\b", text) for text in texts):
            uncited.append(rule)
    assert uncited == []
