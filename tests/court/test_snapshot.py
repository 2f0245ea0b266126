"""A snapshot holds the court exactly (court/log/snapshot.py): every state of a played game reads
back from its JSON equal to itself, whatever it holds — an election under way with face-down
markers (R-7.1), a decree step, titles, alliances."""

from __future__ import annotations

import json

from court.evolve import evolve, initial
from court.log import snapshot
from court.state import CourtState
from tests.court.given import GAME, started
from tests.court.played_game import played_to_the_end


def round_trip(state: CourtState) -> CourtState:
    return snapshot.from_plain(json.loads(json.dumps(snapshot.to_plain(state))))


def test_every_state_of_a_started_game_reads_back_from_its_snapshot() -> None:
    # Given each state a started 4-player game passes through
    state = initial(GAME)
    for event in started(4):
        state = evolve(state, event)
        # When it is written as a snapshot and read back, then it is the same court
        assert round_trip(state) == state


def test_every_state_of_a_game_with_every_kind_of_event_reads_back() -> None:
    # Given the states of a game played to its end: elections and reveals, income, pillage,
    # titles won and passed on
    state = initial(GAME)
    for event in played_to_the_end():
        state = evolve(state, event)
        # When each is written as a snapshot and read back, then it is the same court
        assert round_trip(state) == state
    assert state.winners


def test_a_snapshot_written_with_the_ruleset_given_is_the_same_as_one_written_whole() -> None:
    state = initial(GAME)
    for event in started(3):
        state = evolve(state, event)
    whole = snapshot.to_plain(state)
    assert snapshot.state_to_plain(state, snapshot.to_plain(state.rules)) == whole
    assert snapshot.from_plain(json.loads(json.dumps(whole))) == state


def test_the_shape_names_every_field_of_the_state() -> None:
    shape = snapshot.shape()
    for name in CourtState.__dataclass_fields__:
        assert f"{name}:" in shape


def test_a_set_is_written_in_one_order_whatever_order_it_iterates_in() -> None:
    # Given two equal sets built in opposite orders, of enough items that their iteration
    # orders differ (a set's order hangs on its hashes and its history)
    words = [f"attribute-{n}" for n in range(40)]
    one, other = frozenset(words), frozenset(reversed(words))
    # When each is written as a snapshot writes it, Then both give the same sorted list
    assert snapshot.to_plain(one) == snapshot.to_plain(other) == sorted(words)
