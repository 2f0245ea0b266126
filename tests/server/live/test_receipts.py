"""A receipt checks out against the exported log, and tampering shows (R-7.1, section 10)."""

from __future__ import annotations

import json
from dataclasses import replace

from court.log.chain import Record
from court.log.receipts import check_receipt
from tests.server.http.court_client import next_round
from tests.server.live.live import NORTH, connect, send


def run_election(app, game) -> dict:
    http = app.test_client()
    stark = connect(app, game, game.tokens["stark"])
    for village in NORTH:
        send(stark, "record_village", {"village": village, "house": "stark", "cause": "battle"})
    next_round(http, game)
    send(connect(app, game, game.tokens["lannister"]), "stand", {"noble": "jaime-lannister"})
    send(connect(app, game, game.tokens["tyrell"]), "pass")
    send(stark, "stand", {"noble": "robb-stark"})
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
    assert ack["ok"]
    return ack["receipt"]


def exported(app, game) -> list[Record]:
    text = app.test_client().get(f"/api/games/{game.id}/export").get_data(as_text=True)
    return [Record.from_json(json.loads(line)) for line in text.splitlines()]


def test_a_receipt_checks_out_against_a_public_export(app, game) -> None:
    receipt = run_election(app, game)
    assert check_receipt(exported(app, game), receipt) == []


def test_a_changed_reveal_fails_the_receipt(app, game) -> None:
    receipt = run_election(app, game)
    records = exported(app, game)
    index = next(i for i, r in enumerate(records) if r.type == "BallotsRevealed")
    markers = [dict(m) for m in records[index].data["markers"]]
    for m in markers:
        m["kind"] = "decoy" if m["kind"] == "for" else "for"
    records[index] = replace(records[index], data={**records[index].data, "markers": markers})
    problems = check_receipt(records, receipt)
    assert problems and "chain is broken" in problems[0]
    # even re-chained by a forger, the swapped kinds no longer open the commitments
    prev = records[index - 1].hash
    for i in range(index, len(records)):
        records[i] = replace(records[i], hash=records[i].expected_hash(prev))
        prev = records[i].hash
    problems = check_receipt(records, receipt)
    assert any("does not match its commitment" in p for p in problems)
    assert any("placement record's hash" not in p for p in problems)


def test_a_changed_placement_fails_the_receipt(app, game) -> None:
    receipt = run_election(app, game)
    records = exported(app, game)
    index = next(i for i, r in enumerate(records) if r.type == "BallotPlaced")
    markers = [dict(m) for m in records[index].data["markers"]]
    markers[0]["commitment"] = "0" * 64
    records[index] = replace(records[index], data={**records[index].data, "markers": markers})
    prev = records[index - 1].hash
    for i in range(index, len(records)):
        records[i] = replace(records[i], hash=records[i].expected_hash(prev))
        prev = records[i].hash
    problems = check_receipt(records, receipt)
    assert "the placement record's hash differs from the receipt" in problems
    assert "the placement record holds other commitments than the receipt" in problems
