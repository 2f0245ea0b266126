"""What the soak checks of the table's decisions beyond the court's invariants, from the game's
history as the simulation saw it written: a correction goes to a vote only for a fact that is
no compensation and whose village was not recorded again since, is made only when nothing that
followed from its fact in the fact's own command is left standing, brings a Noble back as he
stood, married as he was, and never beside the Heir who came after him (R-9.1, R-3.9), and gives
a candidacy back only to the Noble its death withdrew, standing again with his markers (R-7.2);
a correction lapses only for a record of its command that names no vote or clock; a seat handed
to a new player keeps none of the old one's votes and answers, and starts with full clock banks
(R-9.2)."""

from __future__ import annotations

from collections.abc import Sequence

from court.events import (
    CandidacyRestored,
    CorrectionLapsed,
    CorrectionProposed,
    NobleRestored,
    SeatHanded,
)
from court.ids import NobleId, Seat
from court.model.ruleset import Attribute
from court.sentences import tell
from court.state import CourtState, PlacedMarker
from server.tools.sim_corrections import FactBook, Recorded
from server.tools.sim_table import Written

FINDINGS = "tests/court/test_soak_findings.py"
# Breaches the court still commits, by what their problem says, each reproduced by a strict
# xfail test of FINDINGS (named here): a run reports them apart, as known, and fails only on
# anything else. A fix makes its test pass; then the test's mark and its line here go.
KNOWN: dict[str, str] = {}


def failed(exc: Exception) -> str:
    """A failure of the service that is no refusal, as a problem says it."""
    return f"the service failed: {type(exc).__name__}: {exc}"


def known(problem: str) -> str | None:
    """The finding test that reproduces this problem, if it is a known one."""
    return next((test for said, test in KNOWN.items() if said in problem), None)


def table_problems(book: FactBook, written: Sequence[Written]) -> list[str]:
    """Where the records one command wrote break R-9.1 or R-9.2 (`book`: the game's records
    before them)."""
    found: list[str] = []
    for at, record in enumerate(written):
        event = record.event
        if isinstance(event, CorrectionProposed):
            fact = book.records.get(event.correction.version)
            if fact is not None:
                found += _proposed(book, fact)
        elif record.type == "CorrectionMade":
            fact = book.records.get(record.data["correction"]["version"])
            # The correction made wrote its one compensation and nothing to undo the rest.
            if fact is not None and fact.naming and len(written) - at <= 2:
                found.append(
                    f"R-9.1: the correction of record {fact.version} ({fact.type}) was made, "
                    f"though its command went on with {', '.join(fact.naming)}, left standing"
                )
        elif isinstance(event, NobleRestored):
            found += _restored(book, written, event, record.after)
        elif isinstance(event, CandidacyRestored):
            found += _candidacy_restored(book, written, at, event)
        elif isinstance(event, CorrectionLapsed):
            found += _lapsed(written, at, event)
        elif isinstance(event, SeatHanded):
            found += _handed(event, record.after)
    return found + (_heirs(written[-1].after) if written else [])


def _proposed(book: FactBook, fact: Recorded) -> list[str]:
    """R-9.1: never a correction of a compensation, nor of a village recorded again since."""
    if fact.compensation:
        return [f"R-9.1: record {fact.version}, a correction's compensation, went to a vote"]
    if fact.type != "VillageControlChanged":
        return []
    village = fact.data["village"]
    again = [
        r.version
        for r in book.records.values()
        if r.version > fact.version
        and r.type == "VillageControlChanged"
        and r.data["village"] == village
    ]
    if not again:
        return []
    return [
        f"R-9.1: record {fact.version} (the holder of {village}) went to a vote, though the "
        f"village was recorded again since (record {again[0]})"
    ]


def _restored(
    book: FactBook, written: Sequence[Written], event: NobleRestored, after: CourtState
) -> list[str]:
    """R-9.1: the Noble whose death was corrected stands as he did before it, married as he
    was (his spouse's marriage ended by nothing else since)."""
    made = next((w for w in written if w.type == "CorrectionMade"), None)
    fact = book.records.get(made.data["correction"]["version"]) if made is not None else None
    was = fact.noble_before if fact is not None else None
    now = after.nobles.get(event.noble)
    if was is None or now is None or now == was:
        return []
    changed = [
        f"{f} {getattr(was, f)!r} -> {getattr(now, f)!r}"
        for f in ("status", "outlaw", "captor", "spouse")
        if getattr(now, f) != getattr(was, f)
    ]
    if not changed:
        return []
    version = fact.version if fact is not None else "?"
    return [
        f"R-9.1: {event.noble}'s death (record {version}) was corrected, but he does not stand "
        f"as before it: {', '.join(changed)}"
    ]


