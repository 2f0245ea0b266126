"""The round: phases in order, income, village control facts, and steps closed by the clock
(R-4.1, R-4.2, R-4.3, R-4.5, section 9)."""

from __future__ import annotations

from court.commands import Actor, AdvancePhase, CloseOverdueStep, RecordVillageControl
from court.decide import decrees, elections, purchases, titles, victory
from court.decide.facts import clean_cause
from court.decide.guards import require_host, require_recorder, require_status
from court.errors import CourtError
from court.events import (
    Event,
    IncomePaid,
    PhaseStarted,
    RoundStarted,
    StepTimedOut,
    TitleReturned,
    VillageControlChanged,
)
from court.events.decrees import DecreePassed, DecreeTurnEnded, MarriageDeclined
from court.ids import HouseId, Seat
from court.ruleset import Attribute
from court.state import CourtState, DecreeStep, GameStatus, PendingKind, Phase

HOST_PHASES = (Phase.CARDS, Phase.PURCHASES, Phase.MOVEMENT, Phase.BATTLES, Phase.WALL)


def record_village_control(
    state: CourtState, cmd: RecordVillageControl, actor: Actor
) -> tuple[Event, ...]:
    require_recorder(actor, "record who controls a village")
    require_status(state, GameStatus.PLAYING)
    if not any(v.id == cmd.village for v in state.ruleset.villages):
        raise CourtError("unknown_village", f"There is no village {cmd.village!r} on this map.")
    if cmd.house is not None and cmd.house not in state.treasury:
        raise CourtError("unknown_house", f"No House {cmd.house!r} plays in this game.")
    if state.villages.get(cmd.village) == cmd.house:
        raise CourtError("no_change", "That village is already held so; nothing to record.")
    return (
        VillageControlChanged(village=cmd.village, house=cmd.house, cause=clean_cause(cmd.cause)),
    )


def advance_phase(state: CourtState, cmd: AdvancePhase, actor: Actor) -> tuple[Event, ...]:
    """R-4.1: the host closes a phase played at the table; the server runs 3, 4's income and 8."""
    require_host(actor, "advance the phase")
    require_status(state, GameStatus.PLAYING)
    if state.phase not in HOST_PHASES:
        raise CourtError(
            "server_phase",
            "The server runs this phase itself; it ends when its last step is done (R-4.1).",
        )
    if state.phase is Phase.PURCHASES:
        purchases.auction_open(state)
    following = _next_phase(state)
    events: list[Event] = [PhaseStarted(round=state.round, phase=following.value)]
    if following is Phase.INCOME:
        events.append(_income(state))
        events.append(PhaseStarted(round=state.round, phase=Phase.PURCHASES.value))
    return tuple(events)


def _next_phase(state: CourtState) -> Phase:
    order = list(Phase)
    if not state.ruleset.profile.variants.nights_watch:
        order.remove(Phase.WALL)
    assert state.phase is not None
    return order[order.index(state.phase) + 1]


def _income(state: CourtState) -> IncomePaid:
    """R-4.5, R-2.2: each House gains per village it controls and per Sept there."""
    settings = state.ruleset.profile.treasury
    amounts: dict[HouseId, int] = {house: 0 for house in state.treasury}
    for village, house in state.villages.items():
        amounts[house] += settings.income_per_village
        if village in state.septs:
            amounts[house] += settings.income_per_sept
    return IncomePaid(round=state.round, amounts=tuple(amounts.items()))


def close_overdue(
    state: CourtState, cmd: CloseOverdueStep, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-4.3: at the deadline, who has not acted has passed, and the step closes."""
    require_status(state, GameStatus.PLAYING)
    pending = state.pending
    if pending is not None and pending.deadline is not None and pending.deadline <= now:
        if pending.kind is PendingKind.ACCEPTANCE:
            return titles.grant(
                state,
                pending.title,
                pending.noble,
                f"election:{pending.election}",
                elections.deadline(state, "title_choice", now),
            )
        return (
            TitleReturned(
                title=pending.title, noble=pending.noble, reason="no choice before the deadline"
            ),
        )
    election = state.election
    if (
        pending is None
        and election is not None
        and election.deadline is not None
        and election.deadline <= now
    ):
        return (
            StepTimedOut(election=election.id, stage=election.stage.value, passed=election.waiting),
        )
    decree = state.decree
    due = decree.deadline if decree is not None else None
    if pending is None and decree is not None and due is not None and due <= now:
        return _decree_timed_out(state, decree)
    auction = state.auction
    due = auction.deadline if auction is not None else None
    if pending is None and auction is not None and due is not None and due <= now:
        return purchases.close_overdue(state, auction)
    raise CourtError("not_overdue", "No step of this game is past its deadline.")


def _decree_timed_out(state: CourtState, decree: DecreeStep) -> tuple[Event, ...]:
    """A proposal left unanswered is declined; everyone still to act has passed (R-4.3)."""
    events: list[Event] = []
    proposal = state.proposal
    if proposal is not None:
        events += [
            MarriageDeclined(seat=proposal.seat, noble=proposal.noble, to_noble=proposal.to_noble),
            DecreeTurnEnded(step=decree.id, seat=proposal.seat),
        ]
    events += decrees.pillage_without_the_hand(state)
    waiting = tuple(s for s in decree.waiting if proposal is None or s != proposal.seat)
    if waiting:
        events.append(DecreePassed(step=decree.id, seats=waiting))
    return tuple(events)


def overdue(state: CourtState, now: float) -> bool:
    """Whether a step of this game waits past its deadline."""
    if state.status is not GameStatus.PLAYING:
        return False
    deadline = next_deadline(state)
    return deadline is not None and deadline <= now


def next_deadline(state: CourtState) -> float | None:
    if state.status is not GameStatus.PLAYING:
        return None
    if state.pending is not None:
        return state.pending.deadline
    if state.election is not None:
        return state.election.deadline
    if state.auction is not None:
        return state.auction.deadline
    return state.decree.deadline if state.decree is not None else None


def follow_up(state: CourtState, now: float) -> tuple[Event, ...]:
    """What the server does by itself once nobody is awaited."""
    if state.status is not GameStatus.PLAYING or state.pending is not None:
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
    """R-1.1: the marker passes clockwise; R-4.4: every Gods-cursed Noble rolls first."""
    order = state.seat_order
    assert state.first_player is not None
    following = order[(order.index(state.first_player) + 1) % len(order)]
    events: list[Event] = [RoundStarted(round=state.round + 1, first_player=Seat(following))]
    if state.ruleset.profile.decrees.roll_at_round_start:
        number = state.rolls
        for noble in state.nobles.values():
            if noble.alive and Attribute.GODS_CURSED in noble.attributes:
                rolled, number = decrees.curse_roll(state, noble.id, number)
                events += rolled
    return tuple(events)
