"""What a suspicious player checks by hand (docs/disputes.md, "Holding the server to its
log"): the public key at GET /api/signing-key, the signed checkpoint of every court view, and
GET /api/games/<id>/chain, whose records recompute, with SHA-256 alone, to the hashes the
server signed."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask
from flask.testing import FlaskClient

from server.http import witness
from tests.server.http.court_client import Game, error_body

GENESIS = "0" * 64


def signed_ok(client: FlaskClient, checkpoint: dict[str, Any]) -> bool:
    served = client.get("/api/signing-key").get_json()
    key = next(k for k in served["keys"] if k["key_id"] == checkpoint["key_id"])
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(key["public_key"]))
    text = served["message"].format(**checkpoint)
    try:
        public.verify(base64.b64decode(checkpoint["signature"]), text.encode())
    except Exception:
        return False
    return True


def rehash(prev: str, game_id: str, record: dict[str, Any]) -> str:
    """hash(n) = SHA-256(hash(n-1) "\\n" meta "\\n" data "\\n" private_sha256), as documented."""
    meta = {k: record[k] for k in ("version", "type", "schema_version", "recorded_at", "seat")}
    meta_json = json.dumps(
        {**meta, "game_id": game_id}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    text = f"{prev}\n{meta_json}\n{record['data_json']}\n{record['private_sha256']}"
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_signing_key_document_names_the_key_and_its_id(client: FlaskClient) -> None:
    served = client.get("/api/signing-key").get_json()

    raw = base64.b64decode(served["public_key"])
    assert served["algorithm"] == "Ed25519" and len(raw) == 32
    assert served["key_id"] == hashlib.sha256(raw).hexdigest()[:16]
    assert served["keys"] == [
        {"key_id": served["key_id"], "public_key": served["public_key"], "current": True}
    ]
    assert served["message"] == "small-council checkpoint\n{game_id}\n{version}\n{hash}"


def test_every_court_view_carries_a_signed_checkpoint_of_the_version_it_shows(
    client: FlaskClient, game: Game
) -> None:
    for path in (f"/api/games/{game.id}", f"/api/games/{game.id}/versions/3"):
        for headers in ({}, game.auth("lannister")):
            view = client.get(path, headers=headers).get_json()
            checkpoint = view["checkpoint"]
            assert (checkpoint["game_id"], checkpoint["version"]) == (
                game.id,
                view["game"]["version"],
            )
            assert signed_ok(client, checkpoint)
    head = client.get(f"/api/games/{game.id}/verify").get_json()["head"]
    assert client.get(f"/api/games/{game.id}").get_json()["checkpoint"]["hash"] == head


def test_the_chain_recomputes_from_its_records_to_the_signed_checkpoint(
    client: FlaskClient, game: Game
) -> None:
    # Given the whole chain of a started game, read by a spectator
    page = client.get(f"/api/games/{game.id}/chain").get_json()
    # Then every hash follows from the one before by the documented formula alone
    assert page["prev_hash"] == GENESIS
    prev = GENESIS
    for number, record in enumerate(page["records"], start=1):
        assert record["version"] == number
        prev = rehash(prev, game.id, record)
        assert record["hash"] == prev
    # ... and ends on the hash of the checkpoint the server signed for the head
    assert page["checkpoint"]["hash"] == prev and signed_ok(client, page["checkpoint"])
    assert page["checkpoint"]["version"] == page["version"] == game.started
    assert page["next_from"] is None


def test_the_chain_gives_the_data_as_stored_and_no_private_part(
    app: Flask, client: FlaskClient, game: Game, tmp_path: Path
) -> None:
    with sqlite3.connect(tmp_path / "t.db") as conn:
        stored = dict(
            conn.execute("SELECT version, data FROM event_records WHERE game_id = ?", (game.id,))
        )
    conn.close()
    for headers in ({}, game.auth("stark"), game.host):
        records = client.get(f"/api/games/{game.id}/chain", headers=headers).get_json()["records"]
        assert {r["version"]: r["data_json"] for r in records} == stored
        assert all(set(r) == set(witness.ChainRecordSchema().fields) for r in records)
    # a seat's join holds its token's digest, privately: only the digest of it is shown
    joined = client.get(f"/api/games/{game.id}/chain?from=2&to=2").get_json()["records"][0]
    assert joined["type"] == "SeatJoined" and len(joined["private_sha256"]) == 64


def test_the_chain_comes_in_bounded_pages_that_link(
    client: FlaskClient, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(witness, "CHAIN_PAGE", 3)
    prev, versions, start = GENESIS, [], 1
    while start is not None:
        page = client.get(f"/api/games/{game.id}/chain?from={start}").get_json()
        assert len(page["records"]) <= 3 and page["prev_hash"] == prev
        for record in page["records"]:
            prev = rehash(prev, game.id, record)
            versions.append(record["version"])
        assert page["checkpoint"]["hash"] == prev and signed_ok(client, page["checkpoint"])
        start = page["next_from"]
    assert versions == list(range(1, game.started + 1))
    middle = client.get(f"/api/games/{game.id}/chain?from=2&to=4").get_json()
    assert [r["version"] for r in middle["records"]] == [2, 3, 4]
    assert middle["checkpoint"]["version"] == 4 and middle["next_from"] == 5
    backwards = client.get(f"/api/games/{game.id}/chain?from=3&to=2").get_json()
    assert [r["version"] for r in backwards["records"]] == [3]


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("from=0", 400, "bad_request"),
        ("from=x", 400, "bad_request"),
        ("from=1&to=1&extra=1", 400, "bad_request"),
        ("from=999", 404, "unknown_version"),
    ],
)
def test_a_bad_chain_request_is_refused_with_a_code(
    client: FlaskClient, game: Game, query: str, status: int, code: str
) -> None:
    error_body(client.get(f"/api/games/{game.id}/chain?{query}"), status, code)


def test_the_chain_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    error_body(client.get("/api/games/nosuchgame/chain"), 404, "unknown_game")
