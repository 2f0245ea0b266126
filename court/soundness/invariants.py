"""Properties every court state must keep, whatever events led to it.

The service checks them on every state a decision leads to, event by event, before it
appends; import and deep verification check them at every version of a log; the simulation
and the property tests after every event. Each check returns sentences naming what is
broken and the rule it breaks; an empty list is a sound court. What holds only between
commands, once the server's follow-ups have run, is court/soundness/settled.py's.
"""

from __future__ import annotations

from collections import Counter

from court.events.nobles import NobleCaptured
from court.ids import KING, OUTLAW_KEEPS, PROTECTOR, QUEEN, NobleId
from court.model import steps
from court.model.ruleset import Attribute, Category, Gender
from court.model.tokens import holders, own_tokens
from court.options import clocks
from court.soundness import table_invariants
from court.soundness.remembered import Check, Remembered, reads
from court.state import CourtState, GameStatus, NobleStatus, PendingKind, Phase


class Unsound(Exception):
    """A state breaks the court's invariants: raised by `require_sound`."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0])
        self.problems = problems


def require_sound(state: CourtState, event: object = None) -> None:
    """Raise `Unsound` when the state, or the event that led to it, breaks an invariant (a
    `decide` check)."""
    found = violations(state, event)
    if found:
        raise Unsound(found)


def violations(state: CourtState, event: object = None) -> list[str]:
    """Sentences naming each broken property of the state, and of the event that led to it
    when it is given; empty when both are sound."""
    if state.rules is None:
        return _seats(state)
    found = _REMEMBERED(state)
    if event is not None:
        found.extend(_event(state, event))
    return found


def _event(state: CourtState, event: object) -> list[str]:
    """What an event may not say of the court it leads to: a Noble named as capturer is a
    Noble of the captor's House in play, not captive, dead or a Brother (section 9, R-8.1).
    The capture changes nothing of him, so the court after it shows him as he was."""
    if not isinstance(event, NobleCaptured) or event.by is None:
        return []
    by = state.nobles.get(event.by)
    if by is None or by.house != event.captor:
        return [f"{event.by} captured {event.noble} for {event.captor}, not his House (R-8.1)"]
    if by.status is not NobleStatus.IN_PLAY:
        return [
            f"{by.name} captured {event.noble} while {by.status.value}: the capturing Noble "
            "must be in play (section 9)"
        ]
    return []


@reads("treasury", "seats", "players", "rules")
def _seats(state: CourtState) -> list[str]:
    found = [
        f"House {house} holds {gold} Gold Dragons; a treasury never goes below 0 (R-2.1)"
        for house, gold in state.treasury.items()
        if gold < 0
    ]
    if state.players and len(state.seats) > state.players:
        found.append(f"{len(state.seats)} seats are taken in a game for {state.players}")
    houses = [s.house for s in state.seats.values()]
    if len(houses) != len(set(houses)):
        found.append("two seats play the same House")
    if state.rules is not None:
        known = state.rules.house_index
        found.extend(f"House {h} is not in the roster" for h in houses if h not in known)
    return found


@reads("treasury", "ledger", "auction", "seats", "status")
def _gold(state: CourtState) -> list[str]:
    """R-2.1: every Gold Dragon moved is accounted for by a rule or a fact; R-4.6: the bank
    holds the price of the fourth council seat only while its buyer may still take it, so a
    paid seat is delivered or refunded, also when the game ends before (R-9.2)."""
    ledger = state.ledger
    found: list[str] = []
    have, held = sum(state.treasury.values()), sum(ledger.held.values())
    accounted = ledger.issued - ledger.spent
    if have + held != accounted:
        found.append(
            f"the treasuries hold {have} Gold Dragons and the bank {held} for a purchase, but "
            f"the rules and facts account for {accounted} (R-2.1)"
        )
    auction = state.auction
    playing = state.status is GameStatus.PLAYING
    waiting = auction.winner if auction is not None and playing else None
    buyer = state.seats[waiting].house if waiting in state.seats else None
    found.extend(
        f"House {house} paid {gold} Gold Dragons for the fourth council seat and neither took "
        f"it nor got them back{'' if playing else ' by the end of the game'} (R-4.6)"
        for house, gold in ledger.held.items()
        if house != buyer or gold <= 0
    )
    return found


_LORDS_ONLY = (Category.MILITARY, Category.HIGH)


@reads("titles", "nobles", "pending", "rules")
def _titles(state: CourtState) -> list[str]:
    """Each title exists and is held by a Noble who may hold it (R-1.4, R-3.1, R-3.2, R-3.10,
    R-6.5, R-8.3), within the slots of its category."""
    found: list[str] = []
    index = state.ruleset.title_index
    slots = state.ruleset.slots
    held: Counter[tuple[NobleId, Category]] = Counter()
    for title, noble_id in state.titles.items():
        definition = index.get(title)
        noble = state.nobles.get(noble_id)
        if definition is None or noble is None:
            found.append(f"title {title} is held by unknown Noble {noble_id} or is unknown")
            continue
        category = definition.category
        held[(noble_id, category)] += 1
        if noble.status is NobleStatus.DEAD:
            found.append(f"{noble.name} is dead but holds {title} (R-1.4)")
        elif definition.nights_watch != (noble.status is NobleStatus.BROTHER):
            found.append(
                f"{noble.name} ({noble.status.value}) holds {title}: only Brothers hold the "
                "Night's Watch titles and Brothers hold no other (R-3.4, R-8.3)"
            )
        if noble.outlaw and category is not Category.FIEF and title not in OUTLAW_KEEPS:
            found.append(f"{noble.name} is an Outlaw but still holds {title} (R-6.5)")
        if (category in _LORDS_ONLY or title == KING) and noble.gender is not Gender.LORD:
            found.append(f"{noble.name} is a Lady but holds {title}, a Lord's title (R-3.10)")
        if category is Category.MOTHER_OF_DRAGONS and noble.gender is not Gender.LADY:
            found.append(f"{noble.name} is a Lord but holds {title}, a Lady's title (R-3.10)")
    pending = state.pending
    for (noble_id, category), count in held.items():
        limit = slots.get(category)
        if limit is None:
            continue
        if (
            pending is not None
            and pending.kind is PendingKind.OVERFLOW
            and pending.noble == noble_id
        ):
            pending_title = index.get(pending.title)
            if pending_title is not None and pending_title.category is category:
                limit += 1
        if count > limit:
            found.append(f"Noble {noble_id} holds {count} {category.value} titles (R-3.2)")
    return found


@reads("titles", "nobles", "rules")
def _royals(state: CourtState) -> list[str]:
    """R-3.8: the Queen is the living King's wife. While a King reigns nobody else protects the
    realm, and he only as the profile's king_holds_protector says (R-6.5 may leave him without
    the title); while none reigns, a widowed Queen may, only as its queen_protects_when_king_dies
    says."""
    found: list[str] = []
    king, queen = state.titles.get(KING), state.titles.get(QUEEN)
    if queen is not None:
        husband = state.nobles.get(king) if king is not None else None
        if husband is None or not husband.alive or husband.spouse != queen:
            found.append(f"{queen} is Queen but not the wife of a living King (R-3.8)")
    protector, settings = state.titles.get(PROTECTOR), state.ruleset.profile.titles
    if protector is None:
        return found
    if king is not None and protector != king:
        found.append(f"{protector} protects the realm while {king} is King (R-3.8)")
    elif king is not None and not settings.king_holds_protector:
        found.append(f"King {king} protects the realm, which no King does here (R-3.8)")
    if king is None and not settings.queen_protects_when_king_dies:
        found.append(f"{protector} protects a realm without King; no widow does here (R-3.8)")
    return found


@reads("nobles", "rules")
def _nobles(state: CourtState) -> list[str]:
    """Statuses, marks and marriages agree with each other (R-1.4, R-5.1, R-6.5, R-8.1);
    spouses are of opposite gender only when the profile asks it (R-5.1 [D])."""
    found: list[str] = []
    nobles = state.nobles
    opposite = state.ruleset.profile.marriage.opposite_gender
    captive, dead, brother = NobleStatus.CAPTIVE, NobleStatus.DEAD, NobleStatus.BROTHER
    for noble in nobles.values():
        status, captor = noble.status, noble.captor
        if (captor is None) == (status is captive) or captor == noble.house:
            found.append(f"{noble.name} is {status.value} held by {captor} (R-8.1)")
        if noble.outlaw and (status is dead or status is brother):
            found.append(f"{noble.name} is {status.value} and an Outlaw (R-6.5, R-8.3)")
        if noble.spouse is None:
            continue
        spouse = nobles.get(noble.spouse)
        if noble.status is NobleStatus.DEAD:
            found.append(f"{noble.name} is dead but still married (R-1.4, R-5.4)")
        elif spouse is None or spouse.spouse != noble.id:
            found.append(f"{noble.name}'s marriage is not returned by his spouse (R-5.1)")
        elif spouse.house == noble.house:
            found.append(f"{noble.name} is married within his House (R-5.1)")
        elif opposite and spouse.gender is noble.gender:
            found.append(f"{noble.name} is married within his gender (R-5.1)")
    return found


@reads("alliances", "nobles", "seats", "players", "rules")
def _alliances(state: CourtState) -> list[str]:
    """R-4.7, R-5.2, R-5.4: alliances only with 4 to 6 players, one each, while married."""
    found: list[str] = []
    if not state.alliances:
        return found
    if state.players < state.ruleset.profile.marriage.min_players_for_alliance:
        found.append(f"an alliance exists in a {state.players}-player game (R-4.7)")
    seats = [s for a in state.alliances for s in a.seats]
    if len(seats) != len(set(seats)):
        found.append("a player is in two marriage alliances (R-5.2)")
    for alliance in state.alliances:
        lord, lady = state.nobles.get(alliance.lord), state.nobles.get(alliance.lady)
        if lord is None or lady is None or lord.spouse != lady.id or not lord.alive:
            found.append(f"the alliance of seats {alliance.seats} outlived its marriage (R-5.4)")
            continue
        houses = {state.seats[s].house for s in alliance.seats if s in state.seats}
        if houses != {lord.house, lady.house}:
            found.append(f"the alliance of seats {alliance.seats} is not its spouses' (R-5.2)")
    return found


@reads("nobles", "players", "rules")
def _watch(state: CourtState) -> list[str]:
    """R-8.3, R-6.4: at most as many Brothers as the profile allows, one a House."""
    found: list[str] = []
    brother = NobleStatus.BROTHER
    houses = [n.house for n in state.nobles.values() if n.status is brother]
    if houses:
        limit = state.ruleset.profile.night_watch.max_brothers
        most = state.players if limit == "players" else int(limit)
        if len(houses) > most:
            found.append(f"{len(houses)} Brothers serve; at most {most} may (R-8.3)")
        found.extend(
            f"House {h} has {n} Brothers; at most one (R-6.4)"
            for h, n in Counter(houses).items()
            if n > 1
        )
    return found


@reads("nobles", "rules")
def _heir(state: CourtState) -> list[str]:
    """R-3.9: one Heir at a time among the living, a Lord, who never takes the black (a dead
    Heir keeps the attribute and is no Heir)."""
    prince = Attribute.PRINCE_OF_WESTEROS
    heirs = [n for n in state.nobles.values() if n.alive and prince in n.attributes]
    found = [
        f"{n.name} is the Heir but a Brother or a Lady; the Heir is a Lord who never takes the "
        "black (R-3.9)"
        for n in heirs
        if n.status is NobleStatus.BROTHER or n.gender is not Gender.LORD
    ]
    if len(heirs) > 1:
        named = " and ".join(n.name for n in heirs)
        found.append(f"{named} would each be the Heir; there is one Heir at a time (R-3.9)")
    return found


@reads("election", "nobles", "seats")
def _candidates(state: CourtState) -> list[str]:
    """R-7.1, R-7.2: the election under way holds each candidate once, put forward by the seat
    of his own House, and withdraws only its candidates, each once."""
    election = state.election
    if election is None:
        return []
    put = [noble for _, noble in election.candidates]
    found = [
        f"{noble} stands for {election.id} put forward by seat {seat}, not his House (R-7.1)"
        for seat, noble in election.candidates
        if state.nobles[noble].house != state.seats[seat].house
    ]
    withdrawn = election.withdrawn
    if (
        len(put) != len(set(put))
        or len(withdrawn) != len(set(withdrawn))
        or set(withdrawn) - set(put)
    ):
        found.append(
            f"{election.id} holds a candidate twice or withdraws one who never stood (R-7.2)"
        )
    return found


@reads(
    *("septs", "septs_banned", "decree", "election", "auction", "purchase_turns", "phase"),
    *("rules", "status", "winners", "fourth_seat", "nobles"),
)
def _court(state: CourtState) -> list[str]:
    """Septs, the steps of the round and the winners (R-4.1, R-4.6, R-4.7, R-6.2)."""
    found = _septs(state)
    if state.winners and state.status is not GameStatus.ENDED:
        found.append("winners are recorded in a game still being played (R-4.7)")
    if state.status is GameStatus.PLAYING:
        if (state.decree or state.election) and state.phase is not Phase.DECREES:
            found.append(f"a phase-1 step is open in phase {state.phase} (R-4.2)")
        if (state.auction or state.purchase_turns) and state.phase is not Phase.PURCHASES:
            found.append(f"a purchase step is open in phase {state.phase} (R-4.1)")
    if state.fourth_seat is not None and state.fourth_seat not in state.nobles:
        found.append(f"the fourth council seat is held by unknown Noble {state.fourth_seat}")
    return found


@reads("links", "devices", "seats", "host_token_sha256", "game_master_token_sha256")
def _links(state: CourtState) -> list[str]:
    """A key's link stands on a token that opens something here (court/model/links.py); a
    device's key stands for a seat or role the game has (court/model/devices.py)."""
    return state.links.problems(own_tokens(state)) + state.devices.problems(holders(state))


