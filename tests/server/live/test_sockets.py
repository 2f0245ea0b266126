"""Several real Socket.IO clients in one game room through a Warden election
(R-7.1 step 3, R-7.4): nothing another client receives before the reveal says which
marker is the FOR; reconnecting clients receive exactly what they missed."""

from __future__ import annotations

import json
import time

import pytest
from flask import Flask

from tests.server.http.court_client import Game, lobby_game, log_state, next_round, start
from tests.server.live.live import NAMESPACE, NORTH, connect, pushed, send


def test_four_clients_run_a_warden_election_and_only_the_owner_knows_his_for(
    app: Flask, game: Game
) -> None:
    stark = connect(app, game, game.tokens["stark"])
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    spectator = connect(app, game, None)
    for village in NORTH:
        assert send(
            stark, "record_village", {"village": village, "house": "stark", "cause": "battle"}
        )["ok"]
        # the host's seat token is the host's too
    next_round(app.test_client(), game)
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert view["game"]["round"] == 2
    assert view["election"]["id"] == "warden-north"
    for client in (stark, lannister, tyrell, spectator):
        client.get_received(NAMESPACE)

    assert send(lannister, "stand", {"noble": "jaime-lannister"})["ok"]
    assert send(tyrell, "pass")["ok"]
    wrong = send(tyrell, "stand", {"noble": "loras-tyrell"})
    assert wrong["ok"] is False and wrong["code"] == "already_acted"
    assert send(stark, "stand", {"noble": "robb-stark"})["ok"]
    before_reveal = {
        name: pushed(c)
        for name, c in (
            ("stark", stark),
            ("lannister", lannister),
            ("tyrell", tyrell),
            ("spectator", spectator),
        )
    }
    assert all(r["type"] == "BallotOpened" for r in before_reveal["spectator"][-1:])

    ack = send(
        stark,
        "place_ballot",
        {
            "markers": [
                {"kind": "for", "candidate": "robb-stark"},
                {"kind": "decoy", "candidate": "jaime-lannister"},
            ]
        },
    )
    assert ack["ok"] and len(ack["receipt"]["commitments"]) == 2

    for name, client in (("lannister", lannister), ("tyrell", tyrell), ("spectator", spectator)):
        records = pushed(client)
        placed = next(r for r in records if r["type"] == "BallotPlaced")
        assert placed["private"] is None
        text = json.dumps(placed)
        assert '"for"' not in text and '"decoy"' not in text, name
        revealed = next(r for r in records if r["type"] == "BallotsRevealed")
        assert revealed["data"]["winner"] == "robb-stark"
        assert {m["kind"] for m in revealed["data"]["markers"]} == {"for", "decoy"}
    own = next(r for r in pushed(stark) if r["type"] == "BallotPlaced")
    assert {m["kind"] for m in own["private"]["secrets"]} == {"for", "decoy"}


def test_a_reconnecting_client_receives_exactly_the_events_it_missed(
    app: Flask, game: Game
) -> None:
    lannister = connect(app, game, game.tokens["lannister"])
    welcome = next(m for m in lannister.get_received(NAMESPACE) if m["name"] == "welcome")
    seen = welcome["args"][0]["version"]
    lannister.disconnect(namespace=NAMESPACE)
    host = connect(app, game, game.tokens["stark"])
    for amount in (1, 2, 3):
        assert send(host, "record_gold", {"house": "tyrell", "amount": amount, "cause": "tax"})[
            "ok"
        ]
    again = connect(app, game, game.tokens["lannister"], last_version=seen)
    records = pushed(again)
    assert [r["version"] for r in records] == list(range(seen + 1, seen + 7))
    assert [r["type"] for r in records] == ["FactRecorded", "GoldAdjusted"] * 3
    assert [r["data"]["amount"] for r in records[1::2]] == [1, 2, 3]


@pytest.mark.parametrize(
    ("event", "payload", "code"),
    [
        ("stand", {"noble": 7}, "bad_request"),
        ("stand", {"noble": "robb-stark", "seat": 0}, "bad_request"),
        ("place_ballot", {"markers": [{"kind": "for", "candidate": "robb-stark"}]}, "wrong_step"),
        ("pass", {}, "wrong_step"),
        ("fly", {}, "unknown_message"),
        ("record_gold", {"house": "stark", "amount": 1, "cause": "x"}, "host_only"),
        ("sync", {"last_version": "3"}, "bad_request"),  # a number, not text
        ("sync", {"last_version": 3.0}, "bad_request"),  # a whole number, not rounded
    ],
)
def test_bad_socket_messages_get_a_code_and_change_nothing(app, game, event, payload, code):
    client = connect(app, game, game.tokens["lannister"])
    before = log_state(app.test_client(), game.id)
    ack = send(client, event, payload)
    assert ack["ok"] is False and ack["code"] == code and ack["message"]
    assert log_state(app.test_client(), game.id) == before


