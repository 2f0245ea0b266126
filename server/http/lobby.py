"""HTTP route of the lobby page: the games waiting for players, with their free Houses."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from court.sentences import names
from court.state import CourtState, GameStatus
from server.http import pages
from server.http.api import Routes
from server.http.games import service

routes = Routes("lobby", __name__)

# A game still in the lobby holds its creation and a few joins and leaves; a longer log
# belongs to a game already under way and is not read just to be left out of the list.
LOBBY_MAX_VERSION = 64
SCANNED = 200


class OpenGamesQuerySchema(Schema):
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 50))


class OpenSeatSchema(Schema):
    seat = fields.Integer(required=True)
    house = fields.String(required=True)
    player_name = fields.String(required=True)


class FreeHouseSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    colours = fields.List(fields.String(), required=True)


class OpenGameSchema(Schema):
    game_id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    title = fields.String(required=True)
    version = fields.Integer(required=True)
    host_name = fields.String(required=True)
    players = fields.Integer(required=True)
    profile = fields.String(required=True)
    variants = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True)
    seats = fields.List(fields.Nested(OpenSeatSchema), required=True)
    free_houses = fields.List(fields.Nested(FreeHouseSchema), required=True)
    url = fields.String(required=True)


class OpenGamesSchema(Schema):
    games = fields.List(fields.Nested(OpenGameSchema), required=True)


def open_game(state: CourtState, version: int) -> dict[str, Any] | None:
    """A listed lobby game with a free seat as the lobby lists it, or None when it is not
    open; an unlisted game is never listed: it is joined only through its invite link."""
    if state.status is not GameStatus.LOBBY or len(state.seats) >= state.players:
        return None
    if not state.listed:
        return None
    taken = {s.house for s in state.seats.values()}
    profile = state.ruleset.profile
    return {
        "game_id": state.game_id,
        "name": state.name,
        "title": names.game(state),
        "version": version,
        "host_name": state.host_name,
        "players": state.players,
        "profile": profile.name,
        "variants": {
            "nights_watch": profile.variants.nights_watch,
            "title_concession": profile.variants.title_concession,
            "sealed_ballots": profile.variants.sealed_ballots,
            "clocks": profile.variants.clocks,
        },
        "seats": [
            {"seat": s.seat, "house": s.house, "player_name": s.player_name}
            for s in sorted(state.seats.values(), key=lambda s: s.seat)
        ],
        "free_houses": [
            {"id": h.id, "name": h.name, "colours": list(h.colours)}
            for h in state.ruleset.houses
            if h.id not in taken
        ],
        "url": pages.game_url(state.game_id),
    }


@routes.route(
    "/games",
    "GET",
    "Listed games waiting for players, newest first, with their free Houses; an unlisted "
    "game is never shown",
    query=OpenGamesQuerySchema,
    response=OpenGamesSchema,
)
def open_games(query: dict[str, Any]) -> dict[str, Any]:
    games = service()
    found: list[dict[str, Any]] = []
    for game_id in games.games()[:SCANNED]:
        length = games.length(game_id)
        if length is None or length > LOBBY_MAX_VERSION:
            continue
        current = games.current(game_id)
        listed = open_game(current.state, current.version)
        if listed is not None:
            found.append(listed)
            if len(found) == query["limit"]:
                break
    return {"games": found}
