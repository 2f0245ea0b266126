"""A sweep of hostile requests over every route of the OpenAPI document: none may make the server
fail (status 500), and every refusal is a JSON error with a code and a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from app import api_routes
from server.http.api import openapi_document
from tests.server.http.court_client import Game, create_game, error_body, join, lobby_game, start

DOC = openapi_document(api_routes())
SCHEMAS = DOC["components"]["schemas"]
OPERATIONS = [
    (method.upper(), path, operation)
    for path, operations in DOC["paths"].items()
    for method, operation in operations.items()
]

# A body each POST route accepts in the shape check, so a hostile value in one field is the only
# thing wrong with it and reaches as deep into the server as it can.
VALID_BODIES: dict[str, dict[str, Any]] = {
    "/api/games": {"players": 3, "host_name": "Eddard"},
    "/api/games/{game_id}/commands/join": {"house": "baratheon", "player_name": "Stannis"},
    "/api/games/{game_id}/commands/leave": {},
    "/api/games/{game_id}/commands/start": {},
    # The hostile tables' lobby is listed (tests/hostile/tables.py): the host unlists it.
    "/api/games/{game_id}/commands/change_listing": {"listed": False},
    "/api/games/{game_id}/commands/record_gold": {"house": "stark", "amount": 1, "cause": "Tax"},
    "/api/games/{game_id}/commands/record_villages": {
        "changes": [{"village": "winterfell", "house": "stark"}],
        "cause": "Battle",
    },
    "/api/games/{game_id}/commands/record_village": {
        "village": "winterfell",
        "house": "stark",
        "cause": "Battle",
    },
    "/api/games/{game_id}/commands/stand": {"noble": "robb-stark"},
    "/api/games/{game_id}/commands/pass": {},
    "/api/games/{game_id}/commands/place_ballot": {
        "markers": [{"kind": "for", "candidate": "robb-stark"}]
    },
    "/api/games/{game_id}/commands/accept_title": {},
    "/api/games/{game_id}/commands/refuse_title": {},
    "/api/games/{game_id}/commands/resolve_title_overflow": {"title": "warden-north", "to": None},
    "/api/games/{game_id}/commands/advance_phase": {},
    "/api/games/{game_id}/commands/close_table_phases": {},
    "/api/games/{game_id}/commands/close_overdue": {},
    # Recorded facts of a Noble's life and Court Events (section 9).
    "/api/games/{game_id}/commands/record_capture": {
        "noble": "robb-stark",
        "house": "lannister",
        "by": None,
        "cause": "x",
    },
    "/api/games/{game_id}/commands/record_release": {"noble": "robb-stark", "cause": "x"},
    "/api/games/{game_id}/commands/record_escape": {"noble": "robb-stark", "cause": "x"},
    "/api/games/{game_id}/commands/record_death": {
        "noble": "robb-stark",
        "kind": "battle",
        "cause": "x",
    },
    "/api/games/{game_id}/commands/add_noble": {
        "house": "stark",
        "noble": "rickon-stark",
        "name": "Rickon Stark",
        "gender": "lord",
        "attributes": [],
        "cause": "x",
    },
    "/api/games/{game_id}/commands/join_small_council": {
        "noble": "robb-stark",
        "title": "master-of-coin",
        "cause": "x",
    },
    "/api/games/{game_id}/commands/grant_mother_of_dragons": {"noble": "sansa-stark", "cause": "x"},
    "/api/games/{game_id}/commands/heir_born": {"noble": "bran-stark", "cause": "x"},
    "/api/games/{game_id}/commands/record_wall_supplies": {
        "amount": 1,
        "house": "stark",
        "cause": "x",
    },
    "/api/games/{game_id}/commands/build_sept": {"village": "winterfell"},
    "/api/games/{game_id}/commands/buy_fief_title": {
        "title": "fief-winterfell",
        "noble": "robb-stark",
    },
    "/api/games/{game_id}/commands/grant_fief_title": {
        "title": "fief-winterfell",
        "noble": "robb-stark",
    },
    "/api/games/{game_id}/commands/end_purchases": {},
    "/api/games/{game_id}/commands/place_bid": {"amount": 3},
    "/api/games/{game_id}/commands/pass_bid": {},
    "/api/games/{game_id}/commands/choose_council_seat": {
        "noble": "robb-stark",
        "title": "master-of-coin",
    },
    "/api/games/{game_id}/commands/offer_ransom": {
        "captive": "robb-stark",
        "gold": 2,
        "captives": [],
    },
    "/api/games/{game_id}/commands/accept_ransom": {"offer": 1},
    "/api/games/{game_id}/commands/refuse_ransom": {"offer": 1},
    "/api/games/{game_id}/commands/withdraw_ransom": {"offer": 1},
    # The host's test message to the group's chat: no body; refused while no webhook is set.
    "/api/games/{game_id}/webhook/test": {},
    "/api/games/{game_id}/commands/propose_marriage": {
        "noble": "robb-stark",
        "to": "cersei-lannister",
    },
    "/api/games/{game_id}/commands/answer_marriage": {"accept": True},
    "/api/games/{game_id}/commands/divorce": {"noble": "robb-stark"},
    "/api/games/{game_id}/commands/embrace_rhllor": {},
    "/api/games/{game_id}/commands/hand_conversion": {"convert": False},
    "/api/games/{game_id}/commands/pardon": {"noble": "robb-stark"},
    "/api/games/{game_id}/commands/send_to_wall": {"noble": "robb-stark"},
    "/api/games/{game_id}/commands/concede_title": {"title": "warden-north", "to": "robb-stark"},
    "/api/games/{game_id}/commands/desert": {"noble": "benjen-stark"},
    # seats and the host role (issue 13 Must 1)
    "/api/games/{game_id}/commands/hand_seat": {"seat": 1, "player_name": "Eve"},
    "/api/games/{game_id}/commands/hand_host": {"seat": 1},
    "/api/games/{game_id}/commands/vote_host": {"seat": 1},
    "/api/games/{game_id}/commands/remove_seat": {"seat": 1},
}


def nested_lists(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_VALUES: dict[str, Any] = {
    "huge-string": "x" * 200_000,
    "null": None,
    "empty-string": "",
    "blank-string": " \t\n ",
    "nested-object": {"a": {"b": {"c": [1, {"d": None, "e": "x" * 1000}]}}},
    "nested-lists-200": nested_lists(200),
    "unicode": "Ⓢtark ☃ 𝄞 ÿ \u202e שלום \u0000",
    "lone-surrogate": "\ud800",
    "huge-int": 10**100,
    "negative-huge-int": -(10**100),
    "int64-overflow": 2**63,
    "huge-float": 1e308,
    "bool": True,
    "list-of-huge-ints": [10**30, 10**30, 10**30],
    "object-with-odd-keys": {"\u0000": 1, "☃": 2, "": 3},
}

RAW_BODIES: dict[str, bytes] = {
    "truncated": b'{"players": 3, "host_name": ',
    "not-utf8": b"\xff\xfe\xfd",
    "infinity-number": b'{"players": 1e99999, "amount": 1e99999, "host_name": "x"}',
    "nan": b'{"players": NaN, "amount": NaN, "house": "stark", "cause": "x"}',
    "minus-infinity": b'{"players": -Infinity, "amount": -Infinity, "house": "stark"}',
    "duplicate-keys": b'{"players": 3, "players": "x", "host_name": "a", "host_name": null}',
    "nesting-500": b"[" * 500 + b"]" * 500,
    "deep-array": b"[" * 100_000,
    "deep-object": b'{"a":' * 100_000,
}

HOSTILE_AUTHORIZATION: dict[str, str] = {
    "huge-token": "Bearer " + "a" * 100_000,
    "unicode-token": "Bearer ☃𝄞",
    "nul-token": "Bearer \x00",
    "basic-scheme": "Basic " + "x" * 10,
    "scheme-only": "Bearer",
    "many-spaces": "Bearer " + " " * 1000 + "x",
}

HOSTILE_GAME_IDS = {
    "long-id": "a" * 5000,
    "unicode-id": "☃𝄞",
    "dot-dot": "..",
    "percent-nul": "%00",
    "sql-ish": "x' OR '1'='1",
}

# Versions no started game has, from the version its start answered: none, beyond 64 bits, and the
# one past the head written with leading zeros.
HOSTILE_VERSIONS: dict[str, Callable[[int], str]] = {
    "0": lambda head: "0",
    "9" * 40: lambda head: "9" * 40,
    "zero-padded-past-the-head": lambda head: f"00{head + 1}",
}

HOSTILE_QUERY_VALUES = {
    "huge-int": "9" * 30,
    "int64-overflow": str(2**63),
    "negative-huge-int": "-" + "9" * 30,
    "too-many-digits": "9" * 5000,
    "float": "1e400",
    "nan": "nan",
    "empty": "",
    "unicode": "☃",
    "nul": "\x00",
}


def param(stage: str, method: str, path: str, case: str) -> Any:
    return pytest.param(stage, method, path, case, id=f"{stage}-{method}-{path}-{case}")


def body_fields(operation: dict[str, Any]) -> list[str]:
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = schema.get("schema", {}).get("$ref")
    return list(SCHEMAS[ref.rsplit("/", 1)[-1]]["properties"]) if ref else []


def body_cases() -> list[Any]:
    cases = []
    for method, path, operation in OPERATIONS:
        if method != "POST":
            continue
        names = [
            *(f"{f}={v}" for f in body_fields(operation) or ["unexpected"] for v in HOSTILE_VALUES),
            *(f"raw={r}" for r in RAW_BODIES),
        ]
        cases += [param(stage, method, path, n) for stage in ("lobby", "playing") for n in names]
        cases += [param("playing", method, path, f"body={v}") for v in HOSTILE_VALUES]
    return cases


def query_cases() -> list[Any]:
    cases = []
    for method, path, operation in OPERATIONS:
        names = [p["name"] for p in operation["parameters"] if p["in"] == "query"] or ["q"]
        cases += [
            param("playing", method, path, f"{n}={v}") for n in names for v in HOSTILE_QUERY_VALUES
        ]
    return cases


def header_cases() -> list[Any]:
    return [
        param("playing", method, path, f"authorization={name}")
        for method, path, _ in OPERATIONS
        for name in HOSTILE_AUTHORIZATION
    ]


def path_cases() -> list[Any]:
    cases = []
    for method, path, _ in OPERATIONS:
        if "{game_id}" in path:
            cases += [param("playing", method, path, f"game_id={n}") for n in HOSTILE_GAME_IDS]
        if "{version}" in path:
            cases += [param("playing", method, path, f"version={v}") for v in HOSTILE_VERSIONS]
    return cases


@pytest.fixture
def staged(client: FlaskClient, request: pytest.FixtureRequest) -> Game:
    """`lobby`: a 3-player game with one seat still free; `playing`: a started 3-player game."""
    stage = request.node.callspec.params["stage"]
    if stage == "lobby":
        return lobby_game(client, houses=("stark", "lannister"))
    game = lobby_game(client)
    return replace(game, started=start(client, game))


def url(path: str, game: Game, game_id: str | None = None, version: str = "1") -> str:
    return path.replace("{game_id}", game_id or game.id).replace("{version}", version)


def assert_handled(response: Any) -> None:
    """No server failure; a refusal is a JSON error with a code and a message."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code >= 400:
        error_body(response, response.status_code)