def test_a_forged_token_cannot_connect(app: Flask, game: Game) -> None:
    socketio = app.extensions["socketio"]
    client = socketio.test_client(
        app, namespace=NAMESPACE, auth={"game": game.id, "token": "forged"}
    )
    assert not client.is_connected(NAMESPACE)


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
def test_before_the_reveal_others_see_where_markers_lie_but_never_which_is_the_for(
    app: Flask, sealed: bool
) -> None:
    """R-7.1 step 3: positions public (hidden too with sealed ballots), kinds secret."""
    http = app.test_client()
    game = lobby_game(http, variants={"sealed_ballots": sealed})
    start(http, game)
    stark = connect(app, game, game.tokens["stark"])
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    spectator = connect(app, game, None)
    holders = {
        "winterfell": "stark",
        "white-harbor": "stark",
        "the-dreadfort": "stark",
        "moat-cailin": "lannister",
    }
    for village, house in holders.items():
        assert send(
            stark, "record_village", {"village": village, "house": house, "cause": "battle"}
        )["ok"]
    next_round(http, game)
    assert send(lannister, "stand", {"noble": "jaime-lannister"})["ok"]
    assert send(tyrell, "pass")["ok"]
    assert send(stark, "stand", {"noble": "robb-stark"})["ok"]
    for client in (stark, lannister, tyrell, spectator):
        client.get_received(NAMESPACE)

    # Lannister (first in turn order this round) places both markers; Stark has yet to vote.
    ack = send(
        lannister,
        "place_ballot",
        {
            "markers": [
                {"kind": "decoy", "candidate": "robb-stark"},
                {"kind": "for", "candidate": "jaime-lannister"},
            ]
        },
    )
    assert ack["ok"], ack
    for client in (stark, tyrell, spectator):
        records = pushed(client)
        assert [r["type"] for r in records] == ["BallotPlaced"]
        text = json.dumps(records)
        assert "decoy" not in text and '"for"' not in text and "salt" not in text
        positions = {m["candidate"] for m in records[0]["data"]["markers"]}
        assert positions == ({None} if sealed else {"robb-stark", "jaime-lannister"})
    view = http.get(f"/api/games/{game.id}", headers=game.auth("stark")).get_json()
    view.pop("moves")  # his own ballot options name both kinds; nothing else may
    assert "decoy" not in json.dumps(view) and view["election"]["my_markers"] == []
    own = http.get(f"/api/games/{game.id}", headers=game.auth("lannister")).get_json()
    assert {m["kind"] for m in own["election"]["my_markers"]} == {"for", "decoy"}

    assert send(stark, "place_ballot", {"markers": [{"kind": "for", "candidate": "robb-stark"}]})[
        "ok"
    ]
    revealed = next(r for r in pushed(spectator) if r["type"] == "BallotsRevealed")
    votes = {count["noble"]: count["votes"] for count in revealed["data"]["votes"]}
    assert votes == {"jaime-lannister": 1, "robb-stark": 4}
    assert revealed["data"]["winner"] == "robb-stark"


def test_a_flooding_connection_is_rate_limited_and_other_rooms_carry_on(
    app: Flask, game: Game
) -> None:
    """Bad input never hurts: a flood gets `rate_limited`, and another game still plays."""
    http = app.test_client()
    other = lobby_game(http)
    start(http, other)
    flooder = connect(app, game, game.tokens["lannister"])
    calm = connect(app, other, other.tokens["stark"])
    answers = [send(flooder, "pass") for _ in range(120)]
    codes = {a["code"] for a in answers}
    assert "rate_limited" in codes and codes <= {"rate_limited", "wrong_step"}
    began = time.monotonic()
    ack = send(calm, "record_gold", {"house": "stark", "amount": 1, "cause": "tax"})
    assert ack["ok"] and time.monotonic() - began < 0.5
    before = http.get(f"/api/games/{game.id}/verify").get_json()
    assert before["records"] == game.started
