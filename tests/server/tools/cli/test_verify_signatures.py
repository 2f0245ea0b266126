"""`flask court verify GAME` believes a keyed seat's move only as its device signed it
(court/audit/signatures.py): a record an operator adds with write access to the database,
attributed to a keyed seat and chained with hashes recomputed, is named with its version; so is
a signed move whose signature no longer matches it, or a signed move taken twice (section 10)."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.court.signing import Device
from tests.server.tools.cli.court_shell import Court, Played, append_forged, rewrite, rows

PHONE, HOST_PHONE = Device(21), Device(22)
LANNISTER = 1  # stark is the host's seat 0, lannister seat 1, tyrell seat 2


def send(client: FlaskClient, played: Played, token: str, message: str, body: Any) -> Any:
    response = client.post(
        f"/api/games/{played.id}/commands/{message}",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def head(client: FlaskClient, played: Played) -> dict[str, Any]:
    checkpoint = client.get(f"/api/games/{played.id}").get_json()["checkpoint"]
    return {"version": checkpoint["version"], "head": checkpoint["hash"]}


def keyed_and_signed(app: Flask, played: Played) -> int:
    """Lannister's phone and the host's keyed; the host's phone signs a fact; the head."""
    client = app.test_client()
    send(
        client,
        played,
        played.tokens["lannister"],
        "add_device_key",
        {"public_key": PHONE.public_key},
    )
    send(client, played, played.host_token, "add_device_key", {"public_key": HOST_PHONE.public_key})
    fact = {"house": "lannister", "amount": 2, "cause": "Recorded at the table"}
    body = HOST_PHONE.body(played.id, "seat:0", "record_gold", fact, **head(client, played))
    return int(send(client, played, played.host_token, "record_gold", body)["version"])


def test_keyed_seats_signed_moves_verify(app: Flask, court: Court, played: Played) -> None:
    """Given lannister's and the host's devices keyed and the host's fact signed on his
    phone, then verify passes: the fact's records follow the move his device signed."""
    version = keyed_and_signed(app, played)

    result = court(app, "verify", played.id)

    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: {version} records")
    signed = [r for r in rows(played.db, played.id) if r[1] == "MoveSigned"]
    assert (
        len(signed) == 1 and json.loads(signed[0][5])["records"] == 2
    )  # who recorded it, then the fact


def test_a_record_added_for_a_keyed_seat_behind_the_servers_back_is_named(
    app: Flask, court: Court, played: Played
) -> None:
    """Given lannister keyed, when the operator adds a record of lannister's voting the host
    role to tyrell, chained and hashed as the server would, then verify fails naming its
    version: no key of seat 1 signed it. The same record for tyrell, unkeyed, is not the
    signatures' to refuse (the page shows such moves unsigned)."""
    keyed_and_signed(app, played)
    vote = {"seat": LANNISTER, "for_seat": 2, "at": None, "host_away_since": None}

    forged = append_forged(played, "HostVoteCast", vote, LANNISTER)
    result = court(app, "verify", played.id)

    assert result.exit_code == 1
    assert f"(version {forged}): signatures: a move of seat 1 that no key of seat 1 signed" in (
        result.output
    ), result.output


def test_a_signed_move_rewritten_after_it_was_signed_is_named(
    app: Flask, court: Court, played: Played
) -> None:
    """Given the host's fact signed on his phone, when the operator rewrites what the signed
    move says (2 Gold Dragons made 20) and recomputes every hash, then verify names it."""
    version = keyed_and_signed(app, played)
    signed_at = version - 2
    (moved,) = [r for r in rows(played.db, played.id) if r[0] == signed_at]
    payload = {**json.loads(moved[5])["payload"], "amount": 20}

    rewrite(played.db, played.id, signed_at, payload=payload)
    result = court(app, "verify", played.id)

    assert result.exit_code == 1
    assert f"(version {signed_at}): signatures: a move of seat 0 whose signature" in (
        result.output
    ), result.output


def test_a_signed_move_replayed_into_the_log_is_named(
    app: Flask, court: Court, played: Played
) -> None:
    """Given the host's fact signed, when the operator adds the very same signed move again,
    then verify names it: its nonce was taken before."""
    version = keyed_and_signed(app, played)
    (moved,) = [r for r in rows(played.db, played.id) if r[0] == version - 2]

    forged = append_forged(played, "MoveSigned", json.loads(moved[5]), 0)
    result = court(app, "verify", played.id)

    assert result.exit_code == 1
    assert f"(version {forged}): signatures: a move of seat 0 whose nonce was taken before" in (
        result.output
    ), result.output


def test_a_record_that_does_not_follow_from_the_signed_move_is_named(
    app: Flask, court: Court, played: Played
) -> None:
    """Given the host's phone signed 2 Gold Dragons for lannister, when the operator rewrites
    the fact's record to 20 and recomputes every hash, the signature still holds; then verify
    decides the signed move again and names the record that does not follow from it."""
    version = keyed_and_signed(app, played)

    rewrite(played.db, played.id, version, amount=20)
    result = court(app, "verify", played.id)

    assert result.exit_code == 1
    assert (
        f"(version {version}): moves: the GoldAdjusted is not what the move record_gold signed "
        f"at version {version - 2} decides"
    ) in result.output, result.output
