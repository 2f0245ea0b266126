"""Folding what the table decides together: votes, corrections, a Noble whose recorded death
was corrected and the candidacy it gives back."""

from __future__ import annotations

import dataclasses
from typing import Any

from court.events import (
    CandidacyRestored,
    CorrectionAnswered,
    CorrectionLapsed,
    CorrectionMade,
    CorrectionProposed,
    CorrectionRefused,
    CorrectionWithdrawn,
    EndVoteCast,
    EndVoteWithdrawn,
    NobleRestored,
    ReplaceVoteCast,
    SeatReplaced,
    TableEndedGame,
)
from court.evolve.base import Handlers, replace
from court.model.table import Correction
from court.state import CourtState, NobleStatus


def _table(state: CourtState, **changes: Any) -> CourtState:
    return replace(state, table=dataclasses.replace(state.table, **changes))


def _replace_vote_cast(state: CourtState, e: ReplaceVoteCast) -> CourtState:
    votes, pair = state.table.replace, (e.for_seat, e.seat)
    return _table(
        state,
        replace={**votes, e.for_seat: {**votes.get(e.for_seat, {}), e.seat: e.at}},
        for_bot=state.table.for_bot | {pair} if e.bot else state.table.for_bot - {pair},
    )


def _seat_replaced(state: CourtState, e: SeatReplaced) -> CourtState:
    """The votes on the seat are cleared; the last of them, which made the majority, is when
    the seat went to its new link (as the hand-over that follows says too, where it records
    its time). A seat the bot plays keeps its player, whose absence still counts from when he
    left, and no hand-over follows."""
    table = state.table
    at = max(table.replace[e.seat].values())
    replaced_at = table.replaced_at if e.bot else {**table.replaced_at, e.seat: at}
    return _table(
        state,
        replace={s: v for s, v in table.replace.items() if s != e.seat},
        replaced_at=replaced_at,
        for_bot=frozenset(pair for pair in table.for_bot if pair[0] != e.seat),
        handing={} if e.bot else {e.seat: e.voters},
    )


def _end_vote_cast(state: CourtState, e: EndVoteCast) -> CourtState:
    return _table(state, end=state.table.end | {e.seat})


def _end_vote_withdrawn(state: CourtState, e: EndVoteWithdrawn) -> CourtState:
    return _table(state, end=state.table.end - {e.seat})


def _table_ended_game(state: CourtState, e: TableEndedGame) -> CourtState:
    return _table(state, end=frozenset(), ended_by=e.voters)


def _correction_proposed(state: CourtState, e: CorrectionProposed) -> CourtState:
    accepted = frozenset() if e.seat is None else frozenset({e.seat})
    return _table(state, correction=e.correction, accepted=accepted, refused=frozenset())


def _correction_answered(state: CourtState, e: CorrectionAnswered) -> CourtState:
    if e.accept:
        return _table(state, accepted=state.table.accepted | {e.seat})
    return _table(state, refused=state.table.refused | {e.seat})


def _closed(state: CourtState, made: tuple[Correction, ...] = ()) -> CourtState:
    made = (*state.table.made, *made)
    return _table(state, correction=None, accepted=frozenset(), refused=frozenset(), made=made)


def _correction_made(state: CourtState, e: CorrectionMade) -> CourtState:
    return _closed(state, (e.correction,))


def _correction_closed(
    state: CourtState, e: CorrectionRefused | CorrectionWithdrawn | CorrectionLapsed
) -> CourtState:
    return _closed(state)


def _noble_restored(state: CourtState, e: NobleRestored) -> CourtState:
    noble = dataclasses.replace(
        state.nobles[e.noble], status=NobleStatus(e.status), captor=e.captor, outlaw=e.outlaw
    )
    return replace(state, nobles={**state.nobles, e.noble: noble})


def _candidacy_restored(state: CourtState, e: CandidacyRestored) -> CourtState:
    election = state.election
    if election is None or election.id != e.election:
        return state
    withdrawn = tuple(n for n in election.withdrawn if n != e.noble)
    return replace(state, election=dataclasses.replace(election, withdrawn=withdrawn))


HANDLERS: Handlers = {
    ReplaceVoteCast: _replace_vote_cast,
    SeatReplaced: _seat_replaced,
    EndVoteCast: _end_vote_cast,
    EndVoteWithdrawn: _end_vote_withdrawn,
    TableEndedGame: _table_ended_game,
    CorrectionProposed: _correction_proposed,
    CorrectionAnswered: _correction_answered,
    CorrectionMade: _correction_made,
    CorrectionRefused: _correction_closed,
    CorrectionWithdrawn: _correction_closed,
    CorrectionLapsed: _correction_closed,
    NobleRestored: _noble_restored,
    CandidacyRestored: _candidacy_restored,
}
