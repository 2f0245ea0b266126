"""A sweep of hostile requests over every route of the OpenAPI document: none may make the server
fail (status 500), and every refusal is a JSON error with a code and a message.

Every case starts from the same two games (a lobby with a free seat, a started game) in one app
built for the module: a case that changed a game's log or its webhook lays both anew, so no case
sees what another one did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.api_routes import DOC, OPERATIONS, SCHEMAS, body, example, served
from tests.server.http.court_client import Game, create_game, error_body, join, lobby_game, start


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
        if method not in ("POST", "PUT"):
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


@dataclass
class Sweep:
    """The module's app, its client and the two games every case starts from."""

    app: Flask
    client: FlaskClient
    games: dict[str, Game] = field(default_factory=dict)

    def lay(self) -> None:
        """`lobby`: a 3-player game with one seat still free; `playing`: a started 3-player
        game."""
        lobby = lobby_game(self.client)
        self.games = {
            "lobby": lobby_game(self.client, houses=("stark", "lannister")),
            "playing": replace(lobby, started=start(self.client, lobby)),
        }

    def fingerprint(self) -> dict[str, Any]:
        """What a case could change in a game: its log's head and its webhook."""
        store = self.app.extensions["court_store"]
        notices = self.app.extensions["notices"]
        return {
            stage: (store.head(game.id), notices.webhook(game.id))
            for stage, game in self.games.items()
        }


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sweep]:
    folder: Path = tmp_path_factory.mktemp("sweep")
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{folder}/t.db",
            # Thousands of requests from one address: the limits have tests of their own.
            "RATE_LIMITS": False,
            "DEADLINES": False,
            "WEBHOOK_ALLOW_HTTP": True,
            "WEBHOOK_ALLOW_PRIVATE": True,
        }
    )
    found = Sweep(app, app.test_client())
    found.lay()
    yield found
    app.extensions["court_store"].close()


@pytest.fixture
def client(sweep: Sweep) -> FlaskClient:
    return sweep.client


@pytest.fixture
def staged(sweep: Sweep, request: pytest.FixtureRequest) -> Iterator[Game]:
    """The game of the case's stage, as laid; laid anew after a case that changed it."""
    before = sweep.fingerprint()
    yield sweep.games[request.node.callspec.params["stage"]]
    if sweep.fingerprint() != before:
        sweep.lay()


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
        kwargs = {"json": {**(body(method, path) or {}), key: HOSTILE_VALUES[name]}}

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
        json=body(method, path),
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
        json=body(method, path),
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
        json=body(method, path),
        headers=staged.host,
    )

    assert_handled(response)
    assert response.status_code == 404


def test_the_sweep_covers_every_route_the_server_serves(sweep: Sweep) -> None:
    """Every API route of the app's URL map is in the document the sweep walks, and every route
    that takes a body documents an example its schema accepts."""
    served_document = sweep.client.get("/openapi.json").get_json()

    assert served_document == DOC
    assert served(sweep.app) == {(method, path) for method, path, _ in OPERATIONS}
    for method, path, operation in OPERATIONS:
        if "requestBody" in operation:
            assert example(operation) is not None, f"{method} {path} documents no example"


def test_a_hostile_but_well_formed_game_is_still_usable_afterwards(client: FlaskClient) -> None:
    """A unicode host name and player name are stored and read back unchanged."""
    created = create_game(client, host_name="Ⓢtark ☃ 𝄞")
    joined = join(client, created["game_id"], "stark")

    view = client.get(f"/api/games/{created['game_id']}").get_json()

    assert view["game"]["host_name"] == "Ⓢtark ☃ 𝄞"
    assert view["seats"][0]["seat"] == joined["seat"]
    assert client.get(f"/api/games/{created['game_id']}/verify").get_json()["ok"] is True
