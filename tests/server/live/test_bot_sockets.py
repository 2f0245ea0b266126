"""A seat played by the bot, with several real clients (docs/rules-map.md, "A seat played by the
bot"): in a 4-seat game Martell's player leaves, the other seats vote the bot in, and the bot
makes Martell's moves under his clock while the others play two rounds; every page is told which
moves were the bot's; Martell's player opens his own link again and plays on."""

from __future__ import annotations

import time

from flask import Flask

from court.options.bot import awaited_bots, bot_move
from court.views.waiting import awaited
from server.messages.catalogue import move_view
from server.service.court_service import CourtService
from tests.server.http.court_client import Game, bearer, log_state
from tests.server.live.live import FOUR_HOUSES, NAMESPACE, connect, four_seats, pushed, send


def play_rounds(app: Flask, game: Game, clients: dict[int, object], rounds: int) -> int:
    """The seats with a client play the move a caretaker would (the bot's own policy, sent as
    their page sends it) and the host closes the table's phases; a seat the bot plays is left
    to the bot. Returns how many times the table waited on the bot."""
    service: CourtService = app.extensions["court"]
    first = service.current(game.id).state.round
    waited = 0
    limit = time.monotonic() + 60
    while service.current(game.id).state.round < first + rounds:
        assert time.monotonic() < limit, "the game did not move on"
        head = service.current(game.id)
        if awaited_bots(head.state):
            waited += 1
            until = time.monotonic() + 5
            while service.current(game.id).version == head.version:
                assert time.monotonic() < until, "the bot did not move"
                time.sleep(0.02)
            continue
        turn = awaited(head.state)
        if turn is None:
            answer = send(clients[0], "advance_phase")
        else:
            move = bot_move(head.state, turn.seats[0])
            assert move is not None
            view = move_view(move)
            answer = send(clients[turn.seats[0]], view["message"], view["payload"])
        assert answer["ok"] is True, answer
    return waited


def test_the_bot_plays_a_seat_whose_player_left_for_two_rounds_and_he_takes_it_back(
    bot_app: Flask,
) -> None:
    app = bot_app
    game = four_seats(app)
    seats = game.seats
    gone = seats["martell"]
    clients = {seats[h]: connect(app, game, game.tokens[h]) for h in FOUR_HOUSES[1:]}
    clients[seats["stark"]] = connect(app, game, game.host_token)
    watcher = connect(app, game, None)
    clients.pop(gone).disconnect(namespace=NAMESPACE)

    first = send(clients[seats["lannister"]], "vote_replace", {"seat": gone, "bot": True})
    assert first["ok"] is True and "token" not in first, first
    link = send(clients[seats["stark"]], "vote_replace", {"seat": gone})
    assert link["ok"] is True and "token" not in link, link  # a link and the bot: no majority
    second = send(clients[seats["tyrell"]], "vote_replace", {"seat": gone, "bot": True})
    assert second["ok"] is True and "token" not in second, second
    again = send(clients[seats["tyrell"]], "vote_replace", {"seat": gone, "bot": True})
    assert again["ok"] is False and again["code"] in {"bot_plays", "already_voted"}, again

    # The bot came in the first round, after its decrees: the second and third are whole.
    waited = play_rounds(app, game, clients, rounds=3)
    assert waited >= 2

    for client in (*clients.values(), watcher):
        records = pushed(client)
        seated = [r for r in records if r["type"] == "BotSeated"]
        assert len(seated) == 1 and "The bot plays" in seated[0]["text"]
        played = [r for r in records if r["type"] == "BotPlayed"]
        assert len(played) >= 2
        assert all(r["data"]["seat"] == gone for r in played)
        assert all("played by the bot" in r["text"] for r in played)
        # The move the bot made follows its mark, as the seat's own.
        for mark in played:
            after = records[records.index(mark) + 1]
            assert after["seat"] == gone
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert view["table"]["bots"] == [gone]

    history = app.test_client().get(f"/api/games/{game.id}/history?limit=200")
    assert history.status_code == 200, history.get_json()
    texts = [e["text"] for e in history.get_json()["entries"]]
    assert any("played by the bot" in t for t in texts)

    back = connect(app, game, game.tokens["martell"])
    stood = [r for r in pushed(watcher) if r["type"] == "BotStoodDown"]
    assert len(stood) == 1 and stood[0]["data"]["returned"] is True
    assert "is back" in stood[0]["text"]
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert view["table"]["bots"] == []
    refused = send(back, "take_seat_back")
    assert refused["ok"] is False and refused["code"] == "no_bot", refused


def test_the_player_of_a_seat_the_bot_plays_moves_nothing_until_he_is_back(
    bot_app: Flask,
) -> None:
    """Over HTTP, his own token sends a move: refused with a sentence that says how to come
    back (`bot_plays`); the log stays as it was."""
    app = bot_app
    game = four_seats(app)
    gone = game.seats["martell"]
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    for client in (lannister, tyrell):
        assert send(client, "vote_replace", {"seat": gone, "bot": True})["ok"] is True
    http = app.test_client()
    before = log_state(http, game.id)
    response = http.post(
        f"/api/games/{game.id}/commands/vote_end", json={}, headers=game.auth("martell")
    )
    body = response.get_json()
    assert response.status_code == 409 and body["code"] == "bot_plays", body
    assert "take it back" in body["message"]
    assert log_state(http, game.id) == before
    taken = http.post(
        f"/api/games/{game.id}/commands/take_seat_back", json={}, headers=game.auth("martell")
    )
    assert taken.status_code == 200, taken.get_json()
    again = http.post(
        f"/api/games/{game.id}/commands/vote_end", json={}, headers=game.auth("martell")
    )
    assert again.status_code == 200, again.get_json()


def test_a_new_link_voted_for_a_seat_the_bot_plays_reaches_its_voters(bot_app: Flask) -> None:
    """R-9.2: given the bot playing Martell's seat, when Lannister and Tyrell vote it a new link,
    then the bot stands down before the hand-over, the vote that made the majority is answered
    the link, both voters read it, and it opens Martell's seat, handed by the table."""
    app = bot_app
    game = four_seats(app)
    gone = game.seats["martell"]
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    for client in (lannister, tyrell):
        assert send(client, "vote_replace", {"seat": gone, "bot": True})["ok"] is True

    assert send(lannister, "vote_replace", {"seat": gone})["ok"] is True
    answer = send(tyrell, "vote_replace", {"seat": gone})
    assert answer["ok"] is True and answer.get("token"), answer
    stood = [r for r in pushed(lannister) if r["type"] == "BotStoodDown"]
    assert len(stood) == 1 and stood[0]["data"]["returned"] is False

    link = [{"seat": gone, "token": answer["token"]}]
    for token in (game.tokens["lannister"], game.tokens["tyrell"]):
        read = app.test_client().get(f"/api/games/{game.id}/table/links", headers=bearer(token))
        assert read.get_json()["links"] == link
    http = app.test_client()
    new = http.get(f"/api/games/{game.id}", headers=bearer(answer["token"])).get_json()
    assert new["viewer"]["seat"] == gone and new["viewer"]["handed_over"]["by"] == "table"
    assert new["table"]["bots"] == []
