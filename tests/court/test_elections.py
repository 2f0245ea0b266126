"""The elections of phase 1 (R-7.1 to R-7.8, R-3.2 to R-3.4, R-3.8, R-4.2, R-4.3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    AcceptTitle,
    AdvancePhase,
    CloseOverdueStep,
    Pass,
    RefuseTitle,
    ResolveTitleOverflow,
    StandForElection,
)
from court.errors import CourtError
from court.events import (
    BallotOpened,
    BallotPlaced,
    BallotsRevealed,
    ElectionOpened,
    ElectionSkipped,
    PhaseStarted,
    StepTimedOut,
    TitleRefused,
    TitleReturned,
    TitleSlotsExceeded,
)
from court.ids import NobleId, Seat, TitleId
from court.options import electorate
from court.state import NobleStatus, PendingKind, Phase, Stage
from elections.markers import commitment
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
from tests.court.moments import (
    NORTH,
    act,
    ballot,
    control,
    grant,
    next_round,
    noble,
    north_for_stark,
    run_north_election,
    when_at,
)


def test_phase_one_runs_the_elections_in_order_and_records_every_skip() -> None:
    """R-4.2, R-7.6: Lord Commander, Wardens 1 to 5, Hand, King; each skip with its reason."""
    events = started(3)
    skipped = [e for e in events if isinstance(e, ElectionSkipped)]
    assert [e.election for e in skipped] == [
        "warden-north",
        "warden-east",
        "warden-crownlands",
        "warden-south",
        "warden-west",
        "hand",
        "king",
    ]
    assert all("R-7" in e.reason for e in skipped)
    assert isinstance(events[-1], PhaseStarted) and events[-1].phase == "cards"


def test_with_the_nights_watch_the_lord_commander_election_comes_first() -> None:
    """R-7.3: NWE only; skipped with fewer than two Brothers."""
    from court.decide import settle
    from court.events import GameStarted, RoundStarted
    from court.evolve import replay
    from tests.court.given import GAME

    before = (created(3, variants__nights_watch=True), joined(0), joined(1), joined(2))
    start = (
        GameStarted(seat_order=(0, 1, 2), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    events = settle(replay(GAME, before), start, 0.0)
    events += pass_decrees(replay(GAME, (*before, *events)))
    first = next(e for e in events if isinstance(e, ElectionSkipped))
    assert first.election == "lord-commander" and "Brothers" in first.reason


def test_the_first_player_passes_clockwise_each_round() -> None:
    """R-1.1: the marker moves one seat clockwise at the start of every round."""
    state = given(*started(3))
    assert state.first_player == 0
    state = next_round(state)
    assert state.round == 2 and state.first_player == 1
    state = next_round(state)
    assert state.round == 3 and state.first_player == 2


def test_warden_election_is_skipped_while_a_village_of_the_region_is_uncontrolled() -> None:
    """R-7.4 condition: every village of the region is controlled by some player."""
    state = next_round(control(given(*started(3)), NORTH[:3], "stark"))
    assert state.phase is Phase.CARDS and state.election is None


def test_warden_worked_example_four_villages_with_the_principal_give_five_votes() -> None:
    """R-7.4: four villages including the Principal = 5 votes."""
    state = north_for_stark()
    assert state.election is not None and state.election.id == "warden-north"
    assert state.election.order == (1, 2, 0)  # turn order from the new First Player
    state = act(state, Pass(), seat(1))
    state = act(state, Pass(), seat(2))
    state = act(state, StandForElection(noble=NobleId("robb-stark")), seat(0))
    election = state.election
    assert election is not None and election.stage is Stage.BALLOT
    assert election.weights == {1: 0, 2: 0, 0: 5}
    assert election.order == (0,)  # only players with votes hold markers


def test_warden_votes_add_wardens_and_council_members_held_at_the_start_of_the_round() -> None:
    """R-7.4: +2 per Warden and +1 per Small Council member held when the round began."""
    state = control(given(*started(3)), NORTH, "stark")
    state = grant(state, "warden-east", "tywin-lannister")
    state = grant(state, "master-of-coin", "kevan-lannister")
    state = grant(state, "master-of-laws", "loras-tyrell")
    state = next_round(state)
    # a title gained after the round began does not count
    state = grant(state, "master-of-ships", "tyrion-lannister")
    for s in (1, 2):
        state = act(state, Pass(), seat(s))
    state = act(state, StandForElection(noble=NobleId("eddard-stark")), seat(0))
    assert state.election is not None
    assert state.election.weights == {1: 3, 2: 1, 0: 5}


def test_captive_and_outlaw_nobles_neither_vote_nor_stand() -> None:
    """R-7.2: their votes are not counted for their player, and they cannot stand."""
    state = control(given(*started(3)), NORTH, "stark")
    state = grant(state, "warden-east", "tywin-lannister")
    state = grant(state, "master-of-coin", "kevan-lannister")
    state = next_round(state)
    state = noble(state, "tywin-lannister", status=NobleStatus.CAPTIVE, captor="stark")
    state = noble(state, "kevan-lannister", outlaw=True)
    with pytest.raises(CourtError) as err:
        when(state, StandForElection(noble=NobleId("kevan-lannister")), seat(1))
    assert err.value.code == "not_eligible"
    state = act(state, Pass(), seat(1))
    state = act(state, Pass(), seat(2))
    state = act(state, StandForElection(noble=NobleId("robb-stark")), seat(0))
    assert state.election is not None and state.election.weights[1] == 0


def test_a_for_marker_moves_all_votes_and_the_winner_may_accept() -> None:
    """R-7.1 steps 3-6: placement, simultaneous reveal, count, then the title is granted."""
    state = run_north_election(north_for_stark())
    events = when(state, ballot(("for", "robb-stark"), ("decoy", "jaime-lannister")), seat(0))
    placed, revealed = events
    assert isinstance(placed, BallotPlaced) and isinstance(revealed, BallotsRevealed)
    assert all(not hasattr(m, "kind") for m in placed.markers)  # public part: positions only
    assert {m.candidate for m in placed.markers} == {"robb-stark", "jaime-lannister"}
    assert (
        revealed.winner == "robb-stark"
        and {c.noble: c.votes for c in revealed.votes}["robb-stark"] == 5
    )
    for m in revealed.markers:
        assert commitment(m.kind, m.candidate, m.salt) == m.commitment
    state = then_state(state, events)
    assert state.pending is not None and state.pending.kind is PendingKind.ACCEPTANCE
    with pytest.raises(CourtError) as err:
        when(state, AcceptTitle(), seat(1))
    assert err.value.code == "not_your_title"
    state = act(state, AcceptTitle(), seat(0))
    assert state.titles["warden-north"] == "robb-stark"
    assert state.phase is Phase.CARDS


def test_a_winner_may_refuse_and_the_title_stays_on_the_board() -> None:
    """R-3.3."""
    state = run_north_election(north_for_stark(), (0, ballot(("for", "robb-stark"))))
    events = when(state, RefuseTitle(), seat(0))
    assert isinstance(events[0], TitleRefused)
    assert "warden-north" not in then_state(state, events).titles


def test_decoys_alone_elect_nobody() -> None:
    """R-7.1 steps 4-5: DECOY markers count for nothing; no vote elects nobody."""
    state = run_north_election(north_for_stark())
    events = when(state, ballot(("decoy", "robb-stark")), seat(0))
    revealed = events[1]
    assert isinstance(revealed, BallotsRevealed)
    assert revealed.winner is None and revealed.reason == "no_votes"
    assert then_state(state, events).pending is None


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        (StandForElection(noble=NobleId("robb-stark")), 0, "not_your_turn"),
        (StandForElection(noble=NobleId("robb-stark")), 1, "not_eligible"),
        (StandForElection(noble=NobleId("cersei-lannister")), 1, "not_eligible"),
        (ballot(("for", "jaime-lannister")), 1, "wrong_step"),
    ],
)
def test_candidacy_refuses_out_of_turn_foreign_or_ineligible_candidates(command, actor, code):
    """R-7.1 step 2: in turn order, one of his own eligible Lords."""
    with pytest.raises(CourtError) as err:
        when(north_for_stark(), command, seat(actor))
    assert err.value.code == code


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        (ballot(("for", "robb-stark"), ("for", "jaime-lannister")), 0, "duplicate_marker"),
        (ballot(("for", "eddard-stark")), 0, "not_a_candidate"),
        (ballot(("for", "robb-stark")), 1, "not_in_this_step"),
        (ballot(("sure", "robb-stark")), 0, "bad_marker"),
        (StandForElection(noble=NobleId("robb-stark")), 0, "wrong_step"),
    ],
)
def test_a_bad_ballot_is_refused(command, actor, code) -> None:
    """R-7.1 step 3: one FOR and one DECOY each, on candidates; only voters place."""
    state = run_north_election(north_for_stark())
    with pytest.raises(CourtError) as err:
        when(state, command, seat(actor))
    assert err.value.code == code


def test_sealed_ballots_hide_where_markers_lie_until_the_reveal() -> None:
    """R-7.1 step 3, variant: positions hidden too."""
    state = north_for_stark()
    profile = state.ruleset.profile
    sealed = replace(profile, variants=replace(profile.variants, sealed_ballots=True))
    state = replace(state, rules=replace(state.ruleset, profile=sealed))
    state = run_north_election(state)
    placed, revealed = when(state, ballot(("for", "robb-stark")), seat(0))
    assert isinstance(placed, BallotPlaced)
    assert placed.markers[0].candidate is None
    assert placed.secrets[0].candidate == "robb-stark"
    assert isinstance(revealed, BallotsRevealed) and revealed.markers[0].candidate == "robb-stark"


def test_a_third_title_of_a_category_makes_the_player_pass_or_return_one() -> None:
    """R-3.2: at most 1 Military title; the game waits for the choice."""
    state = control(given(*started(3)), NORTH, "stark")
    state = grant(state, "warden-east", "robb-stark")
    state = next_round(state)
    state = run_north_election(state, (0, ballot(("for", "robb-stark"))))
    events = when(state, AcceptTitle(), seat(0))
    assert isinstance(events[-2], TitleSlotsExceeded)  # the choice waits before the title
    state = then_state(state, events)
    assert state.pending is not None and state.pending.kind is PendingKind.OVERFLOW
    with pytest.raises(CourtError) as err:
        when(state, Pass(), seat(2))
    assert err.value.code == "waiting_for_title"
    with pytest.raises(CourtError) as err:
        when(
            state,
            ResolveTitleOverflow(title=TitleId("warden-east"), to=NobleId("sansa-stark")),
            seat(0),
        )
    assert err.value.code == "cannot_hold"  # a Warden is a Lord
    state = act(
        state,
        ResolveTitleOverflow(title=TitleId("warden-east"), to=NobleId("tywin-lannister")),
        seat(0),
    )
    assert state.titles["warden-east"] == "tywin-lannister"
    assert state.titles["warden-north"] == "robb-stark" and state.pending is None


def test_the_new_hand_returns_his_master_title() -> None:
    """R-3.4 and R-7.7: council members vote for a Hand among them."""
    state = given(*started(3))
    state = grant(state, "master-of-coin", "eddard-stark")
    state = grant(state, "master-of-laws", "tywin-lannister")
    state = next_round(state)
    assert state.election is not None and state.election.id == "hand"
    assert state.election.order == (1, 0)  # Tyrell has no council member
    state = act(state, StandForElection(noble=NobleId("tywin-lannister")), seat(1))
    state = act(state, StandForElection(noble=NobleId("eddard-stark")), seat(0))
    assert state.election is not None and state.election.weights == {1: 1, 2: 0, 0: 1}
    state = act(state, ballot(("for", "tywin-lannister")), seat(1))
    state = act(state, ballot(("decoy", "eddard-stark")), seat(0))
    events = when(state, AcceptTitle(), seat(1))
    assert events[0] == TitleReturned(
        title=TitleId("master-of-laws"),
        noble=NobleId("tywin-lannister"),
        reason="the new Hand gives up his Master title (R-3.4)",
    )
    state = then_state(state, events)
    assert state.titles["hand"] == "tywin-lannister" and "master-of-laws" not in state.titles


def test_a_married_king_makes_his_wife_queen_and_holds_protector() -> None:
    """R-7.8 (three titled Lords, 3 votes at least) and R-3.8."""
    state = given(*started(3))
    # Warden titles: titled Lords worth no VP, so nobody wins at the end of the round
    for title, lord in (
        ("warden-north", "eddard-stark"),
        ("warden-east", "robb-stark"),
        ("warden-crownlands", "bran-stark"),
        ("warden-west", "tywin-lannister"),
    ):
        state = grant(state, title, lord)
    state = noble(state, "eddard-stark", spouse="catelyn-stark")
    state = noble(state, "catelyn-stark", spouse="eddard-stark")
    state = next_round(state)
    assert state.election is not None and state.election.id == "king"
    state = act(state, StandForElection(noble=NobleId("tywin-lannister")), seat(1))
    state = act(state, StandForElection(noble=NobleId("eddard-stark")), seat(0))
    assert state.election is not None and state.election.minimum == 3
    # House Tyrell's bonus vote while Margaery or Olenna is in play (R-7.8 option)
    assert state.election.weights == {1: 1, 2: 1, 0: 3}
    state = act(state, ballot(("for", "tywin-lannister")), seat(1))
    state = act(state, Pass(), seat(2))
    state = act(state, ballot(("for", "eddard-stark")), seat(0))
    state = act(state, AcceptTitle(), seat(0))
    assert state.titles["king"] == "eddard-stark"
    assert state.titles["queen"] == "catelyn-stark"
    assert state.titles["protector"] == "eddard-stark"


def test_a_king_needs_three_votes() -> None:
    """R-7.8 minimum: 3 votes; the Tyrell bonus vote counts like any other."""
    state = given(*started(3))
    for title, lord in (
        ("fief-winterfell", "eddard-stark"),
        ("fief-the-eyrie", "robb-stark"),
        ("fief-pyke", "tywin-lannister"),
    ):
        state = grant(state, title, lord)
    state = next_round(state)
    state = act(state, StandForElection(noble=NobleId("tywin-lannister")), seat(1))
    state = act(state, StandForElection(noble=NobleId("eddard-stark")), seat(0))
    state = act(state, ballot(("decoy", "eddard-stark")), seat(1))
    state = act(state, ballot(("for", "tywin-lannister")), seat(2))
    events = when(state, ballot(("for", "eddard-stark")), seat(0))
    revealed = events[1]
    assert isinstance(revealed, BallotsRevealed)
    assert {c.noble: c.votes for c in revealed.votes} == {"tywin-lannister": 1, "eddard-stark": 2}
    assert revealed.winner is None and revealed.reason == "below_minimum"


def test_nobody_standing_skips_the_election() -> None:
    """R-7.1 step 2: no candidate, no election."""
    state = north_for_stark()
    state = act(state, Pass(), seat(1))
    state = act(state, Pass(), seat(2))
    events = when(state, Pass(), seat(0))
    assert isinstance(events[1], ElectionSkipped) and "no candidate" in events[1].reason


def test_steps_close_by_themselves_at_their_deadline() -> None:
    """R-4.3: who has not acted is recorded as passing, and the step closes."""
    state = given(
        created(3, deadlines__candidacy=60, deadlines__ballot=30), joined(0), joined(1), joined(2)
    )
    from court.commands import StartGame

    state = act(state, StartGame(), HOST, now=1000.0)
    state = then_state(state, pass_decrees(state, 1000.0))
    state = control(state, NORTH, "stark")
    state = next_round(state, now=2000.0)
    opened = state.election
    assert opened is not None and opened.deadline == 2060.0
    with pytest.raises(CourtError) as err:
        when_at(state, CloseOverdueStep(), HOST, 2059.0)
    assert err.value.code == "not_overdue"
    state = act(state, StandForElection(noble=NobleId("jaime-lannister")), seat(1), now=2010.0)
    events = when_at(state, CloseOverdueStep(), HOST, 2061.0)
    assert events[0] == StepTimedOut(election="warden-north", stage="candidacy", passed=(2, 0))
    assert isinstance(events[1], BallotOpened) and events[1].deadline == 2091.0
    state = then_state(state, events)
    events = when_at(state, CloseOverdueStep(), HOST, 2091.0)
    assert events[0] == StepTimedOut(election="warden-north", stage="ballot", passed=(0,))
    assert isinstance(events[1], BallotsRevealed) and events[1].winner is None


def test_a_new_election_opens_only_for_players_with_an_eligible_lord() -> None:
    state = north_for_stark()
    opened = [e for e in started(3) if isinstance(e, ElectionOpened)]
    assert opened == []
    assert state.election is not None and state.election.stage is Stage.CANDIDACY


def test_brothers_elect_a_lord_commander_with_two_votes_at_least() -> None:
    """R-7.3: NWE; two Brothers in play; any Brother stands; a vote per Brother; minimum 2."""
    from court.commands import StartGame

    state = given(created(3, variants__nights_watch=True), joined(0), joined(1), joined(2))
    state = act(state, StartGame())
    state = then_state(state, pass_decrees(state))
    for brother in ("benjen-stark", "jon-snow", "lancel-lannister"):
        state = noble(state, brother, status=NobleStatus.BROTHER)
    state = next_round(state)
    assert state.election is not None and state.election.id == "lord-commander"
    assert state.election.order == (1, 0)  # Tyrell has no Brother
    with pytest.raises(CourtError) as err:
        when(state, StandForElection(noble=NobleId("kevan-lannister")), seat(1))
    assert err.value.code == "not_eligible"
    state = act(state, StandForElection(noble=NobleId("lancel-lannister")), seat(1))
    state = act(state, StandForElection(noble=NobleId("benjen-stark")), seat(0))
    assert state.election is not None and state.election.minimum == 2
    assert state.election.weights == {1: 1, 2: 0, 0: 2}
    state = act(state, ballot(("for", "lancel-lannister")), seat(1))
    state = act(state, ballot(("for", "benjen-stark")), seat(0))
    state = act(state, AcceptTitle(), seat(0))
    assert state.titles["lord-commander"] == "benjen-stark"


def test_a_hand_election_needs_two_council_members_in_play() -> None:
    """R-7.7 [D]: condition two Small Council members in play."""
    state = grant(given(*started(3)), "master-of-coin", "eddard-stark")
    seen: list = []
    while state.round == 1:
        events = when(state, AdvancePhase())
        state = then_state(state, events)
        passes = pass_decrees(state)
        state = then_state(state, passes)
        seen.extend((*events, *passes))
    hand = next(e for e in seen if isinstance(e, ElectionSkipped) and e.election == "hand")
    assert "fewer than 2 Small Council members" in hand.reason and "R-7.7" in hand.reason
    assert state.election is None and state.phase is Phase.CARDS


def test_the_phase_1_elections_are_made_once_for_a_ruleset_and_anew_for_a_changed_one() -> None:
    """R-4.2: the order is asked for several times a command; a ruleset made from another
    (another profile) never reuses what the first one made."""
    state = given(*started(3))
    first = electorate.sequence(state)
    rules = state.ruleset
    profile = rules.profile
    variants = replace(profile.variants, nights_watch=not profile.variants.nights_watch)
    other = replace(state, rules=replace(rules, profile=replace(profile, variants=variants)))

    assert electorate.sequence(state) is first
    assert [s.id for s in electorate.sequence(other)] != [s.id for s in first]
    assert ("lord-commander" in [s.id for s in first]) is rules.profile.variants.nights_watch


def test_a_hand_election_needing_all_four_masters_is_held_when_they_are_in_play() -> None:
    """R-7.7 [D]: the highest condition a profile may set, 4, is met by the four Masters while
    the Hand's seat is free (5 could never be: config refuses it)."""
    state = given(*started(4, elections__hand_min_council=4))
    for master, lord in (
        ("master-of-coin", "eddard-stark"),
        ("master-of-laws", "tywin-lannister"),
        ("master-of-ships", "mace-tyrell"),
        ("master-of-whisperers", "doran-martell"),
    ):
        state = grant(state, master, lord)
    state = next_round(state)
    assert state.election is not None and state.election.id == "hand"
