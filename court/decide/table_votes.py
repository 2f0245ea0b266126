"""What the table decides together, each by a strict majority and recorded with who voted: the
other seats replace a player gone for the profile's time, the seats end the game, and the
seats accept or refuse the host's correction of a recorded fact (docs/rules.md, "The table
decides together")."""

from __future__ import annotations

from typing import assert_never

from court.commands import (
    Actor,
    AnswerCorrection,
    ProposeCorrection,
    TableCommand,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.decide import victory
from court.decide.guards import require_host, require_seat, require_status
from court.decide.seats import span, tokens_in_use
from court.errors import CourtError
from court.events import (
    CorrectionAnswered,
    CorrectionMade,
    CorrectionProposed,
    CorrectionRefused,
    CorrectionWithdrawn,
    EndVoteCast,
    EndVoteWithdrawn,
    Event,
    FactRecorded,
    GameEnded,
    GoldAdjusted,
    NobleDied,
    NobleRestored,
    ReplaceVoteCast,
    SeatHanded,
    SeatReplaced,
    TableEndedGame,
    VillageControlChanged,
)
from court.events.decrees import Score
from court.ids import HouseId, NobleId, Seat, VillageId
from court.state import CourtState, GameStatus, NobleStatus
from court.table import Correction, majority
from court.text import clean_cause


def decide_table(
    state: CourtState, command: TableCommand, actor: Actor, now: float
) -> tuple[Event, ...]:
    if state.status is GameStatus.LOBBY:
        raise CourtError(
            "game_lobby",
            "Before the game starts the table votes on nothing: the host seats and removes "
            "players himself.",
        )
    require_status(state, GameStatus.PLAYING)
    match command:
        case VoteToReplace():
            return vote_to_replace(state, command, actor, now)
        case VoteToEnd():
            return vote_to_end(state, command, actor)
        case ProposeCorrection():
            return propose_correction(state, command, actor)
        case AnswerCorrection():
            return answer_correction(state, command, actor)
        case WithdrawCorrection():
            return withdraw_correction(state, actor)
        case _:
            assert_never(command)


# -- replacing a player who is gone ---------------------------------------------------------


def vote_to_replace(
    state: CourtState, cmd: VoteToReplace, actor: Actor, now: float
) -> tuple[Event, ...]:
    """Another seat votes to hand `cmd.seat` to a new link; the votes cast since the seat's
    current absence began replace it once they are a strict majority of the other seats.
    `cmd.away_since` is the server's word on the seat's connections."""
    voter = require_seat(actor, "vote to replace a player")
    info = state.seats.get(cmd.seat)
    if info is None:
        raise CourtError("unknown_seat", f"Nobody holds seat {cmd.seat + 1} in this game.")
    if cmd.seat == voter:
        raise CourtError("replace_self", "You cannot vote to replace yourself.")
    if info.host:
        raise CourtError(
            "replace_host",
            f"{info.player_name} holds the host role: vote a new host in first (vote_host), "
            "then his seat can be replaced.",
        )
    since = away_since(state, info.player_name, cmd.away_since, now)
    counted = {v: at for v, at in state.table.replace.get(cmd.seat, {}).items() if at >= since}
    if voter in counted:
        raise CourtError("already_voted", f"You already voted to replace {info.player_name}.")
    cast = ReplaceVoteCast(seat=voter, for_seat=cmd.seat, at=now, away_since=since)
    voters = tuple(sorted({*counted, voter}))
    electors = len(state.seats) - 1
    if not majority(len(voters), electors):
        return (cast,)
    if not cmd.token_sha256 or cmd.token_sha256 in tokens_in_use(state):
        raise CourtError("token_reused", "This seat token is already in use.")
    replaced = SeatReplaced(
        seat=cmd.seat,
        house=info.house,
        player_name=info.player_name,
        votes=len(voters),
        seats=electors,
        voters=voters,
        away_since=since,
    )
    handed = SeatHanded(
        seat=cmd.seat,
        house=info.house,
        old_player_name=info.player_name,
        player_name=info.player_name,
        token_sha256=cmd.token_sha256,
        # The hand-over is the command's third record.
        at_version=cmd.at_version + 2,
    )
    return (cast, replaced, handed)


def away_since(state: CourtState, name: str, away: float | None, now: float) -> float:
    """Since when a seat's player has been gone, from the game's start at the earliest; a
    refusal while he is connected, or before the profile's time has passed."""
    if away is None:
        raise CourtError(
            "seat_present", f"{name} is connected: a player who is here is not replaced."
        )
    since = max(away, state.started_at)
    after = state.ruleset.profile.table_votes.replace_after
    if now - since < after:
        raise CourtError(
            "seat_not_away_long",
            f"{name} has been away for {span(now - since)}; the other seats may vote to "
            f"replace him once he has been away for {span(after)}.",
        )
    return since


# -- ending the game ------------------------------------------------------------------------


def vote_to_end(state: CourtState, cmd: VoteToEnd, actor: Actor) -> tuple[Event, ...]:
    """A strict majority of all seats ends the game, without winners: only the victory check
    of phase 8 names winners (R-4.7); the standings are recorded as they are."""
    voter = require_seat(actor, "vote to end the game")
    if not cmd.end:
        if voter not in state.table.end:
            raise CourtError("no_end_vote", "You have not voted to end the game.")
        return (EndVoteWithdrawn(seat=voter),)
    if voter in state.table.end:
        raise CourtError("already_voted", "You already voted to end the game.")
    cast = EndVoteCast(seat=voter)
    voters = tuple(sorted({*state.table.end, voter}))
    seats = len(state.seats)
    if not majority(len(voters), seats):
        return (cast,)
    vp = victory.points(state)
    return (
        cast,
        TableEndedGame(votes=len(voters), seats=seats, voters=voters),
        GameEnded(
            winners=(),
            points=tuple(Score(seat=s, points=p) for s, p in vp.items()),
            reason=f"the table ended the game by {len(voters)} votes of {seats}; nobody won "
            "(R-4.7: only the victory check of phase 8 names winners)",
        ),
    )


# -- correcting a recorded fact -------------------------------------------------------------


def propose_correction(
    state: CourtState, cmd: ProposeCorrection, actor: Actor
) -> tuple[Event, ...]:
    require_host(actor, "propose a correction of a recorded fact")
    open_ = state.table.correction
    if open_ is not None:
        raise CourtError(
            "correction_open",
            f"The table is still answering the correction of record {open_.version}: wait "
            "for it, or withdraw it.",
        )
    if cmd.recorded is None:
        raise CourtError("unknown_record", f"This game's log has no record {cmd.version}.")
    if state.table.corrected(cmd.version):
        raise CourtError(
            "already_corrected", f"The fact recorded at version {cmd.version} was corrected."
        )
    cause = clean_cause(cmd.cause)
    match cmd.recorded:
        case GoldAdjusted():
            correction = _gold(state, cmd, cmd.recorded, cause)
        case VillageControlChanged():
            correction = _village(state, cmd, cmd.recorded, cause)
        case NobleDied():
            correction = _death(state, cmd, cmd.recorded, cause)
        case FactRecorded():
            raise CourtError(
                "not_correctable",
                f"Record {cmd.version} says who recorded a fact; name the record of the fact "
                f"itself (the next one, {cmd.version + 1}).",
            )
        case _:
            raise CourtError(
                "not_correctable",
                f"Only a recorded death, village or Gold Dragons can be corrected; record "
                f"{cmd.version} is none of those.",
            )
    proposed = CorrectionProposed(correction=correction, seat=actor.seat)
    return (proposed, *_settled(state, correction, {*_host_seats(actor)}, set()))


def _host_seats(actor: Actor) -> tuple[Seat, ...]:
    """The host's seat, whose proposal is its acceptance."""
    return () if actor.seat is None else (actor.seat,)


def _gold(
    state: CourtState, cmd: ProposeCorrection, recorded: GoldAdjusted, cause: str
) -> Correction:
    if cmd.amount is None:
        raise CourtError(
            "amount_required", "Say how many Gold Dragons should have been recorded (amount)."
        )
    if cmd.amount == recorded.amount:
        raise CourtError("no_change", f"Record {cmd.version} already says {cmd.amount} GD.")
    correction = Correction(
        version=cmd.version,
        fact="gold",
        subject=recorded.house,
        cause=cause,
        house=recorded.house,
        recorded_amount=recorded.amount,
        amount=cmd.amount,
    )
    _still_sound(state, correction)
    return correction


def _village(
    state: CourtState, cmd: ProposeCorrection, recorded: VillageControlChanged, cause: str
) -> Correction:
    if cmd.house == recorded.house:
        raise CourtError("no_change", f"Record {cmd.version} already says so.")
    if cmd.house is not None and cmd.house not in state.treasury:
        raise CourtError("unknown_house", f"No House {cmd.house!r} plays in this game.")
    correction = Correction(
        version=cmd.version,
        fact="village_control",
        subject=recorded.village,
        cause=cause,
        house=cmd.house,
        was_house=recorded.house,
    )
    _still_sound(state, correction)
    return correction


def _death(
    state: CourtState, cmd: ProposeCorrection, recorded: NobleDied, cause: str
) -> Correction:
    """A death is corrected only when nothing passed from the Noble when he died: no title
    (R-1.4), no marriage or alliance (R-5.4), no Protector for a widowed Queen (R-3.8). Then
    the death's own record follows its attribution directly, and he lives again as he stood
    before it."""
    before = cmd.noble_before
    if before is None:
        raise CourtError("not_correctable", f"Record {cmd.version} is no recorded death.")
    if not (isinstance(cmd.before, FactRecorded) and cmd.before.fact == "death"):
        raise CourtError(
            "death_had_consequences",
            f"When {before.name} died, what he held passed on (his titles or his marriage, "
            "R-1.4, R-5.4), or his death followed from a decree and was no recorded fact: a "
            "correction cannot give that back. Record what has happened instead.",
        )
    correction = Correction(
        version=cmd.version,
        fact="death",
        subject=recorded.noble,
        cause=cause,
        status=before.status.value,
        captor=before.captor,
        outlaw=before.outlaw,
    )
    _still_sound(state, correction)
    return correction


def _still_sound(state: CourtState, c: Correction) -> None:
    """What a correction changes must still stand as recorded, on the court as it is now."""
    if c.fact == "gold":
        house = HouseId(c.subject)
        if state.treasury[house] + c.amount - c.recorded_amount < 0:
            raise CourtError(
                "treasury_too_low",
                f"A treasury can never go below zero (R-2.1): {house} holds "
                f"{state.treasury[house]} GD, and the correction takes "
                f"{c.recorded_amount - c.amount}.",
            )
    elif c.fact == "village_control":
        if state.villages.get(VillageId(c.subject)) != c.was_house:
            raise CourtError(
                "village_changed_since",
                f"The village was recorded again after version {c.version}: record who holds "
                "it now instead.",
            )
    elif state.nobles[NobleId(c.subject)].status is not NobleStatus.DEAD:
        raise CourtError("noble_alive", "This Noble is no longer dead.")


def answer_correction(state: CourtState, cmd: AnswerCorrection, actor: Actor) -> tuple[Event, ...]:
    voter = require_seat(actor, "answer a correction")
    table = state.table
    correction = table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    if voter in table.accepted | table.refused:
        raise CourtError("already_answered", "You already answered this correction.")
    accepted, refused = set(table.accepted), set(table.refused)
    (accepted if cmd.accept else refused).add(voter)
    answered = CorrectionAnswered(seat=voter, accept=cmd.accept)
    return (answered, *_settled(state, correction, accepted, refused))


def _settled(
    state: CourtState, c: Correction, accepted: set[Seat], refused: set[Seat]
) -> tuple[Event, ...]:
    """What the answers so far decide: the correction made with its compensating event once
    a strict majority of the seats accepts it, refused once it no longer can; nothing yet."""
    seats = len(state.seats)
    if majority(len(accepted), seats):
        _still_sound(state, c)
        made = CorrectionMade(
            correction=c, votes=len(accepted), seats=seats, voters=tuple(sorted(accepted))
        )
        return (made, compensation(c))
    if not majority(seats - len(refused), seats):
        return (
            CorrectionRefused(
                version=c.version,
                refusals=len(refused),
                seats=seats,
                voters=tuple(sorted(refused)),
            ),
        )
    return ()


def compensation(c: Correction) -> Event:
    """The event that sets the court as the corrected fact would have: the corrected record
    itself stays in the log."""
    cause = f"correction of the record at version {c.version}: {c.cause}"
    if c.fact == "gold":
        return GoldAdjusted(
            house=HouseId(c.subject), amount=c.amount - c.recorded_amount, cause=cause
        )
    if c.fact == "village_control":
        return VillageControlChanged(village=VillageId(c.subject), house=c.house, cause=cause)
    return NobleRestored(
        noble=NobleId(c.subject), status=c.status, captor=c.captor, outlaw=c.outlaw, cause=cause
    )


def withdraw_correction(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "withdraw a correction")
    correction = state.table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    return (CorrectionWithdrawn(version=correction.version),)
