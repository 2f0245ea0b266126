"""What a run of simulated games reached: how many times each event type occurred and each rule
id of the court rules was applied (the rules of each record's line in the history,
court/provenance.py), and what the run reached fewer than `floor` times, with why when the
simulator cannot reach it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from court.events import EVENT_TYPES
from court.provenance import rules_of

RULES_TEXT = Path(__file__).resolve().parents[2] / "docs" / "court-rules.md"
FLOOR = 10
# What simulated games cannot reach, and why: named beside the count instead of failing it.
UNREACHABLE: dict[str, str] = {}


def rule_ids() -> list[str]:
    """Every rule id of the court rules (docs/court-rules.md), in their order."""
    return re.findall(r"^- (R-\d+\.\d+)", RULES_TEXT.read_text(encoding="utf-8"), re.M)


@dataclass
class Coverage:
    """Counts of event types and rule ids over the records of one or more games."""

    events: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)

    def add(self, event_type: str, sentence: str, data: dict[str, Any]) -> None:
        self.events[event_type] += 1
        self.rules.update(rules_of(event_type, sentence, data))

    def merge(self, other: Coverage) -> None:
        self.events.update(other.events)
        self.rules.update(other.rules)

    def short(self, floor: int = FLOOR) -> list[tuple[str, int, str]]:
        """Each event type and rule id reached fewer than `floor` times: (name, count, why)."""
        names = [*EVENT_TYPES, *rule_ids()]
        counts = {**self.events, **self.rules}
        return [
            (name, counts.get(name, 0), UNREACHABLE.get(name, "not reached often enough"))
            for name in names
            if counts.get(name, 0) < floor
        ]

    def table(self, floor: int = FLOOR) -> list[str]:
        """The counts as lines: every event type, then every rule id, then what fell short."""
        lines = ["event type                 count"]
        lines += [f"{name:<26} {self.events.get(name, 0):>6}" for name in EVENT_TYPES]
        lines += ["", "rule id                    count"]
        lines += [f"{rule:<26} {self.rules.get(rule, 0):>6}" for rule in rule_ids()]
        short = self.short(floor)
        lines += ["", f"reached fewer than {floor} times: {len(short)}"]
        lines += [f"  {name}: {count} ({why})" for name, count, why in short]
        return lines
