"""`decide(state, command, actor)`: every court rule, turning a command into events or a refusal."""

from __future__ import annotations

from typing import assert_never

from court.commands import Actor, AdjustGold, Command, CreateGame, JoinSeat, LeaveSeat, StartGame
from court.decide import facts, setup
from court.events import Event
from court.state import CourtState


def decide(state: CourtState, command: Command, actor: Actor) -> tuple[Event, ...]:
    match command:
        case CreateGame():
            return setup.create_game(state, command, actor)
        case JoinSeat():
            return setup.join_seat(state, command, actor)
        case LeaveSeat():
            return setup.leave_seat(state, command, actor)
        case StartGame():
            return setup.start_game(state, command, actor)
        case AdjustGold():
            return facts.adjust_gold(state, command, actor)
        case _:
            assert_never(command)
