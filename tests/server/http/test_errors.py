"""Every class of refusal: the status, a JSON body with a string `code` and `message`, and a log
left exactly as it was (STYLE: shape 400, auth 401/403, unknown 404, rules 409)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api_routes import OPERATIONS, body, served
from tests.server.http.court_client import Game, bearer, create_game, error_body, join, logs


@pytest.fixture
def unchanged(app: Flask, client: FlaskClient) -> Iterator[None]:
    """Fails the test if any stored log (or the list of games) changed while it ran."""
    before = logs(app, client)
    yield
    assert logs(app, client) == before


# -- 400: the request has the wrong shape ------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": 2, "host_name": "Ned"}, "players"),
        ({"players": 7, "host_name": "Ned"}, "players"),
        ({"players": 3}, "host_name"),
        ({"host_name": "Ned"}, "players"),
        ({"players": 3, "host_name": ""}, "host_name"),
        ({"players": 3, "host_name": "N" * 41}, "host_name"),
        ({"players": 3, "host_name": "Ned", "bogus": 1}, "bogus"),
        ({"players": "three", "host_name": "Ned"}, "players"),
        ({"players": 3, "host_name": 5}, "host_name"),
        ({"players": True, "host_name": "Ned"}, "players"),
        ({"players": 3, "host_name": "Ned", "variants": {"nights_watch": "maybe"}}, "variants"),
        ({"players": 3, "host_name": "Ned", "deadlines": {"ballot": -1}}, "deadlines"),
        ({"players": 3, "host_name": "Ned", "first_player_seat": 6}, "first_player_seat"),
        ({"players": 3, "host_name": "Ned", "profile": "../default"}, "profile"),
    ],
    ids=[
        "players-2",
        "players-7",
        "no-host-name",
        "no-players",
        "empty-host-name",
        "host-name-41-chars",
        "unknown-field",
        "players-string",
        "host-name-int",
        "players-bool",
        "variant-not-bool",
        "negative-deadline",
        "first-player-6",
        "profile-path",
    ],
)
def test_a_create_body_of_the_wrong_shape_is_400_naming_the_field(
    client: FlaskClient, unchanged: None, body: dict[str, Any], field: str
) -> None:
    """R-1.1: 3 to 6 players; the rest is the request's shape."""
    error = error_body(client.post("/api/games", json=body), 400, "bad_request")

    assert set(error["fields"]) == {field}
    assert error["fields"][field]


@pytest.mark.parametrize(
    ("section", "value", "says"),
    [
        ("deadlines", -1, "from 0 to 604800"),
        ("deadlines", 604_801, "from 0 to 604800"),
        ("deadlines", 90.5, "integer"),
        ("clocks", -5, "from 0 to 604800"),
        ("clocks", 7 * 24 * 3600 + 1, "from 0 to 604800"),
        ("clocks", "300", "integer"),
    ],
)
def test_deadlines_and_time_banks_are_whole_seconds_up_to_a_week(
    client: FlaskClient, unchanged: None, section: str, value: Any, says: str
) -> None:
    """R-4.3: a step deadline or a clocks variant's time bank is whole seconds, 0 to a week;
    anything else is refused naming the field, and no game is created."""
    body = {
        "players": 3,
        "host_name": "Ned",
        "variants": {"clocks": True},
        section: {"ballot": value},
    }
    error = error_body(client.post("/api/games", json=body), 400, "bad_request")
    assert set(error["fields"]) == {section}
    assert says in str(error["fields"][section])


def test_a_game_with_clocks_keeps_the_banks_it_was_created_with(client: FlaskClient) -> None:
    """R-4.3: the banks sent at creation, in seconds, are the game's."""
    clocks = {"ballot": 95, "decree": 0, "increment": 3}
    created = client.post(
        "/api/games",
        json={"players": 3, "host_name": "Ned", "variants": {"clocks": True}, "clocks": clocks},
    )
    assert created.status_code == 201, created.get_json()
    view = client.get(f"/api/games/{created.get_json()['game_id']}").get_json()
    assert view["game"]["variants"]["clocks"] is True
    assert view["clocks"]["banks"]["ballot"] == 95 and view["clocks"]["banks"]["decree"] == 0
    assert view["clocks"]["increment"] == 3


