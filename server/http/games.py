"""The court's HTTP API: a blueprint calling the service; every view is rendered per caller."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request

from config.rulesdata import RulesDataError
from court.commands import Actor, CreateGame, Secret
from court.errors import BadToken, NotFound
from court.model import invites
from court.model.profile import HostRole, TableVoteSettings
from server.http import pages
from server.http import schemas as s
from server.http.api import Routes
from server.http.view_schemas import CourtViewSchema
from server.messages.fields import TOKEN_MAX
from server.messages.views import court_of, observe, signed
from server.service.court_service import CourtService
from server.service.profiles import Profiles
from server.service.replay import Head

routes = Routes("court", __name__)


def service() -> CourtService:
    return current_app.extensions["court"]


def profiles() -> Profiles:
    found: Profiles = current_app.extensions["profiles"]
    return found


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > TOKEN_MAX:
        raise BadToken("bad_token", "Send the seat token as 'Authorization: Bearer <token>'.")
    return token.strip()


def caller(game_id: str) -> Actor:
    return reader(game_id)[0]


def reader(game_id: str) -> tuple[Actor, Head]:
    """The caller and the head his token was read on: the one head a GET renders."""
    return service().authenticate(game_id, bearer_token())


def player(game_id: str) -> Actor:
    return seated(game_id)[0]


def seated(game_id: str) -> tuple[Actor, Head]:
    """A seat's (or the host's) caller, and the head his token was read on."""
    actor, head = reader(game_id)
    if actor.spectator:
        raise BadToken("token_required", "This needs your seat token (Authorization: Bearer ...).")
    return actor, head


@routes.route(
    "/profiles",
    "GET",
    "List the rules profiles a game can be created with, and the deadlines, time banks and "
    "last round each gives a game",
    response=s.ProfilesSchema,
)
def list_profiles() -> dict[str, Any]:
    usable = profiles().usable()
    times = {
        name: {
            "deadlines": r["profile"]["deadlines"],
            "clocks": r["profile"].get("clocks", {}),
            "votes": _vote_waits(r["profile"]),
        }
        for name, r in usable.items()
    }
    last_rounds = {name: r["profile"]["victory"].get("last_round", 0) for name, r in usable.items()}
    return {"profiles": list(usable), "times": times, "last_rounds": last_rounds}


def _vote_waits(profile: dict[str, Any]) -> dict[str, int]:
    """How long a player is away before the table may vote on his seat, as the profile has it
    (its defaults where it says nothing)."""
    host_role = HostRole(**profile.get("host_role", {}))
    table_votes = TableVoteSettings(**profile.get("table_votes", {}))
    return {
        "takeover_after": host_role.takeover_after,
        "replace_after": table_votes.replace_after,
    }


@routes.route(
    "/games",
    "POST",
    "Create a game, unlisted unless `listed`; the answer holds the host's secret token and "
    "the invite joining an unlisted game needs",
    body=s.CreateGameSchema,
    response=s.GameCreatedSchema,
    status=201,
    limit="games",
    example={"players": 3, "host_name": "Eddard", "name": "Saturday at Ann's"},
)
def create_game(body: dict[str, Any]) -> dict[str, Any]:
    try:
        ruleset = profiles().ruleset(body["profile"] or profiles().default)
    except RulesDataError as exc:
        raise NotFound("unknown_profile", f"There is no usable rules profile: {exc}") from None
    command = CreateGame(
        ruleset=ruleset,
        players=body["players"],
        host_name=body["host_name"],
        variants=body["variants"],
        deadlines=body["deadlines"],
        clocks=body["clocks"],
        host_role=body["host_role"],
        table_votes=body["table_votes"],
        first_player_seat=body.get("first_player_seat"),
        last_round=body.get("last_round"),
        game_master_name=body.get("game_master_name"),
        listed=body["listed"],
        name=body["name"],
    )
    outcome = service().handle(None, command, Actor(host=True))
    game_id = outcome.state.game_id
    invite = invites.of(outcome.state)
    assert invite is not None  # a game just created is in the lobby, with its seed
    return {
        "game_id": game_id,
        "host_token": outcome.token,
        "game_master_token": outcome.secrets.one(Secret.MASTER_TOKEN),
        "invite": invite,
        "invite_url": f"{pages.game_url(game_id)}#invite={invite}",
        "version": outcome.version,
    }


@routes.route(
    "/games/<game_id>",
    "GET",
    "The court as the caller may see it",
    auth=True,
    response=CourtViewSchema,
)
def court(game_id: str) -> dict[str, Any]:
    actor, head = reader(game_id)
    return court_of(actor, head, signed(service(), head))


@routes.route(
    "/games/<game_id>/events",
    "GET",
    "A page of the event history, each record rendered for the caller",
    query=s.HistoryQuerySchema,
    response=s.HistoryPageSchema,
    auth=True,
)
def history(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    actor, head = reader(game_id)
    limit = min(query["limit"], current_app.config["HISTORY_PAGE_LIMIT"])
    records = service().records(game_id, after=query["after"], limit=limit)
    last = records[-1].version if records else query["after"]
    return {
        "version": head.version,
        "records": [observe(actor, head.state).told(r, head.state) for r in records],
        "next_after": last if last < head.version else None,
    }


@routes.route(
    "/games/<game_id>/versions/<int:version>",
    "GET",
    "The court as it stood right after event `version`",
    auth=True,
    response=CourtViewSchema,
)
def court_at(game_id: str, version: int) -> dict[str, Any]:
    actor, newest = reader(game_id)
    head = service().state_at(game_id, version, newest)
    return court_of(actor, head, signed(service(), head), newest.state)


@routes.route(
    "/games/<game_id>/export",
    "GET",
    "The whole log as JSON Lines; private parts only where the caller may see them; then "
    "the talk lines the caller is party to, each as {talk: line}",
    auth=True,
    content_type="application/x-ndjson",
)
def export(game_id: str) -> Response:
    actor, head = reader(game_id)
    observer = observe(actor, head.state)
    records = service().log(game_id, upto=head.version)
    talk = current_app.extensions["talk"].lines(game_id, actor)

    def lines() -> Iterator[str]:
        # Written as read, a page of records at a time: a log of any length is streamed.
        for record in records:
            yield json.dumps(observer.record(record), ensure_ascii=False) + "\n"
        # The caller's own table talk and whispers, after the log (server/service/whole_logs.py
        # skips them on import: talk is no part of the court's log).
        for line in talk:
            yield json.dumps({"talk": line.to_json()}, ensure_ascii=False) + "\n"

    return Response(
        lines(),
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'},
    )


@routes.route(
    "/games/<game_id>/verify",
    "GET",
    "The deep check of the log so far: the records after the last version this server checked",
    response=s.VerificationSchema,
)
def verify(game_id: str) -> dict[str, Any]:
    return service().verify_so_far(game_id).to_json()
