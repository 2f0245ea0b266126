"""How a game ended, in plain words: who won and by what, and every player's victory points
then. The history, the notices to the players' chat and mail, and the banner every page shows
at the top of an ended game all say it so; it names no rule id, for it is read as a sentence
outside the game too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from court.ids import Seat
from court.sentences import names
from court.sentences.base import Data
from court.state import CourtState


def _listed(said: list[str]) -> str:
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def how_it_ended(how: str, winners: Sequence[int], state: CourtState) -> str:
    """ "Round 8 was the last: Ann (House Stark) won with the most victory points." """
    if how == "table" or not winners:
        return f"The table voted to end the game in round {state.round}: nobody won."
    won = _listed([names.player(state, s) for s in winners])
    if how == "last_round":
        tied = ", tied" if len(winners) > 1 else ""
        return f"Round {state.round} was the last: {won} won with the most victory points{tied}."
    return f"{won} won the game at the victory check of round {state.round}."


def standings(points: Mapping[Seat, int]) -> list[tuple[Seat, int]]:
    """Each seat and its victory points at the end, the most first (then in seat order)."""
    return sorted(points.items(), key=lambda item: (-item[1], item[0]))


def told(how: str, winners: Sequence[int], points: Mapping[Seat, int], state: CourtState) -> str:
    """The end and the standings: "... Standings: Ann (House Stark) 2 VP, Bob ... 0 VP." """
    ranked = ", ".join(f"{names.player(state, seat)} {vp} VP" for seat, vp in standings(points))
    return f"{how_it_ended(how, winners, state)} Standings: {ranked}."


def game_ended(d: Data, state: CourtState) -> str:
    """A `GameEnded` record as the history and the notices tell it."""
    points = {Seat(score["seat"]): score["points"] for score in d["points"]}
    return told(d["how"], list(d["winners"]), points, state)
