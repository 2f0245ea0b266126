"""The table decides together, with several real clients: the other seats replace a player
whose page is closed (his old link opens nothing, the voter who made the majority receives the
new one, and every voter reads it until the new player opens it), the host's correction of
recorded gold is made once a majority accepts, and a majority ends the game, after which
nothing but reading is left (docs/rules-map.md, "The table decides together")."""

from __future__ import annotations

from dataclasses import replace

from flask import Flask

from court.views.waiting import awaited
from tests.server.http.court_client import Game, bearer, lobby_game, start
from tests.server.live.live import NAMESPACE, connect, pushed, send


def game_with(app: Flask, replace_after: int = 0) -> Game:
    client = app.test_client()
    game = lobby_game(client, table_votes={"replace_after": replace_after})
    return replace(game, started=start(client, game))


def test_the_other_seats_replace_a_player_whose_page_is_closed(app: Flask) -> None:
    """Given Tyrell's page open, Lannister's vote is refused (`seat_present`); once it is
    closed, Lannister's vote alone is 1 of the 2 other seats and returns no link; the host's
    vote replaces Tyrell: every client is pushed the replacement naming both voters, the host
    alone receives the new link, Tyrell's old link opens nothing and the new one is seat
    Tyrell."""
    game = game_with(app)
    host = connect(app, game, game.host_token)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    watcher = connect(app, game, None)
    tyrell_seat = {"seat": game.seats["tyrell"]}

    present = send(lannister, "vote_replace", tyrell_seat)
    assert present["ok"] is False and present["code"] == "seat_present", present
    tyrell.disconnect(namespace=NAMESPACE)

    first = send(lannister, "vote_replace", tyrell_seat)
    assert first["ok"] is True and "token" not in first, first
    again = send(lannister, "vote_replace", tyrell_seat)
    assert again["code"] == "already_voted" and again["message"], again
    second = send(host, "vote_replace", tyrell_seat)
    assert second["ok"] is True and second["token"], second

    for client in (host, lannister, watcher):
        replaced = [r for r in pushed(client) if r["type"] == "SeatReplaced"]
        assert len(replaced) == 1, client
        assert replaced[0]["data"]["voters"] == sorted(
            [game.seats["stark"], game.seats["lannister"]]
        )
        assert "goes to a new link" in replaced[0]["text"]
        assert second["token"] not in str(pushed(client))
    http = app.test_client()
    old = http.get(f"/api/games/{game.id}", headers=bearer(game.tokens["tyrell"]))
    assert old.status_code == 401, old.get_json()
    new = http.get(f"/api/games/{game.id}", headers=bearer(second["token"])).get_json()
    assert new["viewer"]["seat"] == game.seats["tyrell"]


def links_of(app: Flask, game: Game, token: str) -> list[dict[str, object]]:
    answer = app.test_client().get(f"/api/games/{game.id}/table/links", headers=bearer(token))
    assert answer.status_code == 200, answer.get_json()
    links: list[dict[str, object]] = answer.get_json()["links"]
    return links


def test_every_voter_reads_the_new_link_until_its_new_player_opens_it(app: Flask) -> None:
    """Given Tyrell's page closed and Lannister's and the host's votes replacing him, both
    voters read the new link (the one the last voter was answered), no other seat does, and
    the new player's court says the table handed him the seat; once his page has connected,
    the link is read by nobody any more."""
    game = game_with(app)
    host = connect(app, game, game.host_token)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    tyrell.disconnect(namespace=NAMESPACE)
    tyrell_seat = {"seat": game.seats["tyrell"]}
    send(lannister, "vote_replace", tyrell_seat)
    assert links_of(app, game, game.tokens["lannister"]) == []  # no majority yet
    token = send(host, "vote_replace", tyrell_seat)["token"]

    link = [{"seat": game.seats["tyrell"], "token": token}]
    assert links_of(app, game, game.tokens["lannister"]) == link
    assert links_of(app, game, game.host_token) == link
    new = app.test_client().get(f"/api/games/{game.id}", headers=bearer(token)).get_json()
    assert new["viewer"]["handed_over"]["by"] == "table"
    assert links_of(app, game, token) == []  # the new player voted for nothing
    replaced_by = new["table"]["replaced_by"]
    assert replaced_by == [
        {
            "seat": game.seats["tyrell"],
            "voters": sorted([game.seats["stark"], game.seats["lannister"]]),
        }
    ]
    for client in (host, lannister):
        assert token not in str(pushed(client))

    newcomer = connect(app, game, token)
    assert links_of(app, game, game.tokens["lannister"]) == []
    assert links_of(app, game, game.host_token) == []
    newcomer.disconnect(namespace=NAMESPACE)
    assert links_of(app, game, game.tokens["lannister"]) == []


