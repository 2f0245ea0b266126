"""The clocks variant (R-4.3 [D]): each player's own time bank per step kind, chess-clock
style. Only the awaited players' banks run; a bank that runs out times its player out (a pass
on the clock) and the step goes on; the banks are rebuilt from the log alone."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from court.commands import (
    AdvancePhase,
    CloseOverdueStep,
    CreateGame,
    EndPurchases,
    Pass,
    PassBid,
    ProposeMarriage,
    RecordVillageControl,
    StartGame,
)
from court.decide import decide
from court.decide.rounds import next_deadline
from court.errors import CourtError
from court.events import (
    ClockStarted,
    ClockStopped,
    DecreeTimedOut,
    DecreeTurnEnded,
    Event,
    StepTimedOut,
)
from court.evolve import replay
from court.ids import GameId, HouseId, NobleId, Seat, VillageId
from court.log import codec, snapshot
from court.options.clocks import awaited, run_out
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import RunningClock
from tests.court.clocks_given import T0, clocked
from tests.court.given import GAME, HOST, Table, created, joined, ruleset, seat, then_state
from tests.court.purchase_moments import WINTERFELL, to_purchases, wardens

ROBB, CERSEI = NobleId("robb-stark"), NobleId("cersei-lannister")


def move(table: Table, now: float) -> tuple[Event, ...]:
    """The awaited player (the first, when several are) passes; with nobody awaited the host
    closes the phase played at the table."""
    state = table.state
    waiting = sorted(awaited(state))
    if not waiting:
        return table.act(AdvancePhase(), HOST, now)
    who = seat(waiting[0])
    if state.auction is not None:
        return table.act(PassBid(), who, now)
    if state.purchase_turns is not None:
        return table.act(EndPurchases(), who, now)
    return table.act(Pass(), who, now)


def test_only_the_awaited_players_bank_runs() -> None:
    """R-4.3 clocks: given the marriages step waiting on seat 0, when he passes after 30
    seconds, then 30 seconds came off his decree bank alone and seat 1's clock starts."""
    table = clocked(decree=300)
    assert table.state.running == {Seat(0): RunningClock(kind="decree", started=T0)}
    events = table.act(Pass(), seat(0), T0 + 30)
    assert ClockStopped(seat=Seat(0), kind="decree", at=T0 + 30, acted=True) in events
    assert events[-1] == ClockStarted(seat=Seat(1), kind="decree", at=T0 + 30)
    state = table.state
    assert state.bank(Seat(0), "decree") == 270
    assert state.bank(Seat(1), "decree") == 300 and state.bank(Seat(2), "decree") == 300
    assert set(state.running) == {Seat(1)}


def test_two_players_with_different_banks_fall_due_at_their_own_time() -> None:
    """R-4.3 clocks: given seat 0 spent 200 seconds of his decree bank, seat 1 ten and seat 2
    five, when decree steps come back next round (seat 1 is First Player then, R-1.1), then
    each one's clock falls due with what he has left: the banks carry over."""
    table = clocked(decree=300)
    for now in (T0 + 200, T0 + 210, T0 + 215):
        move(table, now)
    state = table.state
    assert [state.bank(Seat(s), "decree") for s in range(3)] == [100, 290, 295]
    now = T0 + 1000
    while not (table.state.round == 2 and table.state.decree is not None):
        move(table, now)
    assert next_deadline(table.state) == now + 290
    move(table, now + 40)
    assert next_deadline(table.state) == now + 40 + 295
    move(table, now + 50)
    assert next_deadline(table.state) == now + 50 + 100
    assert table.state.bank(Seat(1), "decree") == 250


def test_a_bank_that_runs_out_times_its_player_out_and_the_step_goes_on() -> None:
    """R-4.3 clocks: given seat 0's decree bank of 300 seconds running, when the server closes
    overdue steps a second early nothing is overdue; at 300 seconds seat 0 alone is recorded
    as timed out, his bank is empty, and the step goes on with seat 1."""
    table = clocked(decree=300)
    with pytest.raises(CourtError) as refused:
        decide(table.state, CloseOverdueStep(), HOST, T0 + 299)
    assert refused.value.code == "not_overdue"
    events = table.act(CloseOverdueStep(), HOST, T0 + 300)
    assert DecreeTimedOut(step="marriages", seats=(Seat(0),), unanswered=None) in events
    state = table.state
    assert state.bank(Seat(0), "decree") == 0
    assert state.decree is not None and state.decree.current == 1
    assert state.running == {Seat(1): RunningClock(kind="decree", started=T0 + 300)}


def test_a_late_close_never_takes_a_bank_below_zero() -> None:
    """R-4.3 clocks: the server closed the step long after the bank ran out (it was down):
    the bank is empty, not negative, and the invariants hold."""
    table = clocked(decree=300)
    table.act(CloseOverdueStep(), HOST, T0 + 5000)
    assert table.state.bank(Seat(0), "decree") == 0
    assert violations(table.state) == [] and unsettled(table.state) == []


