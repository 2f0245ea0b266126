"""Private games over HTTP and Socket.IO: a new game is unlisted and joined with the invite its
creator was given; the host lists and unlists it; the invite secret reaches the host and the game
master only, on every path."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import bearer, create_game, join, lobby_game
from tests.server.live.live import connect, pushed, send


def listed_ids(client: FlaskClient) -> list[str]:
    response = client.get("/api/games")
    assert response.status_code == 200, response.get_json()
    return [g["game_id"] for g in response.get_json()["games"]]


def try_join(client: FlaskClient, game_id: str, **body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(
        f"/api/games/{game_id}/commands/join",
        json={"house": "tyrell", "player_name": "Margaery", **body},
    )
    return response.status_code, response.get_json()


def test_a_new_game_is_unlisted_and_its_creator_gets_the_invite_link(
    client: FlaskClient,
) -> None:
    created = create_game(client)
    invite = created["invite"]
    assert len(invite) >= 32
    assert created["invite_url"].endswith(f"/games/{created['game_id']}#invite={invite}")
    assert created["game_id"] not in listed_ids(client)
    view = client.get(f"/api/games/{created['game_id']}").get_json()
    assert view["game"]["listed"] is False


def test_a_game_created_listed_is_on_the_front_page(client: FlaskClient) -> None:
    created = create_game(client, listed=True)
    assert listed_ids(client) == [created["game_id"]]


def test_joining_an_unlisted_game_needs_its_invite(client: FlaskClient) -> None:
    created = create_game(client)
    game_id = created["game_id"]
    before = client.get(f"/api/games/{game_id}").get_json()["game"]["version"]
    for body, code in (({}, "invite_required"), ({"invite": "x" * 32}, "bad_invite")):
        status, answer = try_join(client, game_id, **body)
        assert (status, answer["code"]) == (403, code)
        assert "invite link" in answer["message"]
    assert client.get(f"/api/games/{game_id}").get_json()["game"]["version"] == before
    status, answer = try_join(client, game_id, invite=created["invite"])
    assert status == 201 and answer["house"] == "tyrell"


def test_an_invite_of_another_game_opens_nothing(client: FlaskClient) -> None:
    one, other = create_game(client), create_game(client)
    status, answer = try_join(client, one["game_id"], invite=other["invite"])
    assert (status, answer["code"]) == (403, "bad_invite")


def test_the_host_lists_and_unlists_the_game(client: FlaskClient) -> None:
    created = create_game(client)
    game_id, host = created["game_id"], bearer(created["host_token"])
    seat = join(client, game_id, "stark", invite=created["invite"])
    refused = client.post(
        f"/api/games/{game_id}/commands/change_listing",
        json={"listed": True},
        headers=bearer(seat["token"]),
    )
    assert (refused.status_code, refused.get_json()["code"]) == (403, "host_only")
    listing = client.post(
        f"/api/games/{game_id}/commands/change_listing", json={"listed": True}, headers=host
    )
    assert listing.status_code == 200, listing.get_json()
    assert listed_ids(client) == [game_id]
    assert try_join(client, game_id)[0] == 201
    client.post(
        f"/api/games/{game_id}/commands/change_listing", json={"listed": False}, headers=host
    )
    assert listed_ids(client) == []
    texts = [r["text"] for r in client.get(f"/api/games/{game_id}/events").get_json()["records"]]
    assert "Eddard listed the game on the front page: anyone may take a free seat." in texts
    assert "Eddard took the game off the front page: joining needs the invite link." in texts


def test_the_host_and_the_game_master_see_the_invite_in_their_view(client: FlaskClient) -> None:
    game = lobby_game(client, houses=("stark", "lannister"), game_master_name="Aemon")
    assert game.game_master_token is not None
    for token in (game.host_token, game.game_master_token):
        view = client.get(f"/api/games/{game.id}", headers=bearer(token)).get_json()
        assert view["invite"] == game.invite
    for headers in (game.auth("lannister"), {}):
        assert client.get(f"/api/games/{game.id}", headers=headers).get_json()["invite"] is None


def _every_path(client: FlaskClient, game_id: str, headers: dict[str, str]) -> str:
    """Everything a viewer can read of a game over HTTP, as one text."""
    paths = [
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/events",
        f"/api/games/{game_id}/export",
        f"/api/games/{game_id}/verify",
        "/api/games",
        f"/games/{game_id}",
        f"/games/{game_id}/history",
    ]
    version = client.get(f"/api/games/{game_id}").get_json()["game"]["version"]
    paths += [f"/api/games/{game_id}/versions/{v}" for v in range(1, version + 1)]
    seen = [client.get(path, headers=headers).get_data(as_text=True) for path in paths]
    for message, body in (("join", {"house": "stark", "player_name": "X"}), ("start", {})):
        seen.append(
            client.post(
                f"/api/games/{game_id}/commands/{message}", json=body, headers=headers
            ).get_data(as_text=True)
        )
    return "\n".join(seen)


def test_a_seat_and_a_spectator_never_see_the_invite_on_any_path(
    app: Flask, client: FlaskClient, caplog
) -> None:
    game = lobby_game(client, houses=("stark", "lannister"))
    assert game.invite is not None
    seat = connect(app, game, game.tokens["lannister"])
    watcher = connect(app, game, None)
    host = connect(app, game, game.host_token)
    # the host switches the listing twice and a third player joins: pushes to everyone
    for listed in (True, False):
        assert send(host, "change_listing", {"listed": listed})["ok"] is True
    ack = send(watcher, "join", {"house": "tyrell", "player_name": "Mace", "invite": game.invite})
    assert ack["ok"] is True
    for viewer in (seat, watcher):
        received = str(viewer.get_received("/court")) + str(pushed(viewer))
        assert game.invite not in received
    for headers in (game.auth("lannister"), bearer(ack["token"]), {}):
        assert game.invite not in _every_path(client, game.id, headers)
    assert game.invite not in caplog.text
    # the game starts: nobody, the host included, is shown the invite any more
    client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert client.get(f"/api/games/{game.id}", headers=game.host).get_json()["invite"] is None
    for headers in (game.auth("lannister"), {}):
        assert game.invite not in _every_path(client, game.id, headers)
