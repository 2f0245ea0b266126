"""Notices to a game's webhook: whose turn it is, an election's result and the end of the game reach
a local receiver as JSON Discord and Slack both take, from the outbox, with retries; a receiver down
never slows a command; no notice carries a secret; a game without a webhook writes nothing. These
tests post each notice alone (NOTICES_GROUP 0) and tell every move: test_digests.py groups them
and tells steps and results."""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, bearer, lobby_game, start
from tests.server.http.north_election import post, to_the_north_election
from tests.server.notify.receiver import free_port_url, receiving, told
from tests.server.notify.webhooks import elect_robb, lead, outbox, set_webhook


def wait_until_settled(app: Flask, game: Game, seconds: float = 10.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    while True:
        rows = outbox(app, game)
        if rows and all(r["state"] != "pending" for r in rows):
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.05)


def test_the_players_turn_the_ballot_and_the_result_reach_the_webhook(
    client: FlaskClient, game: Game
) -> None:
    with receiving() as receiver:
        set_webhook(client, game, receiver.url)
        elect_robb(client, game)
        ballot = "It is Player of stark's turn: Warden of the North election, ballot."
        result = "Round 2, Warden of the North: Robb Stark elected with 5 votes."
        receiver.wait_for(lambda texts: result in told(texts, lead(game)))
        texts = told(receiver.texts(), lead(game))
        assert "It is Player of lannister's turn: Warden of the North election, candidacy." in texts
        assert texts.index(ballot) < texts.index(result)
        turns = [t for t in texts if t.startswith("It is ")]
        assert len(turns) == len(set(turns))  # each turn told once
        assert all(p["text"] == p["content"] for p in receiver.posts)  # Slack's and Discord's
        assert set(receiver.paths) == {"/api/webhooks/1234/s3cr3t-webhook"}


def test_a_receiver_failing_twice_gets_the_notice_on_the_third_attempt(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    with receiving(failures=2) as receiver:
        set_webhook(client, game, receiver.url, digest="steps")
        to_the_north_election(client, game)
        wanted = "It is Player of lannister's turn: Warden of the North election, candidacy."
        receiver.wait_for(lambda texts: told(texts, lead(game)).count(wanted) == 3)
        rows = wait_until_settled(app, game)
    assert {(r["state"], r["attempts"], r["last_error"]) for r in rows} == {("sent", 3, None)}
    posted = told(receiver.texts(), lead(game))
    assert sorted(posted) == sorted(r["text"] for r in rows for _ in range(3))


def test_a_receiver_that_hangs_or_is_down_slows_no_command(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    with receiving(delay=3.0) as receiver:
        set_webhook(client, game, receiver.url)
        began = time.monotonic()
        to_the_north_election(client, game)
        post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
        took = time.monotonic() - began
    assert took < 2.0, f"the commands took {took:.1f} s"
    set_webhook(client, game, free_port_url())
    post(client, game, "commands/pass", game.auth("tyrell"))
    rows = wait_until_settled(app, game, seconds=40)  # each notice tried 4 times, in order
    down = rows[-1]
    assert down["state"] == "failed" and down["attempts"] == 4, down
    assert "cannot be reached" in down["last_error"]


def test_no_notice_carries_a_token_salt_or_commitment(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    with receiving() as receiver:
        set_webhook(client, game, receiver.url)
        elect_robb(client, game)
        receiver.wait_for(lambda texts: any("elected" in t for t in texts))
        bodies = json.dumps(receiver.posts)
    secrets = {game.host_token, *game.tokens.values()}
    for record in app.extensions["court_store"].read(game.id):
        for part in (record.data, record.private or {}):
            # salts, commitments, digests, seeds: the words of names and titles are public
            secrets |= {v for v in _strings(part) if len(v) >= 16 and " " not in v}
    assert len(secrets) > 10
    assert [s for s in secrets if s in bodies] == []
    assert "decoy" not in bodies


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in _strings(v)}
    return set()


def test_a_game_without_a_webhook_writes_no_outbox_row(
    app: Flask, client: FlaskClient, game: Game
) -> None:
    other = lobby_game(client)
    with receiving() as receiver:
        set_webhook(client, other, receiver.url)
        start(client, other)
        elect_robb(client, game)
    assert outbox(app, game) == []
    assert outbox(app, other) != []


def test_the_host_alone_sets_reads_tests_and_removes_the_webhook(
    client: FlaskClient, game: Game
) -> None:
    path = f"/api/games/{game.id}/webhook"
    with receiving() as receiver:
        for headers, status in (({}, 401), (game.auth("lannister"), 403)):
            assert (
                client.put(path, json={"url": receiver.url}, headers=headers).status_code == status
            )
            assert client.get(path, headers=headers).status_code == status
            assert client.delete(path, headers=headers).status_code == status
            assert client.post(f"{path}/test", headers=headers).status_code == status
        assert client.post(f"{path}/test", headers=game.host).get_json()["code"] == "no_webhook"
        set_webhook(client, game, receiver.url)
        assert client.get(path, headers=game.host).get_json()["url"] == receiver.url
        assert client.post(f"{path}/test", headers=game.host).get_json() == {"ok": True}
        assert receiver.texts()[-1] == (
            f"{lead(game)}: this channel is set up: Small Council will post here every move, "
            "whose turn it is, each result and the end of the game."
        )
        assert client.delete(path, headers=game.host).get_json() == {"removed": True}
        assert client.get(path, headers=game.host).get_json()["url"] is None


def test_a_failing_test_message_says_why(client: FlaskClient, game: Game) -> None:
    with receiving(failures=1) as receiver:
        set_webhook(client, game, receiver.url)
        answer = client.post(f"/api/games/{game.id}/webhook/test", headers=game.host)
    assert answer.status_code == 409
    assert answer.get_json()["message"] == (
        "The test message did not arrive: the webhook answered 500."
    )


def test_test_posts_are_limited_per_game_and_per_url_over_an_hour(client: FlaskClient) -> None:
    """A host who removes and sets his webhook again, or one game after another aimed at one
    URL, makes the court post no more test messages than the hour allows."""
    with receiving() as receiver:
        games = [lobby_game(client) for _ in range(4)]
        answers = []
        for game in games:
            for _ in range(11):
                client.delete(f"/api/games/{game.id}/webhook", headers=game.host)
                set_webhook(client, game, receiver.url)
                answer = client.post(f"/api/games/{game.id}/webhook/test", headers=game.host)
                answers.append((answer.status_code, answer.get_json().get("code")))
        posted = len(receiver.texts())

    per_game = [(200, None)] * 10 + [(409, "webhook_tests_game")]
    assert answers[:33] == per_game * 3
    assert answers[33:] == [(409, "webhook_tests_url")] * 11
    assert posted == 30


def test_the_webhook_url_is_in_no_view_history_export_or_log_line(
    client: FlaskClient, game: Game, caplog: Any
) -> None:
    with receiving(failures=1) as receiver:
        set_webhook(client, game, receiver.url)
        client.post(f"/api/games/{game.id}/webhook/test", headers=game.host)
        to_the_north_election(client, game)
        receiver.wait_for(lambda texts: len(texts) >= 2)
    secret = "s3cr3t-webhook"
    for headers in ({}, game.host, game.auth("lannister")):
        for path in ("", "/events?limit=200", "/history?limit=200", "/export"):
            answer = client.get(f"/api/games/{game.id}{path}", headers=headers)
            assert answer.status_code == 200 and secret not in answer.get_data(as_text=True)
    assert secret not in caplog.text
    assert bearer("x")  # the helper the routes' callers use
