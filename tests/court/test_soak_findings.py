"""What the soak found in the host's corrections (R-9.1) and the table's votes (R-9.2), each as
a minimal reproduction that fails until the court does as the rules say (strict: a fix makes
it pass, and the mark comes off). Each names the seeded simulated game that found it, which
`flask court simulate --rounds 30 --players P --variants V --seed N` plays again (P and V as
its line in the run said)."""

from __future__ import annotations

import pytest

from config.rulesdata import load_ruleset
from court.commands import (
    Actor,
    AddNoble,
    AdjustGold,
    AnswerCorrection,
    Command,
    CreateGame,
    HandSeat,
    HeirBorn,
    JoinSeat,
    Pass,
    ProposeCorrection,
    RecordDeath,
    RecordVillageControl,
    StandForElection,
    StartGame,
    VoteToEnd,
)
from court.decide import decide_folded
from court.errors import CourtError
from court.events import (
    Event,
    FactRecorded,
    GoldAdjusted,
    MarriageMade,
    NobleDied,
    VillageControlChanged,
)
from court.evolve import evolve
from court.ids import HouseId, NobleId, Seat, VillageId
from court.model import invites
from court.soundness.invariants import require_sound
from court.state import CourtState
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.court.clocks_given import T0, clocked
from tests.court.given import HOST, Table, seat
from tests.court.moments import JAIME, two_voters
from tests.court.table_votes_given import (
    HOST_SEAT,
    LATER,
    NEW,
    accepted_by,
    propose,
    replace_vote,
    version_of,
)
from tests.court.table_votes_given import table as votes_table
from tests.fakes import CountingSecrets, FixedClock


def act(state: CourtState, command: Command, actor: Actor) -> tuple[tuple[Event, ...], CourtState]:
    """As the service decides: every state on the way must keep the court's invariants."""
    return decide_folded(state, command, actor, 0.0, check=require_sound)


def death_correction(state: CourtState, noble: NobleId) -> tuple[ProposeCorrection, CourtState]:
    """The host records `noble`'s death; the correction of it as the service fills it in from
    the log (the death's record, its attribution, the Noble as he stood before), and the court
    after the death."""
    events, after = act(state, RecordDeath(noble=noble, kind="battle", cause="ambush"), HOST)
    assert isinstance(events[0], FactRecorded)
    at = next(i for i, e in enumerate(events) if isinstance(e, NobleDied))
    court_before = state
    for event in events[:at]:
        court_before = evolve(court_before, event)
    version = 40
    proposal = ProposeCorrection(
        version=version,
        cause="he lived",
        recorded=events[at],
        before=events[at - 1],
        court_before=court_before,
        later=events[at + 1 :],
        head=version + len(events) - at - 1,
    )
    return proposal, after


def made(state: CourtState, proposal: ProposeCorrection, voters: tuple[int, ...]) -> CourtState:
    """The host proposes the correction and `voters` accept it: the court once it is made."""
    _, state = act(state, proposal, HOST)
    for voter in voters:
        _, state = act(state, AnswerCorrection(accept=True), seat(voter))
    return state


def test_a_candidates_death_is_not_corrected_while_his_withdrawal_stands() -> None:
    """R-9.1, R-7.2 (seed 8, 6 players, nights_watch,sealed_ballots; seed 18, 5 players, no
    variant): given Jaime stands for Warden of the North,
    when his recorded death withdraws him and the host corrects the death, then the correction
    is refused, or it puts Jaime back among the candidates."""
    state = two_voters()
    _, state = act(state, StandForElection(noble=JAIME), seat(1))
    proposal, state = death_correction(state, JAIME)
    assert state.election is not None and JAIME not in state.election.standing
    try:
        state = made(state, proposal, (0, 1))
    except CourtError:
        return
    assert state.election is not None and JAIME in state.election.standing


def served_game() -> tuple[CourtService, str]:
    """A started game of three through the real service, on an in-memory store."""
    store = SqlEventStore("sqlite://")
    store.create_schema()
    service = CourtService(store, clock=FixedClock(), secret_source=CountingSecrets())
    create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Host")
    created = service.handle(None, create, Actor(host=True))
    game_id, invite = created.state.game_id, invites.of(created.state)
    for n, house in enumerate(("stark", "lannister", "tyrell")):
        joiner = Actor(host=True) if n == 0 else Actor()
        join = JoinSeat(house=HouseId(house), player_name=f"Player {n}", invite=invite)
        service.handle(game_id, join, joiner)
    service.handle(game_id, StartGame(), Actor(seat=Seat(0), host=True))
    return service, game_id


def test_a_correction_naming_a_new_nobles_record_is_refused_not_a_failure() -> None:
    """R-9.1, section 9 (the 150-game coverage run, seed 125, 6 players,
    nights_watch,title_concession,sealed_ballots): given a Court Event brought a new Noble
    into play, when the host proposes to correct that record, then the court refuses it with
    a reason (only a death, a village or Gold Dragons are corrected) and the log is as it was;
    the service filling in the correction read the new Noble's card as a Noble's id."""
    service, game_id = served_game()
    host = Actor(seat=Seat(0), host=True)
    added = AddNoble(
        house=HouseId("stark"),
        noble=NobleId("newcomer"),
        name="Newcomer",
        gender="lord",
        cause="a Court Event",
    )
    version = service.handle(game_id, added, host).version
    with pytest.raises(CourtError) as refused:
        service.handle(game_id, ProposeCorrection(version=version, cause="no"), host)
    assert refused.value.code == "not_correctable"
    assert service.length(game_id) == version


