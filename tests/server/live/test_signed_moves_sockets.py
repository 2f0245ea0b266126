"""Signed moves over Socket.IO (docs/protocol.md, "Signed moves"): three real clients in one
game; the keyed seat's signed moves are taken and pushed to every room with the signed move
first, in a shape each page can check; its unsigned move, a replay and a move signed by a
dropped key are refused with `bad_signature`, and nobody is pushed anything for them."""

from __future__ import annotations

from typing import Any

from flask import Flask

from court.log.chain import canonical, link
from tests.court.signing import Device
from tests.server.http.court_client import Game
from tests.server.live.live import NAMESPACE, connect, pushed, send

PHONE, LAPTOP = Device(21), Device(22)


def head_of(client: Any) -> dict[str, Any]:
    """The head this client last saw: the checkpoint of its welcome or of its last push."""
    checkpoint = None
    for message in client.get_received(NAMESPACE):
        if message["name"] in ("welcome", "events"):
            checkpoint = message["args"][0]["checkpoint"]
    assert checkpoint is not None
    return {"version": checkpoint["version"], "head": checkpoint["hash"]}


def test_a_keyed_seats_moves_are_taken_signed_once_and_pushed_to_every_room(
    app: Flask, game: Game
) -> None:
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    spectator = connect(app, game, None)
    holder = f"seat:{game.seats['lannister']}"
    seen = head_of(lannister)

    # Given Lannister's phone registered his seat's key with his token
    added = send(lannister, "add_device_key", {"public_key": PHONE.public_key})
    assert added["ok"] is True, added
    # When he votes unsigned, then he is refused and nobody is pushed anything
    for client in (tyrell, spectator):
        client.get_received(NAMESPACE)
    unsigned = send(lannister, "vote_end", {"end": True})
    assert unsigned["ok"] is False and unsigned["code"] == "bad_signature", unsigned
    assert pushed(tyrell) == [] and pushed(spectator) == []
    # When his phone signs the vote on the head it saw, then it is taken
    body = PHONE.body(game.id, holder, "vote_end", {"end": True}, **seen)
    taken = send(lannister, "vote_end", body)
    assert taken["ok"] is True, taken
    # Then every room is pushed the signed move, then the vote, each with what its hash covers
    for client in (tyrell, spectator):
        records = pushed(client)
        assert [r["type"] for r in records] == ["MoveSigned", "EndVoteCast"]
        move = records[0]
        assert move["data"]["nonce"] == body["signed"]["nonce"] and move["data"]["records"] == 1
        assert "hashed" not in move and move["private_sha256"] == ""
        # And the vote's hash is made again from the move's and the vote's own fields
        vote = records[1]
        assert vote["hash"] == link(
            move["hash"],
            **{k: vote[k] for k in ("game_id", "version", "type", "recorded_at", "seat")},
            schema_version=vote["schema_version"],
            data_json=canonical(vote["data"]),
            private_sha256=vote["private_sha256"],
        )
    # And the same signed vote again is refused: its nonce is spent
    replayed = send(lannister, "vote_end", body)
    assert replayed["ok"] is False and replayed["code"] == "bad_signature", replayed
    assert pushed(tyrell) == []


def test_a_move_signed_by_a_dropped_key_is_refused(app: Flask, game: Game) -> None:
    lannister = connect(app, game, game.tokens["lannister"])
    holder = f"seat:{game.seats['lannister']}"
    assert send(lannister, "add_device_key", {"public_key": PHONE.public_key})["ok"]
    laptop = PHONE.body(
        game.id, holder, "add_device_key", {"public_key": LAPTOP.public_key}, **head_of(lannister)
    )
    assert send(lannister, "add_device_key", laptop)["ok"]
    drop = LAPTOP.body(
        game.id, holder, "drop_device_key", {"key_id": PHONE.key_id}, **head_of(lannister)
    )
    assert send(lannister, "drop_device_key", drop)["ok"]

    by_dropped = PHONE.body(game.id, holder, "vote_end", {"end": True}, **head_of(lannister))
    refused = send(lannister, "vote_end", by_dropped)

    assert refused["ok"] is False and refused["code"] == "bad_signature", refused
    assert "dropped" in refused["message"]
