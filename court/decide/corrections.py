"""The host's correction of a fact he recorded (section 9): proposed naming the record's
version, accepted or refused by the seats (a strict majority), and made as a compensating
event that sets the court as the corrected fact would have, the corrected record staying in
the log (docs/rules.md, "Corrections")."""

from __future__ import annotations

from court.commands import Actor, AnswerCorrection, ProposeCorrection
from court.decide.guards import require_host, require_seat, require_status
from court.errors import CourtError
from court.events import (
    CorrectionAnswered,
    CorrectionMade,
    CorrectionProposed,
    CorrectionRefused,
    CorrectionWithdrawn,
    Event,
    FactRecorded,
    GoldAdjusted,
    NobleDied,
    NobleRestored,
    VillageControlChanged,
)
from court.ids import HouseId, NobleId, Seat, VillageId
from court.sentences import names
from court.state import CourtState, GameStatus, NobleStatus
from court.table import Correction, majority
from court.text import clean_cause


def require_playing(state: CourtState) -> None:
    """The table decides only in a started game that has not ended; asked once the sender's
    role is known to allow it."""
    if state.status is GameStatus.LOBBY:
        raise CourtError(
            "game_lobby",
            "Before the game starts the table votes on nothing: the host seats and removes "
            "players himself.",
        )
    require_status(state, GameStatus.PLAYING)


def propose(state: CourtState, cmd: ProposeCorrection, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "propose a correction of a recorded fact")
    require_playing(state)
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
        held = state.treasury[house]
        if held + c.amount - c.recorded_amount < 0:
            lowest = c.recorded_amount - held
            raise CourtError(
                "treasury_too_low",
                f"A treasury can never go below zero (R-2.1): {names.house(state, house)} "
                f"holds {held} GD now, and correcting record {c.version} from "
                f"{c.recorded_amount} to {c.amount} GD takes {c.recorded_amount - c.amount}. "
                f"Propose {lowest} GD or more, or record first the Gold Dragons it has won "
                "since.",
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


def answer(state: CourtState, cmd: AnswerCorrection, actor: Actor) -> tuple[Event, ...]:
    voter = require_seat(actor, "answer a correction")
    require_playing(state)
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


def withdraw(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "withdraw a correction")
    require_playing(state)
    correction = state.table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    return (CorrectionWithdrawn(version=correction.version),)
