"""Every history line says which rule it applied and whether it is play, a skip or bookkeeping; the
rule ids it names exist in the court rules (docs/rules.md) and in the rules map (R-4.2 skips,
R-4.3 clocks, section 9 facts)."""

from __future__ import annotations

import re
from pathlib import Path

from court.events import EVENT_TYPES
from court.log.provenance import RULES, Kind, kind_of, rules_of

ROOT = Path(__file__).resolve().parents[2]


def anchors() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text()
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


def test_an_elections_line_names_its_own_rule_and_a_causes_rule_is_named() -> None:
    """R-7.3, R-7.4, R-7.7, R-7.8: each election's lines apply its own rule with the
    procedure's (R-7.1); a title granted "the King married (R-3.8)" applied R-3.8."""
    for election, rule in (
        ("lord-commander", "R-7.3"),
        ("warden-north", "R-7.4"),
        ("hand", "R-7.7"),
        ("king", "R-7.8"),
    ):
        assert rule in rules_of("BallotOpened", "x", {"election": election})
    granted = {"title": "queen", "noble": "x", "cause": "the King married (R-3.8)"}
    assert rules_of("TitleGranted", "X became Queen.", granted) == ["R-3.8", "R-3.2"]


def test_every_rule_id_is_applied_by_some_event_type_or_named_where_it_applies() -> None:
    """The coverage of a soak counts rule ids by these lines: no id of the court rules is
    out of every line's reach."""
    reach = {rule for rules in RULES.values() for rule in rules}
    named_elsewhere = {
        "R-1.3",
        "R-3.4",
        "R-3.5",
        "R-3.6",
        "R-3.8",
        "R-3.9",
        "R-4.8",
        "R-7.5",
        "R-8.5",
    }
    ids = {a for a in anchors() if a.startswith("R-")}
    assert ids - reach - named_elsewhere - {"R-7.3", "R-7.4", "R-7.7", "R-7.8"} == set()