def test_wrong_types_are_reported_for_every_field_at_once(
    client: FlaskClient, unchanged: None
) -> None:
    error = error_body(client.post("/api/games", json={"players": [3], "host_name": {"n": 1}}), 400)

    assert set(error["fields"]) == {"players", "host_name"}
    assert all(
        isinstance(m, list) and all(isinstance(x, str) for x in m) for m in error["fields"].values()
    )


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"players=3&host_name=Ned", "application/x-www-form-urlencoded"),
        (b'{"players": 3, "host_name": "Ned"}', "text/plain"),
        (b'{"players": 3, "host_name": "Ned"', "application/json"),
        (b"", "application/json"),
        (b"\xff\xfe", "application/json"),
        (b'[{"players": 3, "host_name": "Ned"}]', "application/json"),
        (b"null", "application/json"),
        (b'"players"', "application/json"),
        (b"3", "application/json"),
    ],
    ids=[
        "form",
        "text-plain",
        "truncated-json",
        "empty",
        "not-utf8",
        "array",
        "null",
        "string",
        "number",
    ],
)
def test_a_body_that_is_not_a_json_object_is_400_on_the_body(
    client: FlaskClient, unchanged: None, data: bytes, content_type: str
) -> None:
    error = error_body(client.post("/api/games", data=data, content_type=content_type), 400)

    assert list(error["fields"]) == ["_body"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("after=-1", "after"),
        ("limit=0", "limit"),
        ("limit=201", "limit"),
        ("after=x", "after"),
        ("limit=1.5", "limit"),
        ("page=2", "page"),
    ],
)
def test_a_bad_history_query_is_400_naming_the_parameter(
    client: FlaskClient, game: Game, unchanged: None, query: str, field: str
) -> None:
    error = error_body(client.get(f"/api/games/{game.id}/events?{query}"), 400, "bad_request")

    assert set(error["fields"]) == {field}


def test_a_body_sent_to_leave_is_400_and_the_seat_is_kept(client: FlaskClient, app: Flask) -> None:
    """`leave` takes no field but a device's signature: any other is refused by name."""
    created = create_game(client)
    joined = join(client, created["game_id"], "lannister")
    before = logs(app, client)

    response = client.post(
        f"/api/games/{created['game_id']}/commands/leave",
        json={"seat": 0},
        headers=bearer(joined["token"]),
    )

    assert list(error_body(response, 400, "bad_request")["fields"]) == ["seat"]
    assert logs(app, client) == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("commands/join", {"house": "Stark!", "player_name": "Arya"}, "house"),
        ("commands/join", {"house": "baratheon"}, "player_name"),
        ("commands/start", {"seat_order": [0, 1]}, "seat_order"),
        ("commands/start", {"seat_order": "0,1,2"}, "seat_order"),
        ("commands/record_gold", {"house": "stark", "amount": 1001, "cause": "x"}, "amount"),
        ("commands/record_gold", {"house": "stark", "amount": 5}, "cause"),
        ("commands/record_gold", {"house": "stark", "amount": 5, "cause": "x" * 121}, "cause"),
    ],
)
def test_a_command_body_of_the_wrong_shape_is_400_naming_the_field(
    client: FlaskClient, game: Game, unchanged: None, path: str, body: dict, field: str
) -> None:
    response = client.post(f"/api/games/{game.id}/{path}", json=body, headers=game.host)

    assert set(error_body(response, 400, "bad_request")["fields"]) == {field}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/games", {"players": 3.5, "host_name": "Ned"}, "players"),
        (
            "/api/games/{id}/commands/record_gold",
            {"house": "stark", "amount": 2.5, "cause": "x"},
            "amount",
        ),
    ],
    ids=["players", "gold-amount"],
)
def test_a_fractional_number_where_a_whole_one_is_needed_is_400(
    client: FlaskClient, app: Flask, game: Game, path: str, body: dict, field: str
) -> None:
    """R-2.1: treasuries hold whole Gold Dragons; R-1.1: a whole number of players."""
    before = logs(app, client)

    response = client.post(path.format(id=game.id), json=body, headers=game.host)

    assert set(error_body(response, 400, "bad_request")["fields"]) == {field}
    assert logs(app, client) == before


