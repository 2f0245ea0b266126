"""Random recorded facts for simulated games (section 9): what a host might enter at the
table, drawn from the court as it stands. Many are impossible (a release of a Noble who is
not captive, Justice on a Noble who is not an Outlaw): the court must refuse those and leave
its log as it was, which the simulation checks."""

from __future__ import annotations

import random

from court.commands import (
    AddNoble,
    AdjustGold,
    Command,
    DeathKind,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordWallSupplies,
)
from court.ids import HouseId, NobleId, TitleId
from court.model.ruleset import Attribute, Category
from court.options.electorate import is_council
from court.state import CourtState, Noble, NobleStatus

# Relative weights: village control and gold most often, deaths rarely (a table of six loses
# few Nobles a round), so that simulated games run for many rounds.
WEIGHTS = {
    "village": 30,
    "gold": 14,
    "capture": 6,
    "release": 5,
    "escape": 2,
    "death": 2,
    "new_noble": 2,
    "join_council": 3,
    "mother": 1,
    "heir": 2,
    "wall": 2,
}
# How often a fact captures or kills a Noble at stake, when one is (`at_stake`), and a Noble
# standing for the election under way, which withdraws him at once.
AT_STAKE, CANDIDATE_FALLS = 0.25, 0.05
# Facts about a House; the others are about a Noble.
HOUSE_FACTS = frozenset({"village", "gold", "new_noble", "wall"})


def in_the_spotlight(state: CourtState) -> set[NobleId]:
    """Nobles whose fate matters to the step under way: title holders (the powers of a decree
    step among them), candidates, the couple of a proposal, the Protector who embraced, the
    winner awaiting his title. Facts about them are where rule bugs hide (R-6.7, R-7.2)."""
    found = set(state.titles.values())
    if state.election is not None:
        found |= {n for _, n in state.election.candidates}
    if state.proposal is not None:
        found |= {state.proposal.noble, state.proposal.to_noble}
    if state.decree is not None:
        found |= {p.noble for p in state.decree.powers if p is not None}
        if state.decree.embraced_by is not None:
            found.add(state.decree.embraced_by)
    if state.pending is not None:
        found.add(state.pending.noble)
    if state.fourth_seat is not None:
        found.add(state.fourth_seat)
    found |= {n.spouse for n in state.nobles.values() if n.spouse is not None}
    return {n for n in found if n in state.nobles}


def wardens_off_council(state: CourtState, noble: Noble) -> bool:
    """A Warden in play, no Outlaw, neither the Hand nor a Master (R-3.5)."""
    return (
        noble.status is NobleStatus.IN_PLAY
        and not noble.outlaw
        and any(
            state.ruleset.title_index[t].category is Category.MILITARY
            for t in state.titles_of(noble.id)
        )
        and not is_council(state, noble.id)
    )


def at_stake(state: CourtState) -> list[Noble]:
    """Living Nobles whose capture or death changes the step under way at once: the holder of
    the turn's decree power (R-6.7), the winner awaiting his title or the overflow's chooser
    (section 9), the Wardens the council seat's buyer may seat (R-4.6)."""
    found: list[NobleId] = []
    if state.decree is not None and state.decree.power is not None:
        found.append(state.decree.power.noble)
    if state.pending is not None:
        found.append(state.pending.noble)
    buyer = state.auction.winner if state.auction is not None else None
    if buyer is not None:
        house = state.seats[buyer].house
        found += [
            n.id
            for n in state.nobles.values()
            if n.house == house and wardens_off_council(state, n)
        ]
    return [state.nobles[n] for n in found if n in state.nobles and state.nobles[n].alive]


