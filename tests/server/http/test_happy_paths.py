"""The HTTP API doing what it promises: creating, joining and starting a game, reading the
court, the history, past versions and exports, and the documents the server publishes."""

from __future__ import annotations

import json
from collections import Counter
from urllib.parse import urlparse

import pytest
from flask import Flask
from flask.testing import FlaskClient

from config.rulesdata import load_ruleset
from court.log.chain import Record, verify
from tests.server.http.court_client import Game, bearer, create_game, join, lobby_game, start

STARTING_TREASURY = load_ruleset()["profile"]["treasury"]["starting"]
REGIONS = ("north", "east", "crownlands", "south", "west")


def court(client: FlaskClient, game: Game, headers: dict[str, str] | None = None) -> dict:
    response = client.get(f"/api/games/{game.id}", headers=headers or {})
    assert response.status_code == 200
    return response.get_json()


def house(view: dict, house_id: str) -> dict:
    return next(h for h in view["houses"] if h["id"] == house_id)


def test_creating_a_game_answers_201_with_id_host_token_invite_url_and_version_1(
    client: FlaskClient,
) -> None:
    response = client.post("/api/games", json={"players": 3, "host_name": "Eddard"})

    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {
        "game_id",
        "host_token",
        "game_master_token",
        "invite",
        "invite_url",
        "version",
    }
    assert body["game_master_token"] is None  # no game master was named
    assert body["version"] == 1
    assert body["game_id"] and body["host_token"]
    assert body["game_id"] in body["invite_url"]
    assert body["invite_url"].endswith(f"#invite={body['invite']}")
    page = client.get(urlparse(body["invite_url"]).path)
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert body["game_id"] in page.get_data(as_text=True)


def test_each_created_game_gets_its_own_id_and_host_token(client: FlaskClient) -> None:
    first, second = create_game(client), create_game(client)

    assert first["game_id"] != second["game_id"]
    assert first["host_token"] != second["host_token"]


def test_players_join_seats_0_1_2_in_order_with_distinct_tokens(client: FlaskClient) -> None:
    """R-1.1: every player controls one House from his own seat."""
    created = create_game(client)
    gid = created["game_id"]

    answers = [
        join(client, gid, "stark", created["host_token"]),
        join(client, gid, "lannister"),
        join(client, gid, "tyrell"),
    ]

    assert [a["seat"] for a in answers] == [0, 1, 2]
    assert [a["house"] for a in answers] == ["stark", "lannister", "tyrell"]
    assert [a["version"] for a in answers] == [2, 3, 4]
    tokens = {a["token"] for a in answers} | {created["host_token"]}
    assert len(tokens) == 4


WARDEN_SKIPPED = "not every village of the region is controlled (R-7.4)"


def test_a_started_game_passed_phase_1_and_is_playing_round_1_in_the_cards_phase(
    client: FlaskClient, game: Game
) -> None:
    """R-4.1: a round opens with phase 1, Decrees and elections; R-4.2: every election whose
    condition fails is skipped and recorded with its reason, then the cards phase begins."""
    view = court(client, game)
    history = events(client, game, "")["records"]

    assert view["game"]["status"] == "playing"
    assert view["game"]["round"] == 1
    assert view["game"]["phase"] == "cards"
    assert view["game"]["version"] == game.started
    assert [r["type"] for r in history[:6]] == [
        "GameCreated",
        "SeatJoined",
        "SeatJoined",
        "SeatJoined",
        "GameStarted",
        "RoundStarted",
    ]
    # the marriages step opened and every player passed; then the other
    # decree steps had nobody to act, and every election was skipped
    decrees = [r for r in history[6:-1] if r["type"].startswith("Decree")]
    assert decrees[0]["type"] == "DecreeStepOpened" and decrees[0]["data"]["step"] == "marriages"
    assert [r["data"]["seats"] for r in decrees if r["type"] == "DecreePassed"] == [[0], [1], [2]]
    skipped_steps = [r["data"]["step"] for r in decrees if r["type"] == "DecreeStepSkipped"]
    assert skipped_steps == [
        "false_idols",
        "royal_pardon",
        "send_to_wall",
        "title_concession",
        "oathbreakers",
    ]
    skipped = [r for r in history[6:-1] if r["type"] == "ElectionSkipped"]
    assert [r["data"]["election"] for r in skipped] == [
        "warden-north",
        "warden-east",
        "warden-crownlands",
        "warden-south",
        "warden-west",
        "hand",
        "king",
    ]
    reasons = {r["data"]["election"]: r["data"]["reason"] for r in skipped}
    assert all(reasons[f"warden-{region}"] == WARDEN_SKIPPED for region in REGIONS)
    assert "R-7.7" in reasons["hand"]
    assert "R-7.8" in reasons["king"]
    assert all(r["data"]["reason"] in r["text"] for r in skipped)
    cards = history[-1]
    assert (cards["type"], cards["data"]) == ("PhaseStarted", {"round": 1, "phase": "cards"})
    assert cards["version"] == game.started
    assert [(s["seat"], s["house"]) for s in view["seats"]] == [
        (0, "stark"),
        (1, "lannister"),
        (2, "tyrell"),
    ]
    assert [s["host"] for s in view["seats"]] == [True, False, False]


