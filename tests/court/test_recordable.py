"""The facts the host's panel offers (section 9): what `recordable` lists is what `decide` accepts,
field by field, in courts with Outlaws, captives, the cursed, the dead and Wardens."""

from __future__ import annotations

from itertools import product

import pytest

from court.commands import (
    Command,
    DeathKind,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
)
from court.decide import decide
from court.errors import CourtError
from court.events import (
    AttributeGained,
    Event,
    NobleCaptured,
    OutlawDeclared,
    TitleGranted,
    VillageControlChanged,
)
from court.options.recordable import recordable
from court.state import CourtState
from tests.court.given import HOST, given, lobby, started, then_state
from tests.court.recordable_check import listed

C = "at the table"


def _court(*events: Event) -> CourtState:
    state = given(*started(3))
    return then_state(state, events)


COURTS = {
    "quiet": _court(),
    "outlaws_captives_and_the_cursed": _court(
        OutlawDeclared(noble="robb-stark", cause=C),
        NobleCaptured(noble="jon-snow", captor="lannister", by=None, cause=C),
        AttributeGained(noble="bran-stark", attribute="gods_cursed", cause=C),
        VillageControlChanged(village="winterfell", house="stark", cause=C),
    ),
    "a_warden_and_an_heir": _court(
        TitleGranted(title="warden-north", noble="eddard-stark", cause=C),
        TitleGranted(title="master-of-coin", noble="robb-stark", cause=C),
        AttributeGained(noble="benjen-stark", attribute="prince_of_westeros", cause=C),
    ),
}


def _every_fact(state: CourtState) -> list[Command]:
    """Every fact of a field-by-field choice about this court, possible or not."""
    nobles = sorted(state.nobles)
    houses = [*sorted(state.treasury), "martell"]
    masters = [t.id for t in state.ruleset.titles if t.master]
    villages = [v.id for v in state.ruleset.villages][:6]
    return [
        *(
            RecordVillageControl(village=v, house=h, cause=C)
            for v, h in product(villages, [None, *houses])
        ),
        *(
            RecordCapture(noble=n, house=h, by=b, cause=C)
            for n, h, b in product(nobles, houses, [None, *nobles[:12]])
        ),
        *(RecordRelease(noble=n, cause=C) for n in nobles),
        *(RecordEscape(noble=n, cause=C) for n in nobles),
        *(RecordDeath(noble=n, kind=k.value, cause=C) for n, k in product(nobles, DeathKind)),
        *(JoinSmallCouncil(noble=n, title=t, cause=C) for n, t in product(nobles, masters)),
        *(GrantMotherOfDragons(noble=n, cause=C) for n in nobles),
        *(HeirBorn(noble=n, cause=C) for n in nobles),
    ]


def _accepted(state: CourtState, command: Command) -> bool:
    try:
        decide(state, command, HOST)
    except CourtError:
        return False
    return True


@pytest.mark.parametrize("court", COURTS, ids=str)
def test_a_fact_is_listed_exactly_when_decide_accepts_it(court: str) -> None:
    """Section 9, R-1.4, R-3.5, R-3.9, R-6.2, R-6.5, R-8.1: given a court, when every fact of
    its Nobles, Houses, titles and villages is tried, then those listed are those accepted."""
    state = COURTS[court]
    facts = recordable(state)

    wrong = [
        (command, accepted)
        for command in _every_fact(state)
        if (accepted := _accepted(state, command)) != listed(facts, command)
    ]

    assert wrong == []


def test_justice_is_offered_only_for_an_outlaw() -> None:
    """R-6.5: Justice kills only an Outlaw who is not immune."""
    death = next(
        f for f in recordable(COURTS["outlaws_captives_and_the_cursed"]) if f["fact"] == "death"
    )
    assert "justice" in death["depends"]["kind"]["choices"]["robb-stark"]
    assert "justice" not in death["depends"]["kind"]["choices"]["eddard-stark"]
    assert "uprising" in death["depends"]["kind"]["choices"]["bran-stark"]


def test_release_is_offered_only_while_someone_is_captive() -> None:
    """R-8.1: only a captive is released or escapes."""
    assert "release" not in {f["fact"] for f in recordable(COURTS["quiet"])}
    captive = recordable(COURTS["outlaws_captives_and_the_cursed"])
    assert next(f for f in captive if f["fact"] == "escape")["choices"]["noble"] == ["jon-snow"]


def test_no_heir_is_offered_while_there_is_one() -> None:
    """R-3.9: one Heir at a time."""
    assert "heir_born" not in {f["fact"] for f in recordable(COURTS["a_warden_and_an_heir"])}


def test_nothing_is_recorded_before_the_game_starts() -> None:
    assert recordable(given(*lobby(3))) == []
