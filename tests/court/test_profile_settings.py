"""Every [D] setting of a rules profile changes what the court does, or is not a setting:
ties (R-7.1 step 5), several qualifying winners (R-4.7), Septs a village (R-4.6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from config.rulesdata import load_ruleset
from court.commands import StartGame
from court.decide import victory
from court.events import BallotsRevealed, TitleGranted
from court.evolve import evolve
from court.ids import NobleId, Seat, TitleId
from court.model.ruleset import Ruleset
from court.state import Alliance, CourtState
from elections.markers import MarkerKind
from elections.tally import Revealed, count
from tests.court.given import (
    HOST,
    created,
    given,
    joined,
    pass_decrees,
    seat,
    started,
    then_state,
    when,
)
from tests.court.moments import ballot, run_north_election

ROBB = NobleId("robb-stark")


def test_a_tie_elects_nobody_by_default() -> None:
    """R-7.1 step 5 [D] tie_elects_nobody = true."""
    markers = [
        Revealed(voter="0", candidate="robb-stark", kind=MarkerKind.FOR),
        Revealed(voter="1", candidate="jaime-lannister", kind=MarkerKind.FOR),
    ]
    tally = count({"0": 2, "1": 2}, markers, ["jaime-lannister", "robb-stark"])
    assert tally.winner is None and tally.reason == "tie"


def test_with_ties_not_electing_nobody_the_candidate_put_forward_first_wins_a_tie() -> None:
    """R-7.1 step 5 [D] tie_elects_nobody = false: a tie at the top goes to the candidate who
    was put forward first; the minimum still applies."""
    from tests.court.moments import NORTH, ROBB, control, next_round

    state = given(created(3, elections__tie_elects_nobody=False), joined(0), joined(1), joined(2))
    state = then_state(state, when(state, StartGame(), HOST))
    state = then_state(state, pass_decrees(state))
    state = control(control(state, NORTH[:2], "stark"), NORTH[2:], "lannister")
    state = next_round(state)
    state = run_north_election(state)  # Jaime stood first (seat 1), then Robb (seat 0)
    election = state.election
    assert election is not None
    # Both voters hold as many votes: 3 (two villages with the Principal) and 2, made even.
    state = replace(state, election=replace(election, weights={Seat(1): 3, Seat(0): 3}))
    state = then_state(state, when(state, ballot(("for", "robb-stark")), seat(1)))
    events = when(state, ballot(("for", "jaime-lannister")), seat(0))
    revealed = next(e for e in events if isinstance(e, BallotsRevealed))
    assert revealed.winner == "jaime-lannister" and revealed.reason == "tie_broken"
    assert ROBB in {c.noble: c.votes for c in revealed.votes}


def _titled(state: CourtState, *pairs: tuple[str, str]) -> CourtState:
    for title, noble in pairs:
        state = evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="t"))
    return state


@pytest.mark.parametrize(("all_win", "winners"), [(True, {0, 1, 2}), (False, {0, 1})])
def test_several_qualifying_parties_win_together_or_only_those_with_the_most_points(
    all_win, winners
) -> None:
    """R-4.7 [D] all_qualifying_win: true records every qualifying party; false only those
    with the most VP (here the alliance of seats 0 and 1, 6 VP, over seat 2 alone, 3 VP)."""
    state = given(*started(4))
    rules = state.ruleset
    profile = replace(
        rules.profile, victory=replace(rules.profile.victory, all_qualifying_win=all_win)
    )
    state = replace(state, rules=replace(rules, profile=profile))
    state = _titled(
        state,
        ("fief-winterfell", "eddard-stark"),
        ("king", "robb-stark"),
        ("hand", "bran-stark"),
        ("fief-pyke", "tywin-lannister"),
        ("fief-riverrun", "jaime-lannister"),
        ("fief-highgarden", "loras-tyrell"),
        ("fief-sunspear", "mace-tyrell"),
        ("fief-casterly-rock", "willas-tyrell"),
    )
    alliance = Alliance(
        seats=(Seat(0), Seat(1)), lord=NobleId("robb-stark"), lady=NobleId("cersei-lannister")
    )
    state = replace(state, alliances=(alliance,))
    ended = victory.check(state)
    assert ended is not None and set(ended.winners) == winners


def test_alliances_per_player_is_no_setting_one_marriage_marker_each_is_the_rule() -> None:
    """R-5.2 [R]: each player has one Marriage marker; a profile cannot change that."""
    raw = load_ruleset()
    raw["profile"]["marriage"]["alliances_per_player"] = 2
    with pytest.raises(ValueError, match="alliances_per_player"):
        Ruleset.from_dict(raw)
