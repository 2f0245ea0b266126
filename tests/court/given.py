"""Given/when/then helpers for pure engine tests: build a court from events, then decide."""

from __future__ import annotations

from functools import cache
from typing import Any

from config.rulesdata import load_ruleset
from court import dice
from court.commands import Actor, Command
from court.decide import decide, settle
from court.events import (
    Event,
    FactRecorded,
    GameCreated,
    GameStarted,
    RoundStarted,
    SeatJoined,
)
from court.evolve import evolve, replay
from court.ids import GameId, HouseId, Seat
from court.state import CourtState

GAME = GameId("g1")
HOST = Actor(host=True)
SEED = "seed-for-tests"


@cache
def _ruleset() -> dict[str, Any]:
    return load_ruleset("default")


def ruleset() -> dict[str, Any]:
    import copy

    return copy.deepcopy(_ruleset())


def created(players: int = 3, **profile_changes: Any) -> GameCreated:
    rules = ruleset()
    for path, value in profile_changes.items():
        section, key = path.split("__")
        rules["profile"][section][key] = value
    return GameCreated(
        game_id=GAME,
        ruleset=rules,
        players=players,
        host_name="Hostess",
        dice_seed_sha256=dice.commitment(SEED),
        host_token_sha256="h" * 64,
        dice_seed=SEED,
    )


HOUSES = ("stark", "lannister", "tyrell", "martell", "greyjoy", "baratheon")


def joined(seat: int, house: str | None = None, host: bool = False) -> SeatJoined:
    return SeatJoined(
        seat=Seat(seat),
        house=HouseId(house or HOUSES[seat]),
        player_name=f"Player {seat + 1}",
        host=host,
        token_sha256=f"{seat}" * 64,
    )


def lobby(players: int = 3, seated: int | None = None) -> tuple[Event, ...]:
    count = players if seated is None else seated
    return (created(players), *(joined(i) for i in range(count)))


def started(players: int = 3, first: int = 0) -> tuple[Event, ...]:
    """A started game, with phase 1 of round 1 run as far as the server runs it alone."""
    order = tuple(Seat(i) for i in range(players))
    before = lobby(players)
    start = (
        GameStarted(seat_order=order, first_player=Seat(first)),
        RoundStarted(round=1, first_player=Seat(first)),
    )
    events = (*before, *settle(replay(GAME, before), start, 0.0))
    return (*events, *pass_decrees(replay(GAME, events)))


def pass_decrees(state: CourtState, now: float = 0.0) -> tuple[Event, ...]:
    """Every player passes in each decree step of phase 1 (R-4.2), as a quiet table does."""
    from court.commands import Pass

    events: list[Event] = []
    while state.decree is not None and state.decree.current is not None:
        step = decide(state, Pass(), Actor(seat=state.decree.current), now)
        for event in step:
            state = evolve(state, event)
        events.extend(step)
    return tuple(events)


def given(*events: Event) -> CourtState:
    return replay(GAME, events)


def when(state: CourtState, command: Command, actor: Actor = HOST) -> tuple[Event, ...]:
    return decide(state, command, actor)


def when_fact(state: CourtState, command: Command, actor: Actor = HOST) -> tuple[Event, ...]:
    """A recorded fact (section 9): the events after the one naming who recorded it."""
    first, *rest = decide(state, command, actor)
    assert isinstance(first, FactRecorded), first
    assert first.by == ("host" if actor.host else "game_master")
    return tuple(rest)


def then_state(state: CourtState, events: tuple[Event, ...]) -> CourtState:
    for event in events:
        state = evolve(state, event)
    return state


def seat(n: int, host: bool = False) -> Actor:
    return Actor(seat=Seat(n), host=host)
