"""What the group's chat is told, as the host chose: step summaries (what a step changed, told
when it ends or comes to its result, and whose turn it is as the next step begins), every
move, or the results alone; what happens within a few seconds goes out as one post, led once
by the game's name; the test post names the game and says what the chat will be told."""

from __future__ import annotations

import time
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from server.notify.delivery import TEXT_MAX
from server.notify.texts import typed
from tests.server.http.court_client import Game, lobby_game, pass_decrees, start
from tests.server.http.north_election import post, to_the_north_election
from tests.server.notify.conftest import notifying_app, stop
from tests.server.notify.receiver import receiving, told
from tests.server.notify.webhooks import elect_robb, lead, outbox, set_webhook

MARRIED = "Robb Stark married Margaery Tyrell."
CANDIDACY = "It is Player of lannister's turn: Warden of the North election, candidacy."
BALLOT = "It is Player of stark's turn: Warden of the North election, ballot."
RESULT = "Round 2, Warden of the North: Robb Stark elected with 5 votes."


def test_a_step_s_summary_is_told_when_the_step_ends_without_its_passes(
    client: FlaskClient, lobby_started: Game
) -> None:
    game = lobby_started
    with receiving() as receiver:
        set_webhook(client, game, receiver.url, digest="steps")
        body = {"noble": "robb-stark", "to": "margaery-tyrell"}
        post(client, game, "commands/propose_marriage", game.auth("stark"), body)
        post(client, game, "commands/answer_marriage", game.auth("tyrell"), {"accept": True})
        time.sleep(0.5)  # the sender looks every 0.05 s: the marriage is held with its step
        assert not any(MARRIED in t for t in receiver.texts())

        pass_decrees(client, game)
        receiver.wait_for(lambda texts: MARRIED in told(texts, lead(game)))
        to_the_north_election(client, game)
        receiver.wait_for(lambda texts: CANDIDACY in told(texts, lead(game)))
        said = told(receiver.texts(), lead(game))

    assert said.index(MARRIED) < said.index(CANDIDACY)
    assert not [t for t in said if "passed in" in t]  # a pass changes nothing: not told
    marriages = [t for t in said if t.endswith("Marriages, decree turn.")]
    assert len(marriages) <= 1  # the step's first turn at most (set after it began)


def test_step_summaries_tell_the_result_at_once_and_a_step_s_first_turn_alone(
    client: FlaskClient, game: Game
) -> None:
    with receiving() as receiver:
        set_webhook(client, game, receiver.url, digest="steps")
        elect_robb(client, game)
        receiver.wait_for(lambda texts: RESULT in told(texts, lead(game)))
        said = told(receiver.texts(), lead(game))
    assert CANDIDACY in said and BALLOT not in said  # the ballot is the same step's
    assert said.index(CANDIDACY) < said.index(RESULT)


def test_results_only_tells_the_result_and_nothing_else(client: FlaskClient, game: Game) -> None:
    with receiving() as receiver:
        set_webhook(client, game, receiver.url, digest="results")
        elect_robb(client, game)
        receiver.wait_for(lambda texts: RESULT in told(texts, lead(game)))
        time.sleep(0.3)
        assert told(receiver.texts(), lead(game)) == [RESULT]


def test_every_move_tells_each_pass_and_each_turn(client: FlaskClient, game: Game) -> None:
    with receiving() as receiver:
        set_webhook(client, game, receiver.url, digest="moves")
        elect_robb(client, game)
        receiver.wait_for(lambda texts: RESULT in told(texts, lead(game)))
        said = told(receiver.texts(), lead(game))
    assert CANDIDACY in said and BALLOT in said
    assert "Player of tyrell (House Tyrell) put forward nobody." in said


def test_what_happens_within_a_few_seconds_goes_out_as_one_post_led_by_the_game_s_name(
    tmp_path: Path,
) -> None:
    """Many turns ended within the same second; the chat gets a post or two, each naming the
    game once, every notice in its order and none twice."""
    app = notifying_app(tmp_path, NOTICES_GROUP=2.0, PUBLIC_URL="https://court.example")
    client = app.test_client()
    try:
        game = lobby_game(client, name="Saturday at Ann's")
        with receiving() as receiver:
            set_webhook(client, game, receiver.url, digest="moves")
            start(client, game)
            to_the_north_election(client, game)
            rows = _settled(app, game)
            posts = receiver.texts()
    finally:
        stop(app)
    notices = [r["text"] for r in rows]
    assert len(notices) >= 20 and len(posts) <= 4, posts
    name = typed("Saturday at Ann's")  # as Discord reads it: "Saturday at Ann's"
    assert told(posts, name) == notices
    for text in posts:
        assert text.startswith(f"{name}:") and text.count(name) == 1
        assert text.endswith(f"\nhttps://court.example/games/{game.id}") and len(text) <= TEXT_MAX


def test_the_test_post_names_the_game_and_says_what_the_chat_will_be_told(
    tmp_path: Path,
) -> None:
    app = notifying_app(tmp_path)
    client = app.test_client()
    try:
        game = lobby_game(client, name="The Red Wedding")
        with receiving() as receiver:
            set_webhook(client, game, receiver.url, digest="results")
            answer = client.post(f"/api/games/{game.id}/webhook/test", headers=game.host)
            assert answer.get_json() == {"ok": True}
            [text] = receiver.texts()
    finally:
        stop(app)
    assert text == (
        "The Red Wedding: this channel is set up: Small Council will post here each "
        "election's result, the sale of the council seat and the end of the game."
    )
    assert game.id not in text


def test_the_digest_is_read_back_by_the_host_and_one_the_court_does_not_know_is_refused(
    client: FlaskClient, game: Game
) -> None:
    path = f"/api/games/{game.id}/webhook"
    with receiving() as receiver:
        first = client.put(path, json={"url": receiver.url}, headers=game.host).get_json()
        assert first["digest"] == "steps"  # the default
        assert first["told"].startswith("what each step changed when it ends")
        wrong = client.put(path, json={"url": receiver.url, "digest": "all"}, headers=game.host)
        assert wrong.status_code == 400 and "digest" in wrong.get_json()["fields"]
        assert client.get(path, headers=game.host).get_json()["digest"] == "steps"
        set_webhook(client, game, receiver.url, digest="results")
        assert client.get(path, headers=game.host).get_json()["digest"] == "results"


def test_notices_held_for_a_step_go_out_when_the_host_wants_every_move_instead(
    app: Flask, client: FlaskClient, lobby_started: Game
) -> None:
    game = lobby_started
    with receiving() as receiver:
        set_webhook(client, game, receiver.url, digest="steps")
        body = {"noble": "robb-stark", "to": "margaery-tyrell"}
        post(client, game, "commands/propose_marriage", game.auth("stark"), body)
        post(client, game, "commands/answer_marriage", game.auth("tyrell"), {"accept": True})
        set_webhook(client, game, receiver.url, digest="moves")
        receiver.wait_for(lambda texts: MARRIED in told(texts, lead(game)))


def _settled(app: Flask, game: Game, seconds: float = 15.0) -> list[dict]:
    deadline = time.monotonic() + seconds
    while True:
        rows = outbox(app, game)
        if rows and all(r["state"] == "sent" for r in rows):
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.05)
