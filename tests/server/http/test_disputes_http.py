"""The history for disputes: each entry says whether it is play, a skip or bookkeeping and links the
rules it applied (R-4.2 skips, R-7.4); /changes tells what changed between two versions in sentences
(R-3.2 a title, R-2.1 a treasury, section 9 villages); /rules shows every rule with its anchor."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.rule_ids import RULE_IDS
from tests.server.http.court_client import Game, error_body
from tests.server.http.north_election import elect_robb, entries, post


def test_skips_and_bookkeeping_are_marked_and_every_line_names_its_rules(
    client: FlaskClient, game: Game
) -> None:
    """R-4.2: given a started game, every Warden election skipped is a skip that links the
    rule its sentence gives (R-7.4); phases are bookkeeping; seats joining are play."""
    page = entries(client, game, limit=200)["entries"]
    kinds = {e["type"]: e["kind"] for e in page}
    assert kinds["ElectionSkipped"] == "skip"
    assert kinds["PhaseStarted"] == "bookkeeping"
    assert kinds["SeatJoined"] == "play"
    north = next(e for e in page if e["type"] == "ElectionSkipped" and "North" in e["text"])
    assert north["rules"][0] == "R-7.4"
    assert all(e["rules"] for e in page)


def test_changes_between_two_versions_name_the_title_won(client: FlaskClient, game: Game) -> None:
    """R-3.2, R-7.4: given the North's election, when Robb wins and accepts, then the changes
    from the start to now say he holds the Warden title and that the villages changed hands."""
    before = client.get(f"/api/games/{game.id}").get_json()["game"]["version"]
    elect_robb(client, game)
    now = client.get(f"/api/games/{game.id}").get_json()["game"]["version"]
    response = client.get(f"/api/games/{game.id}/changes", query_string={"from": before, "to": now})
    assert response.status_code == 200, response.get_json()
    told = response.get_json()
    assert (told["from"], told["to"]) == (before, now)
    texts = [c["text"] for c in told["changes"]]
    assert "Warden of the North: now held by Robb Stark (it was free)." in texts
    assert any(c["kind"] == "village" for c in told["changes"])
    back = client.get(f"/api/games/{game.id}/changes", query_string={"from": now, "to": before})
    assert "Warden of the North: Robb Stark no longer holds it; it is free." in [
        c["text"] for c in back.get_json()["changes"]
    ]


def test_changes_refuse_a_version_the_game_does_not_have(client: FlaskClient, game: Game) -> None:
    url = f"/api/games/{game.id}/changes"
    error_body(client.get(url, query_string={"from": 1, "to": 10_000}), 404, "unknown_version")
    error_body(client.get(url, query_string={"from": 0, "to": 2}), 400)
    error_body(client.get(url, query_string={"to": "two"}), 400)
    error_body(client.get("/api/games/nope/changes", query_string={"from": 1, "to": 2}), 404)


def test_changes_run_from_the_first_version_to_the_latest_when_left_out(
    client: FlaskClient, game: Game
) -> None:
    now = client.get(f"/api/games/{game.id}").get_json()["game"]["version"]
    told = client.get(f"/api/games/{game.id}/changes").get_json()
    assert (told["from"], told["to"]) == (1, now)
    assert any(c["kind"] == "treasury" for c in told["changes"])


def test_the_rules_page_anchors_every_rule_and_section(client: FlaskClient) -> None:
    page = client.get("/rules")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    missing = [rule for rule in RULE_IDS if f'id="{rule}"' not in html]
    assert missing == []
    assert 'id="section-9"' in html and 'id="section-10"' in html
    assert "<script" not in html.split("</main>")[0].split("<main")[1]


def test_a_recorded_fact_changes_the_treasury_in_the_changes(
    client: FlaskClient, game: Game
) -> None:
    """R-2.1, section 9: given a fact of 3 Gold Dragons, the changes give the difference."""
    before = client.get(f"/api/games/{game.id}").get_json()["game"]["version"]
    post(
        client,
        game,
        "commands/record_gold",
        game.host,
        {"house": "tyrell", "amount": 3, "cause": "tax"},
    )
    now = before + 2
    told = client.get(f"/api/games/{game.id}/changes", query_string={"from": before, "to": now})
    assert [c["kind"] for c in told.get_json()["changes"]] == ["treasury"]
