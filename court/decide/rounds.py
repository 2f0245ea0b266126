"""The round: phases in order, income, village control facts, and steps closed by the clock
(R-4.1, R-4.2, R-4.3, R-4.5, section 9)."""

from __future__ import annotations

from court.commands import (
    Actor,
    AdvancePhase,
    CloseOverdueStep,
    RecordVillageControl,
    RecordVillages,
)
from court.decide import (
    council_seat,
    decrees,
    elections,
    false_idols,
    purchases,
    table_votes,
    titles,
    victory,
)
from court.decide.guards import require_host, require_recorder, require_status
from court.errors import CourtError
from court.events import (
    DecreeTurnEnded,
    Event,
    Income,
    IncomePaid,
    PhaseStarted,
    RoundStarted,
    StepTimedOut,
    TitleChoiceTimedOut,
    TitleReturned,
    VillageControlChanged,
)
from court.events.decrees import DecreeTimedOut
from court.evolve import evolve
from court.ids import HouseId, Seat, VillageId
from court.model.ruleset import Attribute
from court.model.text import clean_cause
from court.options import clocks
from court.state import CourtState, GameStatus, PendingKind, PendingTitle, Phase, TurnStep
from elections.turns import next_clockwise

# The phases played at the table, which the host closes; the server runs the others.
HOST_PHASES = (Phase.CARDS, Phase.MOVEMENT, Phase.BATTLES, Phase.WALL)


def record_village_control(
    state: CourtState, cmd: RecordVillageControl, actor: Actor
) -> tuple[Event, ...]:
    require_recorder(actor, "record who controls a village")
    require_status(state, GameStatus.PLAYING)
    _check_village(state, cmd.village, cmd.house)
    if state.villages.get(cmd.village) == cmd.house:
        raise CourtError("no_change", "That village is already held so; nothing to record.")
    return (
        VillageControlChanged(village=cmd.village, house=cmd.house, cause=clean_cause(cmd.cause)),
    )


def record_villages(state: CourtState, cmd: RecordVillages, actor: Actor) -> tuple[Event, ...]:
    """Section 9: who controls several villages now, as one fact per village whose controller
    changes (R-2.2 counts each for income); a village held as it was already adds nothing."""
    require_recorder(actor, "record who controls the villages")
    require_status(state, GameStatus.PLAYING)
    if len(cmd.changes) > len(state.ruleset.villages):
        raise CourtError("too_many_villages", "Name each village of the map at most once.")
    seen: set[VillageId] = set()
    for change in cmd.changes:
        if change.village in seen:
            raise CourtError("duplicate_village", f"The village {change.village!r} is named twice.")
        seen.add(change.village)
        _check_village(state, change.village, change.house)
    cause = clean_cause(cmd.cause)
    events = tuple(
        VillageControlChanged(village=c.village, house=c.house, cause=cause)
        for c in cmd.changes
        if state.villages.get(c.village) != c.house
    )
    if not events:
        raise CourtError("no_change", "Every village named is already held so; nothing to record.")
    return events


def _check_village(state: CourtState, village: VillageId, house: HouseId | None) -> None:
    if not any(v.id == village for v in state.ruleset.villages):
        raise CourtError("unknown_village", f"There is no village {village!r} on this map.")
    if house is not None and house not in state.treasury:
        raise CourtError("unknown_house", f"No House {house!r} plays in this game.")


def advance_phase(state: CourtState, cmd: AdvancePhase, actor: Actor) -> tuple[Event, ...]:
    """R-4.1: the host closes a phase played at the table; the server runs 1, 3, 4 and 8."""
    require_host(actor, "advance the phase")
    require_status(state, GameStatus.PLAYING)
    if state.phase not in HOST_PHASES:
        raise CourtError(
            "server_phase",
            "The server runs this phase itself; it ends when its last step is done (R-4.1).",
        )
    following = _next_phase(state)
    events: list[Event] = [PhaseStarted(round=state.round, phase=following.value)]
    if following is Phase.INCOME:
        events.append(income(state))
        events.append(PhaseStarted(round=state.round, phase=Phase.PURCHASES.value))
    return tuple(events)


