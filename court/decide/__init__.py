"""`decide(state, command, actor, now)`: every court rule, turning a command into events.

A command's own events are followed by whatever the server then does by itself
(reveal when the last marker is placed, open or skip the next election, start
the next phase or round), decided on the state those events lead to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from court.commands import (
    AcceptRansom,
    AcceptTitle,
    Actor,
    AddNoble,
    AdjustGold,
    AdvancePhase,
    AnswerMarriage,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    CloseOverdueStep,
    Command,
    ConcedeTitle,
    CreateGame,
    Desert,
    Divorce,
    EmbraceRhllor,
    EndPurchases,
    GrantFiefTitle,
    GrantMotherOfDragons,
    HandConversion,
    HeirBorn,
    JoinSeat,
    JoinSmallCouncil,
    LeaveSeat,
    OfferRansom,
    Pardon,
    Pass,
    PassBid,
    PlaceBallot,
    PlaceBid,
    ProposeMarriage,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordWallSupplies,
    RefuseRansom,
    RefuseTitle,
    ResolveTitleOverflow,
    SendToWall,
    StandForElection,
    StartGame,
    WithdrawRansom,
)
from court.decide import (
    council_seat,
    court_events,
    decrees,
    elections,
    facts,
    false_idols,
    marriages,
    outlaws,
    purchases,
    ransom,
    rounds,
    setup,
    titles,
)
from court.events import Event
from court.evolve import evolve
from court.state import CourtState

# Bound on automatic follow-ups of one command: a phase 1 has fewer than 20 steps.
_MAX_FOLLOW_UPS = 200

# Called with each state a decision leads to, event by event, and the event that led to it;
# it may raise to refuse the decision (the service checks the court's invariants so).
Check = Callable[[CourtState, Event], None]


def decide(
    state: CourtState, command: Command, actor: Actor, now: float = 0.0
) -> tuple[Event, ...]:
    return decide_folded(state, command, actor, now)[0]


def decide_folded(
    state: CourtState,
    command: Command,
    actor: Actor,
    now: float = 0.0,
    check: Check | None = None,
) -> tuple[tuple[Event, ...], CourtState]:
    """The command's events with the server's follow-ups, and the state they lead to (the
    same as folding them with `evolve`, without folding them twice). `check` sees every
    state on the way."""
    events = facts.attributed(state, command, actor, _decide(state, command, actor, now))
    return settle_folded(state, events, now, check)


def _decide(state: CourtState, command: Command, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case CreateGame():
            return setup.create_game(state, command, actor)
        case JoinSeat():
            return setup.join_seat(state, command, actor)
        case LeaveSeat():
            return setup.leave_seat(state, command, actor)
        case StartGame():
            return setup.start_game(state, command, actor)
        case AdjustGold():
            return facts.adjust_gold(state, command, actor)
        case RecordVillageControl():
            return rounds.record_village_control(state, command, actor)
        case AdvancePhase():
            return rounds.advance_phase(state, command, actor)
        case StandForElection():
            return elections.stand(state, command, actor)
        case Pass():
            if state.decree is not None:
                return decrees.pass_turn(state, actor)
            return elections.pass_turn(state, command, actor)
        case ProposeMarriage():
            return decrees.propose(state, command, actor)
        case AnswerMarriage():
            return marriages.answer(state, command, actor)
        case Divorce():
            return decrees.divorce(state, command, actor)
        case EmbraceRhllor():
            return false_idols.embrace(state, command, actor)
        case HandConversion():
            return false_idols.hand_conversion(state, command, actor)
        case Pardon():
            return outlaws.pardon(state, command, actor)
        case SendToWall():
            return outlaws.send_to_wall(state, command, actor)
        case ConcedeTitle():
            return decrees.concede(state, command, actor)
        case Desert():
            return outlaws.desert(state, command, actor)
        case PlaceBallot():
            return elections.place_ballot(state, command, actor)
        case AcceptTitle():
            return titles.accept_title(
                state, command, actor, elections.deadline(state, "title_choice", now)
            )
        case RefuseTitle():
            return titles.refuse_title(state, command, actor)
        case ResolveTitleOverflow():
            return titles.resolve_overflow(state, command, actor)
        case CloseOverdueStep():
            return rounds.close_overdue(state, command, actor, now)
        case BuildSept():
            return purchases.build_sept(state, command, actor)
        case BuyFiefTitle():
            return purchases.buy_fief_title(state, command, actor, now)
        case GrantFiefTitle():
            return purchases.grant_fief_title(state, command, actor, now)
        case EndPurchases():
            return purchases.end_purchases(state, command, actor)
        case PlaceBid():
            return council_seat.place_bid(state, command, actor)
        case PassBid():
            return council_seat.pass_bid(state, command, actor)
        case ChooseCouncilSeat():
            return council_seat.choose_council_seat(state, command, actor, now)
        case OfferRansom():
            return ransom.offer(state, command, actor)
        case AcceptRansom():
            return ransom.accept(state, command, actor)
        case RefuseRansom():
            return ransom.refuse(state, command, actor)
        case WithdrawRansom():
            return ransom.withdraw(state, command, actor)
        case RecordCapture():
            return court_events.record_capture(state, command, actor)
        case RecordRelease():
            return court_events.record_release(state, command, actor)
        case RecordEscape():
            return court_events.record_escape(state, command, actor)
        case RecordDeath():
            return court_events.record_death(state, command, actor)
        case AddNoble():
            return court_events.add_noble(state, command, actor)
        case JoinSmallCouncil():
            return court_events.join_small_council(state, command, actor, now)
        case GrantMotherOfDragons():
            return court_events.grant_mother_of_dragons(state, command, actor)
        case HeirBorn():
            return court_events.heir_born(state, command, actor)
        case RecordWallSupplies():
            return court_events.record_wall_supplies(state, command, actor)
        case _:
            assert_never(command)


def settle(state: CourtState, events: tuple[Event, ...], now: float) -> tuple[Event, ...]:
    """The command's events, then the server's own follow-ups until someone is awaited."""
    return settle_folded(state, events, now)[0]


def settle_folded(
    state: CourtState, events: tuple[Event, ...], now: float, check: Check | None = None
) -> tuple[tuple[Event, ...], CourtState]:
    out = list(events)
    for event in events:
        state = evolve(state, event)
        if check is not None:
            check(state, event)
    for _ in range(_MAX_FOLLOW_UPS):
        more = rounds.follow_up(state, now)
        if not more:
            return tuple(out), state
        for event in more:
            state = evolve(state, event)
            if check is not None:
                check(state, event)
        out.extend(more)
    raise RuntimeError("phase 1 did not settle: the step sequence loops")
