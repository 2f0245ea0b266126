"""The court rendered for several viewers at once (court/views/court.py `court_views`): the
sections every viewer sees alike are made once, and made again only when what they read
changed; each view equals the one `court_view` gives that viewer alone."""

from __future__ import annotations

from court.commands import SPECTATOR, Actor, AdjustGold
from court.ids import HouseId
from court.views.court import court_view, court_views
from court.views.padding import MARKER_WIDTH
from server.messages.catalogue import move_view
from tests.court.given import HOST, given, seat, started, then_state, when_fact

VIEWERS = [seat(0), seat(1), SPECTATOR, HOST, Actor(master=True)]


def test_each_view_is_the_one_its_viewer_gets_alone_and_shares_the_common_sections() -> None:
    state = given(*started(3))

    views = court_views(state, 9, [(v, None) for v in VIEWERS], move_view)

    assert views == [court_view(state, 9, v, move_view) for v in VIEWERS]
    assert all(v["houses"] is views[0]["houses"] for v in views)
    assert views[0]["viewer"] != views[1]["viewer"]


def test_a_section_is_made_again_only_when_what_it_reads_changed() -> None:
    state = given(*started(3))
    kept: dict = {}
    first = court_views(state, 9, [(SPECTATOR, None)], move_view, kept)[0]

    again = court_views(state, 10, [(SPECTATOR, None)], move_view, kept)[0]
    richer = then_state(
        state, when_fact(state, AdjustGold(house=HouseId("stark"), amount=2, cause="Tax"))
    )
    after = court_views(richer, 11, [(SPECTATOR, None)], move_view, kept)[0]

    assert again["houses"] is first["houses"] and again["regions"] is first["regions"]
    assert after["houses"] is not first["houses"] and after["regions"] is first["regions"]
    assert after == court_view(richer, 11, SPECTATOR, move_view)


def test_the_facts_are_made_once_for_every_recorder_and_again_when_they_may_change() -> None:
    state = given(*started(3))
    kept: dict = {}
    host, master = court_views(
        state, 9, [(HOST, None), (Actor(master=True), None)], move_view, kept
    )
    richer = then_state(
        state, when_fact(state, AdjustGold(house=HouseId("stark"), amount=2, cause="Tax"))
    )
    after = court_views(richer, 10, [(HOST, None)], move_view, kept)[0]

    assert host["facts"] and host["facts"] is master["facts"]
    assert after["facts"] == court_view(richer, 10, HOST, move_view)["facts"]


def test_the_width_of_a_marker_holds_the_longest_kind_and_candidate() -> None:
    """MARKER_WIDTH must hold "decoy" and the longest Noble id of the roster, or the pad
    would be empty and the length would tell the secret."""
    state = given(*started(3))
    longest = max(len(n) for n in state.nobles)
    assert len('"decoy"') + longest + 2 < MARKER_WIDTH
