"""What the table decides together, as the court holds it: votes to replace an absent player
and to end the game, the host's correction of a recorded fact waiting for the seats' answers,
and the corrections made."""

from __future__ import annotations

from dataclasses import dataclass, field

from court.ids import HouseId, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction:
    """A correction of the fact recorded at `version`: `fact` is "death", "village_control" or
    "gold"; `subject` the Noble, village or House it is about. A village: `was_house` held it
    as recorded, `house` holds it once corrected (None: nobody). Gold: `recorded_amount` was
    recorded, `amount` should have been. A death: the Noble lives again with `status`,
    `captor` and `outlaw` as he stood before it, and stands again in `candidacy`, the election
    his death withdrew him from (R-7.2), when it has one."""

    version: int
    fact: str
    subject: str
    cause: str
    house: HouseId | None = None
    was_house: HouseId | None = None
    recorded_amount: int = 0
    amount: int = 0
    status: str = ""
    captor: HouseId | None = None
    outlaw: bool = False
    candidacy: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableVotes:
    """`replace`: for each seat some voted to replace, when each voter voted (a vote counts
    only if cast since the seat's current absence began); `end`: the seats voting to end the
    game; `correction` the host's proposal under vote with the seats that `accepted` and
    `refused` it; `made` every correction the table accepted, in order; `ended_by` the seats
    whose votes ended the game (empty unless the table ended it); `replaced_at` when each seat
    last went to a new link, by the table's vote or the host's hand-over (its new player's
    absence counts from then); `replaced_by` the seats whose votes handed each seat to the
    link it holds now (none once the host hands it on), and `handing` those of a replacement
    whose hand-over, the next record, is still to come; `for_bot` the (seat, voter) pairs of
    the votes in `replace` cast for the bot rather than a new link; `bots` the seats the bot
    plays while their players are gone (court/options/bot.py)."""

    replace: dict[Seat, dict[Seat, float]] = field(default_factory=dict)
    end: frozenset[Seat] = frozenset()
    correction: Correction | None = None
    accepted: frozenset[Seat] = frozenset()
    refused: frozenset[Seat] = frozenset()
    made: tuple[Correction, ...] = ()
    ended_by: tuple[Seat, ...] = ()
    replaced_at: dict[Seat, float] = field(default_factory=dict)
    replaced_by: dict[Seat, tuple[Seat, ...]] = field(default_factory=dict)
    handing: dict[Seat, tuple[Seat, ...]] = field(default_factory=dict)
    for_bot: frozenset[tuple[Seat, Seat]] = frozenset()
    bots: frozenset[Seat] = frozenset()

    def chose_bot(self, seat: Seat, voter: Seat) -> bool:
        """Whether `voter`'s vote to replace `seat` was cast for the bot."""
        return (seat, voter) in self.for_bot

    def corrected(self, version: int) -> bool:
        return any(c.version == version for c in self.made)


def majority(votes: int, seats: int) -> bool:
    """A strict majority of `seats`."""
    return 2 * votes > seats
