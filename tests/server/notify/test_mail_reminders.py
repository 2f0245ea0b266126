"""Reminders by mail, against a local SMTP receiver (aiosmtpd): a seat gives an address, a mail
with a link verifies it, and then its turns (one a step, none while it sits at the table), the
results revealed and the end of the game reach it, from an outbox with retries; removing the
address or handing the seat over stops them; the address is the seat's secret on every path.
Another device of the seat's player, through his key's link, reads no address and drops none;
an address given through a key's link is mailed no more once the key is revoked."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, bearer, lobby_game, start
from tests.server.http.north_election import to_the_north_election
from tests.server.live.live import NAMESPACE, connect
from tests.server.notify.conftest import notifying_app
from tests.server.notify.mailing import (
    ANN,
    CANDIDACY,
    CAT,
    NED,
    elect_robb_after_the_candidacy_turn,
    give,
    mail_app,
    status,
    stop,
    verified,
)
from tests.server.notify.receiver import receiving, told
from tests.server.notify.smtp import SmtpReceiver, smtp_receiving
from tests.server.notify.webhooks import set_webhook


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    with smtp_receiving() as receiver:
        yield receiver


@pytest.fixture
def app(tmp_path: Path, smtp: SmtpReceiver) -> Iterator[Flask]:
    app = mail_app(tmp_path, smtp)
    yield app
    stop(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient) -> Game:
    lobby = lobby_game(client)
    return replace(lobby, started=start(client, lobby))


def turns_of(app: Flask, game: Game, seat: int) -> list[str]:
    """The steps of the "your turn" mails of a seat in the outbox (round:phase:step)."""
    rows = app.extensions["court_store"].mail.rows(game.id)
    keys = [r["notice_key"] for r in rows if r["notice_key"].startswith(f"turn:{seat}:")]
    return [":".join(k.split(":")[2:5]) for k in keys]


def test_a_verified_address_is_told_its_turns_once_a_step_and_the_results(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    give(client, game, "tyrell", CAT)  # never verified: never reminded

    to_the_north_election(client, game)
    smtp.wait_for(lambda mails: any(CANDIDACY in m.text for m in mails))
    elect_robb_after_the_candidacy_turn(client, game)
    [result] = smtp.wait_for_mail(ANN, "Results")

    [turn] = [m for m in smtp.to(ANN) if CANDIDACY in m.text]
    assert f"Player of lannister, it is your turn in game {game.id}: {CANDIDACY}." in turn.text
    assert f"/games/{game.id}\n" in turn.text
    assert "Robb Stark elected" in result.text and game.id in result.subject
    steps = turns_of(app, game, game.seats["lannister"])
    assert steps and len(steps) == len(set(steps))  # one a step
    assert [m.subject for m in smtp.to(CAT)] == [
        f"Confirm your address for Small Council game {game.id}"
    ]
    assert smtp.to(NED) == []
    for mail in smtp.mails:  # no token of any seat in any mail
        assert not any(token in mail.text for token in (game.host_token, *game.tokens.values()))
        assert mail.message["Auto-Submitted"] == "auto-generated"


def test_a_seat_at_the_table_is_not_mailed_and_one_away_is(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    verified(client, game, "stark", NED, smtp)
    at_the_table = connect(app, game, game.tokens["lannister"])

    to_the_north_election(client, game)
    elect_robb_after_the_candidacy_turn(client, game)
    smtp.wait_for_mail(NED, "Results")

    assert [m for m in smtp.to(ANN) if "Confirm" not in m.subject] == []
    assert turns_of(app, game, game.seats["lannister"]) == []
    at_the_table.disconnect(namespace=NAMESPACE)


def test_a_removed_address_is_mailed_no_more(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    verified(client, game, "stark", NED, smtp)

    response = client.delete(f"/api/games/{game.id}/mail", headers=game.auth("lannister"))
    to_the_north_election(client, game)
    elect_robb_after_the_candidacy_turn(client, game)
    smtp.wait_for_mail(NED, "Results")

    assert response.get_json() == {"removed": True}
    assert status(client, game, game.auth("lannister")) == {
        "address": None,
        "verified": False,
        "mail": True,
    }
    assert [m for m in smtp.to(ANN) if "Confirm" not in m.subject] == []


def test_a_seat_handed_to_a_new_player_drops_the_address(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    verified(client, game, "stark", NED, smtp)
    seat = game.seats["lannister"]

    handed = client.post(
        f"/api/games/{game.id}/commands/hand_seat",
        json={"seat": seat, "player_name": "Eve"},
        headers=game.host,
    ).get_json()
    new = replace(game, tokens={**game.tokens, "lannister": handed["token"]})
    to_the_north_election(client, new)
    elect_robb_after_the_candidacy_turn(client, new)
    smtp.wait_for_mail(NED, "Results")

    assert status(client, game, bearer(handed["token"]))["address"] is None
    assert app.extensions["court_store"].mail.seat_mail(game.id, seat) is None
    assert [m for m in smtp.to(ANN) if "Confirm" not in m.subject] == []


def test_the_address_is_never_shown_to_anyone_but_its_seat(
    app: Flask,
    client: FlaskClient,
    game: Game,
    smtp: SmtpReceiver,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    verified(client, game, "lannister", ANN, smtp)
    to_the_north_election(client, game)
    smtp.wait_for_mail(ANN, "Your turn")

    others = [game.host, game.auth("tyrell"), {}]
    seen = [
        client.get(f"/api/games/{game.id}{path}", headers=headers).get_data(as_text=True)
        for path in ("", "/events", "/export", "/history", "/changes")
        for headers in others
    ]
    seen += [status(client, game, headers) for headers in others[:2]]  # their own: none
    assert all(ANN not in str(body) for body in seen)
    # The server's own log lines; the receiver's ("mail.log") stand for the world outside.
    server_lines = [r.getMessage() for r in caplog.records if r.name != "mail.log"]
    assert all(ANN not in line for line in server_lines)
    assert all(ANN not in str(row) for row in app.extensions["court_store"].mail.rows(game.id))
    assert status(client, game, game.auth("lannister"))["address"] == ANN


@pytest.mark.parametrize(
    ("address", "status_code", "code"),
    [
        ("not an address", 400, "mail_address"),
        ("ann@", 400, "mail_address"),
        ("a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".org", 400, "mail_too_long"),
        ("x" * 400 + "@example.org", 400, "bad_request"),
        ("", 400, "bad_request"),
        ("\ud800@example.org", 400, "mail_address"),
        ("ann@court.test", 400, "mail_domain_reserved"),
        ("ann@printer.local", 400, "mail_domain_reserved"),
    ],
)
def test_an_address_that_is_no_address_is_refused_with_a_sentence(
    client: FlaskClient, game: Game, address: str, status_code: int, code: str
) -> None:
    response = client.put(
        f"/api/games/{game.id}/mail", json={"address": address}, headers=game.auth("lannister")
    )

    body = response.get_json()
    assert (response.status_code, body["code"]) == (status_code, code), body
    assert body["message"].endswith(".")
    assert status(client, game, game.auth("lannister"))["address"] is None


@pytest.mark.parametrize(
    ("headers", "status_code", "code"),
    [
        ({}, 401, "token_required"),
        (bearer("no-such-token"), 401, "bad_token"),
    ],
)
def test_only_a_seat_token_reads_or_gives_an_address(
    client: FlaskClient, game: Game, headers: dict[str, str], status_code: int, code: str
) -> None:
    for method in ("GET", "PUT", "DELETE"):
        body = {"address": ANN} if method == "PUT" else None
        response = client.open(
            f"/api/games/{game.id}/mail", method=method, json=body, headers=headers
        )
        assert (response.status_code, response.get_json()["code"]) == (status_code, code)


def test_an_unknown_used_or_expired_link_verifies_nothing(
    client: FlaskClient, game: Game, smtp: SmtpReceiver, tmp_path: Path
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    [mail] = smtp.wait_for_mail(ANN, "Confirm")

    used = client.post(f"/api/games/{game.id}/mail/verify", json={"code": mail.code})
    unknown = client.post(f"/api/games/{game.id}/mail/verify", json={"code": "no-such-code"})
    # A code no link holds, one the sweep of hostile bodies once made the server fail on.
    surrogate = client.post(f"/api/games/{game.id}/mail/verify", json={"code": "\ud800"})
    other_game = client.post("/api/games/nosuchgame/mail/verify", json={"code": mail.code})

    assert (used.status_code, used.get_json()["code"]) == (409, "mail_link_unknown")
    assert (unknown.status_code, unknown.get_json()["code"]) == (409, "mail_link_unknown")
    assert other_game.status_code == 404
    assert (surrogate.status_code, surrogate.get_json()["code"]) == (400, "bad_request")


def test_a_link_past_its_hours_verifies_nothing(tmp_path: Path, smtp: SmtpReceiver) -> None:
    app = mail_app(tmp_path, smtp, MAIL_VERIFY_HOURS=-1.0)
    try:
        client = app.test_client()
        game = lobby_game(client)
        give(client, game, "lannister", ANN)
        [mail] = smtp.wait_for_mail(ANN, "Confirm")

        response = client.post(f"/api/games/{game.id}/mail/verify", json={"code": mail.code})

        assert (response.status_code, response.get_json()["code"]) == (409, "mail_link_unknown")
        assert status(client, game, game.auth("lannister"))["verified"] is False
    finally:
        stop(app)


def test_asking_again_within_a_minute_is_refused(
    client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    give(client, game, "lannister", ANN)

    response = client.put(
        f"/api/games/{game.id}/mail", json={"address": CAT}, headers=game.auth("lannister")
    )

    assert (response.status_code, response.get_json()["code"]) == (409, "mail_too_soon")
    assert len(smtp.wait_for_mail(ANN, "Confirm")) == 1 and smtp.to(CAT) == []


def test_a_server_without_a_mail_server_says_so(tmp_path: Path) -> None:
    app = notifying_app(tmp_path)
    try:
        client = app.test_client()
        game = lobby_game(client)

        response = client.put(
            f"/api/games/{game.id}/mail", json={"address": ANN}, headers=game.auth("lannister")
        )

        assert (response.status_code, response.get_json()["code"]) == (409, "mail_off")
        assert status(client, game, game.auth("lannister"))["mail"] is False
    finally:
        stop(app)


def test_a_mail_server_that_cannot_take_the_link_mail_is_named(tmp_path: Path) -> None:
    with smtp_receiving(refuse=True, failing="Confirm") as smtp:
        app = mail_app(tmp_path, smtp)
        try:
            client = app.test_client()
            game = lobby_game(client)

            response = client.put(
                f"/api/games/{game.id}/mail", json={"address": ANN}, headers=game.auth("lannister")
            )

            body = response.get_json()
            assert (response.status_code, body["code"]) == (409, "mail_failed")
            assert "550" in body["message"]
            assert status(client, game, game.auth("lannister"))["address"] is None
        finally:
            stop(app)


def test_a_reminder_refused_for_a_while_is_sent_again_and_one_refused_for_good_is_not(
    tmp_path: Path,
) -> None:
    with smtp_receiving(failures=2, failing="Your turn") as smtp:
        app = mail_app(tmp_path / "later", smtp)
        try:
            client = app.test_client()
            game = lobby_game(client)
            game = replace(game, started=start(client, game))
            verified(client, game, "lannister", ANN, smtp)
            to_the_north_election(client, game)
            smtp.wait_for(lambda mails: any(CANDIDACY in m.text for m in mails))
            rows = settled(app, game)
            [row] = [r for r in rows if CANDIDACY.split(",")[0] in r["text"]]
            assert (row["state"], row["attempts"]) == ("sent", 3)
        finally:
            stop(app)
    with smtp_receiving(refuse=True, failing="Your turn") as smtp:
        app = mail_app(tmp_path / "never", smtp)
        try:
            client = app.test_client()
            game = lobby_game(client)
            game = replace(game, started=start(client, game))
            verified(client, game, "lannister", ANN, smtp)
            to_the_north_election(client, game)
            rows = settled(app, game)
            turns = [r for r in rows if r["notice_key"].startswith("turn:")]
            assert turns and all((r["state"], r["attempts"]) == ("failed", 1) for r in turns)
            assert {r["last_error"] for r in turns} == {"the mail server answered 550"}
            assert [m.subject for m in smtp.to(ANN)] == [
                f"Confirm your address for Small Council game {game.id}"
            ]
        finally:
            stop(app)


def settled(app: Flask, game: Game, seconds: float = 10.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    while True:
        rows: list[dict[str, Any]] = app.extensions["court_store"].mail.rows(game.id)
        if rows and all(r["state"] != "pending" for r in rows):
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.05)


def test_a_slow_mail_server_holds_up_no_webhook_notice(tmp_path: Path) -> None:
    with smtp_receiving(delay=2.0, failing="Your turn") as smtp, receiving() as hook:
        app = mail_app(tmp_path, smtp, MAIL_TIMEOUT=5.0)
        try:
            client = app.test_client()
            game = lobby_game(client)
            game = replace(game, started=start(client, game))
            verified(client, game, "lannister", ANN, smtp)
            set_webhook(client, game, hook.url)

            to_the_north_election(client, game)
            turn = f"It is Player of lannister's turn: {CANDIDACY}."
            hook.wait_for(lambda texts: turn in told(texts, f"Game {game.id}"))

            # The mails of the same turns wait on the slow server; the chat heard them all.
            assert not any(CANDIDACY in m.text for m in smtp.to(ANN))
            smtp.wait_for(lambda mails: any(CANDIDACY in m.text for m in mails), seconds=30)
        finally:
            stop(app)


MINE = "/api/keys/mine"


def key_of(client: FlaskClient, game: Game, house: str) -> tuple[dict, str]:
    """A key of the seat's token, and the link a device that opens it plays the seat with."""
    body = {"seats": [{"game_id": game.id, "token": game.tokens[house]}]}
    made = client.post("/api/keys", json=body).get_json()
    link = client.get(MINE, headers=bearer(made["key"])).get_json()["seats"][0]["token"]
    return made, link


