"""Phase 4 over HTTP: a Sept built, and a sealed bid for the fourth council seat whose amount no
other seat sees before the reveal (R-4.6, R-3.5, section 10)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask.testing import FlaskClient

from tests.server.http.council_seat_sale import (
    court,
    post,
    to_the_sale,
)
from tests.server.http.court_client import Game


def history(client: FlaskClient, game: Game, headers: dict) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game.id}/events?after=0&limit=200", headers=headers)
    return response.get_json()["records"]


def test_a_sept_and_a_sealed_bid_over_http_keep_the_amount_secret_until_the_reveal(
    client: FlaskClient, game: Game
) -> None:
    view = to_the_sale(client, game)
    stark, lannister = game.seats["stark"], game.seats["lannister"]
    assert set(view["auction"]["order"]) == {stark, lannister}
    treasury = {h["id"]: h["treasury"] for h in view["houses"]}

    # purchases wait for the sale
    refused = client.post(
        f"/api/games/{game.id}/commands/build_sept",
        json={"village": "winterfell"},
        headers=game.auth("stark"),
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "sale_first"

    # R-4.6 [D]: Stark's sealed bid; his receipt opens his own commitment
    answer = post(client, game, "commands/place_bid", game.auth("stark"), {"amount": 3})
    receipt = answer["receipt"]
    assert receipt["amount"] == 3
    text = f"bid:{receipt['amount']}:{receipt['salt']}"
    assert hashlib.sha256(text.encode()).hexdigest() == receipt["commitment"]

    # what Lannister and a spectator see before the reveal: who bid, never how much
    for headers in (game.auth("lannister"), {}):
        auction = court(client, game, headers)["auction"]
        assert auction["bid"] == [stark] and auction["waiting"] == [lannister]
        assert set(auction) == {"order", "bid", "passed", "waiting", "deadline", "winner"}
        placed = next(r for r in history(client, game, headers) if r["type"] == "BidPlaced")
        assert placed["private"] is None
        assert receipt["salt"] not in json.dumps(placed)
        assert "amount" not in json.dumps(placed["data"])
        assert "3" not in placed["text"]
        assert placed["hash"] == receipt["record_hash"]
    own = next(r for r in history(client, game, game.auth("stark")) if r["type"] == "BidPlaced")
    assert own["private"] == {"secret": {"amount": 3, "salt": receipt["salt"]}}

    # the last bidder passes: every bid is revealed, Stark pays and seats Robb on the council
    post(client, game, "commands/pass_bid", game.auth("lannister"))
    revealed = next(
        r for r in history(client, game, game.auth("lannister")) if r["type"] == "BidsRevealed"
    )
    assert revealed["data"]["winner"] == stark
    assert revealed["data"]["bids"][0]["commitment"] == receipt["commitment"]
    refused = client.post(
        f"/api/games/{game.id}/commands/advance_phase", json={}, headers=game.host
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "server_phase"
    body = {"noble": "robb-stark", "title": "master-of-coin"}
    post(client, game, "commands/choose_council_seat", game.auth("stark"), body)
    view = court(client, game)
    assert view["auction"] is None
    assert {t["id"]: t["holder"] for t in view["titles"]}["master-of-coin"] == "robb-stark"

    # then the purchases, in turn order: Lannister (First Player) is done, Tyrell has
    # nothing to buy, and Stark builds a Sept for 4 GD in a village he controls
    assert view["purchases"]["current"] == lannister
    post(client, game, "commands/end_purchases", game.auth("lannister"))
    assert court(client, game)["purchases"]["current"] == stark
    post(client, game, "commands/build_sept", game.auth("stark"), {"village": "winterfell"})
    view = court(client, game)
    village = next(v for r in view["regions"] for v in r["villages"] if v["id"] == "winterfell")
    assert village["sept"] is True and village["septs"] == 1
    assert {h["id"]: h["treasury"] for h in view["houses"]}["stark"] == treasury["stark"] - 7
