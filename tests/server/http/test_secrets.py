"""Secrets stay secret while a game runs: seat token digests, the host token digest and the dice
seed never reach a spectator or another seat, whatever they ask for (section 10)."""

from __future__ import annotations

import hashlib

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, bearer, create_game, join


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def stored_private(app: Flask, game_id: str) -> dict[str, str]:
    """The game's first record's private part as the store holds it."""
    first = next(iter(app.extensions["court_store"].read(game_id)))
    assert first.type == "GameCreated"
    return first.private


def everything_seen(client: FlaskClient, game: Game, headers: dict[str, str]) -> str:
    """The text of every response a viewer can get from the game's read routes."""
    head = client.get(f"/api/games/{game.id}/verify").get_json()["records"]
    paths = [
        f"/api/games/{game.id}",
        f"/api/games/{game.id}/events",
        f"/api/games/{game.id}/events?after=0&limit=1",
        f"/api/games/{game.id}/events?after=3&limit=200",
        f"/api/games/{game.id}/export",
        f"/api/games/{game.id}/verify",
        *(f"/api/games/{game.id}/versions/{v}" for v in range(1, head + 1)),
    ]
    bodies = []
    for path in paths:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, path
        bodies.append(response.get_data(as_text=True))
    for path, body in [
        (f"/api/games/{game.id}/commands/join", {"house": "baratheon", "player_name": "Late"}),
        (f"/api/games/{game.id}/commands/start", {}),
        (
            f"/api/games/{game.id}/commands/record_gold",
            {"house": "stark", "amount": -99, "cause": "x"},
        ),
    ]:
        bodies.append(client.post(path, json=body, headers=headers).get_data(as_text=True))
    return "\n".join(bodies)


@pytest.fixture
def secrets(app: Flask, game: Game) -> dict[str, str]:
    """Every secret of the running game, by whose it is."""
    private = stored_private(app, game.id)
    found = {
        "host_token_sha256": private["host_token_sha256"],
        "dice_seed": private["dice_seed"],
        "host_token": game.host_token,
    }
    for house, token in game.tokens.items():
        found[f"{house}_token"] = token
        found[f"{house}_token_sha256"] = sha256(token)
    assert found["host_token_sha256"] == sha256(game.host_token)
    return found


def test_a_spectator_sees_no_token_digest_and_no_dice_seed(
    client: FlaskClient, game: Game, secrets: dict[str, str]
) -> None:
    seen = everything_seen(client, game, {})

    leaked = sorted(name for name, secret in secrets.items() if secret in seen)
    assert leaked == []
    assert "token_sha256" not in seen


@pytest.mark.parametrize("viewer", ["lannister", "tyrell"])
def test_a_seat_sees_only_its_own_token_digest(
    client: FlaskClient, game: Game, secrets: dict[str, str], viewer: str
) -> None:
    seen = everything_seen(client, game, game.auth(viewer))

    leaked = sorted(
        name
        for name, secret in secrets.items()
        if secret in seen and name != f"{viewer}_token_sha256"
    )
    assert leaked == []
    assert secrets[f"{viewer}_token_sha256"] in seen


def test_the_host_sees_no_other_seat_token_digest_and_no_dice_seed(
    client: FlaskClient, game: Game, secrets: dict[str, str]
) -> None:
    seen = everything_seen(client, game, game.host)

    assert secrets["dice_seed"] not in seen
    assert secrets["lannister_token_sha256"] not in seen
    assert secrets["tyrell_token_sha256"] not in seen
    assert secrets["lannister_token"] not in seen


def test_the_court_view_commits_to_the_dice_seed_without_showing_it(
    client: FlaskClient, game: Game, secrets: dict[str, str]
) -> None:
    """Section 10: every die roll is checkable afterwards; the seed is published as a digest."""
    info = client.get(f"/api/games/{game.id}").get_json()["game"]

    assert info["dice_seed"] is None
    assert len(info["dice_seed_sha256"]) == 64
    assert info["dice_seed_sha256"] != secrets["dice_seed"]


def test_a_newcomer_on_a_freed_seat_does_not_see_the_leavers_token_digest(
    client: FlaskClient,
) -> None:
    created = create_game(client)
    gid = created["game_id"]
    join(client, gid, "stark", created["host_token"])
    leaver = join(client, gid, "lannister")
    assert (
        client.post(f"/api/games/{gid}/commands/leave", headers=bearer(leaver["token"])).status_code
        == 200
    )
    newcomer = join(client, gid, "lannister")

    seen = "\n".join(
        client.get(path, headers=bearer(newcomer["token"])).get_data(as_text=True)
        for path in (f"/api/games/{gid}/events", f"/api/games/{gid}/export")
    )

    assert sha256(leaver["token"]) not in seen
    assert sha256(newcomer["token"]) in seen
