"""Fold events into the court state. `evolve` trusts its input: every check lives in `decide`.

Dispatch is a dict keyed by event type rather than a `match`: replaying a long
game calls `evolve` once per event, and a chain of class patterns grows with
every event type while a dict lookup does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from court.events import (
    Event,
    GameCreated,
    GameStarted,
    GoldAdjusted,
    RoundStarted,
    SeatJoined,
    SeatLeft,
)
from court.frozen import replacer
from court.ids import GameId
from court.ruleset import Ruleset
from court.state import CourtState, GameStatus, Noble, Phase, SeatInfo

replace = replacer(CourtState)


def initial(game_id: GameId) -> CourtState:
    return CourtState(game_id=game_id)


def replay(game_id: GameId, events: Iterable[Event]) -> CourtState:
    state = initial(game_id)
    for event in events:
        state = evolve(state, event)
    return state


def evolve(state: CourtState, event: Event) -> CourtState:
    return HANDLERS[type(event)](state, event)


def _game_created(state: CourtState, e: GameCreated) -> CourtState:
    return replace(
        state,
        game_id=e.game_id,
        status=GameStatus.LOBBY,
        rules=Ruleset.from_dict(e.ruleset),
        players=e.players,
        host_name=e.host_name,
        host_token_sha256=e.host_token_sha256,
        dice_seed_sha256=e.dice_seed_sha256,
        dice_seed=e.dice_seed,
    )


def _seat_joined(state: CourtState, e: SeatJoined) -> CourtState:
    info = SeatInfo(
        seat=e.seat,
        house=e.house,
        player_name=e.player_name,
        host=e.host,
        token_sha256=e.token_sha256,
    )
    return replace(state, seats={**state.seats, e.seat: info}, joins=state.joins + 1)


def _seat_left(state: CourtState, e: SeatLeft) -> CourtState:
    return replace(state, seats={s: i for s, i in state.seats.items() if s != e.seat})


def _game_started(state: CourtState, e: GameStarted) -> CourtState:
    rules = state.ruleset
    nobles: dict = {}
    treasury: dict = {}
    for seat in e.seat_order:
        card = rules.house(state.seats[seat].house)
        assert card is not None
        treasury[card.id] = rules.profile.treasury.starting
        for n in card.nobles:
            nobles[n.id] = Noble(
                id=n.id, house=card.id, name=n.name, gender=n.gender, attributes=n.attributes
            )
    return replace(
        state,
        status=GameStatus.PLAYING,
        seat_order=e.seat_order,
        first_player=e.first_player,
        nobles=nobles,
        treasury=treasury,
    )


def _round_started(state: CourtState, e: RoundStarted) -> CourtState:
    return replace(
        state, round=e.round, first_player=e.first_player, phase=Phase.DECREES, step=None
    )


def _gold_adjusted(state: CourtState, e: GoldAdjusted) -> CourtState:
    treasury = {**state.treasury, e.house: state.treasury[e.house] + e.amount}
    return replace(state, treasury=treasury)


HANDLERS: dict[type[Event], Callable[[CourtState, Any], CourtState]] = {
    GameCreated: _game_created,
    SeatJoined: _seat_joined,
    SeatLeft: _seat_left,
    GameStarted: _game_started,
    RoundStarted: _round_started,
    GoldAdjusted: _gold_adjusted,
}
