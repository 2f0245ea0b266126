"""A game's name: chosen by its host at creation or later, 1 to 60 printable characters,
recorded in the log so the history tells every change; a game without one is "Game <id>"."""

from __future__ import annotations

import pytest

from court.commands import CreateGame, RenameGame
from court.errors import CourtError, NotAllowed
from court.events import Event, GameCreated, GameRenamed
from court.log import codec
from court.sentences import describe, names
from court.state import CourtState
from tests.court.chained_logs import chained, rechain
from tests.court.given import HOST, create_game, created, given, joined, seat, started, when


def create(name: str | None) -> CreateGame:
    return create_game(name=name)


def said(events: tuple[Event, ...], state: CourtState) -> str:
    """What the history says of the last of these events."""
    return describe(rechain(chained(events))[-1], state)


def test_the_host_names_the_game_when_he_creates_it() -> None:
    # when the host creates a game with a name typed with stray spaces
    (event,) = when(given(), create("  Saturday   at Ann's  "))
    # then the name is kept trimmed, in the public part of the record, and the court has it
    assert isinstance(event, GameCreated) and event.name == "Saturday at Ann's"
    assert codec.encode(event)[1]["name"] == "Saturday at Ann's"
    state = given(event)
    assert state.name == "Saturday at Ann's"
    assert names.game(state) == "Saturday at Ann's"


def test_a_game_without_a_name_is_called_by_its_id() -> None:
    # given a game created without a name (as every game before names was)
    state = given(created())
    # then it is "Game <id>"
    assert state.name is None
    assert names.game(state) == "Game g1"


def test_an_old_record_of_creation_without_a_name_reads_as_unnamed() -> None:
    (event,) = when(given(), create(None))
    _, public, private = codec.encode(event)
    del public["name"]
    decoded = codec.decode("GameCreated", 2, public, private)
    assert isinstance(decoded, GameCreated) and decoded.name is None


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("", "1 to 60 characters"),
        ("   ", "1 to 60 characters"),
        ("x" * 61, "1 to 60 characters"),
        ("Red\nWedding", "control character"),
        ("Red\x00Wedding", "control character"),
        ("Ann\u202eevE", "direction of the text"),
        ("\u200b", "invisible"),
    ],
)
def test_a_bad_name_is_refused_with_a_sentence(typed: str, why: str) -> None:
    # when the host creates, or renames, a game with a name that cannot be shown as typed
    for state, command in ((given(), create(typed)), (given(created()), RenameGame(name=typed))):
        with pytest.raises(CourtError) as err:
            when(state, command)
        # then it is refused with a code and a sentence saying why
        assert err.value.code == "bad_game_name"
        assert why in err.value.message


def test_sixty_characters_are_enough_for_a_name() -> None:
    (event,) = when(given(created()), RenameGame(name="é" * 60))
    assert isinstance(event, GameRenamed) and event.name == "é" * 60


def test_the_host_renames_the_game_during_play_and_the_history_tells_both_names() -> None:
    # given a started game named by its host in the lobby
    state = given(*started())
    (first,) = when(state, RenameGame(name="The Red Wedding"))
    state = given(*started(), first)
    assert isinstance(first, GameRenamed) and first.old_name is None
    assert said((*started(), first), state) == "Hostess named the game “The Red Wedding”."
    # when the host renames it
    (second,) = when(state, RenameGame(name="The Purple Wedding"))
    # then the record keeps the old name and the new, and the court has the new one
    assert isinstance(second, GameRenamed)
    assert (second.old_name, second.name) == ("The Red Wedding", "The Purple Wedding")
    after = given(*started(), first, second)
    assert after.name == "The Purple Wedding"
    assert said((*started(), first, second), after) == (
        "Hostess renamed the game from “The Red Wedding” to “The Purple Wedding”."
    )


def test_only_the_host_renames_the_game() -> None:
    state = given(created(), joined(0, host=True), joined(1))
    with pytest.raises(NotAllowed) as err:
        when(state, RenameGame(name="Mine now"), seat(1))
    assert err.value.code == "host_only"


def test_the_same_name_again_is_refused() -> None:
    state = given(created(), joined(0, host=True))
    (event,) = when(state, RenameGame(name="Winterfell"), HOST)
    with pytest.raises(CourtError) as err:
        when(given(created(), joined(0, host=True), event), RenameGame(name=" Winterfell "))
    assert err.value.code == "same_game_name"
