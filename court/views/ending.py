"""The court view's `ending`: how an ended game ended, its winners and every player's victory
points then, alike for every viewer (null while the game is not over). Every page shows it at
the top of an ended game."""

from __future__ import annotations

from typing import Any

from court.sentences.ending import how_it_ended, standings
from court.state import CourtState


def ending_view(state: CourtState) -> dict[str, Any] | None:
    """`how`: "victory" (R-4.7), "last_round" (R-4.8) or "table" (the seats voted it, R-9.2);
    `round`: the round it ended in; `winners` their seats (none when the table ended it);
    `standings`: each seat with its House, player and VP at the end, the most first; `text`:
    how it ended, in a sentence."""
    ended = state.ending
    if ended is None:
        return None
    winners = list(state.winners)
    return {
        "how": ended.how.value,
        "round": state.round,
        "winners": winners,
        "standings": [
            {
                "seat": seat,
                "house": state.seats[seat].house if seat in state.seats else None,
                "player_name": state.seats[seat].player_name if seat in state.seats else None,
                "vp": vp,
                "winner": seat in winners,
            }
            for seat, vp in standings(ended.points)
        ],
        "text": how_it_ended(ended.how.value, winners, state),
    }
