"""Folding setup events: creation, seats, start."""

from __future__ import annotations

from court.events.setup import (
    GameCreated,
    GameListed,
    GameRenamed,
    GameStarted,
    GameUnlisted,
    SeatJoined,
    SeatLeft,
)
from court.evolve.base import Handlers, replace
from court.evolve.devices import without_keys
from court.evolve.seats import without_seat
from court.model.ruleset import Ruleset
from court.state import CourtState, GameStatus, Ledger, Noble, SeatInfo


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
        game_master_name=e.game_master_name,
        game_master_token_sha256=e.game_master_token_sha256,
        listed=e.listed,
        invite_sha256=e.invite_sha256,
        name=e.name,
    )


def _game_listed(state: CourtState, e: GameListed) -> CourtState:
    return replace(state, listed=True)


def _game_unlisted(state: CourtState, e: GameUnlisted) -> CourtState:
    return replace(state, listed=False)


def _game_renamed(state: CourtState, e: GameRenamed) -> CourtState:
    return replace(state, name=e.name)


def _seat_joined(state: CourtState, e: SeatJoined) -> CourtState:
    info = SeatInfo(
        seat=e.seat,
        house=e.house,
        player_name=e.player_name,
        host=e.host,
        token_sha256=e.token_sha256,
    )
    joined = replace(state, seats={**state.seats, e.seat: info}, joins=state.joins + 1)
    # A host who takes a seat signs as that seat: the keys of his seatless role go.
    return without_keys(joined, "host") if e.host else joined


def _seat_left(state: CourtState, e: SeatLeft) -> CourtState:
    return without_seat(state, e.seat)


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
        ledger=Ledger(issued=sum(treasury.values())),
        started_at=e.at,
    )


HANDLERS: Handlers = {
    GameCreated: _game_created,
    SeatJoined: _seat_joined,
    SeatLeft: _seat_left,
    GameStarted: _game_started,
    GameListed: _game_listed,
    GameUnlisted: _game_unlisted,
    GameRenamed: _game_renamed,
}
