"""An app that mails its reminders to a local SMTP receiver, the addresses its tests give and
verify, and the election they play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game
from tests.server.http.north_election import post
from tests.server.notify.conftest import notifying_app
from tests.server.notify.conftest import stop as stop_notices
from tests.server.notify.smtp import SmtpReceiver
from tests.server.notify.webhooks import BALLOT

ANN, CAT, NED = "ann@example.org", "cat@example.org", "ned@example.org"
PUBLIC = "https://court.example"
CANDIDACY = "Warden of the North election, candidacy"


def mail_app(tmp_path: Path, smtp: SmtpReceiver, **settings: Any) -> Flask:
    tmp_path.mkdir(parents=True, exist_ok=True)
    mailing = {
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": smtp.port,
        "SMTP_SECURITY": "none",
        "MAIL_FROM": "court@example.org",
        "MAIL_TIMEOUT": 2.0,
        "MAIL_BACKOFF": 0.05,
        "MAIL_ATTEMPTS": 4,
        "MAIL_TURN_GAP": 0.0,
        "PUBLIC_URL": PUBLIC,
    }
    return notifying_app(tmp_path, **{**mailing, **settings})


def stop(app: Flask) -> None:
    sender = app.extensions["reminders"].sender
    if sender is not None:
        sender.stop()
    stop_notices(app)


def give(client: FlaskClient, game: Game, house: str, address: str) -> dict[str, Any]:
    response = client.put(
        f"/api/games/{game.id}/mail", json={"address": address}, headers=game.auth(house)
    )
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def verified(client: FlaskClient, game: Game, house: str, address: str, smtp: SmtpReceiver) -> None:
    """The seat gives the address and opens the link of the mail that arrives."""
    assert give(client, game, house, address) == {
        "address": address,
        "verified": False,
        "mail": True,
    }
    [mail] = smtp.wait_for_mail(address, "Confirm")
    assert f"/games/{game.id}#mail=" in mail.text
    response = client.post(f"/api/games/{game.id}/mail/verify", json={"code": mail.code})
    assert response.status_code == 200, response.get_json()
    assert status(client, game, game.auth(house))["verified"] is True


def status(client: FlaskClient, game: Game, headers: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game.id}/mail", headers=headers)
    assert response.status_code == 200, response.get_json()
    found: dict[str, Any] = response.get_json()
    return found


def elect_robb_after_the_candidacy_turn(client: FlaskClient, game: Game) -> None:
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    post(client, game, "commands/place_ballot", game.auth("stark"), BALLOT)