@pytest.mark.parametrize(("stage", "method", "path", "case"), body_cases())
def test_no_hostile_body_makes_the_server_fail(
    client: FlaskClient, staged: Game, stage: str, method: str, path: str, case: str
) -> None:
    key, _, name = case.partition("=")
    kwargs: dict[str, Any]
    if key == "raw":
        kwargs = {"data": RAW_BODIES[name], "content_type": "application/json"}
    elif key == "body":
        kwargs = {"json": HOSTILE_VALUES[name]}
    else:
        kwargs = {"json": {**VALID_BODIES.get(path, {}), key: HOSTILE_VALUES[name]}}

    # A newcomer joins without a token; every other command is sent by the host.
    headers = {} if path.endswith("/commands/join") else staged.host

    response = client.open(url(path, staged), method=method, headers=headers, **kwargs)

    assert_handled(response)


@pytest.mark.parametrize(("stage", "method", "path", "case"), query_cases())
def test_no_hostile_query_makes_the_server_fail(
    client: FlaskClient, staged: Game, stage: str, method: str, path: str, case: str
) -> None:
    key, _, name = case.partition("=")

    response = client.open(
        url(path, staged),
        method=method,
        query_string={key: HOSTILE_QUERY_VALUES[name]},
        json=VALID_BODIES.get(path) if method == "POST" else None,
        headers=staged.host,
    )

    assert_handled(response)


