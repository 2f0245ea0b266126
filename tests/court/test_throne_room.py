"""What the throne room draws from the court view: each House's victory points (R-3.7), its
arms, and the marriage alliances between Houses (R-5.2, R-5.3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from court.commands import Actor
from court.decide import victory
from court.events import TitleGranted
from court.events.nobles import NobleDied
from court.evolve import evolve
from court.ids import HouseId, NobleId, Seat, TitleId
from court.model.ruleset import PLAIN_ARMS, house_card
from court.state import Alliance, CourtState
from court.views import court_view
from tests.court.given import given, started


def view_of(state: CourtState) -> dict[str, Any]:
    return court_view(state, 1, Actor())


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def house(view: dict[str, Any], house_id: str) -> dict[str, Any]:
    return next(h for h in view["houses"] if h["id"] == house_id)


def test_each_house_counts_the_points_of_its_nobles_titles() -> None:
    """R-3.7: each Fief title, the King and the Hand 1 VP; the Lord Commander 1; others 0."""
    # Given a 4-player game where Stark holds a Fief, the crown and a Warden, Lannister the Hand
    state = given(*started(4))
    for title, noble in (
        ("fief-winterfell", "eddard-stark"),
        ("king", "robb-stark"),
        ("warden-north", "bran-stark"),
        ("hand", "tywin-lannister"),
        ("lord-commander", "loras-tyrell"),
    ):
        state = grant(state, title, noble)
    # When the points are counted
    points = victory.house_points(state)
    # Then Stark has 2 (the Warden counts 0), Lannister 1, Tyrell 1, an unseated House 0
    assert points[HouseId("stark")] == 2
    assert points[HouseId("lannister")] == 1
    assert points[HouseId("tyrell")] == 1
    assert points[HouseId("greyjoy")] == 0
    # And the view shows the same on each House, and the seats' points agree
    view = view_of(state)
    seated = ("stark", "lannister", "tyrell", "martell")
    assert [house(view, h)["vp"] for h in seated] == [2, 1, 1, 0]
    assert victory.points(state) == {Seat(0): 2, Seat(1): 1, Seat(2): 1, Seat(3): 0}


def test_a_dead_nobles_title_counts_no_points() -> None:
    """R-3.7 with R-4.7: the victory check counts the titles of living Nobles only."""
    # Given Eddard Stark, Lord of Winterfell
    state = grant(given(*started(4)), "fief-winterfell", "eddard-stark")
    # When he dies
    state = evolve(state, NobleDied(noble=NobleId("eddard-stark"), cause="battle"))
    # Then House Stark has no points
    assert victory.house_points(state)[HouseId("stark")] == 0
    assert house(view_of(state), "stark")["vp"] == 0


def test_the_view_shows_each_house_s_arms_from_the_roster() -> None:
    # Given the default roster
    view = view_of(given(*started(3)))
    # Then every House shows its arms, as config/roster.toml gives them
    assert house(view, "stark")["arms"] == {"field": "bordure", "charge": "mullet"}
    assert house(view, "tyrell")["arms"] == {"field": "plain", "charge": "rose"}
    assert all(h["arms"]["field"] and h["arms"]["charge"] for h in view["houses"])


def test_a_house_from_a_game_created_before_arms_bears_a_plain_shield() -> None:
    # Given a House as a game created before Houses had arms recorded it
    raw = {"id": "stark", "name": "House Stark", "colours": ["#111111", "#eeeeee"], "nobles": []}
    # Then it bears a plain shield in its colours
    assert house_card(raw).arms == PLAIN_ARMS


def test_the_view_lists_the_marriage_alliances_with_both_houses() -> None:
    """R-5.2: a marriage allies the two players (4 to 6 players, R-5.3)."""
    # Given Robb Stark married to Cersei Lannister, allying seats 0 and 1
    state = given(*started(4))
    couple = Alliance(
        seats=(Seat(0), Seat(1)), lord=NobleId("robb-stark"), lady=NobleId("cersei-lannister")
    )
    # When the court is viewed
    view = view_of(replace(state, alliances=(couple,)))
    # Then the alliance names both seats, both Houses and the couple
    assert view["alliances"] == [
        {
            "seats": [0, 1],
            "houses": ["stark", "lannister"],
            "lord": "robb-stark",
            "lady": "cersei-lannister",
        }
    ]
    # And without a marriage there is none
    assert view_of(state)["alliances"] == []


def test_the_view_marks_the_council_and_the_night_s_watch_titles() -> None:
    """R-3.5: the Small Council is the Hand and the four Masters; the Lord Commander exists
    with the Night's Watch variant only."""
    titles = {t["id"]: t for t in view_of(given(*started(3)))["titles"]}
    council = sorted(t for t, title in titles.items() if title["council"])
    assert council == sorted(
        ["hand", "master-of-coin", "master-of-laws", "master-of-ships", "master-of-whisperers"]
    )
    assert [t for t, title in titles.items() if title["nights_watch"]] == ["lord-commander"]
