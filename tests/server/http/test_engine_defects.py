"""No game can crash the server or hurt another (R-4.3): a decision that fails, or that would
lead to a court the invariants refuse, is refused with a code and logged as an engine defect
(game and command named, no secret), and nothing is stored; the deadline watcher logs a game
it cannot close and goes on with the others; start-up never fails because of one game."""

from __future__ import annotations

import logging
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from court.commands import JoinSeat, MarkerChoice, PlaceBallot, PlaceBid, describe
from court.decide import facts
from court.events import GoldAdjusted
from court.ids import HouseId, NobleId
from tests.server.http.court_client import Game, error_body, lobby_game, start


def gold(client: FlaskClient, game: Game, amount: int = 2) -> object:
    return client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": amount, "cause": "tax"},
        headers=game.host,
    )


def head(app: Flask, game: Game) -> tuple[int, str] | None:
    return app.extensions["court_store"].head(game.id)


@pytest.mark.parametrize("defect", ["breaks-an-invariant", "raises"])
def test_an_engine_defect_is_refused_with_a_code_logged_and_never_stored(
    app: Flask,
    client: FlaskClient,
    game: Game,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    defect: str,
) -> None:
    """Write-time checks equal restore-time checks: a treasury below zero (R-2.1) is never
    stored, whatever the engine decides."""

    def broken(state, cmd, actor):  # an engine that lost its check
        if defect == "raises":
            raise KeyError("protector")
        return (GoldAdjusted(house=cmd.house, amount=-1000, cause=cmd.cause),)

    monkeypatch.setattr(facts, "adjust_gold", broken)
    before = head(app, game)

    with caplog.at_level(logging.ERROR, logger="small_council.service"):
        response = gold(client, game)

    error_body(response, 409, "engine_defect")
    assert head(app, game) == before
    logged = [r for r in caplog.records if "engine defect" in r.getMessage()]
    assert logged and game.id in logged[0].getMessage()
    assert "AdjustGold" in logged[0].getMessage()


def test_a_defect_of_one_game_leaves_the_others_playing(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = lobby_game(client), lobby_game(client)
    start(client, first)
    start(client, second)
    original = facts.adjust_gold

    def broken_for_the_first(state, cmd, actor):
        if state.game_id == first.id:
            raise RuntimeError("defect")
        return original(state, cmd, actor)

    monkeypatch.setattr(facts, "adjust_gold", broken_for_the_first)
    error_body(gold(client, first), 409, "engine_defect")
    assert gold(client, second).status_code == 200
    assert client.get(f"/api/games/{first.id}").status_code == 200


def test_the_deadline_watcher_goes_on_after_a_game_it_cannot_close(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    """R-4.3: one game's failure never stops another's deadline."""
    broken, healthy = (lobby_game(client, deadlines={"decree": 1}) for _ in range(2))
    for game in (broken, healthy):  # each stops in its first decree step
        response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
        assert response.status_code == 200
    service = app.extensions["court"]
    handle = service.handle

    def failing(game_id, command, actor):
        if game_id == broken.id:
            raise RuntimeError("a defect closing this game")
        return handle(game_id, command, actor)

    monkeypatch.setattr(service, "handle", failing)
    watcher = app.extensions["deadlines"]
    time.sleep(1.1)
    with caplog.at_level(logging.ERROR, logger="small_council.deadlines"):
        closed = watcher.close_overdue_now()  # start-up: must not raise
    assert closed == 1
    assert any(broken.id in r.getMessage() for r in caplog.records)
    after = client.get(f"/api/games/{healthy.id}/events?limit=200").get_json()["records"]
    assert "DecreeTimedOut" in [r["type"] for r in after]


@pytest.mark.parametrize(
    "command",
    [
        PlaceBallot(
            markers=(MarkerChoice(kind="for", candidate=NobleId("robb-stark"), salt="s3cr3t-salt"),)
        ),
        PlaceBid(amount=7, salt="s3cr3t-salt"),
        JoinSeat(house=HouseId("stark"), player_name="Ann", token_sha256="s3cr3t-digest"),
    ],
    ids=["ballot", "bid", "join"],
)
def test_a_command_logged_for_the_operator_carries_no_secret(command) -> None:
    """Secrets stay secret on every path, the operator's log too (section 10)."""
    logged = describe(command)
    assert type(command).__name__ in logged
    for secret in ("s3cr3t", "robb-stark", "for'", "7"):
        assert secret not in logged, (secret, logged)