def test_an_election_goes_on_when_one_players_candidacy_clock_runs_out() -> None:
    """R-4.3 clocks, R-7.1: the candidacy waits on one player at a time; when his bank runs out
    he is timed out (a pass) and the next player's candidacy clock starts."""
    table = clocked(candidacy=60, decree=0)
    while table.state.phase is None or table.state.phase.value != "cards":
        move(table, T0)
    for village in WINTERFELL:
        table.act(
            RecordVillageControl(village=VillageId(village), house=HouseId("stark"), cause="battle")
        )
    while table.state.election is None:
        move(table, T0 + 10)
    election = table.state.election
    current = election.current
    assert current is not None and set(table.state.running) == {current}
    started = table.state.running[current].started
    events = table.act(CloseOverdueStep(), HOST, started + 60)
    timed_out = next(e for e in events if isinstance(e, StepTimedOut))
    assert timed_out.passed == (current,)
    assert table.state.bank(current, "candidacy") == 0
    after = table.state.election
    assert after is not None and after.current not in (None, current)
    assert set(table.state.running) == {after.current}


def test_a_bank_of_zero_in_the_profile_means_no_clock_for_that_kind() -> None:
    """R-4.3 clocks: decree steps without a bank wait on nobody's clock, and nothing is due."""
    table = clocked(decree=0)
    assert table.state.running == {} and next_deadline(table.state) is None


def test_every_waiting_bidder_s_bank_runs_at_once_in_the_sale() -> None:
    """R-4.3 clocks, R-4.6: bids are sealed and made in any order, so every bidder is awaited
    at once; the one who passes stops his own clock and the others' keep running."""
    table = clocked(purchase=120)
    while table.state.phase is None or table.state.phase.value != "cards":
        move(table, T0)
    state = wardens(table.state, ("warden-north", "robb-stark"), ("warden-west", "jaime-lannister"))
    state = to_purchases(state, T0 + 10)
    assert state.auction is not None and set(state.running) == {Seat(0), Seat(1)}
    events = decide(state, PassBid(), seat(1), T0 + 40)
    assert ClockStopped(seat=Seat(1), kind="purchase", at=T0 + 40, acted=True) in events
    after = then_state(state, events)
    assert after.bank(Seat(1), "purchase") == 90 and set(after.running) == {Seat(0)}
    assert run_out(after, T0 + 130) == (Seat(0),)


def test_an_unanswered_proposal_runs_the_answering_players_clock() -> None:
    """R-4.3 clocks, R-5.1: a proposal waits on the player asked; when his bank runs out the
    proposal is declined on his clock and the proposer's turn ends as if it had been answered."""
    table = clocked(4, decree=300)
    table.act(ProposeMarriage(noble=ROBB, to=CERSEI), seat(0), T0 + 20)
    assert set(table.state.running) == {Seat(1)}
    events = table.act(CloseOverdueStep(), HOST, T0 + 320)
    assert events[:2] == (
        DecreeTimedOut(step="marriages", seats=(), unanswered=Seat(1)),
        DecreeTurnEnded(step="marriages", seat=Seat(0)),
    )
    state = table.state
    assert state.proposal is None and state.bank(Seat(1), "decree") == 0
    assert state.bank(Seat(0), "decree") == 280
    assert state.decree is not None and state.decree.current == 1


def test_a_player_who_acts_in_time_gains_the_increment() -> None:
    """R-4.3 clocks: with an increment of 5 seconds, acting after 30 leaves 300 - 30 + 5."""
    table = clocked(decree=300, increment=5)
    table.act(Pass(), seat(0), T0 + 30)
    assert table.state.bank(Seat(0), "decree") == 275


def test_a_state_rebuilt_at_a_past_version_has_the_same_banks() -> None:
    """R-4.3 clocks, the log is the truth: folding the stored records up to any version gives
    the banks and running clocks the game had at that version."""
    table = clocked(decree=300, candidacy=60, ballot=60)
    seen: list[tuple[int, dict[Seat, dict[str, float]], dict[Seat, RunningClock]]] = []
    now = T0
    while table.state.round == 1 and len(seen) < 40:
        now += 7.25
        move(table, now)
        seen.append((len(table.events), table.state.banks, table.state.running))
    stored = [json.loads(json.dumps(codec.encode(event))) for event in table.events]
    for version, banks, running in seen:
        records = stored[:version]
        past = replay(
            GAME, (codec.decode(name, 1, data, private) for name, data, private in records)
        )
        assert past.banks == banks and past.running == running
    assert any(banks for _, banks, _ in seen)


def test_the_invariants_refuse_a_negative_bank_and_a_clock_nobody_awaits() -> None:
    """R-4.3 clocks: a bank never goes below zero, and between commands exactly the awaited
    players' clocks run."""
    state = clocked(decree=300).state
    broken = replace(state, banks={Seat(2): {"decree": -1.0}})
    assert any("never goes below 0" in v for v in violations(broken))
    stray = replace(
        state, running={**state.running, Seat(2): RunningClock(kind="decree", started=T0)}
    )
    assert unsettled(stray) and not unsettled(state)