def test_a_correction_of_recorded_gold_is_made_when_a_majority_accepts(app: Flask) -> None:
    """Given +5 GD recorded for Lannister, when the host proposes +2 and Lannister accepts
    (with the host's seat, 2 of 3), then every client is pushed the correction naming both
    and a compensating -3 GD; Lannister's treasury is 3 less; a second answer is refused."""
    game = game_with(app)
    host = connect(app, game, game.host_token)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    recorded = send(host, "record_gold", {"house": "lannister", "amount": 5, "cause": "Battle"})
    assert recorded["ok"] is True, recorded
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    gold = {h["id"]: h["treasury"] for h in view["houses"]}["lannister"]

    bad = send(host, "propose_correction", {"version": recorded["version"] - 1, "cause": "x"})
    assert bad["code"] == "not_correctable", bad
    stranger = send(lannister, "propose_correction", {"version": 3, "amount": 1, "cause": "x"})
    assert stranger["code"] == "host_only", stranger
    proposal = {"version": recorded["version"], "amount": 2, "cause": "it was 2"}
    assert send(host, "propose_correction", proposal)["ok"] is True
    assert send(lannister, "answer_correction", {"accept": True})["ok"] is True
    late = send(tyrell, "answer_correction", {"accept": False})
    assert late["code"] == "no_correction", late

    for client in (host, lannister, tyrell):
        records = pushed(client)
        made = [r for r in records if r["type"] == "CorrectionMade"]
        assert len(made) == 1
        assert made[0]["data"]["voters"] == sorted([game.seats["stark"], game.seats["lannister"]])
        after = records[records.index(made[0]) + 1]
        assert after["type"] == "GoldAdjusted" and after["data"]["amount"] == -3
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert {h["id"]: h["treasury"] for h in view["houses"]}["lannister"] == gold - 3


def test_a_majority_ends_the_game_and_then_only_reading_is_left(app: Flask) -> None:
    game = game_with(app)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    assert send(lannister, "vote_end", {"end": True})["ok"] is True
    assert send(tyrell, "vote_end", {})["ok"] is True
    ended = [r for r in pushed(lannister) if r["type"] in {"TableEndedGame", "GameEnded"}]
    assert [r["type"] for r in ended] == ["TableEndedGame", "GameEnded"]
    assert ended[1]["data"]["winners"] == []
    refused = send(lannister, "vote_end", {"end": False})
    assert refused["code"] == "game_ended" and refused["message"], refused
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    assert view["game"]["status"] == "ended"


def test_presence_says_since_when_each_seat_is_gone_and_the_view_shows_the_votes(
    app: Flask,
) -> None:
    """The page learns which seats may be replaced from two parts: `presence` says since when
    each seat without a connection has had none (a seat with one is not listed), and the
    court view's `table` shows the votes cast with who cast them."""
    game = game_with(app, replace_after=0)
    host = connect(app, game, game.host_token)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    tyrell.disconnect(namespace=NAMESPACE)
    told = [m["args"][0] for m in host.get_received(NAMESPACE) if m["name"] == "presence"]
    away = told[-1]["seats_away_since"]
    assert set(away) == {str(game.seats["tyrell"])}, told[-1]
    assert away[str(game.seats["tyrell"])] <= told[-1]["server_time"]

    assert send(lannister, "vote_replace", {"seat": game.seats["tyrell"]})["ok"] is True
    view = app.test_client().get(f"/api/games/{game.id}").get_json()
    votes = view["table"]["replace"]
    assert [(v["seat"], [x["seat"] for x in v["voters"]]) for v in votes] == [
        (game.seats["tyrell"], [game.seats["lannister"]])
    ]
    assert (votes[0]["electors"], votes[0]["votes_needed"]) == (2, 2)


def test_a_seat_replaced_while_its_clock_runs_is_handed_to_the_link_its_voters_read(
    app: Flask,
) -> None:
    """R-4.3 clocks variant, R-9.2: given Lannister's decree clock running and no page of his,
    when the host and Tyrell vote him out, the clock stops before the hand-over and the vote
    that made the majority is still answered the link that opens his seat."""
    client = app.test_client()
    game = lobby_game(
        client,
        table_votes={"replace_after": 0},
        variants={"clocks": True},
        clocks={"candidacy": 0, "ballot": 0, "decree": 600, "title_choice": 0, "purchase": 0},
    )
    game = replace(game, started=start(client, game))
    host = connect(app, game, game.host_token)
    tyrell = connect(app, game, game.tokens["tyrell"])
    court = app.extensions["court"]
    # The host closes the table's phases up to the second round's decrees, which Lannister,
    # its First Player, opens.
    for _ in range(8):
        if awaited(court.current(game.id).state) is not None:
            break
        assert send(host, "advance_phase")["ok"] is True
    lannister = game.seats["lannister"]
    assert lannister in court.current(game.id).state.running

    assert send(host, "vote_replace", {"seat": lannister})["ok"] is True
    answer = send(tyrell, "vote_replace", {"seat": lannister})
    assert answer["ok"] is True and answer.get("token"), answer
    records = [r["type"] for r in pushed(host)]
    at = records.index("SeatReplaced")
    assert records[at : at + 3] == ["SeatReplaced", "ClockStopped", "SeatHanded"], records
    assert links_of(app, game, game.host_token) == [{"seat": lannister, "token": answer["token"]}]
    new = app.test_client().get(f"/api/games/{game.id}", headers=bearer(answer["token"]))
    assert new.get_json()["viewer"]["seat"] == lannister