def close_table_phases(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    """R-4.1: the host closes the phase played at the table and, at once, each following phase
    played at the table, up to the next phase the server runs (income, or the end of round):
    facts are recorded in any phase, so the table closes its turn of the board game once. It is
    listed only when it closes more than one phase, and so accepted only then."""
    events = advance_phase(state, AdvancePhase(), actor)
    if not closes_several(state):
        raise CourtError(
            "one_table_phase",
            "Only this phase is played at the table before the server's next one: advance the "
            "phase instead (R-4.1).",
        )
    now = then(state, events)
    while now.phase in HOST_PHASES:
        more = advance_phase(now, AdvancePhase(), actor)
        now = then(now, more)
        events += more
    return events


def closes_several(state: CourtState) -> bool:
    """Whether the phase after this one is played at the table too (R-4.1)."""
    return state.phase in HOST_PHASES and _next_phase(state) in HOST_PHASES


def then(state: CourtState, events: tuple[Event, ...]) -> CourtState:
    for event in events:
        state = evolve(state, event)
    return state


def _next_phase(state: CourtState) -> Phase:
    order = list(Phase)
    if not state.ruleset.profile.variants.nights_watch:
        order.remove(Phase.WALL)
    assert state.phase is not None
    return order[order.index(state.phase) + 1]


def income(state: CourtState) -> IncomePaid:
    """R-4.5, R-2.2: each House gains per village it controls and per Sept there."""
    settings = state.ruleset.profile.treasury
    amounts: dict[HouseId, int] = {house: 0 for house in state.treasury}
    for village, house in state.villages.items():
        amounts[house] += settings.income_per_village
        amounts[house] += settings.income_per_sept * state.septs.get(village, 0)
    return IncomePaid(
        round=state.round,
        amounts=tuple(Income(house=h, gold=g) for h, g in amounts.items()),
    )


def close_overdue(
    state: CourtState, cmd: CloseOverdueStep, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-4.3: at the step's deadline, who has not acted has passed, and the step closes; with
    the clocks variant, a player whose time bank has run out has passed, and the step goes on
    with the next player."""
    require_status(state, GameStatus.PLAYING)
    events = _time_out(state, now, None)
    late = clocks.run_out(state, now)
    if not events and late:
        events = _time_out(state, now, late)
    if not events:
        raise CourtError("not_overdue", "No step of this game is past its deadline.")
    return events


def _time_out(state: CourtState, now: float, late: tuple[Seat, ...] | None) -> tuple[Event, ...]:
    """The timeouts of the step the court waits in: everyone still awaited once its deadline
    has passed (`late` None), or only the `late` seats, whose clocks ran out."""

    def due(deadline: float | None) -> bool:
        return late is not None or (deadline is not None and deadline <= now)

    pending = state.pending
    if pending is not None:
        return _title_choice_timed_out(state, pending, now) if due(pending.deadline) else ()
    election = state.election
    if election is not None and due(election.deadline):
        passed = late or election.waiting
        return (StepTimedOut(election=election.id, stage=election.stage.value, passed=passed),)
    auction = state.auction
    if auction is not None and due(auction.deadline):
        return council_seat.close_overdue(state, auction, late or auction.waiting)
    turns = state.purchase_turns
    if turns is not None and due(turns.deadline):
        return purchases.close_overdue(state, turns, late or turns.waiting)
    decree = state.decree
    if decree is not None and due(decree.deadline):
        return _decree_timed_out(state, decree, late)
    return ()


def _title_choice_timed_out(
    state: CourtState, pending: PendingTitle, now: float
) -> tuple[Event, ...]:
    timed_out = TitleChoiceTimedOut(
        seat=pending.seat, noble=pending.noble, title=pending.title, kind=pending.kind.value
    )
    if pending.kind is PendingKind.ACCEPTANCE:
        return (
            timed_out,
            *titles.grant(
                state,
                pending.title,
                pending.noble,
                f"election:{pending.election}",
                elections.deadline(state, "title_choice", now),
            ),
        )
    return (
        timed_out,
        TitleReturned(
            title=pending.title,
            noble=pending.noble,
            reason="no choice before the deadline",
            refund=pending.price,
        ),
    )


def _decree_timed_out(
    state: CourtState, decree: TurnStep, late: tuple[Seat, ...] | None
) -> tuple[Event, ...]:
    """R-4.3: the turns still to come end on the clock, a proposal left unanswered with them
    (it is declined); a Hand who let the clock run after an embrace does not convert. When only
    the answering player's clock ran out, the proposal is declined and its proposer's turn ends
    as if it had been answered."""
    proposal = state.proposal
    if late is not None and proposal is not None:
        return (
            DecreeTimedOut(step=decree.id, seats=(), unanswered=proposal.to_seat),
            DecreeTurnEnded(step=decree.id, seat=proposal.seat),
        )
    return (
        *false_idols.pillage_without_the_hand(state),
        DecreeTimedOut(
            step=decree.id,
            seats=decree.waiting if late is None else late,
            unanswered=proposal.to_seat if proposal is not None else None,
        ),
    )


def overdue(state: CourtState, now: float) -> bool:
    """Whether a step of this game waits past its deadline."""
    if state.status is not GameStatus.PLAYING:
        return False
    deadline = next_deadline(state)
    return deadline is not None and deadline <= now


def next_deadline(state: CourtState) -> float | None:
    """The first moment a step of this game falls due: its deadline, or with the clocks
    variant a waiting player's time bank running out."""
    if state.status is not GameStatus.PLAYING:
        return None
    step = _step_deadline(state)
    run_out = clocks.next_run_out(state)
    if step is None or run_out is None:
        return step if run_out is None else run_out
    return min(step, run_out)


def _step_deadline(state: CourtState) -> float | None:
    if state.pending is not None:
        return state.pending.deadline
    if state.election is not None:
        return state.election.deadline
    if state.auction is not None:
        return state.auction.deadline
    if state.purchase_turns is not None and state.purchase_turns.current is not None:
        return state.purchase_turns.deadline
    return state.decree.deadline if state.decree is not None else None


def follow_up(state: CourtState, now: float) -> tuple[Event, ...]:
    """What the server does by itself once nobody is awaited."""
    if state.status is not GameStatus.PLAYING:
        return ()
    decided = table_votes.follow_up(state)
    if decided:
        return decided
    vacated = council_seat.vacated(state)
    if vacated:
        return vacated
    if state.pending is not None:
        return ()
    if state.phase is Phase.DECREES:
        decreed = decrees.follow_up(state, now, elections.deadline(state, "decree", now))
        if decreed is not None:
            return decreed
        events = elections.follow_up(state, now)
        if events or state.election is not None:
            return events
        return (PhaseStarted(round=state.round, phase=Phase.CARDS.value),)
    if state.phase is Phase.END_OF_ROUND:
        ended = victory.check(state)
        return (ended,) if ended is not None else _next_round(state)
    if state.phase is Phase.PURCHASES:
        return purchases.follow_up(state, now)
    return ()


def _next_round(state: CourtState) -> tuple[Event, ...]:
    """R-1.1: the marker passes clockwise; R-4.4: every Gods-cursed Noble rolls first, each
    on the court as the rolls before his left it."""
    assert state.first_player is not None
    following = next_clockwise(state.seat_order, state.first_player)
    started = RoundStarted(round=state.round + 1, first_player=following)
    events: list[Event] = [started]
    if state.ruleset.profile.decrees.roll_at_round_start:
        now = evolve(state, started)
        for noble in state.nobles:
            if now.nobles[noble].alive and Attribute.GODS_CURSED in now.nobles[noble].attributes:
                rolled, _ = false_idols.curse_roll(now, noble, now.rolls)
                events += rolled
                now = false_idols.fold(now, rolled)
    return tuple(events)
