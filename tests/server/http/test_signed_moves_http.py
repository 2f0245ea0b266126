"""Signed moves over HTTP (docs/protocol.md, "Signed moves"): a seat registers its device's key
with its token; from then on the server takes only moves signed by one of its keys, each once,
on a head the log holds, and stores each signed move as the first record of what it led to. An
unkeyed seat plays on unsigned. A refusal is 403 `bad_signature` with a sentence, and the log is
unchanged."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from court.decide.council_seat import bid_commitment
from elections.markers import commitment
from tests.court.signing import Device
from tests.server.http.council_seat_sale import court, house_of, post, to_the_sale
from tests.server.http.court_client import Game, error_body, logs
from tests.server.http.north_election import to_the_north_election

PHONE, LAPTOP = Device(11), Device(12)


def head(client: FlaskClient, game: Game) -> dict[str, Any]:
    """The head a page last saw: the court view's checkpoint's version and hash."""
    checkpoint = client.get(f"/api/games/{game.id}").get_json()["checkpoint"]
    return {"version": checkpoint["version"], "head": checkpoint["hash"]}


def send(client: FlaskClient, game: Game, house: str, message: str, body: dict[str, Any]) -> Any:
    return client.post(
        f"/api/games/{game.id}/commands/{message}", json=body, headers=game.auth(house)
    )


def register(client: FlaskClient, game: Game, house: str, device: Device) -> int:
    response = send(client, game, house, "add_device_key", {"public_key": device.public_key})
    assert response.status_code == 200, response.get_json()
    return int(response.get_json()["version"])


def signed(
    client: FlaskClient,
    game: Game,
    house: str,
    device: Device,
    message: str,
    payload: dict[str, Any],
    **given: Any,
) -> dict[str, Any]:
    holder = f"seat:{game.seats[house]}"
    return device.body(game.id, holder, message, payload, **{**head(client, game), **given})


def records_after(client: FlaskClient, game: Game, version: int) -> list[dict[str, Any]]:
    page = client.get(f"/api/games/{game.id}/events?after={version}").get_json()
    return page["records"] if isinstance(page, dict) else page


def test_a_keyed_seat_plays_signed_moves_and_its_unsigned_ones_are_refused(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    # Given Lannister's phone registered his seat's key with his token alone
    version = register(client, game, "lannister", PHONE)
    assert records_after(client, game, version - 1)[0]["data"]["proof"] == "token"
    before = logs(app, client)
    # When he offers nothing unsigned, then it is refused and nothing is stored
    refused = send(client, game, "lannister", "vote_end", {"end": True})
    body = error_body(refused, 403, "bad_signature")
    assert "signature" in body["message"]
    assert logs(app, client) == before
    # When his phone signs the vote, then it is recorded after the signed move
    payload = {"end": True}
    accepted = send(
        client,
        game,
        "lannister",
        "vote_end",
        signed(client, game, "lannister", PHONE, "vote_end", payload),
    )
    assert accepted.status_code == 200, accepted.get_json()
    move, vote = records_after(client, game, version)[-2:]
    assert move["type"] == "MoveSigned" and vote["type"] == "EndVoteCast"
    assert move["data"]["records"] == 1 and move["data"]["payload"] == payload
    assert move["data"]["holder"] == f"seat:{game.seats['lannister']}"
    # And Tyrell, whose seat has no key, plays on unsigned
    unsigned = send(client, game, "tyrell", "vote_end", {"end": True})
    assert unsigned.status_code == 200, unsigned.get_json()


def test_a_replayed_or_a_forged_signature_or_a_dropped_key_is_refused(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    register(client, game, "lannister", PHONE)
    laptop = signed(
        client, game, "lannister", PHONE, "add_device_key", {"public_key": LAPTOP.public_key}
    )
    assert send(client, game, "lannister", "add_device_key", laptop).status_code == 200
    once = signed(client, game, "lannister", LAPTOP, "vote_end", {"end": True})
    assert send(client, game, "lannister", "vote_end", once).status_code == 200
    before = logs(app, client)

    # The very same signed move again: its nonce is spent
    replayed = send(client, game, "lannister", "vote_end", once)
    assert "taken before" in error_body(replayed, 403, "bad_signature")["message"]
    # Signed, then changed: the signature does not match
    changed = {**signed(client, game, "lannister", LAPTOP, "vote_end", {"end": True}), "end": False}
    error_body(send(client, game, "lannister", "vote_end", changed), 403, "bad_signature")
    # Signed on a head the log does not hold
    elsewhere = signed(client, game, "lannister", LAPTOP, "vote_end", {"end": False}, head="f" * 64)
    error_body(send(client, game, "lannister", "vote_end", elsewhere), 403, "bad_signature")
    assert logs(app, client) == before

    # The laptop drops the phone's key: the phone's signature is refused from then on
    drop = signed(client, game, "lannister", LAPTOP, "drop_device_key", {"key_id": PHONE.key_id})
    assert send(client, game, "lannister", "drop_device_key", drop).status_code == 200
    before = logs(app, client)
    by_dropped = signed(client, game, "lannister", PHONE, "vote_end", {"end": False})
    told = error_body(send(client, game, "lannister", "vote_end", by_dropped), 403, "bad_signature")
    assert "dropped" in told["message"]
    assert logs(app, client) == before


def test_a_move_signed_on_an_older_head_of_the_log_is_taken(
    client: FlaskClient, game: Game
) -> None:
    """Other moves may come between the head a device saw and its move's arrival."""
    register(client, game, "lannister", PHONE)
    seen = head(client, game)
    assert send(client, game, "tyrell", "vote_end", {"end": True}).status_code == 200
    late = PHONE.body(game.id, f"seat:{game.seats['lannister']}", "vote_end", {"end": True}, **seen)
    assert send(client, game, "lannister", "vote_end", late).status_code == 200


