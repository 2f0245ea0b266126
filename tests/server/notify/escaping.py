"""Names that try to break out of a notice's markdown or HTML, and what Discord and Slack
show of a text."""

from __future__ import annotations

import html
import re
from typing import Any

from flask.testing import FlaskClient

from tests.server.http.court_client import Game, create_game

HOSTILE = {
    "stark": "[Claim your seat](https://evil.example)",
    "lannister": "@everyone <@123> <#456> @here",
    "tyrell": "**b** _i_ ~s~ `c` ||x|| <https://e.co|y>",
}


DISCORD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def hostile_game(client: FlaskClient, names: dict[str, str] = HOSTILE, **body: Any) -> Game:
    """A game (created with `body`) whose players took the Houses under these names."""
    created = create_game(client, **body)
    tokens, seats = {}, {}
    for index, (house, name) in enumerate(names.items()):
        answer = client.post(
            f"/api/games/{created['game_id']}/commands/join",
            json={"house": house, "player_name": name, "invite": created["invite"]},
            headers={"Authorization": f"Bearer {created['host_token']}"} if index == 0 else {},
        )
        assert answer.status_code == 201, answer.get_json()
        tokens[house], seats[house] = answer.get_json()["token"], answer.get_json()["seat"]
    return Game(created["game_id"], created["host_token"], tokens, seats)


def unescaped_marks(text: str) -> str:
    """The Discord text without its escaped characters: what markdown can still read."""
    return DISCORD_ESCAPE.sub("", text)


def shown_in_discord(text: str) -> str:
    return DISCORD_ESCAPE.sub(r"\1", text).replace("\u200b", "")


def shown_in_slack(text: str) -> str:
    return html.unescape(text).replace("\u200b", "")
