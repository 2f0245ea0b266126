"""Steps close by themselves at their deadline, also after a restart (R-4.3)."""

from __future__ import annotations

import logging
import time

from flask import Flask

from app import create_app, start_deadlines
from tests.databases import migrated
from tests.server.http.court_client import Game, lobby_game, next_round, start

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def open_north_election(app: Flask, deadline: int) -> Game:
    client = app.test_client()
    game = lobby_game(client, deadlines={"candidacy": deadline, "ballot": deadline})
    start(client, game)
    for village in NORTH:
        client.post(
            f"/api/games/{game.id}/commands/record_village",
            headers=game.host,
            json={"village": village, "house": "stark", "cause": "battle"},
        )
    next_round(client, game)
    election = client.get(f"/api/games/{game.id}").get_json()["election"]
    assert election["id"] == "warden-north" and election["deadline"] > time.time()
    return game


def types(app: Flask, game: Game) -> list[str]:
    records = app.test_client().get(f"/api/games/{game.id}/events?limit=200").get_json()
    return [r["type"] for r in records["records"]]


def test_an_overdue_step_closes_when_the_server_starts(tmp_path) -> None:
    url = migrated(tmp_path / "court.db")
    first = create_app({"DATABASE_URL": url, "DEADLINES": False})
    game = open_north_election(first, deadline=1)
    time.sleep(1.2)
    assert "StepTimedOut" not in types(first, game)
    second = create_app({"DATABASE_URL": url})
    assert "StepTimedOut" not in types(second, game)  # only a serving process closes steps
    start_deadlines(second)
    try:
        after = types(second, game)
        assert "StepTimedOut" in after
        # everyone passed the candidacy: no candidate, so the election is skipped
        assert after[after.index("StepTimedOut") + 1] == "ElectionSkipped"
    finally:
        second.extensions["deadlines"].stop()


def test_a_step_closes_by_itself_while_the_server_runs(tmp_path) -> None:
    app = create_app({"DATABASE_URL": migrated(tmp_path / "court.db")})
    start_deadlines(app)
    try:
        game = open_north_election(app, deadline=1)
        limit = time.monotonic() + 10
        while "StepTimedOut" not in types(app, game) and time.monotonic() < limit:
            time.sleep(0.1)
        assert "StepTimedOut" in types(app, game)
    finally:
        app.extensions["deadlines"].stop()


def test_a_players_time_bank_running_out_is_closed_by_the_server(tmp_path) -> None:
    """R-4.3 clocks variant: nobody sends a command; when the first player's one-second decree
    bank runs out, the server records him as timed out and the step goes on with the next."""
    app = create_app({"DATABASE_URL": migrated(tmp_path / "court.db")})
    start_deadlines(app)
    try:
        client = app.test_client()
        game = lobby_game(client, variants={"clocks": True}, clocks=_one_second_decrees())
        response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
        assert response.status_code == 200, response.get_json()
        assert types(app, game)[-1] == "ClockStarted"
        limit = time.monotonic() + 10
        while "DecreeTimedOut" not in types(app, game) and time.monotonic() < limit:
            time.sleep(0.1)
        records = client.get(f"/api/games/{game.id}/events?limit=200").get_json()["records"]
        timed_out = next(r for r in records if r["type"] == "DecreeTimedOut")
        assert timed_out["data"]["seats"] == [0]
        assert "The clock ran out in 1.1.1 Marriages (R-4.3)" in timed_out["text"]
        after = records[records.index(timed_out) + 1 :]
        assert [r["type"] for r in after[:2]] == ["ClockStopped", "ClockStarted"]
        assert after[1]["data"]["seat"] == 1
    finally:
        app.extensions["deadlines"].stop()


def _one_second_decrees() -> dict[str, int]:
    return {"candidacy": 0, "ballot": 0, "decree": 1, "title_choice": 0, "purchase": 0}


def test_a_game_the_table_ends_mid_step_says_so_once_in_the_log(tmp_path, caplog) -> None:
    """R-4.3, R-9.2: a game the seats end while a player's clock runs leaves no deadline to
    close: when that clock would have run out nothing is tried, and the log has one line
    saying the game ended, not a refusal (`game_ended`) per deadline once watched."""
    app = create_app({"DATABASE_URL": migrated(tmp_path / "court.db")})
    start_deadlines(app)
    try:
        client = app.test_client()
        with caplog.at_level(logging.INFO, logger="small_council.deadlines"):
            game = lobby_game(client, variants={"clocks": True}, clocks=_one_second_decrees())
            started = client.post(
                f"/api/games/{game.id}/commands/start", json={}, headers=game.host
            )
            assert started.status_code == 200, started.get_json()
            for house in ("lannister", "tyrell"):
                voted = client.post(
                    f"/api/games/{game.id}/commands/vote_end", json={}, headers=game.auth(house)
                )
                assert voted.status_code == 200, voted.get_json()
            assert types(app, game)[-1] in ("GameEnded", "ClockStopped")
            time.sleep(1.5)
        said = [r.getMessage() for r in caplog.records if r.name == "small_council.deadlines"]
        assert not [line for line in said if "game_ended" in line], said
        assert len([line for line in said if f"game {game.id} ended" in line]) == 1, said
    finally:
        app.extensions["deadlines"].stop()
