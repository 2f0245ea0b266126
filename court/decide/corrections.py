"""The host's correction of a fact he recorded (section 9, R-9.1): proposed naming the record's
version, judged against every record since (court/decide/followed.py), accepted or refused by
the seats (a strict majority), and made as compensating events that set the court as the
corrected fact would have, the corrected record staying in the log (docs/rules-map.md,
"Corrections")."""

from __future__ import annotations

from court.commands import Actor, AnswerCorrection, ProposeCorrection
from court.decide import followed
from court.decide.guards import require_host, require_status, require_voter
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
    VillageControlChanged,
)
from court.evolve import evolve, initial
from court.ids import Seat
from court.log import provenance
from court.model.table import Correction, majority
from court.model.text import clean_cause
from court.sentences import tell
from court.state import CourtState, GameStatus

Fact = GoldAdjusted | VillageControlChanged | NobleDied


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
    recorded, before = _fact(state, cmd)
    if state.table.corrected(cmd.version):
        raise CourtError(
            "already_corrected", f"The fact recorded at version {cmd.version} was corrected."
        )
    cause = clean_cause(cmd.cause)
    match recorded:
        case GoldAdjusted():
            correction = _gold(cmd, recorded, cause)
        case VillageControlChanged():
            correction = _village(state, cmd, recorded, cause)
        case NobleDied():
            correction = _death(cmd, recorded, before, cause)
    correction = followed.scan(correction, evolve(before, recorded), cmd.later, cmd.version + 1)
    followed.holds(correction, state)
    seat = _host_seat(state, actor)
    proposed = CorrectionProposed(correction=correction, seat=seat)
    return (proposed, *_settled(state, correction, set() if seat is None else {seat}, set()))


def _fact(state: CourtState, cmd: ProposeCorrection) -> tuple[Fact, CourtState]:
    """The recorded fact a correction names, with the court before it: refused when the log
    has no such record, or when it is no fact the host recorded (a correction's compensation
    included)."""
    recorded, court = cmd.recorded, cmd.court_before
    version = cmd.version
    if recorded is None:
        raise CourtError(
            "unknown_record",
            f"This game's log has records 1 to {cmd.head}; it has no record {version}.",
        )
    if isinstance(cmd.before, CorrectionMade):
        raise CourtError(
            "not_correctable",
            f"Record {version} is the compensation made by the correction of record "
            f"{cmd.before.correction.version}, not a fact the host recorded: a compensation "
            "cannot be corrected. Record what has happened instead.",
        )
    if isinstance(recorded, FactRecorded):
        raise CourtError(
            "not_correctable",
            f"Record {version} says who recorded a fact; name the record of the fact "
            f"itself (the next one, {version + 1}).",
        )
    if court is None or not isinstance(recorded, Fact):
        told = tell(recorded, evolve(court or initial(state.game_id), recorded))
        raise CourtError(
            "not_correctable",
            f"Record {version} ({told}) is not a fact the host recorded: only a recorded "
            "death, village or Gold Dragons can be corrected.",
        )
    return recorded, court


def _host_seat(state: CourtState, actor: Actor) -> Seat | None:
    """The host's seat, whose proposal is its acceptance, if it counts (R-9.2)."""
    return actor.seat if actor.seat in state.counting() else None


def _gold(cmd: ProposeCorrection, recorded: GoldAdjusted, cause: str) -> Correction:
    if cmd.amount is None:
        raise CourtError(
            "amount_required", "Say how many Gold Dragons should have been recorded (amount)."
        )
    if cmd.amount == recorded.amount:
        raise CourtError("no_change", f"Record {cmd.version} already says {cmd.amount} GD.")
    return Correction(
        version=cmd.version,
        fact="gold",
        subject=recorded.house,
        cause=cause,
        house=recorded.house,
        recorded_amount=recorded.amount,
        amount=cmd.amount,
    )


def _village(
    state: CourtState, cmd: ProposeCorrection, recorded: VillageControlChanged, cause: str
) -> Correction:
    if cmd.house == recorded.house:
        raise CourtError("no_change", f"Record {cmd.version} already says so.")
    if cmd.house is not None and cmd.house not in state.treasury:
        raise CourtError("unknown_house", f"No House {cmd.house!r} plays in this game.")
    return Correction(
        version=cmd.version,
        fact="village_control",
        subject=recorded.village,
        cause=cause,
        house=cmd.house,
        was_house=recorded.house,
    )


def _death(
    cmd: ProposeCorrection, recorded: NobleDied, court: CourtState, cause: str
) -> Correction:
    """A death is corrected only when nothing passed from the Noble as he died: no title
    (R-1.4), no marriage or alliance (R-5.4), no Protector for a widowed Queen (R-3.8), no
    ransom offered for him (R-8.2). Then the death's own record follows its attribution
    directly, its fold ends nothing else (court/log/provenance.py), and he lives again as he
    stood before it."""
    before = court.nobles.get(recorded.noble)
    if before is None:
        raise CourtError("not_correctable", f"Record {cmd.version} is no recorded death.")
    if not (isinstance(cmd.before, FactRecorded) and cmd.before.fact == "death"):
        told = (
            "" if cmd.before is None else f" (record {cmd.version - 1}: {tell(cmd.before, court)})"
        )
        raise CourtError(
            "death_had_consequences",
            f"When {before.name} died, what he held passed on{told}, or his death followed "
            "from a decree and was no recorded fact (R-1.4, R-5.4): a correction cannot give "
            "that back. Record what has happened instead.",
        )
    ended = provenance.effects(court, recorded)
    if ended:
        raise CourtError(
            "death_had_consequences",
            f"When {before.name} died, {' and '.join(ended)}: a correction cannot give that "
            "back. Record what has happened instead.",
        )
    return Correction(
        version=cmd.version,
        fact="death",
        subject=recorded.noble,
        cause=cause,
        status=before.status.value,
        captor=before.captor,
        outlaw=before.outlaw,
    )


def answer(state: CourtState, cmd: AnswerCorrection, actor: Actor) -> tuple[Event, ...]:
    voter = require_voter(state, actor, "answer a correction")
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
    a strict majority of the seats that count (R-9.2) accepts it, refused once it no longer
    can; nothing yet."""
    seats = len(state.counting())
    if majority(len(accepted), seats):
        followed.holds(c, state)
        made = CorrectionMade(
            correction=c, votes=len(accepted), seats=seats, voters=tuple(sorted(accepted))
        )
        return (made, *followed.compensation(c, state))
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


def settled_now(state: CourtState) -> tuple[Event, ...]:
    """What the answers given decide once the seats that count have changed (R-9.2): the
    correction made or refused as at an answer; one that would no longer be sound stays under
    vote, for the host to withdraw."""
    table = state.table
    if table.correction is None:
        return ()
    try:
        return _settled(state, table.correction, set(table.accepted), set(table.refused))
    except CourtError:
        return ()


def withdraw(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    require_host(actor, "withdraw a correction")
    require_playing(state)
    correction = state.table.correction
    if correction is None:
        raise CourtError("no_correction", "No correction is waiting for an answer.")
    return (CorrectionWithdrawn(version=correction.version),)