# -- corrections (R-9.1) --------------------------------------------------------------------


def test_a_corrections_compensation_is_not_corrected_in_turn() -> None:
    """R-9.1 (seeds 2015, 2017, 2018 and 2055 of `--seed 2000 --games 200`): given +5 GD
    recorded for Stark and corrected to +2 (its compensation of -3 GD recorded), when the host
    proposes to correct the compensation, then the court refuses it."""
    court = votes_table()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"), HOST_SEAT)
    accepted_by(court, propose(court, version_of(court, GoldAdjusted), amount=2), 1)
    compensation = len(court.events)
    assert isinstance(court.events[-1], GoldAdjusted)
    with pytest.raises(CourtError):
        act(court.state, propose(court, compensation, amount=0), HOST_SEAT)


def test_a_village_recorded_again_back_to_the_same_holder_is_not_corrected() -> None:
    """R-9.1 (seeds 2022, 2032, 2033 and 2054 of `--seed 2000 --games 200`): given Stark's
    village recorded, then Tyrell's, then Stark's again, when the host proposes to correct
    the first record, then the court refuses it: its subject was recorded again since."""
    court = votes_table()
    village = VillageId(court.state.ruleset.villages[0].id)
    for house in ("stark", "tyrell", "stark"):
        fact = RecordVillageControl(village=village, house=HouseId(house), cause="the war")
        court.act(fact, HOST_SEAT)
    first = min(i for i, e in enumerate(court.events, 1) if isinstance(e, VillageControlChanged))
    with pytest.raises(CourtError) as refused:
        act(court.state, propose(court, first, house=HouseId("lannister")), HOST_SEAT)
    assert refused.value.code == "village_changed_since"


def test_a_married_nobles_death_is_not_corrected_while_his_marriage_stays_ended() -> None:
    """R-9.1, R-5.4 (seed 2046 of `--seed 2000 --games 200`): given Robb married Cersei in a
    game of three (no alliance, so no record but the death ends the marriage), when the table
    corrects Robb's recorded death, then the correction is refused, or Robb and Cersei are
    married again."""
    court = votes_table()
    robb, cersei = NobleId("robb-stark"), NobleId("cersei-lannister")
    court.add(MarriageMade(lord=robb, lady=cersei, seats=(Seat(0), Seat(1)), alliance=False))
    court.act(RecordDeath(noble=robb, kind="battle", cause="the Twins"), HOST_SEAT)
    try:
        accepted_by(court, propose(court, len(court.events)), 1)
    except CourtError:
        return
    nobles = court.state.nobles
    assert nobles[robb].spouse == cersei and nobles[cersei].spouse == robb


def test_a_dead_heirs_death_is_not_corrected_once_another_is_heir() -> None:
    """R-9.1, R-3.9 (the soak's check of one Heir at a time): given Robb, the Heir, died and
    Jaime was born Heir in his place, when the table corrects Robb's death, then the
    correction is refused: there is one Heir at a time."""
    court = votes_table()
    robb, jaime = NobleId("robb-stark"), NobleId("jaime-lannister")
    court.act(HeirBorn(noble=robb, cause="born"), HOST_SEAT)
    court.act(RecordDeath(noble=robb, kind="battle", cause="the Twins"), HOST_SEAT)
    death = len(court.events)
    court.act(HeirBorn(noble=jaime, cause="born"), HOST_SEAT)
    with pytest.raises(CourtError):
        accepted_by(court, propose(court, death), 1)


# -- the table's votes (R-9.2) --------------------------------------------------------------


def old_players_vote(court: Table, vote: str) -> None:
    """Seat 1's player votes: to end the game, on a correction, or to replace seat 2."""
    if vote == "end":
        court.act(VoteToEnd(), seat(1), LATER)
    elif vote == "answer":
        court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won"), HOST_SEAT)
        court.act(propose(court, version_of(court, GoldAdjusted), amount=2), HOST_SEAT)
        court.act(AnswerCorrection(accept=False), seat(1))
    else:
        court.act(replace_vote(2), seat(1), LATER)


@pytest.mark.parametrize("vote", ["end", "answer", "replace"])
def test_a_seat_handed_to_a_new_player_keeps_none_of_the_old_players_votes(vote: str) -> None:
    """R-9.2 (seeds 2000, 2001, 2016, 2022 and more of `--seed 2000 --games 200`): given seat
    1's player voted to end the game, answered a correction or voted to replace seat 2, when
    the host hands seat 1 to a new player, then the seat holds none of those votes."""
    court = votes_table(4)
    old_players_vote(court, vote)
    court.act(HandSeat(seat=Seat(1), token_sha256=NEW, at_version=len(court.events) + 1), HOST)
    table = court.state.table
    assert Seat(1) not in table.end | table.accepted | table.refused
    assert all(Seat(1) not in voters for voters in table.replace.values())


def test_a_seat_handed_to_a_new_player_starts_with_full_clock_banks() -> None:
    """R-9.2, R-4.3 (seeds 2005, 2009, 2010 and more of `--seed 2000 --games 200`): given seat
    0 spent 30 seconds of his decree bank, when the host hands seat 0 to a new player, then
    the seat's decree bank is the profile's 300 seconds."""
    court = clocked(decree=300)
    court.act(Pass(), seat(0), T0 + 30)
    assert court.state.bank(Seat(0), "decree") == 270
    handed = HandSeat(seat=Seat(0), token_sha256=NEW, at_version=len(court.events) + 1)
    court.act(handed, HOST, T0 + 40)
    assert court.state.bank(Seat(0), "decree") == 300
