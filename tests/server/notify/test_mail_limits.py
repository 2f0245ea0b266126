"""Nobody fires the court's mail at a stranger: the mails with a verification link are counted
per seat, per address and per game over an hour, in a table that no request removes a row of
(removing the address and giving it again counts as one more); their links and the reminders'
start with PUBLIC_URL whatever Host header the request named; and what players typed reaches
the mail as plain text, never as a link, markup or a header."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from server.notify.mail import SmtpSettings, message
from tests.server.http.court_client import Game, lobby_game, start
from tests.server.http.north_election import to_the_north_election
from tests.server.notify.escaping import hostile_game
from tests.server.notify.mailing import (
    ANN,
    CAT,
    NED,
    PUBLIC,
    elect_robb_after_the_candidacy_turn,
    mail_app,
    stop,
)
from tests.server.notify.smtp import Mail, SmtpReceiver, smtp_receiving

LIMITS = {"MAIL_LINKS_PER_SEAT": 3, "MAIL_LINKS_PER_ADDRESS": 4, "MAIL_LINKS_PER_GAME": 5}
MINUTE, HOUR = 60.0, 3600.0
# What a mail reader makes a link of: a scheme, a dotted host, an address.
LINK_LIKE = re.compile(r"https?://|www\.\w|evil\.example|@evil", re.IGNORECASE)


class Clock:
    """The reminders' clock, moved by the test (from now: the outbox's sender reads the
    real one)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    with smtp_receiving() as receiver:
        yield receiver


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, smtp: SmtpReceiver, clock: Clock) -> Iterator[Flask]:
    app = mail_app(tmp_path, smtp, **LIMITS)
    app.extensions["reminders"].clock = clock
    yield app
    stop(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def give(
    client: FlaskClient, game: Game, house: str, address: str, **headers: str
) -> tuple[int, dict[str, Any]]:
    response = client.put(
        f"/api/games/{game.id}/mail",
        json={"address": address},
        headers={**game.auth(house), **headers},
    )
    body: dict[str, Any] = response.get_json()
    return response.status_code, body


def remove(client: FlaskClient, game: Game, house: str) -> None:
    response = client.delete(f"/api/games/{game.id}/mail", headers=game.auth(house))
    assert response.status_code == 200, response.get_json()


def links(smtp: SmtpReceiver, address: str) -> list[Mail]:
    return [m for m in smtp.to(address) if m.subject.startswith("Confirm")]


def test_removing_and_giving_again_sends_no_more_than_one_link_a_minute(
    client: FlaskClient, smtp: SmtpReceiver
) -> None:
    game = lobby_game(client)
    answers = []
    for _ in range(9):
        remove(client, game, "lannister")
        answers.append(give(client, game, "lannister", ANN))

    assert answers[0] == (200, {"address": ANN, "verified": False, "mail": True})
    assert {(code, body["code"]) for code, body in answers[1:]} == {(409, "mail_too_soon")}
    assert all(body["message"].endswith(".") for _, body in answers[1:])
    assert len(links(smtp, ANN)) == 1


def test_a_seat_asking_again_every_minute_gets_its_hourly_share_and_no_more(
    client: FlaskClient, smtp: SmtpReceiver, clock: Clock
) -> None:
    game = lobby_game(client)
    answers = []
    for _ in range(6):
        remove(client, game, "lannister")
        answers.append(give(client, game, "lannister", ANN))
        clock.now += MINUTE + 1

    assert [code for code, _ in answers] == [200, 200, 200, 409, 409, 409]
    assert {body["code"] for _, body in answers[3:]} == {"mail_limit_seat"}
    assert len(links(smtp, ANN)) == LIMITS["MAIL_LINKS_PER_SEAT"]
    clock.now += HOUR  # an hour after the first, the seat may ask again
    assert give(client, game, "lannister", ANN)[0] == 200


def test_an_address_gets_its_hourly_share_across_seats_and_games(
    client: FlaskClient, smtp: SmtpReceiver
) -> None:
    games = [lobby_game(client), lobby_game(client)]
    answers = [give(client, game, house, ANN) for game in games for house in game.tokens]
    spelled = give(client, games[1], "tyrell", "ANN+again@Example.org")  # one mailbox still

    assert [code for code, _ in answers] == [200, 200, 200, 200, 409, 409]
    assert {body["code"] for _, body in answers[4:]} == {"mail_limit_address"}
    assert (spelled[0], spelled[1]["code"]) == (409, "mail_limit_address")
    assert len(links(smtp, ANN)) == LIMITS["MAIL_LINKS_PER_ADDRESS"]
    assert give(client, games[1], "tyrell", CAT)[0] == 200  # another address is not held up


def test_a_game_gets_its_hourly_share_across_its_seats_and_addresses(
    client: FlaskClient, smtp: SmtpReceiver, clock: Clock
) -> None:
    game = lobby_game(client)
    other = lobby_game(client)
    addresses = iter(f"player{n}@example.org" for n in range(20))
    answers = []
    for _ in range(3):
        answers += [give(client, game, house, next(addresses)) for house in game.tokens]
        clock.now += MINUTE + 1

    assert [code for code, _ in answers] == [200] * 5 + [409] * 4
    assert {body["code"] for _, body in answers[5:]} == {"mail_limit_game"}
    assert len(smtp.mails) == LIMITS["MAIL_LINKS_PER_GAME"]
    assert give(client, other, "stark", next(addresses))[0] == 200  # another game is not


def test_the_limits_hold_for_a_new_server_on_the_same_database(
    tmp_path: Path, smtp: SmtpReceiver, clock: Clock
) -> None:
    # given a seat that had its link, on a server that then stopped
    first = mail_app(tmp_path, smtp, **LIMITS)
    first.extensions["reminders"].clock = clock
    try:
        game = lobby_game(first.test_client())
        assert give(first.test_client(), game, "lannister", ANN)[0] == 200
    finally:
        stop(first)
    # when the seat asks again at once from a server started anew on the same database
    database = first.config["DATABASE_URL"]
    second = mail_app(tmp_path / "second", smtp, **LIMITS, DATABASE_URL=database)
    second.extensions["reminders"].clock = clock
    try:
        again = give(second.test_client(), game, "lannister", ANN)
    finally:
        stop(second)
    # then it is refused as it would have been by the first
    assert (again[0], again[1]["code"]) == (409, "mail_too_soon")
    assert len(links(smtp, ANN)) == 1


def test_links_name_the_public_url_whatever_host_the_request_named(
    app: Flask, client: FlaskClient, smtp: SmtpReceiver
) -> None:
    game = lobby_game(client)
    game = replace(game, started=start(client, game))
    forged = {"Host": "login-court.evil.example", "X-Forwarded-Host": "evil.example"}

    assert give(client, game, "lannister", ANN, **forged)[0] == 200
    [link] = links(smtp, ANN)
    verified = client.post(f"/api/games/{game.id}/mail/verify", json={"code": link.code})
    to_the_north_election(client, game)
    [turn] = smtp.wait_for_mail(ANN, "Your turn")

    assert verified.status_code == 200, verified.get_json()
    assert f"\n{PUBLIC}/games/{game.id}#mail={link.code}\n" in link.text
    assert f"\n{PUBLIC}/games/{game.id}\n" in turn.text
    assert not any("evil" in mail.text for mail in smtp.mails)


# Names like links and markup, in a game named like a link.
HOSTILE = {
    "stark": "<a href=//evil.example>Claim</a>",
    "lannister": "https://evil.example/win www.x.io",
    "tyrell": "ann@evil.example <b>x</b>",
}


def test_names_players_typed_reach_the_mails_as_plain_text_and_no_link(
    client: FlaskClient, smtp: SmtpReceiver
) -> None:
    game = hostile_game(client, HOSTILE, name="Claim at www.evil.example now")
    game = replace(game, started=start(client, game))
    for house, address in (("lannister", ANN), ("stark", NED)):
        assert give(client, game, house, address)[0] == 200
        [link] = links(smtp, address)
        client.post(f"/api/games/{game.id}/mail/verify", json={"code": link.code})
    to_the_north_election(client, game)
    elect_robb_after_the_candidacy_turn(client, game)
    smtp.wait_for_mail(ANN, "Results")

    for mail in smtp.mails:
        assert mail.message.get_content_type() == "text/plain"
        assert not mail.message.is_multipart()
        ours = f"{PUBLIC}/games/{game.id}"
        typed = re.sub(rf"{re.escape(ours)}(#mail=[\w-]+)?", "", mail.text)
        assert not LINK_LIKE.search(typed), typed
        assert not LINK_LIKE.search(mail.subject), mail.subject
    # each name reads as typed once the invisible breaks are taken out
    [link] = links(smtp, ANN)
    turn = next(m for m in smtp.to(ANN) if m.subject.startswith("Your turn"))
    for mail in (link, turn):
        assert HOSTILE["lannister"] in mail.text.replace("\u200b", ""), mail.text
    assert turn.subject.replace("\u200b", "").endswith("“Claim at www.evil.example now”")


@pytest.mark.parametrize("breaking", ["\r\nBcc: eve@evil.example", "\nBcc: eve@evil.example"])
def test_a_subject_with_a_line_break_makes_no_header_of_its_own(breaking: str) -> None:
    smtp = SmtpSettings(host="127.0.0.1", sender="court@example.org")

    made = message(smtp, ANN, f"Your turn{breaking}", "text")

    assert made["Bcc"] is None
    assert [str(v) for k, v in made.items() if k == "Subject"] == [
        "Your turn Bcc: eve@evil.example"
    ]
    assert made.as_bytes().count(b"\nBcc") == 0
