"""A 6-player game well under way, set up over HTTP for the pages that show the whole court:
Robb Stark married to Margaery Tyrell (an alliance, R-5.2), every village held, Wardens
elected, three Wardens on the Small Council, Fief titles bought, a Mother of Dragons."""

from __future__ import annotations

from typing import Any

from tests.browser.court_http import HttpCourt

SIX = ("stark", "lannister", "tyrell", "martell", "greyjoy", "baratheon")
VILLAGES = (
    ("stark", ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")),
    ("lannister", ("kings-landing", "rosby", "stokeworth", "duskendale")),
    ("tyrell", ("highgarden", "oldtown", "bitterbridge")),
    ("martell", ("sunspear", "yronwood", "starfall")),
    ("greyjoy", ("pyke", "lordsport", "lannisport")),
    ("lannister", ("casterly-rock", "the-crag")),
    ("baratheon", ("the-eyrie", "gulltown", "runestone", "riverrun", "the-twins")),
)
COUNCIL = (
    ("eddard-stark", "master-of-laws"),
    ("robert-baratheon", "master-of-coin"),
    ("mace-tyrell", "master-of-ships"),
)


def marry(game: HttpCourt, noble: str, to: str) -> None:
    """Plays the decree steps now open: seat 0 proposes `noble` to `to`, who accepts; every
    other turn passes."""
    for _ in range(60):
        decree = game.view()["decree"]
        if decree is None:
            return
        proposal = decree["proposal"]
        if proposal:
            game.play("answer_marriage", {"accept": True}, game.tokens[proposal["to_seat"]])
        elif decree["step"] == "marriages" and decree["current"] == 0:
            game.play("propose_marriage", {"noble": noble, "to": to}, game.tokens[0])
        else:
            game.play("pass", {}, game.tokens[decree["current"]])
    raise AssertionError("the decree steps did not end")


def _first(game: HttpCourt, seat: int, message: str) -> dict[str, Any] | None:
    return next((m for m in game.view(seat)["moves"] if m["message"] == message), None)


def _chooser(game: HttpCourt, view: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """A seat that must pass on or return a title, or may buy a Fief title: its first move."""
    pending, purchases = view["pending"], view["purchases"]
    if pending and pending["kind"] == "overflow":
        move = _first(game, pending["seat"], "resolve_title_overflow")
        return (pending["seat"], move) if move else None
    if purchases and purchases["current"] is not None:
        move = _first(game, purchases["current"], "buy_fief_title")
        return (purchases["current"], move) if move else None
    return None


def to_round(game: HttpCourt, target: int) -> dict[str, Any]:
    """Settles every step (buying each Fief title a player can) and closes the phases until
    round `target` starts."""
    for _ in range(100):
        view = game.settle(lambda v: _chooser(game, v) is not None)
        chosen = _chooser(game, view)
        if chosen:
            seat, move = chosen
            game.play(move["message"], move["payload"], game.tokens[seat])
        elif view["game"]["round"] >= target:
            return view
        else:
            game.play("advance_phase", {}, game.host)
    raise AssertionError(f"round {target} was never reached")


def full_court(base: str) -> HttpCourt:
    """The 6-player game of this module's docstring, in round 6."""
    game = HttpCourt(base, houses=SIX)
    marry(game, "robb-stark", "margaery-tyrell")
    for house, villages in VILLAGES:
        game.record_villages(house, villages)
    to_round(game, 4)
    for noble, title in COUNCIL:
        body = {"noble": noble, "title": title, "cause": "a Court Event"}
        game.play("join_small_council", body, game.host)
    body = {"noble": "cersei-lannister", "cause": "a Court Event"}
    game.play("grant_mother_of_dragons", body, game.host)
    to_round(game, 6)
    return game
