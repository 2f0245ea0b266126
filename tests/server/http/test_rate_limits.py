"""Limits per client address over HTTP (server/clients/limits.py): new games and seat claims beyond
an address's allowance get 429 with Retry-After and `rate_limited`; another address keeps its
own; X-Forwarded-For counts only behind a trusted proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from server.clients.limits import Buckets, Rate
from tests.databases import migrated
from tests.server.http.court_client import error_body

GAME = {"players": 3, "host_name": "Ned"}


def court(tmp_path: Path, **settings: Any) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "DEADLINES": False, **settings})


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = court(tmp_path, LIMIT_GAMES="0.01/3", LIMIT_SEATS="0.01/2")
    yield app
    app.extensions["court_store"].close()


def create(client: FlaskClient, address: str = "10.0.0.1", **headers: str) -> Any:
    return client.post(
        "/api/games", json=GAME, headers=headers, environ_base={"REMOTE_ADDR": address}
    )


def test_games_beyond_an_addresss_allowance_get_429_with_retry_after(app: Flask) -> None:
    client = app.test_client()
    made = [create(client).status_code for _ in range(3)]

    refused = create(client)

    assert made == [201, 201, 201]
    body = error_body(refused, 429, "rate_limited")
    assert body["message"].endswith(".") and "new games" in body["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["Retry-After"].isdigit()


def test_another_address_keeps_its_own_allowance(app: Flask) -> None:
    client = app.test_client()
    for _ in range(3):
        create(client, "10.0.0.1")

    assert create(client, "10.0.0.1").status_code == 429
    assert create(client, "10.0.0.2").status_code == 201


# Two addresses of one IPv6 /64, and one of the next /64.
SAME_64 = ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff")
NEXT_64 = "2001:db8:1:3::1"


def test_ipv6_addresses_of_one_64_share_an_allowance(app: Flask) -> None:
    client = app.test_client()
    made = [create(client, SAME_64[n % 2]).status_code for n in range(3)]

    assert made == [201, 201, 201]
    assert create(client, SAME_64[1]).status_code == 429
    assert create(client, SAME_64[0]).status_code == 429
    assert create(client, NEXT_64).status_code == 201


def test_an_ipv4_address_written_as_ipv6_shares_the_ipv4_allowance(app: Flask) -> None:
    client = app.test_client()
    for _ in range(3):
        create(client, "10.0.0.7")

    assert create(client, "::ffff:10.0.0.7").status_code == 429
    assert create(client, "::ffff:10.0.0.8").status_code == 201


def test_ipv4_addresses_are_limited_one_by_one(app: Flask) -> None:
    client = app.test_client()
    for _ in range(3):
        create(client, "10.0.0.1")

    assert create(client, "10.0.0.1").status_code == 429
    assert create(client, "10.0.0.0").status_code == 201


def test_the_ipv6_prefix_is_a_setting(tmp_path: Path) -> None:
    app = court(tmp_path, LIMIT_GAMES="0.01/1", LIMIT_IPV6_PREFIX="128")
    client = app.test_client()

    assert create(client, SAME_64[0]).status_code == 201
    assert create(client, SAME_64[0]).status_code == 429
    assert create(client, SAME_64[1]).status_code == 201
    app.extensions["court_store"].close()


def test_seat_claims_of_one_64_share_an_allowance(app: Flask) -> None:
    client = app.test_client()
    created = create(client, NEXT_64).get_json()

    answers = [
        client.post(
            f"/api/games/{created['game_id']}/commands/join",
            json={"house": house, "player_name": house, "invite": created["invite"]},
            environ_base={"REMOTE_ADDR": SAME_64[n % 2]},
        ).status_code
        for n, house in enumerate(("stark", "lannister", "tyrell"))
    ]

    assert answers == [201, 201, 429]


def test_a_forwarded_address_from_a_direct_client_is_ignored(app: Flask) -> None:
    client = app.test_client()
    answers = [
        create(client, "10.0.0.1", **{"X-Forwarded-For": f"192.0.2.{i}"}).status_code
        for i in range(4)
    ]

    assert answers == [201, 201, 201, 429]


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_allowance(
    tmp_path: Path,
) -> None:
    app = court(tmp_path, LIMIT_GAMES="0.01/1", TRUSTED_PROXIES=1)
    client = app.test_client()

    first = create(client, "10.0.0.9", **{"X-Forwarded-For": "192.0.2.1"})
    again = create(client, "10.0.0.9", **{"X-Forwarded-For": "192.0.2.1"})
    other = create(client, "10.0.0.9", **{"X-Forwarded-For": "192.0.2.2"})

    assert [first.status_code, again.status_code, other.status_code] == [201, 429, 201]
    app.extensions["court_store"].close()


def test_seat_claims_beyond_an_addresss_allowance_get_429(app: Flask) -> None:
    client = app.test_client()
    created = create(client).get_json()

    answers = [
        client.post(
            f"/api/games/{created['game_id']}/commands/join",
            json={"house": house, "player_name": house, "invite": created["invite"]},
            environ_base={"REMOTE_ADDR": "10.0.0.1"},
        ).status_code
        for house in ("stark", "lannister", "tyrell")
    ]

    assert answers == [201, 201, 429]


def test_the_document_declares_429_with_retry_after_on_limited_routes(app: Flask) -> None:
    paths = app.test_client().get("/openapi.json").get_json()["paths"]

    for path in ("/api/games", "/api/games/{game_id}/commands/join"):
        assert "Retry-After" in paths[path]["post"]["responses"]["429"]["headers"]
    assert "429" not in paths["/api/games/{game_id}"]["get"]["responses"]


def test_rate_limits_off_lets_every_request_through(tmp_path: Path) -> None:
    app = court(tmp_path, LIMIT_GAMES="0.01/1", RATE_LIMITS=False)
    client = app.test_client()

    assert {create(client).status_code for _ in range(3)} == {201}
    app.extensions["court_store"].close()


def test_the_limiter_forgets_addresses_once_their_bucket_is_full_again() -> None:
    now = [0.0]
    buckets = Buckets(Rate(1.0, 2.0), most=100, clock=lambda: now[0])
    for i in range(50):
        buckets.take(f"10.0.{i}.1")
    now[0] = 10.0  # two seconds fill a bucket: every address is as new

    buckets.take("10.1.0.1")

    assert len(buckets) == 1


def test_the_limiter_keeps_at_most_its_number_of_addresses() -> None:
    buckets = Buckets(Rate(1.0, 2.0), most=100, clock=lambda: 0.0)

    for i in range(1000):
        buckets.take(f"addr-{i}")

    assert len(buckets) == 100
