"""A correction of a fact the host recorded, proposed (section 9, R-9.1): naming the record's
version, judged against every record since (court/decide/followed.py), and put to the seats
(court/decide/corrections.py)."""

from __future__ import annotations

from court.commands import Actor, ProposeCorrection
from court.decide import corrections, followed
from court.decide.compensation import holds
from court.decide.corrections import require_playing
from court.decide.guards import require_host
from court.errors import CourtError
from court.events import (
    CorrectionMade,
    CorrectionProposed,
    Event,
    FactRecorded,
    GoldAdjusted,
    NobleDied,
    VillageControlChanged,
)
from court.evolve import evolve, initial
from court.ids import Seat
from court.log import provenance
from court.model.table import Correction
from court.model.text import clean_cause
from court.sentences import tell
from court.state import CourtState

Fact = GoldAdjusted | VillageControlChanged | NobleDied


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
    holds(correction, state)
    seat = _host_seat(state, actor)
    proposed = CorrectionProposed(correction=correction, seat=seat)
    seats = set() if seat is None else {seat}
    return (proposed, *corrections.settle(state, correction, seats, set()))


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
