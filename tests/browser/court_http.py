"""Setting a game up over HTTP, fast, so a browser test can start where it means to look."""

from __future__ import annotations

from typing import Any

import requests

from tests.browser.signing_phone import Phones, signed_body

HOUSES = ("stark", "lannister", "tyrell")


def listed_lobby(base: str) -> dict[str, Any]:
    """A new listed 3-player game in the lobby (Eddard hosts); the create answer."""
    response = requests.post(
        f"{base}/api/games", json={"players": 3, "host_name": "Eddard", "listed": True}, timeout=5
    )
    assert response.ok, response.text
    created: dict[str, Any] = response.json()
    return created


class HttpCourt:
    """A started game (3 players unless `houses` names more; the first House's player is the
    host) driven through the HTTP API; with `start=False` every seat is taken and the host
    starts it with `start()`, for a test whose clocks must not run before its page is open."""

    def __init__(
        self,
        base: str,
        variants: dict[str, bool] | None = None,
        houses: tuple[str, ...] = HOUSES,
        host_role: dict[str, int] | None = None,
        clocks: dict[str, int] | None = None,
        table_votes: dict[str, int] | None = None,
        last_round: int | None = None,
        start: bool = True,
    ) -> None:
        self.base = base
        body: dict[str, Any] = {"players": len(houses), "host_name": "Eddard"}
        if variants:
            body["variants"] = variants
        if host_role:
            body["host_role"] = host_role
        if clocks:
            body["clocks"] = clocks
        if table_votes:
            body["table_votes"] = table_votes
        if last_round is not None:
            body["last_round"] = last_round
        created = self._call("POST", "/api/games", body)
        self.id, self.host = created["game_id"], created["host_token"]
        self.tokens: dict[int, str] = {}
        # The pages that may key a seat, and the HTTP client's keys signed by them.
        self.phones = Phones()
        for house in houses:
            joined = self._call(
                "POST",
                f"/api/games/{self.id}/commands/join",
                {"house": house, "player_name": f"Player of {house}", "invite": created["invite"]},
                self.host if house == houses[0] else None,
            )
            self.tokens[joined["seat"]] = joined["token"]
        if start:
            self.start()

    def start(self) -> None:
        """The host starts the game (every seat is taken)."""
        self.play("start", {}, self.host)

    def _call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.request(method, self.base + path, json=body, headers=headers, timeout=5)
        assert response.ok, (path, response.status_code, response.text)
        return response.json()

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self._call("GET", f"/api/games/{self.id}", token=self.tokens.get(seat))

    def records(self) -> list[dict[str, Any]]:
        """The log as a spectator reads it (the first 200 records)."""
        return self._call("GET", f"/api/games/{self.id}/events?limit=200")["records"]

    def play(self, message: str, body: Any, token: str) -> Any:
        """A move sent for the token's seat: signed by the seat's phone once a page of the
        seat (named in `phones.pages`) keyed it."""
        first = next(iter(self.tokens), None) if token == self.host else None
        seat = next((s for s, t in self.tokens.items() if t == token), first)
        if seat is not None and seat in self.phones.pages:
            view = self.view()
            device = self.phones.phone(self, seat, view)
            if device is not None:
                body = signed_body(device, self.id, seat, message, body, view)
        return self.send(message, body, token)

    def send(self, message: str, body: Any, token: str) -> Any:
        return self._call("POST", f"/api/games/{self.id}/commands/{message}", body, token)

    def record_villages(self, house: str, villages: tuple[str, ...]) -> None:
        for village in villages:
            body = {"village": village, "house": house, "cause": "battle"}
            self.play("record_village", body, self.host)

    def settle(self, stop: Any = None) -> dict[str, Any]:
        """Plays every open step: decrees are passed; in an election each player stands his
        first eligible Lord and votes FOR his own House's candidate; titles are accepted; in
        phase 4 every bidder passes and every player is done. Stops early when `stop(view)`."""
        for _ in range(200):
            view = self.view()
            if stop is not None and stop(view):
                return view
            decree, election, pending = view["decree"], view["election"], view["pending"]
            auction, purchases = view["auction"], view["purchases"]
            if pending:
                self.play("accept_title", {}, self.tokens[pending["seat"]])
            elif decree and decree["current"] is not None:
                self.play("pass", {}, self.tokens[decree["current"]])
            elif election and election["current"] is not None:
                self._elect(election, election["current"])
            elif auction and auction["winner"] is None:
                self.play("pass_bid", {}, self.tokens[auction["waiting"][0]])
            elif purchases and purchases["current"] is not None:
                self.play("end_purchases", {}, self.tokens[purchases["current"]])
            else:
                return view
        raise AssertionError("the steps did not settle")

    def _elect(self, election: dict[str, Any], seat: int) -> None:
        token = self.tokens[seat]
        moves = self.view(seat)["moves"]
        if election["stage"] == "candidacy":
            stand = next((m for m in moves if m["message"] == "stand"), None)
            if stand:
                self.play("stand", stand["payload"], token)
                return
        else:
            mine = {c["noble"] for c in election["candidates"] if c["seat"] == seat}
            ballot = next(
                (
                    m
                    for m in moves
                    if m["message"] == "place_ballot"
                    and [(k["kind"], k["candidate"] in mine) for k in m["payload"]["markers"]]
                    == [("for", True)]
                ),
                None,
            )
            if ballot:
                self.play("place_ballot", ballot["payload"], token)
                return
        self.play("pass", {}, token)

    def advance_until(self, done: Any) -> dict[str, Any]:
        """The host closes phases (the steps in between settled) until `done(view)`."""
        for _ in range(30):
            view = self.settle(done)
            if done(view):
                return view
            self.play("advance_phase", {}, self.host)
        raise AssertionError("the condition was never reached")


# The villages of the North.
NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def to_warden_of_the_north(game: HttpCourt) -> dict[str, Any]:
    """Round 2's Warden of the North election (R-7.4): Stark holds three villages of the North,
    Lannister one; Stark's player has 4 votes, Lannister's 1, Tyrell's none."""
    game.settle()
    game.record_villages("stark", NORTH[:3])
    game.record_villages("lannister", NORTH[3:])
    return game.advance_until(lambda v: v["election"] is not None)
