"""The court state's own `replace` (court/model/frozen.py) is `dataclasses.replace`, faster."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from court.evolve.base import replace
from court.model.frozen import replacer
from court.state import CourtState
from tests.court.given import given, started


def test_a_replaced_court_is_the_court_dataclasses_would_make() -> None:
    # Given a started court
    state = given(*started(4))
    treasury = {**state.treasury, "stark": 99}
    # When a field is replaced
    changed = replace(state, treasury=treasury, players=5)
    # Then it is the court `dataclasses.replace` makes, and the first is as it was
    assert changed == dataclasses.replace(state, treasury=treasury, players=5)
    assert changed.treasury is treasury and changed.nobles is state.nobles
    assert state.players == 4 and state.treasury != treasury
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.players = 3  # type: ignore[misc]


def test_a_field_the_court_does_not_have_is_refused() -> None:
    # Given a started court; When a field it lacks is replaced; Then it is refused
    with pytest.raises(TypeError, match="no field gold"):
        replace(given(*started(3)), gold=3)


def test_only_a_frozen_dataclass_without_slots_is_taken() -> None:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int = 0

    @dataclass
    class Thawed:
        a: int = 0

    for cls in (Slotted, Thawed, int):
        with pytest.raises(TypeError):
            replacer(cls)
    assert isinstance(replacer(CourtState), type(replace))
