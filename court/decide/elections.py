"""The elections of phase 1: candidacy, ballots, reveal (R-7.1 to R-7.8, R-4.2)."""

from __future__ import annotations

from court.commands import Actor, Pass, PlaceBallot, StandForElection
from court.decide.guards import require_seat, require_status
from court.errors import CourtError, NotAllowed
from court.events import (
    BallotOpened,
    BallotPlaced,
    BallotsRevealed,
    CandidacyPassed,
    CandidateStood,
    CandidateWithdrawn,
    ElectionOpened,
    ElectionSkipped,
    Event,
    MarkerSecret,
    OpenedMarker,
    ShownMarker,
    VoteCount,
    Weight,
)
from court.ids import NobleId, Seat
from court.options import electorate
from court.sentences import names
from court.state import CourtState, Election, GameStatus, NobleStatus, Stage, StepKind
from elections.markers import BallotError, Marker, MarkerKind, check_placement, ordered
from elections.tally import Revealed, count


def running(state: CourtState, actor: Actor, stage: Stage, doing: str) -> tuple[Election, Seat]:
    """The election under way at `stage` and the actor's seat, whose turn it must be."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    election = state.election
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")
    if election is None or election.stage is not stage:
        raise CourtError("wrong_step", f"You cannot {doing} now: no {stage.value} step is open.")
    if seat not in election.order:
        raise NotAllowed("not_in_this_step", f"You have no part in this {stage.value} step.")
    if seat in election.acted:
        raise CourtError("already_acted", "You have already acted in this step.")
    if election.current != seat:
        raise CourtError("not_your_turn", "It is not your turn yet (turn order, R-7.1).")
    return election, seat


def stand(state: CourtState, cmd: StandForElection, actor: Actor) -> tuple[Event, ...]:
    """R-7.1 step 2: put forward one of your own eligible Lords."""
    election, seat = running(state, actor, Stage.CANDIDACY, "put forward a candidate")
    spec = electorate.spec(state, election.id)
    if cmd.noble not in electorate.candidates_of(state, spec, seat):
        raise CourtError(
            "not_eligible",
            f"{names.noble(state, cmd.noble)} cannot stand for {spec.name}: choose one of your "
            "own eligible Lords (R-7.2).",
        )
    return (CandidateStood(election=election.id, seat=seat, noble=cmd.noble),)


def pass_turn(state: CourtState, cmd: Pass, actor: Actor) -> tuple[Event, ...]:
    election = state.election
    stage = election.stage if election is not None else Stage.CANDIDACY
    election, seat = running(state, actor, stage, "pass")
    if stage is Stage.CANDIDACY:
        return (CandidacyPassed(election=election.id, seat=seat),)
    return (BallotPlaced(election=election.id, seat=seat, markers=(), secrets=()),)


def place_ballot(state: CourtState, cmd: PlaceBallot, actor: Actor) -> tuple[Event, ...]:
    """R-7.1 step 3: none, one or both markers, each face down on a candidate."""
    election, seat = running(state, actor, Stage.BALLOT, "place markers")
    try:
        markers = [
            Marker(kind=MarkerKind(m.kind), candidate=m.candidate, salt=m.salt) for m in cmd.markers
        ]
    except ValueError:
        raise CourtError("bad_marker", "A marker is either FOR or DECOY.") from None
    try:
        check_placement(markers, election.standing)
    except BallotError as exc:
        raise CourtError(exc.code, exc.message) from None
    sealed = state.ruleset.profile.variants.sealed_ballots
    placed = ordered(markers)
    public = tuple(
        ShownMarker(commitment=m.commitment, candidate=None if sealed else NobleId(m.candidate))
        for m in placed
    )
    if cmd.committed is not None and list(cmd.committed) != [
        {"commitment": m.commitment, "candidate": m.candidate} for m in public
    ]:
        raise CourtError(
            "bad_commitment",
            "The markers sent do not open the commitments your device signed (each "
            "SHA-256 of kind:candidate:salt, in their order"
            + (", with no candidate in a sealed ballot)." if sealed else ", with its candidate)."),
        )
    return (
        BallotPlaced(
            election=election.id,
            seat=seat,
            markers=public,
            secrets=tuple(
                MarkerSecret(kind=m.kind.value, candidate=NobleId(m.candidate), salt=m.salt)
                for m in placed
            ),
        ),
    )


def deadline(state: CourtState, step: str, now: float) -> float | None:
    seconds = getattr(state.ruleset.profile.deadlines, step)
    return now + seconds if seconds > 0 else None


def follow_up(state: CourtState, now: float) -> tuple[Event, ...]:
    """What happens next by itself in the elections: open, skip, ballot, reveal."""
    election = state.election
    if election is None:
        return _next_election(state, now)
    withdrawn = _withdrawals(state, election)
    if withdrawn:
        return withdrawn
    if election.current is not None:
        return ()
    if election.stage is Stage.CANDIDACY:
        return _open_ballot(state, election, now)
    return _reveal(state, election, now)


def remaining(state: CourtState) -> tuple[electorate.ElectionSpec, ...]:
    """Elections of this phase 1 still to come, after the current step (R-4.2)."""
    specs = electorate.sequence(state)
    last = state.step
    if last is None or last.kind is not StepKind.ELECTION:
        return specs
    index = next(i for i, s in enumerate(specs) if s.id == last.id)
    return specs[index + 1 :]


def _next_election(state: CourtState, now: float) -> tuple[Event, ...]:
    upcoming = remaining(state)
    if not upcoming:
        return ()
    spec = upcoming[0]
    reason = electorate.condition(state, spec)
    if reason is None:
        order = state.turn_order(lambda seat: electorate.candidates_of(state, spec, seat))
        if not order:
            reason = "no player has a Lord who may stand (R-7.1)"
        else:
            return (
                ElectionOpened(
                    election=spec.id,
                    title=spec.title,
                    order=order,
                    deadline=deadline(state, "candidacy", now),
                ),
            )
    return (ElectionSkipped(election=spec.id, title=spec.title, reason=reason),)


def _withdrawals(state: CourtState, election: Election) -> tuple[Event, ...]:
    """R-7.2 [D]: a candidate who died, was captured or outlawed or took the black before the
    reveal (or can otherwise no longer stand) is withdrawn."""
    spec = electorate.spec(state, election.id)
    events: list[Event] = []
    for noble_id in election.standing:
        noble = state.nobles[noble_id]
        if electorate.eligible(state, spec, noble):
            continue
        if not noble.alive:
            why = "he died"
        elif noble.status is NobleStatus.CAPTIVE:
            why = "he was captured"
        elif noble.outlaw:
            why = "he was declared an Outlaw"
        elif (
            noble.status is NobleStatus.BROTHER and spec.kind is not electorate.Kind.LORD_COMMANDER
        ):
            why = "he took the black"
        else:
            why = "he can no longer stand"
        reason = f"{noble.name} is withdrawn: {why} before the reveal (R-7.2)"
        events.append(CandidateWithdrawn(election=election.id, noble=noble_id, reason=reason))
    return tuple(events)


def _open_ballot(state: CourtState, election: Election, now: float) -> tuple[Event, ...]:
    spec = electorate.spec(state, election.id)
    if not election.standing:
        reason = (
            "every candidate was withdrawn (R-7.2)"
            if election.candidates
            else "no candidate stood (R-7.1)"
        )
        return (ElectionSkipped(election=election.id, title=election.title, reason=reason),)
    weights = electorate.weights(state, spec)
    return (
        BallotOpened(
            election=election.id,
            candidates=election.standing,
            weights=tuple(Weight(seat=s, votes=v) for s, v in weights.items()),
            order=tuple(seat for seat, votes in weights.items() if votes > 0),
            minimum=spec.minimum,
            sealed=state.ruleset.profile.variants.sealed_ballots,
            deadline=deadline(state, "ballot", now),
        ),
    )


def _reveal(state: CourtState, election: Election, now: float) -> tuple[Event, ...]:
    """R-7.1 steps 4-5: every marker shown at once, then the count."""
    shown: list[OpenedMarker] = []
    revealed: list[Revealed[NobleId]] = []
    for seat in election.order:
        for marker in election.placements.get(seat, ()):
            assert marker.secret_kind is not None and marker.secret_candidate is not None
            assert marker.secret_salt is not None
            shown.append(
                OpenedMarker(
                    seat=seat,
                    commitment=marker.commitment,
                    candidate=marker.secret_candidate,
                    kind=marker.secret_kind,
                    salt=marker.secret_salt,
                )
            )
            revealed.append(
                Revealed(
                    voter=str(seat),
                    candidate=marker.secret_candidate,
                    kind=MarkerKind(marker.secret_kind),
                )
            )
    candidates = election.standing
    weights = {str(seat): votes for seat, votes in election.weights.items()}
    # step 5 [D]: a tie at the top elects nobody, or the candidate put forward first.
    tie_break = None if state.ruleset.profile.elections.tie_elects_nobody else candidates
    tally = count(weights, revealed, candidates, election.minimum, tie_break=tie_break)
    return (
        BallotsRevealed(
            election=election.id,
            title=election.title,
            markers=tuple(shown),
            votes=tuple(VoteCount(noble=NobleId(n), votes=v) for n, v in tally.votes.items()),
            winner=tally.winner,
            reason=tally.reason,
            deadline=deadline(state, "title_choice", now) if tally.winner else None,
            round=state.round,
        ),
    )
