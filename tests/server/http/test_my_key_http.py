"""A person's key over HTTP: made from the seat tokens a device holds, it gives another device a
link of its own for every seat, never the seat's own token; only the device that made it adds
seats to it (its maker's secret), never a holder of its link; revoked or renewed, every link it
handed out is refused (`bad_token`) while the seats' owners play on; a seat handed to someone
else takes its link with it; each refusal comes with a sentence; the server keeps neither
secret nor any token in clear, and no view, history or export holds a secret or a link's
token."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import (
    Game,
    bearer,
    error_body,
    lobby_game,
    log_state,
    start,
)

MINE = "/api/keys/mine"


def held(*seats: tuple[Game, str]) -> dict:
    return {
        "seats": [
            {
                "game_id": game.id,
                "token": game.host_token if house == "host" else game.tokens[house],
            }
            for game, house in seats
        ]
    }


def make_key(client: FlaskClient, body: dict) -> dict:
    response = client.post("/api/keys", json=body)
    assert response.status_code == 201, response.get_json()
    made: dict = response.get_json()
    return made


def opened(client: FlaskClient, key: str) -> dict[str, dict]:
    """The seats a key gives a device, by game."""
    response = client.get(MINE, headers=bearer(key))
    assert response.status_code == 200, response.get_json()
    return {s["game_id"]: s for s in response.get_json()["seats"]}


def viewer(client: FlaskClient, game: Game, token: str) -> dict:
    response = client.get(f"/api/games/{game.id}", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    found: dict = response.get_json()["viewer"]
    return found


def vote_end(client: FlaskClient, game: Game, token: str, end: bool = True):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/games/{game.id}/commands/vote_end", json={"end": end}, headers=bearer(token)
    )


@pytest.fixture
def two_games(client: FlaskClient) -> tuple[Game, Game]:
    """Ann hosts the first game (as Stark) and sits as Lannister in the second."""
    return lobby_game(client, name="Saturday"), lobby_game(client, name="Sunday")


def test_a_key_gives_another_device_a_link_of_its_own_for_every_seat(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    assert made["url"].endswith(f"/key#{made['key']}")
    assert made["maker"] not in made["url"] and made["maker"] != made["key"]
    # the device that made the key keeps the tokens it sent
    assert [s["token"] for s in made["seats"]] == [first.host_token, second.tokens["lannister"]]

    by_game = opened(client, made["key"])

    assert set(by_game) == {first.id, second.id}
    links = {game: seat["token"] for game, seat in by_game.items()}
    assert links[first.id] not in (first.host_token, *first.tokens.values())
    assert links[second.id] not in (second.host_token, *second.tokens.values())
    assert by_game[first.id]["title"] == "Saturday"
    assert by_game[first.id]["label"] == "Player of stark, House Stark, host"
    assert (by_game[second.id]["seat"], by_game[second.id]["house"]) == (1, "lannister")
    assert by_game[second.id]["url"].endswith(f"/games/{second.id}")
    # each link opens its seat as the seat's own token does, and opening again gives the same
    assert viewer(client, first, links[first.id]) == viewer(client, first, first.host_token)
    assert viewer(client, second, links[second.id])["seat"] == 1
    assert {g: s["token"] for g, s in opened(client, made["key"]).items()} == links


def test_the_key_s_maker_gathers_the_seats_joined_since_and_no_seat_twice(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host")))
    third = lobby_game(client)
    before = log_state(client, first.id)
    body = held((first, "host"), (second, "tyrell"), (third, "stark"))
    response = client.put(MINE, json=body, headers=bearer(made["maker"]))
    assert response.status_code == 200, response.get_json()
    assert set(opened(client, made["key"])) == {first.id, second.id, third.id}
    # the front page sends every seat it holds each time it opens: a seat gathered already
    # gets no second link
    assert client.put(MINE, json=body, headers=bearer(made["maker"])).status_code == 200
    assert log_state(client, first.id) == before


def test_a_key_s_link_adds_no_seat_to_it(
    app: Flask, client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    """Mallory makes a key of his own seat and sends Ann its link: whatever her device sends
    with the link's secret, her seats never go into his key, and no game's log changes."""
    first, second = two_games
    mallory = make_key(client, held((first, "tyrell")))
    ann = held((first, "host"), (second, "lannister"))
    before = {g.id: log_state(client, g.id) for g in two_games}

    refused = error_body(client.put(MINE, json=ann, headers=bearer(mallory["key"])), 403)

    assert refused["code"] == "key_maker_only" and "made the key" in refused["message"]
    assert {g.id: log_state(client, g.id) for g in two_games} == before
    tokens = {s["token"] for s in opened(client, mallory["key"]).values()}
    assert len(tokens) == 1 and not tokens & {first.host_token, second.tokens["lannister"]}


@pytest.mark.parametrize("how", ["revoke with the maker's secret", "revoke with the link", "renew"])
def test_a_key_revoked_or_renewed_takes_back_every_link_it_handed_out(
    client: FlaskClient, how: str
) -> None:
    """Ann's key reached a thief's device, which took her seat's link and plays with it; once
    she revokes or renews the key, the thief's token is refused on every route (`bad_token`),
    and Ann plays on with her own token."""
    game = lobby_game(client)
    start(client, game)
    made = make_key(client, held((game, "host"), (game, "lannister")))
    thief = opened(client, made["key"])[game.id]["token"]
    assert vote_end(client, game, thief).status_code == 200  # the key's link plays the seat
    assert vote_end(client, game, thief, end=False).status_code == 200

    if how == "renew":
        renewed = make_key(client, held((game, "host")))
        assert opened(client, renewed["key"])[game.id]["token"] != thief
    else:
        secret = made["maker"] if "maker" in how else made["key"]
        response = client.delete(MINE, headers=bearer(secret))
        assert response.status_code == 200 and response.get_json() == {"revoked": True}

    error_body(client.get(f"/api/games/{game.id}", headers=bearer(thief)), 401, "bad_token")
    error_body(vote_end(client, game, thief), 401, "bad_token")
    error_body(client.get(f"/api/games/{game.id}/events", headers=bearer(thief)), 401)
    error_body(client.get(MINE, headers=bearer(made["key"])), 401, "key_revoked")
    # the seats' owners play on with their own tokens
    assert viewer(client, game, game.host_token)["seat"] == 0
    assert vote_end(client, game, game.tokens["lannister"]).status_code == 200
    history = client.get(f"/api/games/{game.id}/history").get_json()
    told = " ".join(e["text"] for e in history["entries"])
    assert "was gathered into a key" in told
    why = "a new key replaced the key" if how == "renew" else "the key was revoked"
    assert f"opens nothing now; {why}" in told


def test_a_seat_handed_to_a_new_player_takes_its_link_with_it(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    link = opened(client, made["key"])[second.id]["token"]
    handed = client.post(
        f"/api/games/{second.id}/commands/hand_seat",
        json={"seat": second.seats["lannister"], "player_name": "Eve"},
        headers=second.host,
    )
    assert handed.status_code == 200, handed.get_json()

    kept = opened(client, made["key"])
    assert list(kept) == [first.id]
    # the old token and its link open nothing, and the key brings neither back
    for token in (second.tokens["lannister"], link):
        error_body(client.get(f"/api/games/{second.id}", headers=bearer(token)), 401, "bad_token")
    assert link not in str(kept)


def test_a_key_one_of_whose_links_went_with_its_seat_revokes_the_others(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    links = {game: seat["token"] for game, seat in opened(client, made["key"]).items()}
    handed = client.post(
        f"/api/games/{second.id}/commands/hand_seat",
        json={"seat": second.seats["lannister"]},
        headers=second.host,
    )
    assert handed.status_code == 200, handed.get_json()

    assert client.delete(MINE, headers=bearer(made["maker"])).status_code == 200

    for game in (first, second):
        refused = client.get(f"/api/games/{game.id}", headers=bearer(links[game.id]))
        error_body(refused, 401, "bad_token")
    assert viewer(client, first, first.host_token)["host"] is True


def test_a_revoked_key_opens_nothing_and_says_so(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, _ = two_games
    made = make_key(client, held((first, "stark")))
    response = client.delete(MINE, headers=bearer(made["maker"]))
    assert response.status_code == 200 and response.get_json() == {"revoked": True}

    refused = error_body(client.get(MINE, headers=bearer(made["key"])), 401, "key_revoked")
    assert "revoked" in refused["message"]
    for secret in (made["key"], made["maker"]):
        error_body(client.delete(MINE, headers=bearer(secret)), 401, "key_revoked")
    error_body(
        client.put(MINE, json=held((first, "stark")), headers=bearer(made["maker"])),
        401,
        "key_revoked",
    )
    # the seat itself stays its holder's
    assert client.get(f"/api/games/{first.id}", headers=first.host).status_code == 200


def test_a_new_key_voids_the_old_one(client: FlaskClient, two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    old = make_key(client, held((first, "host"), (second, "lannister")))
    old_links = opened(client, old["key"])
    new = make_key(client, held((second, "lannister")))
    error_body(client.get(MINE, headers=bearer(old["key"])), 401, "key_revoked")
    assert list(opened(client, new["key"])) == [second.id]
    # the old key's link of the seat the new key did not gather goes with it too
    link = old_links[first.id]["token"]
    error_body(client.get(f"/api/games/{first.id}", headers=bearer(link)), 401, "bad_token")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seats": [{"game_id": "nosuchgame", "token": "x" * 43}]}, 409, "no_seats"),
        ({"seats": []}, 400, "bad_request"),
        ({"seats": [{"game_id": "BAD ID", "token": "x"}]}, 400, "bad_request"),
        ({"seats": [{"game_id": "abc", "token": "x" * 500}]}, 400, "bad_request"),
        ({}, 400, "bad_request"),
    ],
)
def test_a_key_of_nothing_is_refused_with_a_sentence(
    client: FlaskClient, body: dict, status: int, code: str
) -> None:
    error_body(client.post("/api/keys", json=body), status, code)


def test_a_stale_token_is_left_out_of_a_new_key(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, _ = two_games
    body = held((first, "stark"))
    body["seats"].append({"game_id": first.id, "token": "not-a-token-of-this-game"})
    made = make_key(client, body)
    assert [s["token"] for s in made["seats"]] == [first.tokens["stark"]]


@pytest.mark.parametrize("headers", [{}, bearer("not-a-key"), {"Authorization": "Basic x"}])
def test_opening_a_key_needs_the_key(client: FlaskClient, headers: dict) -> None:
    response = client.get(MINE, headers=headers)
    assert response.status_code in (400, 401)
    assert error_body(response, response.status_code)["code"] in (
        "key_required",
        "key_revoked",
        "bad_token",
    )


def test_no_secret_of_a_key_is_in_a_view_history_export_log_nor_in_clear_in_the_database(
    app: Flask,
    client: FlaskClient,
    two_games: tuple[Game, Game],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    links = [s["token"] for s in opened(client, made["key"]).values()]
    secrets = [made["key"], made["maker"], *links]
    for game in (first, second):
        for headers in (game.host, *(game.auth(h) for h in game.tokens), {}):
            for path in ("", "/events", "/export", "/history"):
                answer = client.get(f"/api/games/{game.id}{path}", headers=headers)
                assert not any(s in answer.get_data(as_text=True) for s in secrets)
    assert not any(s in caplog.text for s in secrets)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("t.db*"))
    for token in (*secrets, first.host_token, second.tokens["lannister"]):
        assert token.encode() not in stored


def test_a_link_s_digests_are_its_seat_s_own_to_read_before_the_end(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    """The log records a link by the digests of its token and of the token it was made from,
    in the private part its seat alone reads (as every seat token's digest is): another seat's
    export withholds them, and the history tells only whose seat went into a key."""
    _, second = two_games
    make_key(client, held((second, "lannister")))
    export = client.get(f"/api/games/{second.id}/export", headers=second.auth("tyrell"))
    lines = [line for line in export.get_data(as_text=True).splitlines() if "SeatLink" in line]
    assert len(lines) == 1 and "link_sha256" not in lines[0] and "of_sha256" not in lines[0]
    own = client.get(f"/api/games/{second.id}/export", headers=second.auth("lannister"))
    assert "link_sha256" in own.get_data(as_text=True)
    history = client.get(f"/api/games/{second.id}/history").get_json()["entries"]
    entry = next(e for e in history if e["type"] == "SeatLinkAdded")
    assert entry["data"] == {"link": 1, "seat": 1, "master": False}
    assert entry["kind"] == "bookkeeping"