def _septs(state: CourtState) -> list[str]:
    """R-4.6: at most the profile's number of Septs a village, on the map; none after the false
    idols were destroyed (R-6.2), but within step 1.1.2 where the pillage follows the embrace."""
    found: list[str] = []
    if not state.septs:
        return found
    pillaging = state.decree is not None and state.decree.id == steps.FALSE_IDOLS.id
    if state.septs_banned and not pillaging:
        found.append("Septs stand after the False Idols were destroyed (R-6.2)")
    most = state.ruleset.profile.purchases.septs_per_village
    villages = {v.id for v in state.ruleset.villages}
    for village, count in state.septs.items():
        if village not in villages:
            found.append(f"a Sept stands outside the map, at {village} (R-4.6)")
        if not 1 <= count <= most:
            found.append(f"{village} has {count} Septs; 1 to {most} may stand (R-4.6)")
    return found


@reads("banks", "running", "seats", "rules")
def _clocks(state: CourtState) -> list[str]:
    """R-4.3 clocks variant: a time bank never goes below zero, and only seated players' clocks
    run, each in a kind of step that has a bank."""
    found = [
        f"seat {seat}'s time bank for {kind} is {left}; a bank never goes below 0 (R-4.3)"
        for seat, banks in state.banks.items()
        for kind, left in banks.items()
        if left < 0
    ]
    found += [
        f"seat {seat}'s clock runs for {clock.kind}, which has no time bank (R-4.3)"
        for seat, clock in state.running.items()
        if seat not in state.seats or not clocks.clocked(state, clock.kind)
    ]
    return found


CHECKS: tuple[Check, ...] = (
    table_invariants.table_votes,
    table_invariants.ending,
    _clocks,
    _gold,
    _titles,
    _royals,
    _nobles,
    _alliances,
    _watch,
    _heir,
    _candidates,
    _court,
    _links,
)

_REMEMBERED = Remembered((_seats, *CHECKS))
