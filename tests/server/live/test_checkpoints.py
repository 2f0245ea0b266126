"""Every Socket.IO message that shows a game at a version carries the server's signed checkpoint
of it (docs/protocol.md, "Checkpoints and the chain"): `welcome`, the catch-up `events`, each
push after an append (the same signature in every room) and the `sync` ack. Each signature is
checked here as a page would: with the public key GET /api/signing-key serves, over the text
the document names, and the hash is the one the stored log ends on at that version."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask

from tests.server.http.court_client import join, lobby_game
from tests.server.live.live import NAMESPACE, connect, send


def stored_hashes(app: Flask, game_id: str) -> dict[int, str]:
    return {r.version: r.hash for r in app.extensions["court_store"].read(game_id)}


def shown(client: Any) -> list[dict[str, Any]]:
    """The payloads of the messages showing the game (presence and talk left out)."""
    received = client.get_received(NAMESPACE)
    return [m["args"][0] for m in received if m["name"] in ("welcome", "events")]


def verified(app: Flask, game_id: str, checkpoint: dict[str, Any], version: int) -> None:
    """The checkpoint is of the game at `version`, on the stored hash there, and its signature
    verifies with the served public key of the key it names."""
    served = app.test_client().get("/api/signing-key").get_json()
    keys = {k["key_id"]: k["public_key"] for k in served["keys"]}
    assert served["algorithm"] == "Ed25519" and checkpoint["key_id"] == served["key_id"]
    assert (checkpoint["game_id"], checkpoint["version"]) == (game_id, version)
    assert checkpoint["hash"] == stored_hashes(app, game_id)[version]
    text = f"small-council checkpoint\n{game_id}\n{version}\n{checkpoint['hash']}"
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(keys[checkpoint["key_id"]]))
    public.verify(base64.b64decode(checkpoint["signature"]), text.encode())  # raises if not


def test_welcome_catch_up_pushes_and_sync_carry_checkpoints_that_verify(app: Flask) -> None:
    # Given two seats and a spectator connected to a game in the lobby, each catching up
    client = app.test_client()
    game = lobby_game(client, houses=("stark", "lannister"))
    head = max(stored_hashes(app, game.id))
    clients = {
        "stark": connect(app, game, game.tokens["stark"], last_version=0),
        "lannister": connect(app, game, game.tokens["lannister"], last_version=1),
        "spectator": connect(app, game, None, last_version=0),
    }
    for received in (shown(c) for c in clients.values()):
        welcome, catch_up = received
        # Then the welcome and the catch-up carry the checkpoint of the head they show
        verified(app, game.id, welcome["checkpoint"], head)
        assert welcome["court"]["checkpoint"] == welcome["checkpoint"]
        verified(app, game.id, catch_up["checkpoint"], head)
    # When a third player takes a seat (a record whose private part is his alone)
    join(client, game.id, "tyrell")
    # Then every room is pushed the record with the one checkpoint of the new head
    pushes = [shown(c) for c in clients.values()]
    assert all(len(p) == 1 for p in pushes), pushes
    signed = {p[0]["checkpoint"]["signature"] for p in pushes}
    assert len(signed) == 1
    verified(app, game.id, pushes[0][0]["checkpoint"], head + 1)
    # ... and a sync ack carries it too
    ack = send(clients["spectator"], "sync", {"last_version": head})
    assert ack["ok"] and [r["version"] for r in ack["records"]] == [head + 1]
    verified(app, game.id, ack["checkpoint"], head + 1)


def test_a_checkpoint_of_another_version_or_game_does_not_verify(app: Flask) -> None:
    """The signature covers the game, the version and the hash: a page cannot be shown one
    checkpoint for another."""
    client = app.test_client()
    game = lobby_game(client)
    view = client.get(f"/api/games/{game.id}").get_json()
    checkpoint = view["checkpoint"]
    verified(app, game.id, checkpoint, view["game"]["version"])
    served = client.get("/api/signing-key").get_json()
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(served["public_key"]))
    signature = base64.b64decode(checkpoint["signature"])
    for game_id, version in ((game.id, checkpoint["version"] - 1), ("other", 4)):
        text = f"small-council checkpoint\n{game_id}\n{version}\n{checkpoint['hash']}"
        try:
            public.verify(signature, text.encode())
        except Exception as exc:  # InvalidSignature
            assert type(exc).__name__ == "InvalidSignature"
        else:
            raise AssertionError(f"the signature verified for {game_id} at {version}")
