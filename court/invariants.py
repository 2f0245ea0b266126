"""Properties every court state must keep, whatever events led to it.

Used to refuse an imported log that was re-chained after a rule-breaking edit, and by the
simulation after every event. Each check returns sentences naming what is broken and the
rule it breaks; an empty list is a sound court.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from court.ids import OUTLAW_KEEPS
from court.ruleset import Category
from court.state import CourtState, GameStatus, NobleStatus, PendingKind


def violations(state: CourtState) -> list[str]:
    """Sentences naming each broken property; empty when the state is sound."""
    found = _seats(state)
    if state.rules is None:
        return found
    for check in CHECKS:
        found.extend(check(state))
    return found


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
        known = {h.id for h in state.rules.houses}
        found.extend(f"House {h} is not in the roster" for h in houses if h not in known)
    return found


def _titles(state: CourtState) -> list[str]:
    """Each title exists and is held by a Noble who may hold it (R-1.4, R-3.1, R-6.5, R-8.3)."""
    found: list[str] = []
    for title, noble_id in state.titles.items():
        definition = state.ruleset.title(title)
        noble = state.nobles.get(noble_id)
        if definition is None or noble is None:
            found.append(f"title {title} is held by unknown Noble {noble_id} or is unknown")
            continue
        if not noble.alive:
            found.append(f"{noble.name} is dead but holds {title} (R-1.4)")
        elif definition.nights_watch != (noble.status is NobleStatus.BROTHER):
            found.append(
                f"{noble.name} ({noble.status.value}) holds {title}: only Brothers hold the "
                "Night's Watch titles and Brothers hold no other (R-3.4, R-8.3)"
            )
        if noble.outlaw and definition.category is not Category.FIEF and title not in OUTLAW_KEEPS:
            found.append(f"{noble.name} is an Outlaw but still holds {title} (R-6.5)")
    return found


def _slots(state: CourtState) -> list[str]:
    """R-3.2: at most 1 High, 2 Fief and 1 Military title, but while the game waits for the
    player's pass-or-return choice, when the Noble holds one title too many."""
    held: Counter[tuple[str, Category]] = Counter()
    for title, noble in state.titles.items():
        definition = state.ruleset.title(title)
        if definition is not None:
            held[(noble, definition.category)] += 1
    pending = state.pending
    found = []
    for (noble, category), count in held.items():
        limit = state.ruleset.slots.get(category)
        if limit is None:
            continue
        if pending is not None and pending.kind is PendingKind.OVERFLOW and pending.noble == noble:
            pending_title = state.ruleset.title(pending.title)
            if pending_title is not None and pending_title.category is category:
                limit += 1
        if count > limit:
            found.append(f"Noble {noble} holds {count} {category.value} titles (R-3.2)")
    return found


def _nobles(state: CourtState) -> list[str]:
    """Statuses, marks and marriages agree with each other (R-1.4, R-5.1, R-6.5, R-8.1)."""
    found: list[str] = []
    for noble in state.nobles.values():
        captive = noble.status is NobleStatus.CAPTIVE
        if captive != (noble.captor is not None) or noble.captor == noble.house:
            found.append(f"{noble.name} is {noble.status.value} held by {noble.captor} (R-8.1)")
        if noble.outlaw and noble.status in (NobleStatus.DEAD, NobleStatus.BROTHER):
            found.append(f"{noble.name} is {noble.status.value} and an Outlaw (R-6.5, R-8.3)")
        if noble.spouse is None:
            continue
        spouse = state.nobles.get(noble.spouse)
        if not noble.alive:
            found.append(f"{noble.name} is dead but still married (R-1.4, R-5.4)")
        elif spouse is None or spouse.spouse != noble.id:
            found.append(f"{noble.name}'s marriage is not returned by his spouse (R-5.1)")
        elif spouse.gender is noble.gender or spouse.house == noble.house:
            found.append(f"{noble.name} is married within his House or gender (R-5.1)")
    return found


def _alliances(state: CourtState) -> list[str]:
    """R-4.7, R-5.2, R-5.4: alliances only with 4 to 6 players, one each, while married."""
    found: list[str] = []
    if state.alliances and state.players < 4:
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


def _court(state: CourtState) -> list[str]:
    """The Night's Watch limit, the Sept ban and the winners (R-4.6, R-4.7, R-6.2, R-8.3)."""
    found: list[str] = []
    brothers = Counter(n.house for n in state.nobles.values() if n.status is NobleStatus.BROTHER)
    limit = state.ruleset.profile.night_watch.max_brothers
    most = state.players if limit == "players" else int(limit)
    if sum(brothers.values()) > most:
        found.append(f"{sum(brothers.values())} Brothers serve; at most {most} may (R-8.3)")
    found.extend(
        f"House {h} has {n} Brothers; at most one (R-6.4)" for h, n in brothers.items() if n > 1
    )
    # within step 1.1.2 the pillage follows the embrace (after the Hand's answer).
    pillaging = state.decree is not None and state.decree.id == "false_idols"
    if state.septs_banned and state.septs and not pillaging:
        found.append("Septs stand after the False Idols were destroyed (R-6.2)")
    unknown = state.septs - {v.id for v in state.ruleset.villages}
    if unknown:
        found.append(f"Septs stand outside the map: {sorted(unknown)} (R-4.6)")
    if state.winners and state.status is not GameStatus.ENDED:
        found.append("winners are recorded in a game still being played (R-4.7)")
    return found


CHECKS: tuple[Callable[[CourtState], list[str]], ...] = (
    _titles,
    _slots,
    _nobles,
    _alliances,
    _court,
)