@pytest.mark.parametrize("house_id", ["stark", "lannister", "tyrell"])
def test_each_seated_house_starts_with_5_lords_and_3_ladies_in_play(
    client: FlaskClient, game: Game, house_id: str
) -> None:
    """R-1.2: the default roster gives every House 5 Lords and 3 Ladies."""
    nobles = house(court(client, game), house_id)["nobles"]

    assert Counter(n["gender"] for n in nobles) == {"lord": 5, "lady": 3}
    assert {n["house"] for n in nobles} == {house_id}
    assert all(n["status"] == "in_play" and not n["outlaw"] for n in nobles)
    assert all(n["titles"] == [] and n["spouse"] is None for n in nobles)


def test_each_seated_house_starts_with_the_profile_treasury_and_others_have_none(
    client: FlaskClient, game: Game
) -> None:
    """R-2.2: the starting treasury is a rules-profile setting (10 GD by default)."""
    view = court(client, game)

    treasuries = {h["id"]: h["treasury"] for h in view["houses"]}
    assert {k: v for k, v in treasuries.items() if v is not None} == {
        "stark": STARTING_TREASURY,
        "lannister": STARTING_TREASURY,
        "tyrell": STARTING_TREASURY,
    }
    unseated = [h for h in view["houses"] if h["seat"] is None]
    assert unseated
    assert all(h["nobles"] == [] for h in unseated)


def test_turn_order_starts_at_the_default_first_player(client: FlaskClient, game: Game) -> None:
    """R-1.1: in turn order means from the First Player, clockwise; seat 0 by default."""
    view = court(client, game)

    assert view["game"]["first_player"] == 0
    assert view["game"]["turn_order"] == [0, 1, 2]


def test_turn_order_starts_at_the_first_player_the_host_chose(client: FlaskClient) -> None:
    """R-1.1 [D]: the First Player marker starts at the seat chosen at creation."""
    chosen = lobby_game(client, first_player_seat=1)
    start(client, chosen)

    view = court(client, chosen)

    assert view["game"]["first_player"] == 1
    assert view["game"]["turn_order"] == [1, 2, 0]


def test_the_seat_order_given_at_start_is_the_clockwise_turn_order(
    client: FlaskClient, lobby: Game
) -> None:
    """R-1.1: seats have a fixed clockwise order; turn order runs from the First Player."""
    response = client.post(
        f"/api/games/{lobby.id}/commands/start", json={"seat_order": [0, 2, 1]}, headers=lobby.host
    )
    assert response.status_code == 200

    assert court(client, lobby)["game"]["turn_order"] == [0, 2, 1]


def test_the_viewer_is_the_player_seat_for_a_seat_token(client: FlaskClient, game: Game) -> None:
    assert court(client, game, game.auth("lannister"))["viewer"] == {
        "seat": 1,
        "host": False,
        "role": "player",
        "holder": "seat:1",
        "handed_over": None,
    }
    assert court(client, game, game.auth("tyrell"))["viewer"]["seat"] == 2


def test_the_host_token_of_a_seated_host_is_his_seat_and_the_host(
    client: FlaskClient, game: Game
) -> None:
    expected = {"seat": 0, "host": True, "role": "player", "holder": "seat:0", "handed_over": None}

    assert court(client, game, game.host)["viewer"] == expected
    assert court(client, game, game.auth("stark"))["viewer"] == expected


def test_the_host_token_of_a_host_without_a_seat_views_as_host(client: FlaskClient) -> None:
    created = create_game(client)
    gid = created["game_id"]

    view = client.get(f"/api/games/{gid}", headers=bearer(created["host_token"])).get_json()

    assert view["viewer"] == {
        "seat": None,
        "host": True,
        "role": "host",
        "holder": "host",
        "handed_over": None,
    }


def test_no_token_views_as_spectator(client: FlaskClient, game: Game) -> None:
    assert court(client, game)["viewer"] == {
        "seat": None,
        "host": False,
        "role": "spectator",
        "holder": None,
        "handed_over": None,
    }


