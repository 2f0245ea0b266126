"""Who may stand and who votes how much in each election of phase 1 (R-7.2 to R-7.8).

Pure functions over the court state; the voting procedure itself lives in `elections/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from court.ids import HAND, KING, NobleId, RegionId, Seat, TitleId
from court.model.ruleset import Category, Gender, Ruleset
from court.state import CourtState, Noble, NobleStatus


class Kind(StrEnum):
    LORD_COMMANDER = "lord_commander"
    WARDEN = "warden"
    HAND = "hand"
    KING = "king"


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionSpec:
    """One election of the phase-1 sequence: its title and its minimum of votes."""

    id: str
    kind: Kind
    title: TitleId
    name: str
    minimum: int
    region: RegionId | None = None


def sequence(state: CourtState) -> tuple[ElectionSpec, ...]:
    """The elections of phase 1 in the order of R-4.2: Lord Commander, Wardens 1-5, Hand, King;
    made once for each ruleset (several times a command ask for them)."""
    rules = state.ruleset
    found: tuple[ElectionSpec, ...] | None = rules.derived.get("elections")
    if found is None:
        found = rules.derived["elections"] = _sequence(rules)
    return found


def _sequence(rules: Ruleset) -> tuple[ElectionSpec, ...]:
    settings = rules.profile.elections
    specs: list[ElectionSpec] = []
    if rules.profile.variants.nights_watch:
        lc = next(t for t in rules.titles if t.nights_watch)
        specs.append(
            ElectionSpec(
                id="lord-commander",
                kind=Kind.LORD_COMMANDER,
                title=lc.id,
                name=lc.name,
                minimum=settings.lord_commander_min_votes,
            )
        )
    for region in rules.regions:
        warden = rules.warden_index[region.id]
        specs.append(
            ElectionSpec(
                id=f"warden-{region.id}",
                kind=Kind.WARDEN,
                title=warden.id,
                name=warden.name,
                minimum=0,
                region=region.id,
            )
        )
    hand = rules.title(HAND)
    king = rules.title(KING)
    assert hand is not None and king is not None
    specs.append(ElectionSpec(id="hand", kind=Kind.HAND, title=hand.id, name=hand.name, minimum=0))
    specs.append(
        ElectionSpec(
            id="king",
            kind=Kind.KING,
            title=king.id,
            name=king.name,
            minimum=settings.king_min_votes,
        )
    )
    return tuple(specs)


def spec(state: CourtState, election_id: str) -> ElectionSpec:
    return next(s for s in sequence(state) if s.id == election_id)


# -- who is who ---------------------------------------------------------------


def in_play(noble: Noble) -> bool:
    """A Noble on the board and free: not captive, dead or a Brother (R-1.4)."""
    return noble.status is NobleStatus.IN_PLAY


def may_vote(noble: Noble) -> bool:
    """R-7.2: captive, Outlaw and dead Nobles never vote."""
    return noble.status in (NobleStatus.IN_PLAY, NobleStatus.BROTHER) and not noble.outlaw


def may_stand(noble: Noble) -> bool:
    """R-7.2: captive, Outlaw and dead Nobles never stand."""
    return may_vote(noble)


def council_titles(state: CourtState) -> frozenset[TitleId]:
    """The Small Council's titles, made once a ruleset: asked for each Noble of a court."""
    rules = state.ruleset
    found: frozenset[TitleId] | None = rules.derived.get("council")
    if found is None:
        found = rules.derived["council"] = frozenset(t.id for t in rules.titles if t.council)
    return found


def warden_titles(state: CourtState) -> frozenset[TitleId]:
    rules = state.ruleset
    found: frozenset[TitleId] | None = rules.derived.get("wardens")
    if found is None:
        military = (t.id for t in rules.titles if t.category is Category.MILITARY)
        found = rules.derived["wardens"] = frozenset(military)
    return found


def nobles_of(state: CourtState, seat: Seat) -> Iterator[Noble]:
    house = state.seats[seat].house
    return (n for n in state.nobles.values() if n.house == house)


def is_council(state: CourtState, noble: NobleId) -> bool:
    return any(state.titles.get(t) == noble for t in council_titles(state))


def is_titled(state: CourtState, noble: NobleId) -> bool:
    return any(n == noble for n in state.titles.values())


# -- the four elections ---------------------------------------------------------


