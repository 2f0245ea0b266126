"""The authorization matrix: every command (each POST route of the OpenAPI document and each
Socket.IO message) sent by each kind of sender: its own seat (the positive control), another
seat, a spectator, a token of another game, the token of a seat given up before the start,
a seat that is not the host, and the game master. Every forbidden pair is refused (401/403
over HTTP, `{ok: false, code}` over Socket.IO) and leaves every log as it was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from app import create_app
from server.live.sockets import NAMESPACE
from tests.hostile.matrix import AUTH_CODES, CREATE, ROWS, SUCCEEDS, Row
from tests.hostile.matrix import documented_commands as documented
from tests.hostile.tables import Tables, heads, lay
from tests.server.http.court_client import bearer


class Court:
    """An app and its seeded games; laid anew whenever a positive control changed a log."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.http = app.test_client()
        self.tables: Tables = lay(app)

    def heads(self) -> dict[str, tuple[int, str]]:
        return heads(self.app, self.tables)

    def refresh(self) -> None:
        self.tables = lay(self.app)

    def game(self, row: Row, who: str) -> str:
        """The seat given up belongs to the lobby: its token is tried there."""
        return "lobby" if who == "left" else row.stage

    def post(self, row: Row, who: str) -> Any:
        stage = self.game(row, who)
        assert row.route is not None
        path = row.route.replace("{game_id}", self.tables.games[stage].id)
        return self.http.open(
            path, method=row.method, json=row.body(), headers=self.tables.headers(stage, who)
        )

    def connect(self, stage: str, token: str | None) -> Any:
        return self.app.extensions["socketio"].test_client(
            self.app,
            namespace=NAMESPACE,
            auth={"game": self.tables.games[stage].id, "token": token},
        )

    def given_up(self) -> Any:
        """A connection opened by a seat that was given up afterwards, over HTTP."""
        lobby = self.tables.games["lobby"]
        joined = self.http.post(
            f"/api/games/{lobby.id}/commands/join", json={"house": "tyrell", "player_name": "Mace"}
        ).get_json()
        client = self.connect("lobby", joined["token"])
        assert client.is_connected(NAMESPACE)
        response = self.http.post(
            f"/api/games/{lobby.id}/commands/leave", headers=bearer(joined["token"])
        )
        assert response.status_code == 200, response.get_json()
        return client


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Court]:
    # Hundreds of requests and connections from one address: who may send what is tested
    # here, the limits per address in tests/server/*/test_*limits.py.
    folder = tmp_path_factory.mktemp("authz")
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{folder}/t.db", "DEADLINES": False, "RATE_LIMITS": False}
    )
    yield Court(app)
    app.extensions["court_store"].close()


def pairs(transport: str) -> list[Any]:
    cases = []
    for row in ROWS:
        if (transport == "http" and row.route is None) or (
            transport == "socket" and not row.socket
        ):
            continue
        for who, code in row.forbidden().items():
            if transport == "socket" and who in ("other_game", "left"):
                continue  # such a token opens no connection: see the tests further down
            cases.append(pytest.param(row, who, code, id=f"{row.message}-{who}"))
    return cases


def own(transport: str) -> list[Any]:
    """Each command with the sender it is for; a fact with the game master too."""
    return [
        pytest.param(row, who, id=f"{row.message}-{who}")
        for row in ROWS
        if (row.socket if transport == "socket" else row.route is not None)
        for who in ([row.own, "master"] if row.role in ("recorder", "keyholder") else [row.own])
    ]


def test_every_command_and_guarded_route_has_a_row_in_the_matrix() -> None:
    routes, messages = documented()

    assert routes == {(row.method, row.route) for row in ROWS if row.route}
    assert messages == {row.message for row in ROWS if row.socket}


@pytest.mark.parametrize(("row", "who", "code"), pairs("http"))
def test_a_forbidden_sender_is_refused_over_http(
    court: Court, row: Row, who: str, code: str
) -> None:
    before = court.heads()

    response = court.post(row, who)

    body = response.get_json()
    if code in ("token_required", "bad_token"):
        # A missing or unknown token is named as such, before anything else is looked at.
        assert response.status_code == 401 and body["code"] == code, body
    elif code:
        # A forbidden role may name the rule it breaks rather than the role.
        assert response.status_code == 403, body
    else:
        assert response.status_code in (403, 409), body
        assert body["code"] not in AUTH_CODES, body
    assert court.heads() == before


