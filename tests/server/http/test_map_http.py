"""GET /api/map: the map's drawing the court page colours from each court view, documented in the
OpenAPI document and kept by the browser."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.http.court_client import Game


def test_the_map_drawing_names_every_village_of_a_games_regions(
    client: FlaskClient, game: Game
) -> None:
    court = client.get(f"/api/games/{game.id}").get_json()

    response = client.get("/api/map")

    assert response.status_code == 200
    assert "max-age=" in response.headers["Cache-Control"]
    drawn = response.get_json()
    villages = {v["id"] for r in court["regions"] for v in r["villages"]}
    assert {v["id"] for v in drawn["villages"]} == villages
    assert {r["id"] for r in drawn["regions"]} == {r["id"] for r in court["regions"]}
    assert all(len(r["outline"]) >= 3 and len(r["label"]) == 2 for r in drawn["regions"])
    assert drawn["width"] > 0 and drawn["height"] > 0


def test_the_map_route_is_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]

    assert "MapDrawing" in str(paths["/api/map"]["get"]["responses"]["200"])
