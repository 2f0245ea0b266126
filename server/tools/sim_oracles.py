"""What the soak checks of the table's decisions beyond the court's invariants, from the game's
history as the simulation saw it written: a correction goes to a vote only for a fact that is
no compensation and whose village was not recorded again since, is made only when nothing that
followed from its fact in the fact's own command is left standing, and brings a Noble back as
he stood, married as he was, and never beside the Heir who came after him (R-9.1, R-3.9); a seat
handed to a new player keeps none of the old one's votes and answers, and starts with full clock
banks (R-9.2)."""

from __future__ import annotations

from collections.abc import Sequence

from court.events import CorrectionProposed, NobleRestored, SeatHanded
from court.ruleset import Attribute
from court.state import CourtState
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
            if fact is not None and fact.followers and len(written) - at <= 2:
                found.append(
                    f"R-9.1: the correction of record {fact.version} ({fact.type}) was made, "
                    f"though its command went on with {', '.join(fact.followers)}, left standing"
                )
        elif isinstance(event, NobleRestored):
            found += _restored(book, written, event, record.after)
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