def test_a_name_holding_a_lone_surrogate_is_refused_not_a_server_error(
    client: FlaskClient, unchanged: None
) -> None:
    response = client.post("/api/games", json={"players": 3, "host_name": "Ned \ud800"})

    assert response.status_code == 400
    error_body(response, 400)


def test_deeply_nested_json_is_a_400_not_a_server_error(
    client: FlaskClient, unchanged: None
) -> None:
    response = client.post("/api/games", data=b"[" * 10_000, content_type="application/json")

    assert list(error_body(response, 400)["fields"]) == ["_body"]


def test_a_history_after_beyond_64_bits_is_a_400_not_a_server_error(
    client: FlaskClient, game: Game, unchanged: None
) -> None:
    response = client.get(f"/api/games/{game.id}/events?after={2**63}")

    assert set(error_body(response, 400)["fields"]) == {"after"}


# -- 401: who is asking is unknown -----------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    ["Bearer not-a-token", "Basic x", "Bearer", "Bearer    ", "Token abc", "x"],
)
def test_an_unknown_or_malformed_token_is_401(
    client: FlaskClient, game: Game, unchanged: None, authorization: str
) -> None:
    for response in (
        client.get(f"/api/games/{game.id}", headers={"Authorization": authorization}),
        client.post(
            f"/api/games/{game.id}/commands/record_gold",
            json={"house": "stark", "amount": 5, "cause": "Tax"},
            headers={"Authorization": authorization},
        ),
    ):
        error_body(response, 401, "bad_token")


def test_a_token_of_another_game_is_401(client: FlaskClient, app: Flask, game: Game) -> None:
    other = create_game(client)
    headers = bearer(other["host_token"])
    before = logs(app, client)

    error_body(client.get(f"/api/games/{game.id}", headers=headers), 401, "bad_token")
    error_body(client.get(f"/api/games/{game.id}/export", headers=headers), 401, "bad_token")
    error_body(
        client.post(
            f"/api/games/{game.id}/commands/record_gold",
            json={"house": "stark", "amount": 5, "cause": "Tax"},
            headers=headers,
        ),
        401,
        "bad_token",
    )
    assert logs(app, client) == before


def test_a_command_without_a_token_is_401(client: FlaskClient, game: Game, unchanged: None) -> None:
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": 5, "cause": "Tax"},
    )

    error_body(response, 401, "token_required")


# -- 403: the seat may not do this -------------------------------------------------------------


def test_a_player_who_is_not_the_host_cannot_start_the_game(
    client: FlaskClient, lobby: Game, unchanged: None
) -> None:
    response = client.post(
        f"/api/games/{lobby.id}/commands/start", json={}, headers=lobby.auth("tyrell")
    )

    error_body(response, 403, "host_only")
    assert client.get(f"/api/games/{lobby.id}").get_json()["game"]["status"] == "lobby"


def test_a_player_who_is_not_the_host_cannot_record_gold(
    client: FlaskClient, game: Game, unchanged: None
) -> None:
    """Section 9: the host records facts."""
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "lannister", "amount": 100, "cause": "I say so"},
        headers=game.auth("lannister"),
    )

    error_body(response, 403, "host_only")


# -- 404: no such thing ----------------------------------------------------------------------------

