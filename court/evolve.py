"""Fold events into the court state. `evolve` trusts its input: every check lives in `decide`.

Dispatch is a dict keyed by event type rather than a `match`: replaying a long
game calls `evolve` once per event, and a chain of class patterns grows with
every event type while a dict lookup does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from court.events import (
    BallotOpened,
    BallotPlaced,
    BallotsRevealed,
    CandidacyPassed,
    CandidateStood,
    ElectionOpened,
    ElectionSkipped,
    Event,
    GameCreated,
    GameStarted,
    GoldAdjusted,
    IncomePaid,
    PhaseStarted,
    RoundStarted,
    SeatJoined,
    SeatLeft,
    StepTimedOut,
    TitleGranted,
    TitlePassed,
    TitleRefused,
    TitleReturned,
    TitleSlotsExceeded,
    VillageControlChanged,
)
from court.frozen import replacer
from court.ids import GameId
from court.ruleset import Ruleset
from court.state import (
    CourtState,
    Election,
    GameStatus,
    Noble,
    PendingKind,
    PendingTitle,
    Phase,
    PlacedMarker,
    SeatInfo,
    Stage,
)

replace = replacer(CourtState)


def initial(game_id: GameId) -> CourtState:
    return CourtState(game_id=game_id)


def replay(game_id: GameId, events: Iterable[Event]) -> CourtState:
    state = initial(game_id)
    for event in events:
        state = evolve(state, event)
    return state


def evolve(state: CourtState, event: Event) -> CourtState:
    return HANDLERS[type(event)](state, event)


def _game_created(state: CourtState, e: GameCreated) -> CourtState:
    return replace(
        state,
        game_id=e.game_id,
        status=GameStatus.LOBBY,
        rules=Ruleset.from_dict(e.ruleset),
        players=e.players,
        host_name=e.host_name,
        host_token_sha256=e.host_token_sha256,
        dice_seed_sha256=e.dice_seed_sha256,
        dice_seed=e.dice_seed,
    )


def _seat_joined(state: CourtState, e: SeatJoined) -> CourtState:
    info = SeatInfo(
        seat=e.seat,
        house=e.house,
        player_name=e.player_name,
        host=e.host,
        token_sha256=e.token_sha256,
    )
    return replace(state, seats={**state.seats, e.seat: info}, joins=state.joins + 1)


def _seat_left(state: CourtState, e: SeatLeft) -> CourtState:
    return replace(state, seats={s: i for s, i in state.seats.items() if s != e.seat})


def _game_started(state: CourtState, e: GameStarted) -> CourtState:
    rules = state.ruleset
    nobles: dict = {}
    treasury: dict = {}
    for seat in e.seat_order:
        card = rules.house(state.seats[seat].house)
        assert card is not None
        treasury[card.id] = rules.profile.treasury.starting
        for n in card.nobles:
            nobles[n.id] = Noble(
                id=n.id, house=card.id, name=n.name, gender=n.gender, attributes=n.attributes
            )
    return replace(
        state,
        status=GameStatus.PLAYING,
        seat_order=e.seat_order,
        first_player=e.first_player,
        nobles=nobles,
        treasury=treasury,
    )


def _round_started(state: CourtState, e: RoundStarted) -> CourtState:
    return replace(
        state,
        round=e.round,
        first_player=e.first_player,
        phase=Phase.DECREES,
        step=None,
        election=None,
        round_titles=dict(state.titles),
    )


def _phase_started(state: CourtState, e: PhaseStarted) -> CourtState:
    return replace(state, phase=Phase(e.phase), step=None, election=None)


def _village_control_changed(state: CourtState, e: VillageControlChanged) -> CourtState:
    villages = {v: h for v, h in state.villages.items() if v != e.village}
    if e.house is not None:
        villages[e.village] = e.house
    return replace(state, villages=villages)


def _income_paid(state: CourtState, e: IncomePaid) -> CourtState:
    treasury = dict(state.treasury)
    for house, amount in e.amounts:
        treasury[house] += amount
    return replace(state, treasury=treasury)


def _election(state: CourtState, **changes: Any) -> CourtState:
    assert state.election is not None
    return replace(state, election=dataclasses.replace(state.election, **changes))


def _election_skipped(state: CourtState, e: ElectionSkipped) -> CourtState:
    return replace(state, step=f"election:{e.election}", election=None)


def _election_opened(state: CourtState, e: ElectionOpened) -> CourtState:
    election = Election(
        id=e.election, title=e.title, stage=Stage.CANDIDACY, order=e.order, deadline=e.deadline
    )
    return replace(state, step=f"election:{e.election}", election=election)


def _candidate_stood(state: CourtState, e: CandidateStood) -> CourtState:
    election = state.election
    assert election is not None
    return _election(
        state,
        acted=(*election.acted, e.seat),
        candidates=(*election.candidates, (e.seat, e.noble)),
    )


def _candidacy_passed(state: CourtState, e: CandidacyPassed) -> CourtState:
    assert state.election is not None
    return _election(state, acted=(*state.election.acted, e.seat))


def _ballot_opened(state: CourtState, e: BallotOpened) -> CourtState:
    return _election(
        state,
        stage=Stage.BALLOT,
        order=e.order,
        acted=(),
        weights=dict(e.weights),
        minimum=e.minimum,
        deadline=e.deadline,
    )


def _ballot_placed(state: CourtState, e: BallotPlaced) -> CourtState:
    election = state.election
    assert election is not None
    secrets = e.secrets or tuple({} for _ in e.markers)
    placed = tuple(
        PlacedMarker(
            commitment=m["commitment"],
            candidate=m["candidate"],
            secret_kind=s.get("kind"),
            secret_candidate=s.get("candidate"),
            secret_salt=s.get("salt"),
        )
        for m, s in zip(e.markers, secrets, strict=True)
    )
    return _election(
        state,
        acted=(*election.acted, e.seat),
        placements={**election.placements, e.seat: placed},
    )


def _step_timed_out(state: CourtState, e: StepTimedOut) -> CourtState:
    assert state.election is not None
    return _election(state, acted=(*state.election.acted, *e.passed))


def _ballots_revealed(state: CourtState, e: BallotsRevealed) -> CourtState:
    pending = None
    if e.winner is not None:
        seat = state.seat_of_house(state.nobles[e.winner].house)
        assert seat is not None
        pending = PendingTitle(
            kind=PendingKind.ACCEPTANCE,
            seat=seat,
            noble=e.winner,
            title=e.title,
            election=e.election,
            deadline=e.deadline,
        )
    return replace(state, election=None, pending=pending)


def _title_refused(state: CourtState, e: TitleRefused) -> CourtState:
    return replace(state, pending=None)


def _settled(state: CourtState, kind: PendingKind, noble: Any) -> PendingTitle | None:
    pending = state.pending
    if pending is not None and pending.kind is kind and pending.noble == noble:
        return None
    return pending


def _title_granted(state: CourtState, e: TitleGranted) -> CourtState:
    return replace(
        state,
        titles={**state.titles, e.title: e.noble},
        pending=_settled(state, PendingKind.ACCEPTANCE, e.noble),
    )


def _title_returned(state: CourtState, e: TitleReturned) -> CourtState:
    return replace(
        state,
        titles={t: n for t, n in state.titles.items() if t != e.title},
        pending=_settled(state, PendingKind.OVERFLOW, e.noble),
    )


def _title_passed(state: CourtState, e: TitlePassed) -> CourtState:
    return replace(
        state,
        titles={**state.titles, e.title: e.to},
        pending=_settled(state, PendingKind.OVERFLOW, e.noble),
    )


def _title_slots_exceeded(state: CourtState, e: TitleSlotsExceeded) -> CourtState:
    pending = PendingTitle(
        kind=PendingKind.OVERFLOW, seat=e.seat, noble=e.noble, title=e.title, deadline=e.deadline
    )
    return replace(state, pending=pending)


def _gold_adjusted(state: CourtState, e: GoldAdjusted) -> CourtState:
    treasury = {**state.treasury, e.house: state.treasury[e.house] + e.amount}
    return replace(state, treasury=treasury)


HANDLERS: dict[type[Event], Callable[[CourtState, Any], CourtState]] = {
    GameCreated: _game_created,
    SeatJoined: _seat_joined,
    SeatLeft: _seat_left,
    GameStarted: _game_started,
    RoundStarted: _round_started,
    GoldAdjusted: _gold_adjusted,
    PhaseStarted: _phase_started,
    VillageControlChanged: _village_control_changed,
    IncomePaid: _income_paid,
    ElectionSkipped: _election_skipped,
    ElectionOpened: _election_opened,
    CandidateStood: _candidate_stood,
    CandidacyPassed: _candidacy_passed,
    BallotOpened: _ballot_opened,
    BallotPlaced: _ballot_placed,
    StepTimedOut: _step_timed_out,
    BallotsRevealed: _ballots_revealed,
    TitleRefused: _title_refused,
    TitleGranted: _title_granted,
    TitleReturned: _title_returned,
    TitlePassed: _title_passed,
    TitleSlotsExceeded: _title_slots_exceeded,
}