def random_fact(state: CourtState, rng: random.Random, serial: int) -> Command:
    """One fact the host might record now; `serial` keeps new Noble ids unique. Half the
    facts about a Noble are about one in the spotlight, and now and then a Noble at stake (or
    standing for election) is captured or dies at once."""
    stake = at_stake(state)
    standing = state.election.standing if state.election is not None else ()
    falls = [state.nobles[n] for n in standing if n in state.nobles and state.nobles[n].alive]
    if falls and rng.random() < CANDIDATE_FALLS:
        stake = falls
    elif rng.random() >= AT_STAKE:
        stake = []
    if stake:
        noble = rng.choice(stake)
        if rng.random() < 0.4:
            return RecordDeath(noble=noble.id, kind=DeathKind.BATTLE.value, cause="at stake")
        captor = rng.choice([HouseId(s.house) for s in state.seats.values()])
        return RecordCapture(noble=noble.id, house=captor, by=None, cause="at stake")
    kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    houses = [HouseId(s.house) for s in state.seats.values()]
    nobles = list(state.nobles.values())
    living = [n for n in nobles if n.alive] or nobles
    spotlight = [state.nobles[n] for n in sorted(in_the_spotlight(state))]
    if spotlight and rng.random() < 0.5:
        living = [n for n in spotlight if n.alive] or living
    cause = f"simulated {kind.replace('_', ' ')}"
    if kind in HOUSE_FACTS:
        return _house_fact(kind, state, rng, houses, serial, cause)
    return _noble_fact(kind, state, rng, houses, nobles, living, cause)


def _house_fact(
    kind: str,
    state: CourtState,
    rng: random.Random,
    houses: list[HouseId],
    serial: int,
    cause: str,
) -> Command:
    if kind == "village":  # mostly a village nobody holds yet: the table spreads out
        free = [v.id for v in state.ruleset.villages if v.id not in state.villages]
        every = [v.id for v in state.ruleset.villages]
        village = rng.choice(free if free and rng.random() < 0.8 else every)
        holder = None if rng.random() < 0.05 else rng.choice(houses)
        return RecordVillageControl(village=village, house=holder, cause=cause)
    if kind == "gold":
        return AdjustGold(
            house=rng.choice(houses), amount=rng.choice([-3, -1, 1, 2, 4]), cause=cause
        )
    if kind == "new_noble":
        gender = rng.choice(["lord", "lady"])
        return AddNoble(
            house=rng.choice(houses),
            noble=NobleId(f"newcomer-{serial}"),
            name=f"Newcomer {serial}",
            gender=gender,
            attributes=tuple(rng.sample(["bastard", "cruel", "heart_breaker"], rng.randint(0, 1))),
            cause=cause,
        )
    return RecordWallSupplies(amount=rng.randint(1, 6), house=rng.choice(houses), cause=cause)


def _noble_fact(
    kind: str,
    state: CourtState,
    rng: random.Random,
    houses: list[HouseId],
    nobles: list[Noble],
    living: list[Noble],
    cause: str,
) -> Command:
    if kind == "capture":
        noble = rng.choice(living)
        captor = rng.choice(houses)
        by = rng.choice([None, *(n.id for n in living if n.house == captor)])
        return RecordCapture(noble=noble.id, house=captor, by=by, cause=cause)
    if kind in ("release", "escape"):
        captives = [n for n in nobles if n.status is NobleStatus.CAPTIVE] or living
        command = RecordRelease if kind == "release" else RecordEscape
        return command(noble=rng.choice(captives).id, cause=cause)
    if kind == "death":
        # Now and then the Heir or a Brother: one only takes his place, so a
        # correction of his death must weigh the one who did.
        marked = [
            n
            for n in living
            if n.status is NobleStatus.BROTHER or Attribute.PRINCE_OF_WESTEROS in n.attributes
        ]
        dying = rng.choice(marked if marked and rng.random() < 0.3 else living)
        death = rng.choice(list(DeathKind))
        return RecordDeath(noble=dying.id, kind=death.value, cause=cause)
    if kind == "join_council":
        # Mostly a Warden off the council, whom the Court Event card names at a table: the
        # council fills, elects its Hand, and the Hand's decrees come.
        masters = [t.id for t in state.ruleset.titles if t.master]
        wardens = [n for n in living if wardens_off_council(state, n)]
        joiner = rng.choice(wardens if wardens and rng.random() < 0.7 else living)
        return JoinSmallCouncil(noble=joiner.id, title=TitleId(rng.choice(masters)), cause=cause)
    if kind == "mother":
        return GrantMotherOfDragons(noble=rng.choice(living).id, cause=cause)
    return HeirBorn(noble=rng.choice(living).id, cause=cause)
