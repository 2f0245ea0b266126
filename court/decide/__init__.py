"""`decide(state, command, actor, now)`: every court rule, turning a command into events.

A command's own events are followed by whatever the server then does by itself
(reveal when the last marker is placed, open or skip the next election, start
the next phase or round), decided on the state those events lead to.
"""

from __future__ import annotations

import typing
from collections.abc import Callable

from court.commands import (
    Actor,
    AddSeatLink,
    AdvancePhase,
    CloseOverdueStep,
    CloseTablePhases,
    Command,
    DeviceCommand,
    DropSeatLink,
    RenameGame,
    SeatCommand,
    TableCommand,
    TakeSeatBack,
)
from court.decide import bots, clocks, dispatch, facts, followed, rounds
from court.decide.guards import require_status
from court.events import Event
from court.evolve import evolve
from court.ids import Seat
from court.state import CourtState, GameStatus

# Bound on automatic follow-ups of one command: a phase 1 has fewer than 20 steps.
_MAX_FOLLOW_UPS = 200

# Called with each state a decision leads to, event by event, and the event that led to it;
# it may raise to refuse the decision (the service checks the court's invariants so).
Check = Callable[[CourtState, Event], None]


def decide(
    state: CourtState, command: Command, actor: Actor, now: float = 0.0
) -> tuple[Event, ...]:
    return decide_folded(state, command, actor, now)[0]


def decide_folded(
    state: CourtState,
    command: Command,
    actor: Actor,
    now: float = 0.0,
    check: Check | None = None,
) -> tuple[tuple[Event, ...], CourtState]:
    """The command's events with the server's follow-ups, and the state they lead to (the
    same as folding them with `evolve`, without folding them twice). `check` sees every
    state on the way."""
    command = bots.unwrapped(command, actor)
    if state.status is GameStatus.ENDED and type(command) not in AFTER_THE_END:
        # whatever the ended game still held (an offer, a title, a step) waits on no one.
        require_status(state, GameStatus.PLAYING)
    bots.require_mover(state, command, actor)
    own = dispatch.command_events(state, command, actor, now)
    events = bots.attributed(actor, state, facts.attributed(state, command, actor, own))
    # A fact the host records, closing what is overdue, or what the seats and the table do
    # beside the round (a vote, a hand-over, a new player's name, a key's link, a device's key)
    # is no move of the sender's seat: it leaves his clock running (and earns no increment).
    moved = type(command) not in facts.FACT_KINDS and type(command) not in HOUSEKEEPING
    return settle_folded(state, events, now, check, actor.seat if moved else None)


# What an ended game still takes, none of it a move of the game: the host's new name for it,
# a key's link to read a seat on another device, a device's key added or dropped.
AFTER_THE_END = frozenset({RenameGame, AddSeatLink, DropSeatLink, *typing.get_args(DeviceCommand)})

HOUSEKEEPING = frozenset(
    {
        CloseOverdueStep,
        AdvancePhase,
        CloseTablePhases,
        *typing.get_args(SeatCommand),
        *typing.get_args(TableCommand),
        *typing.get_args(DeviceCommand),
        TakeSeatBack,
    }
)


def settle(state: CourtState, events: tuple[Event, ...], now: float) -> tuple[Event, ...]:
    """The command's events, then the server's own follow-ups until someone is awaited."""
    return settle_folded(state, events, now)[0]


def settle_folded(
    state: CourtState,
    events: tuple[Event, ...],
    now: float,
    check: Check | None = None,
    acting: Seat | None = None,
) -> tuple[tuple[Event, ...], CourtState]:
    """The events, the server's follow-ups until someone is awaited, and, when one of them
    followed from the fact a correction under vote corrects, the correction's lapse (R-9.1)."""
    out: list[Event] = []
    watch = followed.Watch()

    def fold(more: tuple[Event, ...]) -> None:
        nonlocal state
        for event in more:
            before, state = state, evolve(state, event)
            watch.see(before, event, state)
            if check is not None:
                check(state, event)
        out.extend(more)

    fold(events)
    wound = False
    for _ in range(_MAX_FOLLOW_UPS):
        more = rounds.follow_up(state, now)
        if not more and not wound:
            # Nobody more to wait for by itself: the players' clocks follow who is awaited.
            more, wound = clocks.wind(state, now, acting), True
        if not more:
            if watch.lapsed is not None:
                fold((watch.lapsed,))
            return tuple(out), state
        fold(more)
    raise RuntimeError("phase 1 did not settle: the step sequence loops")
