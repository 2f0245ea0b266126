"""Every history line says which rule it applied and whether it is play, a skip or bookkeeping; the
rule ids it names exist in the court rules (docs/court-rules.md) and in the rules map (R-4.2 skips,
R-4.3 clocks, section 9 facts)."""

from __future__ import annotations

import re
from pathlib import Path

from court.events import EVENT_TYPES
from court.provenance import RULES, Kind, kind_of, rules_of

ROOT = Path(__file__).resolve().parents[2]


def anchors() -> set[str]:
    text = (ROOT / "docs" / "court-rules.md").read_text()
    ids = set(re.findall(r"^- (R-\d+\.\d+)", text, re.M))
    sections = {f"§{n}" for n in re.findall(r"^## (\d+)\.", text, re.M)}
    return ids | sections


def test_every_event_type_names_the_rules_it_applies() -> None:
    assert sorted(set(EVENT_TYPES) - set(RULES)) == []
    assert sorted(set(RULES) - set(EVENT_TYPES)) == []


def test_every_rule_named_exists_in_the_court_rules() -> None:
    named = {rule for rules in RULES.values() for rule in rules}
    assert named - anchors() == set()


def test_a_skip_names_the_rule_its_sentence_gives_first() -> None:
    """R-7.4: given the North's election skipped for its villages, the line links R-7.4."""
    sentence = "Warden of the North: no election, because not every village ... (R-7.4)."
    assert kind_of("ElectionSkipped") is Kind.SKIP
    assert rules_of("ElectionSkipped", sentence) == ["R-7.4", "R-7.1", "R-4.2"]


def test_clocks_and_fact_notes_are_bookkeeping_and_play_is_play() -> None:
    """R-4.3 clocks and the note that a fact was recorded (section 9) are bookkeeping."""
    assert kind_of("ClockStarted") is Kind.BOOKKEEPING
    assert kind_of("FactRecorded") is Kind.BOOKKEEPING
    assert kind_of("MarriageMade") is Kind.PLAY
    assert kind_of("SomethingNew") is Kind.PLAY
    assert rules_of("SomethingNew", "x") == []
