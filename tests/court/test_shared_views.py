"""The court rendered for several viewers at once (court/views/made.py `court_views`): the
sections every viewer sees alike are made once, and made again only when what they read
changed; each view equals the one `court_view` gives that viewer alone."""

from __future__ import annotations

from dataclasses import replace

from court.commands import SPECTATOR, Actor, AdjustGold
from court.evolve import replay
from court.ids import HouseId
from court.state import GameStatus
from court.views.made import Made, court_view, court_views
from court.views.padding import MARKER_WIDTH
from court.views.sections import Viewing
from tests.court.fold_table import corrections_undone
from tests.court.given import GAME, HOST, given, seat, started, then_state, when_fact

VIEWERS = [seat(0), seat(1), SPECTATOR, HOST, Actor(master=True)]


def seen(*viewers: Actor) -> list[Viewing]:
    return [Viewing(v, None) for v in viewers]


def test_each_view_is_the_one_its_viewer_gets_alone_and_shares_the_common_sections() -> None:
    state = given(*started(3))

    views = court_views(state, 9, seen(*VIEWERS))

    assert views == [court_view(state, 9, v) for v in VIEWERS]
    assert all(v["houses"] is views[0]["houses"] for v in views)
    assert views[0]["viewer"] != views[1]["viewer"]


def test_a_section_is_made_again_only_when_what_it_reads_changed() -> None:
    state = given(*started(3))
    kept = Made()
    first = court_views(state, 9, seen(SPECTATOR), kept)[0]

    again = court_views(state, 10, seen(SPECTATOR), kept)[0]
    richer = then_state(
        state, when_fact(state, AdjustGold(house=HouseId("stark"), amount=2, cause="Tax"))
    )
    after = court_views(richer, 11, seen(SPECTATOR), kept)[0]

    assert again["houses"] is first["houses"] and again["regions"] is first["regions"]
    assert after["houses"] is not first["houses"] and after["regions"] is first["regions"]
    assert after == court_view(richer, 11, SPECTATOR)


def test_the_facts_are_made_once_for_every_recorder_and_again_when_they_may_change() -> None:
    state = given(*started(3))
    kept = Made()
    host, master = court_views(state, 9, seen(HOST, Actor(master=True)), kept)
    richer = then_state(
        state, when_fact(state, AdjustGold(house=HouseId("stark"), amount=2, cause="Tax"))
    )
    after = court_views(richer, 10, seen(HOST), kept)[0]

    assert host["facts"] and host["facts"] is master["facts"]
    assert after["facts"] == court_view(richer, 10, HOST)["facts"]


def test_the_width_of_a_marker_holds_the_longest_kind_and_candidate() -> None:
    """MARKER_WIDTH must hold "decoy" and the longest Noble id of the roster, or the pad
    would be empty and the length would tell the secret."""
    state = given(*started(3))
    longest = max(len(n) for n in state.nobles)
    assert len('"decoy"') + longest + 2 < MARKER_WIDTH


def test_the_host_role_is_one_section_for_the_viewers_of_one_reason_until_it_may_change() -> None:
    """The host role's section differs between viewers only by why they may not vote (the
    host, a spectator, none for a seat): each reason's section is made once, kept while the
    seats, their votes and the game's status are the same, and made again when they change."""
    state = given(*started(3))
    kept = Made()
    views = court_views(state, 9, seen(*VIEWERS), kept)
    richer = then_state(
        state, when_fact(state, AdjustGold(house=HouseId("stark"), amount=2, cause="Tax"))
    )
    again = court_views(richer, 10, seen(*VIEWERS), kept)
    ended = replace(richer, status=GameStatus.ENDED)
    over = court_views(ended, 11, seen(*VIEWERS), kept)

    roles = [v["host_role"] for v in views]
    assert roles[0] is roles[1] and roles[2] is not roles[0] and roles[3] is not roles[0]
    assert [v["host_role"] for v in again] == roles
    assert all(a["host_role"] is r for a, r in zip(again, roles, strict=True))
    assert over == [court_view(ended, 11, v) for v in VIEWERS]
    assert all(v["host_role"]["why"] == "ended" for v in over)


def test_a_seats_answers_to_a_correction_follow_the_court_kept_from_push_to_push() -> None:
    """Given the table's votes and corrections (proposed, withdrawn, refused, made: R-9.1),
    when the views are kept from each court to the next, then at every version each viewer's
    view (his answers to the correction under vote with it) is the one made afresh."""
    for events in (corrections_undone(),):
        kept = Made()
        for version in range(1, len(events) + 1):
            state = replay(GAME, events[:version])
            viewers = [*VIEWERS[2:], *(seat(s, host=i.host) for s, i in state.seats.items())]
            views = court_views(state, version, seen(*viewers), kept)
            assert views == [court_view(state, version, v) for v in viewers], version