def test_a_signed_bid_carries_its_commitment_and_sends_its_opening_beside_it(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """R-4.6: the device draws the salt and signs the commitment alone; the amount and salt go
    beside the signature, into the bid's private part and the receipt. A signed bid holding
    its amount is refused before any rule: a signature never covers a secret."""
    view = to_the_sale(client, game)
    bidder = house_of(game, view["auction"]["waiting"][0])
    register(client, game, bidder, PHONE)
    salt = "c" * 32
    sealed = bid_commitment(3, salt)
    openings = {"amount": 3, "salt": salt}
    secret = signed(
        client, game, bidder, PHONE, "place_bid", {"commitment": sealed}, openings=openings
    )
    leaking = signed(client, game, bidder, PHONE, "place_bid", {"amount": 3})
    before = logs(app, client)

    told = error_body(send(client, game, bidder, "place_bid", leaking), 409, "bad_commitment")
    assert "commitment" in told["message"]
    assert logs(app, client) == before
    placed = send(client, game, bidder, "place_bid", secret)
    assert placed.status_code == 200, placed.get_json()
    receipt = placed.get_json()["receipt"]
    assert (receipt["commitment"], receipt["amount"], receipt["salt"]) == (sealed, 3, salt)
    move = records_after(client, game, receipt["version"] - 2)[0]
    assert move["type"] == "MoveSigned" and move["data"]["payload"] == {"commitment": sealed}
    assert salt not in str(move) and '"amount"' not in str(move["data"])


def test_a_signed_ballot_signs_the_markers_as_the_record_shows_them(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    """R-7.1 step 3: the device signs each marker's commitment and candidate, never its kind or
    salt, which go beside the signature as the markers; a signed ballot holding its kinds is
    refused, and so are markers that open other commitments than those signed."""
    to_the_north_election(client, game)
    view = court(client, game)
    while view["election"]["stage"] == "candidacy":
        mover = house_of(game, view["election"]["current"])
        if mover == "stark":
            post(client, game, "commands/stand", game.auth(mover), {"noble": "robb-stark"})
        else:
            post(client, game, "commands/pass", game.auth(mover))
        view = court(client, game)
    voter = house_of(game, view["election"]["current"])
    register(client, game, voter, PHONE)
    markers = {"markers": [{"kind": "for", "candidate": "robb-stark", "salt": "d" * 32}]}
    salted = commitment("for", "robb-stark", "d" * 32)
    committed = {"committed": [{"commitment": salted, "candidate": "robb-stark"}]}
    wrong = {"committed": [{"commitment": "0" * 64, "candidate": "robb-stark"}]}
    plain = {"markers": [{"kind": "for", "candidate": "robb-stark"}]}
    before = logs(app, client)

    kinds = send(
        client,
        game,
        voter,
        "place_ballot",
        signed(client, game, voter, PHONE, "place_ballot", plain),
    )
    assert "signature never covers a secret" in error_body(kinds, 409, "bad_commitment")["message"]
    other = signed(client, game, voter, PHONE, "place_ballot", wrong, openings=markers)
    error_body(send(client, game, voter, "place_ballot", other), 409, "bad_commitment")
    assert logs(app, client) == before
    good = signed(client, game, voter, PHONE, "place_ballot", committed, openings=markers)
    placed = send(client, game, voter, "place_ballot", good)
    assert placed.status_code == 200, placed.get_json()
    receipt = placed.get_json()["receipt"]
    assert receipt["commitments"] == [salted]
    assert receipt["markers"] == [{"kind": "for", "candidate": "robb-stark", "salt": "d" * 32}]
    move = records_after(client, game, receipt["version"] - 2)[0]
    assert move["type"] == "MoveSigned" and move["data"]["payload"] == committed
