"""Every response carries the security headers (pages, API, static files, errors), and
absolute URLs start with PUBLIC_URL, whatever Host header a client sends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from server.http.security import HEADERS, HSTS
from tests.databases import migrated

PATHS = (
    "/",
    "/games/nope",
    "/games/nope/history",
    "/api/games",
    "/api/games/nope",
    "/static/court.css",
    "/static/pages/court.js",
    "/healthz",
    "/no-such-page",
)


def public_app(tmp_path: Path, public_url: str) -> Iterator[Flask]:
    app = create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "PUBLIC_URL": public_url})
    yield app
    app.extensions["court_store"].close()


@pytest.fixture
def https_app(tmp_path: Path) -> Iterator[Flask]:
    yield from public_app(tmp_path, "https://court.example.org")


@pytest.mark.parametrize("path", PATHS)
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    # given the server without PUBLIC_URL; when any page, API route, file or error is asked for
    response = client.get(path)
    # then the headers are there, and no HSTS: the server does not know it is behind https
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (path, name)
    assert "Strict-Transport-Security" not in response.headers


def test_the_policy_allows_no_inline_script_and_no_framing(client: FlaskClient) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_pages_load_no_inline_script_or_style(client: FlaskClient) -> None:
    # the policy would block them: every script and style is a file of static/
    for path in ("/", "/games/nope", "/games/nope/history"):
        html = client.get(path).get_data(as_text=True)
        assert "<style" not in html and " style=" not in html, path
        assert " onclick=" not in html and "javascript:" not in html, path
        for tag in html.split("<script")[1:]:
            assert " src=" in tag.split(">", 1)[0], path


def test_an_https_public_url_adds_hsts_to_every_response(https_app: Flask) -> None:
    client = https_app.test_client()
    for path in PATHS:
        assert client.get(path).headers.get("Strict-Transport-Security") == HSTS, path


def test_invite_links_use_the_public_url_not_the_host_header(https_app: Flask) -> None:
    # given PUBLIC_URL; when a client with a forged Host header creates a game
    client = https_app.test_client()
    created = client.post(
        "/api/games",
        json={"players": 3, "host_name": "Eddard", "listed": True},
        headers={"Host": "evil.example.com"},
    ).get_json()
    # then the invite link, and the lobby's link to the game, are under PUBLIC_URL
    expected = f"https://court.example.org/games/{created['game_id']}"
    assert created["invite_url"] == f"{expected}#invite={created['invite']}"
    listed = client.get("/api/games", headers={"Host": "evil.example.com"}).get_json()
    assert [g["url"] for g in listed["games"] if g["game_id"] == created["game_id"]] == [expected]


def test_without_a_public_url_invite_links_use_the_request_address(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": 3, "host_name": "Eddard"}).get_json()
    page = f"http://localhost/games/{created['game_id']}"
    assert created["invite_url"] == f"{page}#invite={created['invite']}"
