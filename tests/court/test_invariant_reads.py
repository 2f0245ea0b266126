"""Each invariant reads only the parts of the court it declares (court/soundness/remembered.py
`reads`): it answers from its last check of the game while those parts are the very same
objects, so a part read but not declared would let a broken court pass unchecked. Every
invariant is checked at every court of simulated games (every variant, seats changing hands,
facts at every moment) with a court that records which of its fields are read."""

from __future__ import annotations

import pytest

from court.soundness.invariants import CHECKS, _seats
from court.soundness.remembered import Check, Remembered
from tests.court.reading import FIELDS, Reading, simulated_courts

GAMES = ((3, 21, True), (6, 22, False))
REMEMBERED = (_seats, *CHECKS)


@pytest.fixture(scope="module")
def read() -> dict[str, set[str]]:
    """Per invariant, every field it read in the games ("rules" stands for `ruleset` too)."""
    found: dict[str, set[str]] = {check.__name__: set() for check in REMEMBERED}
    remembered = Remembered(REMEMBERED)
    for state, version in simulated_courts(GAMES):
        afresh = []
        for check in REMEMBERED:
            afresh.extend(check(Reading(state, found[check.__name__])))
        assert remembered(state) == afresh, version
    return found


@pytest.mark.parametrize("check", REMEMBERED, ids=lambda c: c.__name__)
def test_an_invariant_declares_the_parts_it_reads(check: Check) -> None:
    assert hasattr(check, "reads"), f"{check.__name__} remembers nothing: declare its reads"
    assert set(check.reads) <= FIELDS, check.__name__  # type: ignore[attr-defined]


@pytest.mark.parametrize("check", REMEMBERED, ids=lambda c: c.__name__)
def test_an_invariant_reads_no_part_of_the_court_it_does_not_declare(
    check: Check, read: dict[str, set[str]]
) -> None:
    declared = set(getattr(check, "reads", ()))
    assert read[check.__name__], f"the games never made {check.__name__} read the court"
    assert read[check.__name__] <= declared, (check.__name__, read[check.__name__] - declared)
