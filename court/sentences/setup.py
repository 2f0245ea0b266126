"""Sentences of game setup: creation, seats, start (R-1.1, R-1.2)."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _game_created(d: Data, state: CourtState) -> str:
    return f"{d['host_name']} created a game for {d['players']} players."


def _seat_joined(d: Data, state: CourtState) -> str:
    return f"{d['player_name']} joined as {names.house(state, d['house'])}."


def _seat_left(d: Data, state: CourtState) -> str:
    return f"{d['player_name']} left the table, freeing {names.house(state, d['house'])}."


def _game_started(d: Data, state: CourtState) -> str:
    return f"The game started; {names.player(state, d['first_player'])} is First Player."


def _game_listed(d: Data, state: CourtState) -> str:
    return f"{state.host_name} listed the game on the front page: anyone may take a free seat."


def _game_unlisted(d: Data, state: CourtState) -> str:
    return f"{state.host_name} took the game off the front page: joining needs the invite link."


def _game_renamed(d: Data, state: CourtState) -> str:
    if d["old_name"] is None:
        return f"{state.host_name} named the game “{d['name']}”."
    return f"{state.host_name} renamed the game from “{d['old_name']}” to “{d['name']}”."


SENTENCES: Sentences = {
    "GameCreated": _game_created,
    "SeatJoined": _seat_joined,
    "SeatLeft": _seat_left,
    "GameStarted": _game_started,
    "GameListed": _game_listed,
    "GameUnlisted": _game_unlisted,
    "GameRenamed": _game_renamed,
}
