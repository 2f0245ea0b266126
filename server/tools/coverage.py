"""What a run of simulated games reached: how many times each event type occurred, each refusal
code was given and each rule id of the court rules was exercised, and what the run reached fewer
than `floor` times, with why when the simulator cannot reach it. A rule is exercised by a
record (the rules of its line in the history, court/log/provenance.py, and the decisions declared
here), and by a refusal (its code's rules declared here, and those its message names)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from court.decide.court_events import WALL_CAUSE
from court.events import EVENT_TYPES
from court.ids import PROTECTOR, QUEEN
from court.log.provenance import ELECTIONS, NAMED, RULES, rules_of

RULES_TEXT = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
FLOOR = 10
Data = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the court that its record's type does not tell apart: records of type
    `event` whose data `applies` exercise `rules` besides their type's."""

    event: str
    applies: Callable[[Data], bool]
    rules: tuple[str, ...]


def _corrected(fact: str) -> Callable[[Data], bool]:
    return lambda d: d["correction"]["fact"] == fact


# With court/log/provenance.py's table of the rules each event type applies (and each election's
# own rule), these two tables name every rule id of the court rules (a test checks it): a rule
# a run reached 0 times was never exercised, not merely left uncounted.
DECISIONS: dict[str, Decision] = {
    "the black or the Hand's rise drops titles": Decision(
        "TitleReturned", lambda d: "R-3.4" in d["reason"], ("R-3.4",)
    ),
    "a Queen or a Protector by the King": Decision(
        "TitleGranted", lambda d: d["title"] in (QUEEN, PROTECTOR), ("R-3.8",)
    ),
    "an Heir born": Decision(
        "AttributeGained", lambda d: d["attribute"] == "prince_of_westeros", ("R-3.9",)
    ),
    "an office held for life": Decision(
        "ElectionSkipped", lambda d: "held for life (R-7.5)" in d["reason"], ("R-7.5",)
    ),
    "the Wall's supplies": Decision(
        "GoldAdjusted", lambda d: d["cause"].startswith(WALL_CAUSE), ("R-8.5",)
    ),
    "the game ended at its last round": Decision(
        "GameEnded", lambda d: d.get("how") == "last_round", ("R-4.8",)
    ),
    "a death corrected": Decision("CorrectionMade", _corrected("death"), ("R-9.1", "R-1.4")),
    "a village's holder corrected": Decision(
        "CorrectionMade", _corrected("village_control"), ("R-9.1",)
    ),
    "Gold Dragons corrected": Decision("CorrectionMade", _corrected("gold"), ("R-9.1", "R-2.1")),
}
# Refusals by their code, besides the rules their message names.
CORRECTION_REFUSALS = (
    "unknown_record",
    "not_correctable",
    "already_corrected",
    "amount_required",
    "no_change",
    "unknown_house",
    "village_changed_since",
    "noble_alive",
    "death_had_consequences",
    "correction_open",
)
VOTE_REFUSALS = ("seat_present", "seat_not_away_long", "replace_host", "already_voted")
REFUSALS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(CORRECTION_REFUSALS, ("R-9.1",)),
    **dict.fromkeys(VOTE_REFUSALS, ("R-9.2",)),
    "treasury_too_low": ("R-2.1",),
    "noble_dead": ("R-1.4",),
}
# What simulated games cannot reach, and why: named beside the count instead of failing it.
UNREACHABLE: dict[str, str] = {}


def rule_ids() -> list[str]:
    """Every rule id of the court rules (docs/rules.md), in their order, then any rule
    the tables here declare that the text does not hold yet."""
    text = re.findall(r"^- (R-\d+\.\d+)", RULES_TEXT.read_text(encoding="utf-8"), re.M)
    declared = sorted(
        {r for d in DECISIONS.values() for r in d.rules} - set(text),
        key=lambda r: tuple(int(n) for n in r[2:].split(".")),
    )
    return [*text, *declared]


def declared_rules() -> set[str]:
    """Every rule id something a run counts is declared to exercise."""
    return (
        {r for rules in RULES.values() for r in rules}
        | {r for _, r in ELECTIONS}
        | {r for d in DECISIONS.values() for r in d.rules}
        | {r for rules in REFUSALS.values() for r in rules}
    )


def decisions_of(event_type: str, data: Data) -> list[str]:
    """The decisions a record of this type and data is, by their names in DECISIONS."""
    return [n for n, d in DECISIONS.items() if d.event == event_type and d.applies(data)]


@dataclass
class Coverage:
    """Counts of event types, refusal codes and rule ids over one or more games."""

    events: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)

    def add(self, event_type: str, sentence: str, data: Data) -> None:
        self.events[event_type] += 1
        rules = rules_of(event_type, sentence, data)
        rules += [r for n in decisions_of(event_type, data) for r in DECISIONS[n].rules]
        self.rules.update(set(rules))

    def refused(self, code: str, message: str) -> None:
        self.refusals[code] += 1
        self.rules.update({*REFUSALS.get(code, ()), *NAMED.findall(message)})

    def merge(self, other: Coverage) -> None:
        self.events.update(other.events)
        self.refusals.update(other.refusals)
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
        """The counts as lines: every event type, then every rule id, then the refusals by
        code, then what fell short."""
        lines = ["event type                 count"]
        lines += [f"{name:<26} {self.events.get(name, 0):>6}" for name in EVENT_TYPES]
        lines += ["", "rule id                    count"]
        lines += [f"{rule:<26} {self.rules.get(rule, 0):>6}" for rule in rule_ids()]
        lines += ["", "refusal code               count"]
        lines += [f"{code:<26} {n:>6}" for code, n in sorted(self.refusals.items())]
        short = self.short(floor)
        lines += ["", f"reached fewer than {floor} times: {len(short)}"]
        lines += [f"  {name}: {count} ({why})" for name, count, why in short]
        return lines