def test_another_device_through_a_key_reads_no_address_and_drops_none(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "lannister", ANN, smtp)
    _, phone = key_of(client, game, "lannister")

    assert status(client, game, bearer(phone)) == {"address": None, "verified": False, "mail": True}

    assert status(client, game, game.auth("lannister"))["address"] == ANN
    to_the_north_election(client, game)
    elect_robb_after_the_candidacy_turn(client, game)
    smtp.wait_for_mail(ANN, "Results")


def test_an_address_given_through_a_key_s_link_is_mailed_no_more_once_the_key_is_revoked(
    app: Flask, client: FlaskClient, game: Game, smtp: SmtpReceiver
) -> None:
    verified(client, game, "stark", NED, smtp)
    made, link = key_of(client, game, "lannister")
    answer = client.put(f"/api/games/{game.id}/mail", json={"address": CAT}, headers=bearer(link))
    assert answer.status_code == 200, answer.get_json()
    [mail] = smtp.wait_for_mail(CAT, "Confirm")
    client.post(f"/api/games/{game.id}/mail/verify", json={"code": mail.code})
    assert status(client, game, bearer(link))["verified"] is True

    assert client.delete(MINE, headers=bearer(made["maker"])).status_code == 200
    to_the_north_election(client, game)
    elect_robb_after_the_candidacy_turn(client, game)
    smtp.wait_for_mail(NED, "Results")

    assert [m.subject for m in smtp.to(CAT) if "Confirm" not in m.subject] == []
    # the seat's own token reads no address the dropped link gave, and it is gone
    assert status(client, game, game.auth("lannister"))["address"] is None
    assert app.extensions["court_store"].mail.seat_mail(game.id, game.seats["lannister"]) is None
