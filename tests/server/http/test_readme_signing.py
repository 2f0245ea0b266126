"""The documented API client that signs (docs/protocol.md, "An API client that signs") runs as
written against a real server: it keys the host's seat and its signed fact is taken and recorded
first as the signed move, which `verify` believes."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game

ROOT = Path(__file__).resolve().parents[3]


def example() -> str:
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text[text.index("### An API client that signs") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def through(client: FlaskClient) -> SimpleNamespace:
    """`requests` as the example uses it, answered by the app in-process."""

    def answer(response: Any) -> Any:
        assert response.status_code == 200, response.get_json()
        return SimpleNamespace(json=response.get_json)

    def path(url: str) -> str:
        return url.removeprefix("http://court.test")

    return SimpleNamespace(
        get=lambda url, headers: answer(client.get(path(url), headers=headers)),
        post=lambda url, json, headers: answer(client.post(path(url), json=json, headers=headers)),
    )


def test_the_documented_client_keys_its_seat_and_signs_a_move(
    client: FlaskClient, app: Flask, game: Game
) -> None:
    code = example().replace(
        "import base64, hashlib, json, secrets, requests", "import base64, hashlib, json, secrets"
    )
    names = {
        "requests": through(client),
        "server": "http://court.test",
        "game": game.id,
        "token": game.host_token,
        "seat": game.seats["stark"],
    }

    exec(compile(code, "docs/protocol.md", "exec"), names)  # the documented example, as written

    records = client.get(f"/api/games/{game.id}/events?after=0").get_json()
    records = records["records"] if isinstance(records, dict) else records
    signed, *rest = [r for r in records if r["type"] in ("MoveSigned", "GoldAdjusted")]
    assert signed["type"] == "MoveSigned" and signed["data"]["message"] == "record_gold"
    assert rest and rest[-1]["data"]["amount"] == 2
    assert client.get(f"/api/games/{game.id}/verify").get_json()["ok"] is True
