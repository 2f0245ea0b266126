"""Village control recorded for several villages at once (section 9, R-2.2, R-4.5): one
command from the host's map, one fact per village whose controller changes."""

from __future__ import annotations

import pytest

from court.commands import Actor, RecordVillages, VillageChange
from court.errors import CourtError, NotAllowed
from court.events import FactRecorded, VillageControlChanged
from tests.court.given import HOST, given, lobby, seat, started, then_state, when, when_fact

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def _all(villages: tuple[str, ...], house: str | None, cause: str = "battle") -> RecordVillages:
    return RecordVillages(
        changes=tuple(VillageChange(village=v, house=house) for v in villages), cause=cause
    )


def test_the_host_records_the_norths_four_villages_in_one_command() -> None:
    """Section 9: given a started game, when the host records the North for Stark, then one
    fact names the host and four village facts follow, one per village."""
    state = given(*started(3))

    events = when(state, _all(NORTH, "stark"))

    assert events[0] == FactRecorded(fact="village_control", by="host", name=events[0].name)
    assert events[1:] == tuple(
        VillageControlChanged(village=v, house="stark", cause="battle") for v in NORTH
    )
    assert {v: then_state(state, events).villages[v] for v in NORTH} == dict.fromkeys(
        NORTH, "stark"
    )


def test_a_village_already_held_so_adds_no_fact() -> None:
    """Section 9: given Winterfell held by Stark, when the North is recorded for Stark, then
    only the three villages that change have a fact."""
    state = given(*started(3))
    state = then_state(state, when(state, _all(("winterfell",), "stark")))

    events = when_fact(state, _all(NORTH, "stark"))

    assert [e.village for e in events] == list(NORTH[1:])


def test_villages_are_given_up_to_nobody_and_to_several_houses_at_once() -> None:
    state = given(*started(3))
    state = then_state(state, when(state, _all(NORTH, "stark")))
    command = RecordVillages(
        changes=(
            VillageChange(village="winterfell", house=None),
            VillageChange(village="moat-cailin", house="lannister"),
        ),
        cause="  lost  in battle ",
    )

    events = when_fact(state, command)

    after = then_state(state, events).villages
    assert "winterfell" not in after and after["moat-cailin"] == "lannister"
    assert {e.cause for e in events} == {"lost in battle"}


def test_the_game_master_records_villages_too() -> None:
    events = when_fact(given(*started(3)), _all(NORTH[:2], "tyrell"), Actor(master=True))
    assert len(events) == 2


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ((), "no_change"),
        ((("winterfell", "stark"), ("winterfell", "lannister")), "duplicate_village"),
        ((("winterfell", "stark"), ("atlantis", "stark")), "unknown_village"),
        ((("winterfell", "martell"),), "unknown_house"),
        ((("winterfell", None),), "no_change"),
    ],
)
def test_an_impossible_village_record_is_refused_whole(changes, code) -> None:
    """Section 9: a record naming no change, a village twice, an unknown village or a House not
    in play is refused and records nothing."""
    command = RecordVillages(
        changes=tuple(VillageChange(village=v, house=h) for v, h in changes), cause="x"
    )
    with pytest.raises(CourtError) as refused:
        when(given(*started(3)), command)
    assert refused.value.code == code


def test_more_villages_than_the_map_holds_are_refused() -> None:
    state = given(*started(3))
    many = tuple(VillageChange(village=f"v{i}", house=None) for i in range(25))
    with pytest.raises(CourtError) as refused:
        when(state, RecordVillages(changes=many, cause="x"))
    assert refused.value.code == "too_many_villages"


@pytest.mark.parametrize("actor", [seat(0), seat(1), Actor()])
def test_only_the_host_or_the_game_master_records_villages(actor: Actor) -> None:
    with pytest.raises(NotAllowed):
        when(given(*started(3)), _all(NORTH, "stark"), actor)


def test_no_villages_are_recorded_before_the_game_starts() -> None:
    with pytest.raises(CourtError) as refused:
        when(given(*lobby(3)), _all(NORTH, "stark"), HOST)
    assert refused.value.code == "game_lobby"