def test_gold_recorded_by_the_host_changes_the_treasury_and_the_version(
    client: FlaskClient, game: Game
) -> None:
    """Section 9 and R-2.1: the host records GD won or lost outside the court."""
    gained = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "lannister", "amount": 7, "cause": "Income from the mines"},
        headers=game.host,
    )
    lost = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "tyrell", "amount": -4, "cause": "Card: bad harvest"},
        headers=game.host,
    )

    # Each fact is two records: who recorded it (section 9), then the fact itself.
    assert (gained.status_code, gained.get_json()) == (
        200,
        {"ok": True, "version": game.started + 2},
    )
    assert (lost.status_code, lost.get_json()) == (200, {"ok": True, "version": game.started + 4})
    treasuries = {h["id"]: h["treasury"] for h in court(client, game)["houses"]}
    assert treasuries["lannister"] == STARTING_TREASURY + 7
    assert treasuries["tyrell"] == STARTING_TREASURY - 4
    assert treasuries["stark"] == STARTING_TREASURY


def test_gold_may_take_a_treasury_down_to_exactly_zero(client: FlaskClient, game: Game) -> None:
    """R-2.1: a treasury can never go below zero, but zero itself is allowed."""
    response = client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": -STARTING_TREASURY, "cause": "Bribes"},
        headers=game.host,
    )

    assert response.status_code == 200
    assert house(court(client, game), "stark")["treasury"] == 0


def events(client: FlaskClient, game: Game, query: str) -> dict:
    response = client.get(f"/api/games/{game.id}/events?{query}")
    assert response.status_code == 200
    return response.get_json()


def test_the_history_pages_with_after_and_limit_and_says_where_to_continue(
    client: FlaskClient, game: Game
) -> None:
    pages = [events(client, game, f"after={after}&limit=2") for after in (0, 2, 4)]
    last = events(client, game, f"after={game.started - 2}&limit=2")
    walked, after = [], 0
    while after is not None:
        page = events(client, game, f"after={after}&limit=2")
        assert len(page["records"]) <= 2
        walked += [r["version"] for r in page["records"]]
        after = page["next_after"]

    assert [[r["version"] for r in p["records"]] for p in pages] == [[1, 2], [3, 4], [5, 6]]
    assert [p["next_after"] for p in pages] == [2, 4, 6]
    assert [r["version"] for r in last["records"]] == [game.started - 1, game.started]
    assert last["next_after"] is None
    assert walked == list(range(1, game.started + 1))
    assert {p["version"] for p in [*pages, last]} == {game.started}
    types = [r["type"] for p in pages for r in p["records"]]
    assert types == [
        "GameCreated",
        "SeatJoined",
        "SeatJoined",
        "SeatJoined",
        "GameStarted",
        "RoundStarted",
    ]
    assert [r["type"] for r in last["records"]] == ["ElectionSkipped", "PhaseStarted"]
    assert all(
        isinstance(r["text"], str) and r["text"] for p in [*pages, last] for r in p["records"]
    )


def test_the_history_without_a_query_is_the_whole_log_and_past_the_head_is_empty(
    client: FlaskClient, game: Game
) -> None:
    whole = events(client, game, "")
    beyond = events(client, game, f"after={game.started}")

    assert [r["version"] for r in whole["records"]] == list(range(1, game.started + 1))
    assert whole["next_after"] is None
    assert beyond == {"version": game.started, "records": [], "next_after": None}


def test_a_version_before_the_start_shows_the_lobby_without_treasuries(
    client: FlaskClient, game: Game
) -> None:
    response = client.get(f"/api/games/{game.id}/versions/1")

    assert response.status_code == 200
    view = response.get_json()
    assert view["game"]["version"] == 1
    assert view["game"]["status"] == "lobby"
    assert view["game"]["round"] == 0
    assert view["seats"] == []
    assert all(h["treasury"] is None and h["nobles"] == [] for h in view["houses"])


def test_each_version_shows_the_court_as_it_stood_then(client: FlaskClient, game: Game) -> None:
    seated = [
        len(client.get(f"/api/games/{game.id}/versions/{v}").get_json()["seats"])
        for v in range(1, game.started + 1)
    ]
    at_4 = client.get(f"/api/games/{game.id}/versions/4").get_json()
    at_5 = client.get(f"/api/games/{game.id}/versions/5").get_json()
    at_start = client.get(f"/api/games/{game.id}/versions/{game.started}").get_json()

    # created with no seat, then one seat per SeatJoined, then all three for the rest
    assert seated == [0, 1, 2, 3] + [3] * (game.started - 4)
    assert at_4["game"]["status"] == "lobby"
    assert at_5["game"]["status"] == "playing"
    assert at_start["game"]["status"] == "playing"
    assert at_start == court(client, game)