# Every documented route of a game, with a body of the right shape, aimed at a game that is not.
UNKNOWN_GAME_ROUTES = [
    (method, path.replace("{game_id}", "nosuchgame").replace("{version}", "1"), body(method, path))
    for method, path, _ in OPERATIONS
    if "{game_id}" in path
]


@pytest.mark.parametrize(("method", "path", "body"), UNKNOWN_GAME_ROUTES)
@pytest.mark.parametrize("with_token", [False, True], ids=["no-token", "token"])
def test_an_unknown_game_is_404_on_every_route(
    client: FlaskClient,
    game: Game,
    unchanged: None,
    method: str,
    path: str,
    body: dict | None,
    with_token: bool,
) -> None:
    headers = game.host if with_token else {}

    response = client.open(path, method=method, json=body, headers=headers)

    error_body(response, 404, "unknown_game")


def test_every_game_route_is_covered_by_the_unknown_game_cases(app: Flask) -> None:
    covered = {(m, p.replace("nosuchgame", "{game_id}")) for m, p, _ in UNKNOWN_GAME_ROUTES}
    covered = {(m, p.replace("/versions/1", "/versions/{version}")) for m, p in covered}
    routes = {(m, p) for m, p in served(app) if p.startswith("/api/games/{game_id}")}

    assert routes == covered


@pytest.mark.parametrize(
    "version",
    [lambda head: 0, lambda head: head + 1, lambda head: 10**6],
    ids=["0", "past-the-head", "1000000"],
)
def test_a_version_that_does_not_exist_is_404(
    client: FlaskClient, game: Game, unchanged: None, version: Callable[[int], int]
) -> None:
    path = f"/api/games/{game.id}/versions/{version(game.started)}"

    error_body(client.get(path), 404, "unknown_version")


@pytest.mark.parametrize(
    "path", ["/api/nope", "/api/games/x/y/z", "/api/games/x/versions/-1", "/api/games/x/versions/a"]
)
def test_an_unknown_route_is_a_json_404(
    client: FlaskClient, game: Game, unchanged: None, path: str
) -> None:
    error_body(client.get(path), 404, "not_found")


def test_an_unknown_profile_is_404(client: FlaskClient, unchanged: None) -> None:
    response = client.post(
        "/api/games", json={"players": 3, "host_name": "Ned", "profile": "no-such-profile"}
    )

    error_body(response, 404, "unknown_profile")


# -- 405: the route exists but not with this method -----------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("DELETE", "/api/games/{id}"),
        ("PUT", "/api/games/{id}"),
        ("GET", "/api/games/{id}/commands/start"),
        ("GET", "/api/games/{id}/commands/record_gold"),
        ("POST", "/api/games/{id}/verify"),
        ("DELETE", "/api/games"),
        ("PATCH", "/api/games"),  # GET lists the open games
    ],
)
def test_a_wrong_method_is_a_json_405(
    client: FlaskClient, game: Game, unchanged: None, method: str, path: str
) -> None:
    response = client.open(path.format(id=game.id), method=method, headers=game.host)

    error_body(response, 405, "method_not_allowed")


# -- 409: the court rules refuse the command now -----------------------------------------------


def test_a_house_already_taken_cannot_be_joined(client: FlaskClient, app: Flask) -> None:
    created = create_game(client)
    join(client, created["game_id"], "stark")
    before = logs(app, client)

    response = client.post(
        f"/api/games/{created['game_id']}/commands/join",
        json={"house": "stark", "player_name": "Jon", "invite": created["invite"]},
    )

    error_body(response, 409, "house_taken")
    assert logs(app, client) == before


def test_a_full_game_cannot_be_joined(client: FlaskClient, lobby: Game, unchanged: None) -> None:
    """R-1.1: as many seats as players."""
    response = client.post(
        f"/api/games/{lobby.id}/commands/join", json={"house": "martell", "player_name": "Oberyn"}
    )

    error_body(response, 409, "game_full")


