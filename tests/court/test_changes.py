"""What changed between two versions, in sentences, for a dispute: titles (R-3.2), statuses and the
Outlaw mark (R-1.4, R-6.5), treasuries (R-2.1), marriages and alliances (R-5.1, R-5.4), villages and
Septs (section 9, R-4.6)."""

from __future__ import annotations

from dataclasses import replace

from court.events import (
    GoldAdjusted,
    MarriageMade,
    NobleCaptured,
    NobleDied,
    OutlawDeclared,
    SeptBuilt,
    TitleGranted,
    VillageControlChanged,
)
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from court.views.changes import changes
from tests.court.given import given, started, then_state

ROBB, SANSA, TYRION = NobleId("robb-stark"), NobleId("sansa-stark"), NobleId("tyrion-lannister")
WARDEN = TitleId("warden-north")


def texts(before, after) -> list[str]:
    return [c.text for c in changes(before, after)]


def test_nothing_changed_between_a_version_and_itself() -> None:
    state = given(*started(4))
    assert changes(state, state) == []


def test_a_title_taken_and_a_title_lost_are_told_by_name() -> None:
    """R-3.2: given a free Warden of the North, when Robb takes it, then the change names him."""
    before = given(*started(4))
    granted = then_state(before, (TitleGranted(title=WARDEN, noble=ROBB, cause="election"),))
    assert texts(before, granted) == ["Warden of the North: now held by Robb Stark (it was free)."]
    assert texts(granted, before) == [
        "Warden of the North: Robb Stark no longer holds it; it is free."
    ]


def test_a_death_a_capture_and_an_outlaw_mark_are_told() -> None:
    """R-1.4, R-6.5: given a court, when Nobles die, are taken or outlawed, then each is told."""
    before = given(*started(4))
    after = then_state(
        before,
        (
            NobleDied(noble=ROBB, cause="battle"),
            NobleCaptured(noble=SANSA, captor=HouseId("lannister"), by=None, cause="raid"),
            OutlawDeclared(noble=TYRION, cause="decree"),
        ),
    )
    assert texts(before, after) == [
        "Robb Stark: now dead, was in play.",
        "Sansa Stark: now captive of House Lannister, was in play.",
        "Tyrion Lannister: now an Outlaw.",
    ]


def test_treasuries_villages_and_septs_are_told_with_the_difference() -> None:
    """R-2.1, R-4.6, section 9."""
    before = given(*started(4))
    after = then_state(
        before,
        (
            GoldAdjusted(house=HouseId("stark"), amount=3, cause="tax"),
            VillageControlChanged(
                village=VillageId("winterfell"), house=HouseId("stark"), cause="x"
            ),
        ),
    )
    built = then_state(after, (SeptBuilt(house=HouseId("stark"), village=VillageId("winterfell")),))
    told = texts(before, built)
    assert "House Stark: treasury 13 Gold Dragons, was 10 Gold Dragons (+3)." in told
    assert "Winterfell: now held by House Stark, was held by nobody." in told
    assert "Winterfell: a Sept was built." in told


def test_a_marriage_and_its_alliance_are_told_once() -> None:
    """R-5.1, R-5.3: given four players, when a Stark Lord marries a Lannister Lady, then the
    marriage is one sentence and the alliance another."""
    before = given(*started(4))
    lady = NobleId("cersei-lannister")
    after = then_state(
        before, (MarriageMade(lord=ROBB, lady=lady, seats=(Seat(0), Seat(1)), alliance=True),)
    )
    told = [c.to_json() for c in changes(before, after)]
    assert told == [
        {"kind": "marriage", "text": "Robb Stark is now married to Cersei Lannister."},
        {
            "kind": "alliance",
            "text": "Player 1 (House Stark), Player 2 (House Lannister) are now allied.",
        },
    ]


def test_the_fourth_council_seat_and_a_ban_of_septs_are_told() -> None:
    """R-4.6: given a court, when a Warden sits in the fourth council seat bought in the sale
    and Septs are banned, then both are told, and their undoing too."""
    before = given(*started(4))
    after = replace(before, fourth_seat=ROBB, septs_banned=True)
    assert texts(before, after) == [
        "Robb Stark now sits in the fourth Small Council seat, bought in the sale.",
        "Septs are now banned.",
    ]
    assert texts(after, before) == [
        "Robb Stark no longer sits in the fourth Small Council seat.",
        "Septs are no longer banned.",
    ]


def test_a_marriage_of_two_ladies_is_told_once_made_and_once_ended() -> None:
    """R-5.1 [D] with opposite_gender off: a couple of two Ladies is told once, as any other."""
    before = given(*started(4, marriage__opposite_gender=False))
    cersei = NobleId("cersei-lannister")
    wed = MarriageMade(lord=cersei, lady=SANSA, seats=(Seat(0), Seat(1)), alliance=True)
    after = then_state(before, (wed,))
    assert [c.text for c in changes(before, after) if c.kind == "marriage"] == [
        "Cersei Lannister is now married to Sansa Stark."
    ]
    assert [c.text for c in changes(after, before) if c.kind == "marriage"] == [
        "Cersei Lannister is no longer married to Sansa Stark."
    ]