def test_a_past_version_stays_the_same_after_later_gold(client: FlaskClient, game: Game) -> None:
    before = client.get(f"/api/games/{game.id}/versions/{game.started}").get_json()
    client.post(
        f"/api/games/{game.id}/commands/record_gold",
        json={"house": "stark", "amount": 3, "cause": "Tax"},
        headers=game.host,
    )

    after = client.get(f"/api/games/{game.id}/versions/{game.started}").get_json()

    assert after == before
    assert house(after, "stark")["treasury"] == STARTING_TREASURY


def exported(client: FlaskClient, game: Game, headers: dict[str, str]) -> list[Record]:
    response = client.get(f"/api/games/{game.id}/export", headers=headers)
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = response.get_data(as_text=True).splitlines()
    return [Record.from_json(json.loads(line)) for line in lines]


def test_a_spectator_export_withholds_every_private_part_and_still_verifies(
    client: FlaskClient, game: Game
) -> None:
    records = exported(client, game, {})

    assert [r.version for r in records] == list(range(1, game.started + 1))
    assert all(r.private is None for r in records)
    # GameCreated (the dice seed) and the three SeatJoined (tokens) hold a private part; no other
    assert [r.private_sha256 != "" for r in records] == [True] * 4 + [False] * (game.started - 4)
    result = verify(records)
    assert result.ok
    assert result.records == game.started
    assert result.head == client.get(f"/api/games/{game.id}/verify").get_json()["head"]


def test_a_seat_export_holds_its_own_private_part_only_and_still_verifies(
    client: FlaskClient, game: Game
) -> None:
    records = exported(client, game, game.auth("lannister"))

    joined = {r.data["house"]: r for r in records if r.type == "SeatJoined"}
    assert joined["lannister"].private is not None
    assert set(joined["lannister"].private) == {"token_sha256"}
    assert joined["stark"].private is None
    assert joined["tyrell"].private is None
    assert records[0].private is None
    assert verify(records).ok


def test_verify_reports_an_intact_chain(client: FlaskClient, game: Game) -> None:
    response = client.get(f"/api/games/{game.id}/verify")

    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True
    assert body["records"] == game.started
    assert body["bad_index"] is None and body["bad_version"] is None
    assert len(body["head"]) == 64


def test_openapi_documents_every_api_route_and_its_schemas(app: Flask, client: FlaskClient) -> None:
    response = client.get("/openapi.json")

    assert response.status_code == 200
    doc = response.get_json()
    assert doc["openapi"].startswith("3.")
    routes = {
        (
            rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}"),
            method.lower(),
        )
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented
    schemas = doc["components"]["schemas"]
    assert {"Error", "CreateGame", "CourtView", "HistoryPage", "Verification"} <= set(schemas)
    refs = set()

    def collect(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.add(node["$ref"].rsplit("/", 1)[-1])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(doc)
    assert refs <= set(schemas)


def test_healthz_reports_ok_the_database_and_the_process(client: FlaskClient, app) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.get_json() == {
        "status": "ok",
        "database": "sqlite",
        "process": app.extensions["process_id"],
    }


def test_profiles_lists_the_default_profile_with_its_deadlines_and_time_banks(
    client: FlaskClient,
) -> None:
    response = client.get("/api/profiles")

    assert response.status_code == 200
    body = response.get_json()
    assert "default" in body["profiles"]
    times = body["times"]["default"]
    assert set(times["deadlines"]) == {"candidacy", "ballot", "decree", "title_choice", "purchase"}
    assert times["clocks"]["decree"] == 300 and "increment" in times["clocks"]


def test_a_player_may_leave_before_the_start_and_his_token_stops_working(
    client: FlaskClient,
) -> None:
    created = create_game(client)
    gid = created["game_id"]
    joined = join(client, gid, "lannister")

    left = client.post(f"/api/games/{gid}/commands/leave", headers=bearer(joined["token"]))

    assert (left.status_code, left.get_json()) == (200, {"ok": True, "version": 3})
    assert client.get(f"/api/games/{gid}").get_json()["seats"] == []
    assert client.get(f"/api/games/{gid}", headers=bearer(joined["token"])).status_code == 401
    # the House is free again; the seat number is a new one, never the leaver's
    assert join(client, gid, "lannister")["seat"] == 1
