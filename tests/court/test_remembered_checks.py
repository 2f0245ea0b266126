"""The invariants' checks remember their last answers per game (court/soundness/remembered.py):
a server checks the states of many games in turn, and most states change one part."""

from __future__ import annotations

from dataclasses import replace

from court.ids import GameId
from court.soundness.remembered import Check, Remembered, reads
from court.state import CourtState
from tests.court.given import given, started


def counting(part: str, runs: list[str]) -> Check:
    """A check that reads `part` alone, noting each run as "game:part"."""

    @reads(part)
    def check(state: CourtState) -> list[str]:
        runs.append(f"{state.game_id}:{part}")
        return [f"{state.game_id} {part} {len(getattr(state, part))}"]

    return check


def test_a_check_answers_each_game_from_its_own_last_answer() -> None:
    # Given two games checked once each
    first = given(*started(3))
    second = replace(first, game_id=GameId("other"), treasury={**first.treasury, "x": 0})
    runs: list[str] = []
    checks = Remembered([counting("treasury", runs)])
    assert checks(first) == [f"{first.game_id} treasury {len(first.treasury)}"]
    checks(second)
    # When each is checked again in turn, its parts unchanged
    again = [checks(first), checks(second), checks(first)]
    # Then neither is checked again, and each answer is its own game's
    assert runs == [f"{first.game_id}:treasury", "other:treasury"]
    assert again[0] == again[2] == [f"{first.game_id} treasury {len(first.treasury)}"]
    assert again[1] == [f"other treasury {len(second.treasury)}"]


def test_only_the_checks_reading_a_changed_part_run_again() -> None:
    # Given a game checked once by a check of the treasury and a check of the nobles
    state = given(*started(3))
    runs: list[str] = []
    checks = Remembered([counting("treasury", runs), counting("nobles", runs)])
    checks(state)
    # When its treasury is a new object, equal or not, and then a Noble is gone
    paid = replace(state, treasury=dict(state.treasury))
    checks(paid)
    nobles = dict(state.nobles)
    nobles.popitem()
    answer = checks(replace(paid, nobles=nobles))
    # Then the treasury's check ran again for the first, the nobles' for the second alone,
    # and the answer is the new nobles' with the treasury's kept
    game = state.game_id
    assert runs == [f"{game}:treasury", f"{game}:nobles", f"{game}:treasury", f"{game}:nobles"]
    assert answer == [f"{game} treasury {len(state.treasury)}", f"{game} nobles {len(nobles)}"]


def test_a_court_of_another_kind_is_checked_afresh() -> None:
    # Given a game checked once
    state = given(*started(3))
    runs: list[str] = []
    checks = Remembered([counting("treasury", runs)])
    checks(state)

    class Other(type(state)):  # type: ignore[misc]
        __slots__ = ()

    # When a court of another class with the very same parts is checked
    checks(Other(**{f: getattr(state, f) for f in state.__dataclass_fields__}))
    # Then it is checked again
    assert runs == [f"{state.game_id}:treasury"] * 2
