"""The invariants' checks remember their last answer per game (court/soundness/remembered.py):
a server checks the states of many games in turn."""

from __future__ import annotations

from dataclasses import replace

from court.ids import GameId
from court.soundness.remembered import Check, reads
from court.state import CourtState
from tests.court.given import given, started


def counting_check() -> tuple[list[str], Check]:
    runs: list[str] = []

    @reads("treasury")
    def check(state: CourtState) -> list[str]:
        runs.append(state.game_id)
        return [f"{state.game_id} holds {sum(state.treasury.values())}"]

    return runs, check


def test_a_check_answers_each_game_from_its_own_last_answer() -> None:
    # Given two games checked once each
    first = given(*started(3))
    second = replace(first, game_id=GameId("other"), treasury={**first.treasury})
    runs, check = counting_check()
    assert check(first) == [f"{first.game_id} holds {sum(first.treasury.values())}"]
    check(second)
    # When each is checked again in turn, its parts unchanged
    again = [check(first), check(second), check(first)]
    # Then neither is checked again, and each answer is its own game's
    assert runs == [first.game_id, "other"]
    assert again[0] == again[2] == [f"{first.game_id} holds {sum(first.treasury.values())}"]
    assert again[1] == [f"other holds {sum(second.treasury.values())}"]


def test_a_changed_part_is_checked_again() -> None:
    # Given a game checked once
    state = given(*started(3))
    runs, check = counting_check()
    check(state)
    # When its treasury is a new object, equal or not
    check(replace(state, treasury=dict(state.treasury)))
    # Then it is checked again
    assert runs == [state.game_id, state.game_id]