def condition(state: CourtState, election: ElectionSpec) -> str | None:
    """Why the election is not held (a sentence), or None when it is (R-7.1 step 1)."""
    if election.title in state.titles:
        held = "R-7.3" if election.kind is Kind.LORD_COMMANDER else "R-7.5"
        return f"the {election.name} title is not free: it is held for life ({held})"
    match election.kind:
        case Kind.LORD_COMMANDER:
            need = state.ruleset.profile.elections.lord_commander_min_brothers
            brothers = sum(1 for n in state.nobles.values() if n.status is NobleStatus.BROTHER)
            if brothers < need:
                return f"fewer than {need} Brothers of the Night's Watch are in play (R-7.3)"
        case Kind.WARDEN:
            villages = [v for v in state.ruleset.villages if v.region == election.region]
            if any(v.id not in state.villages for v in villages):
                return "not every village of the region is controlled (R-7.4)"
        case Kind.HAND:
            need = state.ruleset.profile.elections.hand_min_council
            council = [n for n in state.nobles.values() if in_play(n) and is_council(state, n.id)]
            if len(council) < need:
                return f"fewer than {need} Small Council members are in play (R-7.7)"
        case Kind.KING:
            need = state.ruleset.profile.elections.king_min_titled_lords
            lords = [n for n in state.nobles.values() if _titled_lord_in_play(state, n)]
            if len(lords) < need:
                return f"fewer than {need} titled Lords are in play (R-7.8)"
    return None


def _titled_lord_in_play(state: CourtState, noble: Noble) -> bool:
    return noble.gender is Gender.LORD and in_play(noble) and is_titled(state, noble.id)


def eligible(state: CourtState, election: ElectionSpec, noble: Noble) -> bool:
    """Whether this Noble may stand in this election."""
    if not may_stand(noble) or noble.gender is not Gender.LORD:
        return False
    match election.kind:
        case Kind.LORD_COMMANDER:
            return noble.status is NobleStatus.BROTHER
        case Kind.WARDEN:
            return noble.status is NobleStatus.IN_PLAY
        case Kind.HAND:
            return in_play(noble) and is_council(state, noble.id)
        case Kind.KING:
            return _titled_lord_in_play(state, noble)


def candidates_of(state: CourtState, election: ElectionSpec, seat: Seat) -> tuple[NobleId, ...]:
    return tuple(n.id for n in nobles_of(state, seat) if eligible(state, election, n))


def weights(state: CourtState, election: ElectionSpec) -> dict[Seat, int]:
    """Every seat's votes in this election, fixed when the ballot opens (R-7.2)."""
    return {seat: _votes(state, election, seat) for seat in state.turn_order()}


def _votes(state: CourtState, election: ElectionSpec, seat: Seat) -> int:
    voters = [n for n in nobles_of(state, seat) if may_vote(n)]
    match election.kind:
        case Kind.LORD_COMMANDER:
            return sum(1 for n in voters if n.status is NobleStatus.BROTHER)
        case Kind.WARDEN:
            return _warden_votes(state, election, seat, voters)
        case Kind.HAND:
            return sum(1 for n in voters if in_play(n) and is_council(state, n.id))
        case Kind.KING:
            lords = sum(1 for n in voters if _titled_lord_in_play(state, n))
            return lords + _house_bonus(state, seat)


def _warden_votes(state: CourtState, election: ElectionSpec, seat: Seat, voters: list) -> int:
    """R-7.4: 1 a village held in the region, +1 its Principal, +2 a Warden and +1 a council
    member held at the start of the round (by Nobles who may still vote)."""
    house = state.seats[seat].house
    region = next(r for r in state.ruleset.regions if r.id == election.region)
    villages = [v.id for v in state.ruleset.villages if v.region == region.id]
    votes = sum(1 for v in villages if state.villages.get(v) == house)
    if state.villages.get(region.principal) == house:
        votes += 1
    voting = {n.id for n in voters if in_play(n)}
    wardens, council = warden_titles(state), council_titles(state)
    for title, noble in state.round_titles.items():
        if noble in voting:
            votes += 2 if title in wardens else 1 if title in council else 0
    return votes


def _house_bonus(state: CourtState, seat: Seat) -> int:
    """R-7.8 option: a House's extra King votes while one of the named Nobles is in play."""
    house = state.seats[seat].house
    bonus = 0
    for rule in state.ruleset.profile.elections.king_house_bonuses:
        if rule.house == house and any(
            n in state.nobles and in_play(state.nobles[n]) for n in rule.while_in_play
        ):
            bonus += rule.votes
    return bonus