def _candidacy_restored(
    book: FactBook, written: Sequence[Written], at: int, event: CandidacyRestored
) -> list[str]:
    """R-9.1, R-7.2: a candidacy comes back only to the Noble whose corrected death withdrew
    him from the election still under way, and he stands in it again with the markers placed
    on him before, none lost."""
    noble, found = event.noble, []
    made = next((w for w in written[:at] if w.type == "CorrectionMade"), None)
    fact = book.records.get(made.data["correction"]["version"]) if made is not None else None
    if (
        fact is None
        or fact.type != "NobleDied"
        or fact.data.get("noble") != noble
        or "CandidateWithdrawn" not in fact.followers
    ):
        which = f"record {fact.version}" if fact is not None else "no recorded death"
        found.append(
            f"R-9.1: {noble}'s candidacy in {event.election} was given back by the correction "
            f"of {which}, which did not withdraw him"
        )
    after = written[at].after
    election = after.election
    if election is None or election.id != event.election or noble not in election.standing:
        found.append(
            f"R-7.2: {noble}'s candidacy in {event.election} was given back, but he does not "
            "stand in the election under way"
        )
    was, now = _markers_on(written[0].before, noble), _markers_on(after, noble)
    if was != now:
        found.append(
            f"R-7.2: {noble}'s candidacy in {event.election} was given back without the "
            f"markers placed on him: {len(sum(was.values(), ()))} before, "
            f"{len(sum(now.values(), ()))} after"
        )
    return found


def _markers_on(state: CourtState, noble: NobleId) -> dict[Seat, tuple[PlacedMarker, ...]]:
    """The markers each seat placed on `noble` in the election under way."""
    election = state.election
    if election is None:
        return {}
    on = {
        seat: tuple(m for m in placed if noble in (m.candidate, m.secret_candidate))
        for seat, placed in election.placements.items()
    }
    return {seat: markers for seat, markers in on.items() if markers}


def _lapsed(written: Sequence[Written], at: int, event: CorrectionLapsed) -> list[str]:
    """R-9.1: a correction lapses only while it is under vote, and its reason tells a record
    its command wrote before the lapse that is no vote, answer or clock mark (what followed
    from the fact it corrects)."""
    open_ = written[at].before.table.correction
    if open_ is None or open_.version != event.version:
        return [f"R-9.1: the correction of record {event.version} lapsed, but it was not open"]
    told = [
        w
        for w in written[:at]
        if not w.event.FOLLOWS_NO_FACT and event.reason.startswith(tell(w.event, w.after))
    ]
    if told:
        return []
    return [
        f"R-9.1: the correction of record {event.version} lapsed naming no record of its "
        f"command that could have followed from its fact: {event.reason}"
    ]


def _heirs(after: CourtState) -> list[str]:
    """R-3.9: one Heir at a time (a correction must not bring back one who had a successor)."""
    heirs = sorted(
        n.id
        for n in after.nobles.values()
        if n.alive and Attribute.PRINCE_OF_WESTEROS in n.attributes
    )
    return [f"R-3.9: two Heirs at once: {', '.join(heirs)}"] if len(heirs) > 1 else []


def _handed(event: SeatHanded, after: CourtState) -> list[str]:
    """R-9.2: the old player's votes and answers go with him; the new one's clock banks are
    the profile's."""
    seat, table = event.seat, after.table
    kept = [
        what
        for what, held in (
            ("a vote to end the game", seat in table.end),
            ("an answer to the correction", seat in table.accepted | table.refused),
            ("a vote to replace a player", any(seat in v for v in table.replace.values())),
            ("a vote for a host", seat in after.host_votes),
        )
        if held
    ]
    profile = after.ruleset.profile.clocks
    spent = [k for k, left in after.banks.get(seat, {}).items() if left != profile.bank(k)]
    found = []
    if kept:
        found.append(f"R-9.2: seat {seat} went to a new player keeping {', '.join(kept)}")
    if spent:
        found.append(f"R-9.2: seat {seat} went to a new player with spent banks: {spent}")
    return found