def test_a_started_game_cannot_be_joined(client: FlaskClient, game: Game, unchanged: None) -> None:
    response = client.post(
        f"/api/games/{game.id}/commands/join", json={"house": "martell", "player_name": "Oberyn"}
    )

    error_body(response, 409, "game_playing")


def test_a_started_game_cannot_be_started_again(
    client: FlaskClient, game: Game, unchanged: None
) -> None:
    response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)

    error_body(response, 409, "game_playing")


def test_a_game_cannot_start_before_every_seat_is_filled(client: FlaskClient, app: Flask) -> None:
    """R-1.1: the game is for the number of players it was created for."""
    created = create_game(client)
    join(client, created["game_id"], "stark", created["host_token"])
    join(client, created["game_id"], "lannister")
    before = logs(app, client)

    response = client.post(
        f"/api/games/{created['game_id']}/commands/start",
        json={},
        headers=bearer(created["host_token"]),
    )

    error_body(response, 409, "seats_not_filled")
    assert logs(app, client) == before


@pytest.mark.parametrize("seat_order", [[0, 1, 1], [0, 1, 3], [2, 1, 0, 3]])
def test_a_start_order_that_does_not_name_every_seat_once_is_refused(
    client: FlaskClient, lobby: Game, unchanged: None, seat_order: list[int]
) -> None:
    """R-1.1: seats have a fixed clockwise order."""
    response = client.post(
        f"/api/games/{lobby.id}/commands/start", json={"seat_order": seat_order}, headers=lobby.host
    )

    error_body(response, 409, "bad_seat_order")


def test_gold_that_would_take_a_treasury_below_zero_is_refused(
    client: FlaskClient, game: Game, unchanged: None
) -> None:
    """R-2.1: a treasury can never go below zero."""
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": -11, "cause": "Debts"},
        headers=game.host,
    )

    error = error_body(response, 409, "treasury_too_low")
    assert "R-2.1" in error["message"]
    stark = next(
        h for h in client.get(f"/api/games/{game.id}").get_json()["houses"] if h["id"] == "stark"
    )
    assert stark["treasury"] == 10


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"house": "baratheon", "amount": 5, "cause": "Tax"}, "unknown_house"),
        ({"house": "stark", "amount": 0, "cause": "Tax"}, "zero_amount"),
        ({"house": "stark", "amount": 5, "cause": "   "}, "bad_cause"),
    ],
)
def test_gold_for_a_house_not_in_play_or_of_nothing_or_without_cause_is_refused(
    client: FlaskClient, game: Game, unchanged: None, body: dict, code: str
) -> None:
    """Section 9: every fact is checked against the state and names its cause."""
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold", json=body, headers=game.host
    )

    error_body(response, 409, code)


def test_gold_cannot_be_recorded_before_the_game_starts(
    client: FlaskClient, lobby: Game, unchanged: None
) -> None:
    response = client.post(
        f"/api/games/{lobby.id}/commands/record_gold",
        json={"house": "stark", "amount": 5, "cause": "Tax"},
        headers=lobby.host,
    )

    error_body(response, 409, "game_lobby")


def test_a_seated_player_cannot_take_a_second_seat(client: FlaskClient, app: Flask) -> None:
    created = create_game(client)
    joined = join(client, created["game_id"], "stark")
    before = logs(app, client)

    response = client.post(
        f"/api/games/{created['game_id']}/commands/join",
        json={"house": "tyrell", "player_name": "Again"},
        headers=bearer(joined["token"]),
    )

    error_body(response, 409, "already_seated")
    assert logs(app, client) == before


def test_nobody_can_leave_a_started_game(client: FlaskClient, game: Game, unchanged: None) -> None:
    response = client.post(f"/api/games/{game.id}/commands/leave", headers=game.auth("tyrell"))

    error_body(response, 409, "game_playing")