@pytest.mark.parametrize(("row", "who", "code"), pairs("socket"))
def test_a_forbidden_sender_is_refused_over_socketio(
    court: Court, row: Row, who: str, code: str
) -> None:
    client = court.connect(court.game(row, who), court.tables.token(row.stage, who))
    before = court.heads()

    ack = client.emit(row.message, row.body(), namespace=NAMESPACE, callback=True)

    assert ack["ok"] is False and isinstance(ack["code"], str) and ack["code"], ack
    assert ack["code"] not in ("bad_request", "internal_error"), ack
    assert court.heads() == before
    client.disconnect(namespace=NAMESPACE)


@pytest.mark.parametrize(("row", "who"), own("http"))
def test_its_own_sender_is_not_refused_for_who_he_is_over_http(
    court: Court, row: Row, who: str
) -> None:
    before = court.heads()

    response = court.post(row, who)

    body = response.get_json()
    if response.status_code >= 400:
        assert body["code"] not in AUTH_CODES and response.status_code != 401, body
        assert row.message not in SUCCEEDS, body
        assert court.heads() == before
    else:
        assert court.heads() != before or not row.recorded
        court.refresh()


@pytest.mark.parametrize(("row", "who"), own("socket"))
def test_its_own_sender_is_not_refused_for_who_he_is_over_socketio(
    court: Court, row: Row, who: str
) -> None:
    client = court.connect(row.stage, court.tables.token(row.stage, who))
    before = court.heads()

    ack = client.emit(row.message, row.body(), namespace=NAMESPACE, callback=True)

    client.disconnect(namespace=NAMESPACE)
    if ack["ok"] is False:
        assert ack["code"] not in AUTH_CODES, ack
        assert row.message not in SUCCEEDS, ack
        assert court.heads() == before
    elif row.role == "talk":  # said beside the court's log, never in it
        assert ack["line"]["text"] == "A word" and court.heads() == before
    elif row.message != "sync":
        assert court.heads() != before
        court.refresh()


def test_the_creation_of_a_game_needs_no_token_and_ignores_a_foreign_one(court: Court) -> None:
    for headers in ({}, court.tables.headers("cards", "other_game")):
        response = court.http.post(CREATE, json={"players": 3, "host_name": "Ned"}, headers=headers)
        assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize("who", ["other_game", "left", "bogus"])
def test_a_token_of_no_seat_of_this_game_opens_no_connection(court: Court, who: str) -> None:
    for stage in ("lobby", "cards"):
        client = court.connect(stage, court.tables.token(stage, who))
        assert not client.is_connected(NAMESPACE), (stage, who)


@pytest.mark.parametrize("row", [pytest.param(row, id=row.message) for row in ROWS if row.socket])
def test_a_connection_whose_seat_was_given_up_can_send_nothing(court: Court, row: Row) -> None:
    """Its token no longer opens anything over HTTP; the open connection may not go on
    acting for the seat either (nor take another: it connects again for that)."""
    client = court.given_up()
    before = court.heads()

    ack = client.emit(row.message, row.body(), namespace=NAMESPACE, callback=True)

    assert ack["ok"] is False and ack["code"] == "bad_token", ack
    assert court.heads() == before
    client.disconnect(namespace=NAMESPACE)


def test_a_host_who_gave_up_his_seat_is_still_the_host_but_no_seat(court: Court) -> None:
    lobby = court.tables.games["lobby"]
    client = court.connect("lobby", lobby.host_token)
    assert client.emit("leave", {}, namespace=NAMESPACE, callback=True)["ok"] is True
    before = court.heads()

    again = client.emit("leave", {}, namespace=NAMESPACE, callback=True)
    start = client.emit("start", {}, namespace=NAMESPACE, callback=True)

    assert again["code"] == "seat_required" and start["code"] == "seats_not_filled"
    assert court.heads() == before
    client.disconnect(namespace=NAMESPACE)
    court.refresh()
