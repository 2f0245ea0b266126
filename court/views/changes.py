"""What changed at court between two versions, in sentences, for a dispute: titles, the fourth
council seat, a ban of Septs, Nobles' statuses and marks, treasuries, marriages and alliances,
villages and Septs. Everything it compares is public: the same court every viewer sees (no
ballot, bid or token)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from court.sentences import names
from court.sentences.table import told
from court.state import CourtState, Noble, NobleStatus

STATUS = {
    NobleStatus.IN_PLAY: "in play",
    NobleStatus.CAPTIVE: "captive",
    NobleStatus.DEAD: "dead",
    NobleStatus.BROTHER: "a Brother of the Night's Watch",
}


@dataclass(frozen=True, slots=True)
class Change:
    kind: str  # title, council, noble, treasury, marriage, alliance, village, sept, correction
    text: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text}


def changes(before: CourtState, after: CourtState) -> list[Change]:
    """Each difference from `before` to `after`, told with the names of `after` (a Noble who
    came into play between them is named as he is at `after`)."""
    return [change for diff in DIFFS for change in diff(before, after)]


def _titles(before: CourtState, after: CourtState) -> Iterator[Change]:
    for title in after.ruleset.titles:
        old, new = before.titles.get(title.id), after.titles.get(title.id)
        if old == new:
            continue
        name = title.name
        if new is None:
            yield Change("title", f"{name}: {_noble(after, old)} no longer holds it; it is free.")
        elif old is None:
            yield Change("title", f"{name}: now held by {_noble(after, new)} (it was free).")
        else:
            yield Change(
                "title",
                f"{name}: now held by {_noble(after, new)}, no longer {_noble(after, old)}.",
            )


def _nobles(before: CourtState, after: CourtState) -> Iterator[Change]:
    for noble in after.nobles.values():
        old = before.nobles.get(noble.id)
        who = _noble(after, noble.id)
        if old is None:
            yield Change("noble", f"{who} came into play.")
            continue
        if (old.status, old.captor) != (noble.status, noble.captor):
            yield Change("noble", f"{who}: now {_status(after, noble)}, was {_status(after, old)}.")
        if old.outlaw != noble.outlaw:
            yield Change(
                "noble", f"{who}: {'now an Outlaw' if noble.outlaw else 'no longer an Outlaw'}."
            )
        for attribute in sorted(noble.attributes - old.attributes):
            yield Change(
                "noble", f"{who} gained the attribute {attribute.value.replace('_', ' ')}."
            )


def _marriages(before: CourtState, after: CourtState) -> Iterator[Change]:
    """Each marriage made or ended, told once, by the spouse its events name first."""
    for noble in after.nobles.values():
        old = before.nobles.get(noble.id)
        old_spouse = old.spouse if old else None
        if old_spouse == noble.spouse:
            continue
        who = _noble(after, noble.id)
        spouse = noble.spouse
        if spouse is not None and after.couple(noble.id, spouse)[0] == noble.id:
            yield Change("marriage", f"{who} is now married to {_noble(after, spouse)}.")
        if old_spouse is not None and before.couple(noble.id, old_spouse)[0] == noble.id:
            yield Change("marriage", f"{who} is no longer married to {_noble(after, old_spouse)}.")
    old_pairs = {frozenset(a.seats) for a in before.alliances}
    new_pairs = {frozenset(a.seats) for a in after.alliances}
    for pair in sorted(new_pairs - old_pairs, key=sorted):
        yield Change("alliance", f"{names.players(after, sorted(pair))} are now allied.")
    for pair in sorted(old_pairs - new_pairs, key=sorted):
        yield Change("alliance", f"{names.players(after, sorted(pair))} are no longer allied.")


def _treasuries(before: CourtState, after: CourtState) -> Iterator[Change]:
    for house in after.ruleset.houses:
        old, new = before.treasury.get(house.id), after.treasury.get(house.id)
        if old == new or new is None:
            continue
        if old is None:
            yield Change("treasury", f"{house.name}: treasury {names.gold(new)}.")
            continue
        delta = f"+{new - old}" if new > old else str(new - old)
        yield Change(
            "treasury",
            f"{house.name}: treasury {names.gold(new)}, was {names.gold(old)} ({delta}).",
        )


def _villages(before: CourtState, after: CourtState) -> Iterator[Change]:
    for village in after.ruleset.villages:
        old, new = before.villages.get(village.id), after.villages.get(village.id)
        place = names.village(after, village.id)
        if old != new:
            holder = f"now held by {names.house(after, new)}" if new else "now held by nobody"
            was = f"was {names.house(after, old)}'s" if old else "was held by nobody"
            yield Change("village", f"{place}: {holder}, {was}.")
        septs_old, septs_new = before.septs.get(village.id, 0), after.septs.get(village.id, 0)
        if septs_new > septs_old:
            yield Change("sept", f"{place}: a Sept was built.")
        elif septs_new < septs_old:
            yield Change("sept", f"{place}: its Sept is gone.")


def _council(before: CourtState, after: CourtState) -> Iterator[Change]:
    """The fourth Small Council seat bought in the sale (R-4.6), and a ban of Septs."""
    old, new = before.fourth_seat, after.fourth_seat
    if old != new and old is not None:
        yield Change(
            "council", f"{_noble(after, old)} no longer sits in the fourth Small Council seat."
        )
    if old != new and new is not None:
        yield Change(
            "council",
            f"{_noble(after, new)} now sits in the fourth Small Council seat, bought in the sale.",
        )
    if before.septs_banned != after.septs_banned:
        banned = "Septs are now banned." if after.septs_banned else "Septs are no longer banned."
        yield Change("council", banned)


def _corrections(before: CourtState, after: CourtState) -> Iterator[Change]:
    """The corrections the table accepted between the two versions, each naming the record it
    corrects: the differences they make are told beside them."""
    for correction in after.table.made[len(before.table.made) :]:
        said = told(dataclasses.asdict(correction), after)
        yield Change("correction", f"{said[0].upper()}{said[1:]}.")


def _noble(state: CourtState, noble_id: str | None) -> str:
    return "nobody" if noble_id is None else names.noble(state, noble_id)


def _status(state: CourtState, noble: Noble) -> str:
    if noble.status is NobleStatus.CAPTIVE and noble.captor:
        return f"captive of {names.house(state, noble.captor)}"
    return STATUS.get(noble.status, noble.status.value)


DIFFS: tuple[Callable[[CourtState, CourtState], Iterator[Change]], ...] = (
    _titles,
    _council,
    _nobles,
    _marriages,
    _treasuries,
    _villages,
    _corrections,
)
