"""Games at every stage in one app, with every token they handed out, for the hostile tests:
who may send what is decided by the token, so each test can pick one of each kind."""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import HOUSES, Game, bearer, lobby_game, next_round, start

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
MASTER = "Maester Aemon"
STAGES = ("lobby", "decree", "proposal", "cards", "election")


@dataclass(frozen=True)
class Tables:
    """One game per stage; `left` is the token of a seat given up before the lobby game
    started, which must no longer open anything."""

    games: dict[str, Game]
    left: str

    def token(self, stage: str, who: str) -> str | None:
        """The token `who` holds in the game at `stage`: `none` (a spectator), `host`,
        `master`, a House's seat, `left`, `other_game` (a seat of another game), `bogus`."""
        game = self.games[stage]
        other = self.games[STAGES[(STAGES.index(stage) + 1) % len(STAGES)]]
        match who:
            case "none":
                return None
            case "host":
                return game.host_token
            case "master":
                return game.game_master_token
            case "left":
                return self.left
            case "other_game":
                return other.tokens["lannister"]
            case "bogus":
                return "forged-" + "0" * 40
            case house:
                return game.tokens.get(house)

    def headers(self, stage: str, who: str) -> dict[str, str]:
        token = self.token(stage, who)
        return bearer(token) if token else {}


def to_the_north_election(client: FlaskClient, game: Game) -> None:
    """Stark holds the North, so round 2 opens the Warden of the North's candidacy."""
    for village in NORTH:
        response = client.post(
            f"/api/games/{game.id}/commands/record_village",
            json={"village": village, "house": "stark", "cause": "battle"},
            headers=game.host,
        )
        assert response.status_code == 200, response.get_json()
    next_round(client, game)
    election = client.get(f"/api/games/{game.id}").get_json()["election"]
    assert election["id"] == "warden-north" and election["stage"] == "candidacy"


def lay(app: Flask) -> Tables:
    """A lobby with a free seat (Tyrell joined and left again), a game in its first decree
    step, one where Stark's marriage proposal waits for Lannister's answer, one in the cards
    phase of round 1 and one in the Warden of the North's candidacy; each with a game
    master."""
    client = app.test_client()
    games = {
        stage: lobby_game(
            client,
            houses=HOUSES[:2] if stage == "lobby" else HOUSES,
            game_master_name=MASTER,
            # Who may send what is tested here; the invite in test_private_games_http.py.
            listed=stage == "lobby",
        )
        for stage in STAGES
    }
    lobby = games["lobby"]
    joined = client.post(
        f"/api/games/{lobby.id}/commands/join",
        json={"house": "tyrell", "player_name": "Mace", "invite": lobby.invite},
    ).get_json()
    left = client.post(f"/api/games/{lobby.id}/commands/leave", headers=bearer(joined["token"]))
    assert left.status_code == 200, left.get_json()

    decree = games["decree"]
    response = client.post(f"/api/games/{decree.id}/commands/start", json={}, headers=decree.host)
    assert response.status_code == 200, response.get_json()
    assert client.get(f"/api/games/{decree.id}").get_json()["decree"]["current"] is not None
    games["decree"] = replace(decree, started=response.get_json()["version"])

    proposal = games["proposal"]
    response = client.post(
        f"/api/games/{proposal.id}/commands/start", json={}, headers=proposal.host
    )
    games["proposal"] = replace(proposal, started=response.get_json()["version"])
    response = client.post(
        f"/api/games/{proposal.id}/commands/propose_marriage",
        json={"noble": "eddard-stark", "to": "cersei-lannister"},
        headers=proposal.host,
    )
    assert response.status_code == 200, response.get_json()

    games["cards"] = replace(games["cards"], started=start(client, games["cards"]))
    election = games["election"]
    games["election"] = replace(election, started=start(client, election))
    to_the_north_election(client, games["election"])
    return Tables(games, joined["token"])


def vocabulary(app: Flask, tables: Tables) -> dict[str, tuple[str, ...]]:
    """The ids a request may name, read from a started game: nobles, houses, villages, titles."""
    view = app.test_client().get(f"/api/games/{tables.games['cards'].id}").get_json()
    return {
        "noble": tuple(n["id"] for h in view["houses"] for n in h["nobles"]),
        "house": tuple(h["id"] for h in view["houses"]),
        "village": tuple(v["id"] for r in view["regions"] for v in r["villages"]),
        "title": tuple(t["id"] for t in view["titles"]),
    }


def heads(app: Flask, tables: Tables) -> dict[str, tuple[int, str]]:
    """(version, hash) at the head of each table's log, from the stored records."""
    store = app.extensions["court_store"]
    found = {}
    for stage, game in tables.games.items():
        head = store.head(game.id)
        assert head is not None
        found[stage] = (head[0], head[1])
    return found