@pytest.mark.parametrize(("stage", "method", "path", "case"), header_cases())
def test_no_hostile_authorization_header_makes_the_server_fail(
    client: FlaskClient, staged: Game, stage: str, method: str, path: str, case: str
) -> None:
    header = HOSTILE_AUTHORIZATION[case.partition("=")[2]]

    response = client.open(
        url(path, staged),
        method=method,
        json=VALID_BODIES.get(path) if method == "POST" else None,
        headers={"Authorization": header},
    )

    assert_handled(response)
    if "{game_id}" in path and method == "POST":
        assert response.status_code == 401


@pytest.mark.parametrize(("stage", "method", "path", "case"), path_cases())
def test_no_hostile_path_parameter_makes_the_server_fail(
    client: FlaskClient, staged: Game, stage: str, method: str, path: str, case: str
) -> None:
    key, _, name = case.partition("=")
    target = (
        url(path, staged, game_id=HOSTILE_GAME_IDS[name])
        if key == "game_id"
        else url(path, staged, version=HOSTILE_VERSIONS[name](staged.started))
    )

    response = client.open(
        target,
        method=method,
        json=VALID_BODIES.get(path) if method == "POST" else None,
        headers=staged.host,
    )

    assert_handled(response)
    assert response.status_code == 404


def test_the_sweep_covers_every_route_the_server_documents(client: FlaskClient) -> None:
    served = client.get("/openapi.json").get_json()

    assert served == DOC
    assert {path for path in VALID_BODIES} == {p for m, p, _ in OPERATIONS if m == "POST"}


def test_a_hostile_but_well_formed_game_is_still_usable_afterwards(client: FlaskClient) -> None:
    """A unicode host name and player name are stored and read back unchanged."""
    created = create_game(client, host_name="Ⓢtark ☃ 𝄞")
    joined = join(client, created["game_id"], "stark")

    view = client.get(f"/api/games/{created['game_id']}").get_json()

    assert view["game"]["host_name"] == "Ⓢtark ☃ 𝄞"
    assert view["seats"][0]["seat"] == joined["seat"]
    assert client.get(f"/api/games/{created['game_id']}/verify").get_json()["ok"] is True