def _create(**clocks: int) -> CreateGame:
    return CreateGame(
        game_id=GameId("g2"),
        ruleset=ruleset(),
        players=3,
        host_name="Hostess",
        host_token_sha256="h" * 64,
        dice_seed="seed",
        variants={"clocks": True},
        clocks=clocks,
    )


def test_a_game_is_created_with_the_hosts_banks_in_seconds() -> None:
    """R-4.3 clocks: the host sets the banks at creation; the game keeps them in its log."""
    (event,) = decide(replay(GameId("g2"), ()), _create(ballot=90, increment=2), HOST)
    profile = then_state(replay(GameId("g2"), ()), (event,)).ruleset.profile
    assert profile.variants.clocks and profile.clocks.ballot == 90
    assert profile.clocks.increment == 2


@pytest.mark.parametrize(
    ("clocks", "code"), [({"ballot": -1}, "bad_clock"), ({"chess": 5}, "unknown_clocks")]
)
def test_a_bad_bank_is_refused_at_creation(clocks: dict[str, int], code: str) -> None:
    """R-4.3 clocks: banks are seconds from zero; only the step kinds have one."""
    with pytest.raises(CourtError) as refused:
        decide(replay(GameId("g2"), ()), _create(**clocks), HOST)
    assert refused.value.code == code


def test_a_snapshot_keeps_the_banks_and_the_running_clocks() -> None:
    """R-4.3 clocks: a long game rebuilt from a snapshot has the banks its log gives."""
    table = clocked(decree=300)
    move(table, T0 + 30)
    plain = json.loads(json.dumps(snapshot.state_to_plain(table.state)))
    back = snapshot.from_plain(plain)
    assert back == table.state and back.banks == {Seat(0): {"decree": 270.0}}


def test_a_fact_the_host_records_leaves_his_own_clock_running() -> None:
    """R-4.3 clocks, section 9: the host recording a fact makes no move in the step, so his
    clock neither stops nor gains the increment."""
    table = clocked(decree=300, increment=5)
    events = table.act(
        RecordVillageControl(village=VillageId("winterfell"), house=HouseId("stark"), cause="b"),
        seat(0, host=True),
        T0 + 30,
    )
    assert not any(isinstance(e, ClockStopped | ClockStarted) for e in events)
    assert table.state.running == {Seat(0): RunningClock(kind="decree", started=T0)}


def test_a_clock_stopped_by_the_step_closing_earns_no_increment() -> None:
    """R-4.3 clocks: the increment rewards a move in time; a clock the court stops because the
    step closed (here the host closes the overdue decree step at its deadline) earns none."""
    changes = {"variants__clocks": True, "clocks__increment": 5, "deadlines__decree": 60}
    table = Table(created(3, **changes), *(joined(i) for i in range(3)))
    table.act(StartGame(), HOST, T0)
    events = table.act(CloseOverdueStep(), seat(1), T0 + 61)
    stopped = [e for e in events if isinstance(e, ClockStopped) and e.seat == Seat(0)]
    assert stopped and not stopped[0].acted
    assert table.state.bank(Seat(0), "decree") == 300 - 61


def test_a_bank_emptied_by_an_absence_still_gives_its_player_the_increment_each_move() -> None:
    """R-4.3 clocks, Fischer increment: given seat 0 away until his decree bank ran out (timed
    out, bank empty), when his decree clock starts again, then it falls due the increment's
    5 seconds later rather than at once, and a move after 3 seconds leaves him 2: one absence
    never takes his moves for the rest of the game."""
    table = clocked(decree=300, increment=5)
    table.act(CloseOverdueStep(), HOST, T0 + 305)
    assert table.state.bank(Seat(0), "decree") == 0
    now = T0 + 310
    for _ in range(40):
        running = table.state.running.get(Seat(0))
        if running is not None and running.kind == "decree":
            break
        move(table, now)
    else:
        pytest.fail("seat 0's decree clock never started again")
    started = running.started
    assert next_deadline(table.state) == started + 5
    assert run_out(table.state, started + 4.9) == ()
    table.act(Pass(), seat(0), started + 3)
    assert table.state.bank(Seat(0), "decree") == 2
    assert violations(table.state) == []


def test_the_increment_is_part_of_each_move_s_time() -> None:
    """R-4.3 clocks: with 10 seconds left and an increment of 5, a player has 15 seconds to
    move; acting after 12 leaves 3, and his clock runs out at 15."""
    table = clocked(decree=10, increment=5)
    assert next_deadline(table.state) == T0 + 15
    table.act(Pass(), seat(0), T0 + 12)
    assert table.state.bank(Seat(0), "decree") == 3
