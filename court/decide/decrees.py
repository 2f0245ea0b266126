"""The decree steps of phase 1, in the order of R-4.2, each in turn order:
1.1.1 marriages, 1.1.2 the false idols, 1.1.3 Royal Pardon, 1.1.4 Send to the Wall /
Declare Outlaw, 1.1.5 Title Concession (variant), 1.2.1 Oathbreakers (NWE).

A step whose players have nothing legal to do is skipped, with the reason recorded. A turn
that acts through a title (the Protector's, the Hand's, the Master of Laws', the King's)
belongs to the Noble who held it when the step opened; if he has lost it, or died, was
captured or outlawed since, the turn lapses with the reason recorded (R-6.7).
"""

from __future__ import annotations

from collections.abc import Callable

from court.commands import Actor, ConcedeTitle, Divorce, ProposeMarriage
from court.decide import false_idols, marriages, outlaws
from court.decide.powers import Turn, power_lost, title_turn, turn
from court.decide.titles import could_stand
from court.errors import CourtError
from court.events import Event
from court.events.decrees import (
    DecreePassed,
    DecreeStepClosed,
    DecreeStepOpened,
    DecreeStepSkipped,
    DecreeTurnEnded,
    DecreeTurnLapsed,
    TitleConceded,
)
from court.ids import HAND, KING, MASTER_OF_LAWS, PROTECTOR, NobleId, Seat, TitleId
from court.model import steps
from court.model.ruleset import Category
from court.state import CourtState, StepKind

STEPS = tuple(step.id for step in steps.DECREES)

# -- opening, skipping, lapsing and closing steps ---------------------------------------


def follow_up(state: CourtState, now: float, deadline: float | None) -> tuple[Event, ...] | None:
    """The next thing the server does in the decree steps, or None once they are all done."""
    decree = state.decree
    if decree is not None:
        if state.proposal is not None:
            return ()
        seat = decree.current
        if seat is None:
            return (DecreeStepClosed(step=decree.id),)
        if decree.id == steps.FALSE_IDOLS.id and false_idols.hand_turn(decree):
            return false_idols.hand_turn_follow_up(state, decree, seat)
        lost = power_lost(state, decree.power) if decree.power is not None else None
        if lost is not None:
            return (DecreeTurnLapsed(step=decree.id, seat=seat, reason=lost),)
        return ()
    last = state.step
    if last is not None and last.kind is StepKind.ELECTION:
        return None
    done = STEPS.index(last.id) + 1 if last is not None and last.kind is StepKind.DECREE else 0
    for name in STEPS[done:]:
        reason, turns = _turns(state, name)
        if reason is None and turns:
            return (
                DecreeStepOpened(
                    step=name,
                    order=tuple(seat for seat, _ in turns),
                    deadline=deadline,
                    powers=tuple(p for _, p in turns),
                ),
            )
        return (DecreeStepSkipped(step=name, reason=reason or "nobody has anything to do"),)
    return None


def _turns(state: CourtState, step: str) -> tuple[str | None, list[Turn]]:
    """Why the step is skipped, or None and its turns in turn order."""
    variants = state.ruleset.profile.variants
    match step:
        case steps.MARRIAGES.id:
            return None, _seat_turns(state, lambda s: marriages.has_turn(state, s))
        case steps.FALSE_IDOLS.id:
            if state.septs_banned:
                return "the false idols were already destroyed (R-6.2)", []
            protector = title_turn(state, PROTECTOR)
            if protector is None:
                return "no Protector of the Realm is in play (R-6.2)", []
            hand = title_turn(state, HAND)
            return None, [protector] if hand is None or hand[0] == protector[0] else [
                protector,
                hand,
            ]
        case steps.ROYAL_PARDON.id:
            if not any(n.outlaw and n.alive for n in state.nobles.values()):
                return "no Noble is an Outlaw (R-6.3)", []
            # Two acts, even when one player holds both titles.
            turns = [t for t in (title_turn(state, MASTER_OF_LAWS), title_turn(state, KING)) if t]
            reason = None if turns else "neither a Master of Laws nor a King is in play (R-6.3)"
            return reason, turns
        case steps.SEND_TO_WALL.id:
            hand = title_turn(state, HAND)
            if hand is None:
                return "no Hand of the King is in play (R-6.4)", []
            return None, [hand]
        case steps.TITLE_CONCESSION.id:
            if not variants.title_concession:
                return "the Title Concession variant is not used (R-6.6)", []
            return None, _seat_turns(state, lambda s: concessions(state, s))
        case steps.OATHBREAKERS.id:
            if not variants.nights_watch:
                return "the Night's Watch expansion is not used (R-8.4)", []
            return None, _seat_turns(state, lambda s: outlaws.brothers(state, s))
    raise ValueError(step)


def _seat_turns(state: CourtState, taking_part: Callable[[Seat], object]) -> list[Turn]:
    """A turn, through no title, for each seat with a part in the step, in turn order."""
    return [(s, None) for s in state.turn_order(taking_part)]


# -- acting in a step ---------------------------------------------------------------------


def pass_turn(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    decree = state.decree
    assert decree is not None
    _, seat = turn(state, actor, decree.id, "pass")
    return (
        *false_idols.pillage_without_the_hand(state),
        DecreePassed(step=decree.id, seats=(seat,)),
    )


def propose(state: CourtState, cmd: ProposeMarriage, actor: Actor) -> tuple[Event, ...]:
    _, seat = turn(state, actor, steps.MARRIAGES.id, "propose a marriage")
    return marriages.propose(state, cmd, seat)


def divorce(state: CourtState, cmd: Divorce, actor: Actor) -> tuple[Event, ...]:
    _, seat = turn(state, actor, steps.MARRIAGES.id, "divorce a couple")
    return marriages.divorce(state, cmd, seat)


def concessions(state: CourtState, seat: Seat) -> list[tuple[TitleId, NobleId]]:
    """R-6.6: (title, to) pairs: a non-Royal title of one of the player's Nobles, to another
    of his own Nobles who could stand for it (R-3.10); never the Hand, gained only by election
    (R-3.10)."""
    house = state.seats[seat].house
    own = [n for n in state.nobles.values() if n.house == house]
    found = []
    for giver in own:
        for title in state.titles_of(giver.id):
            definition = state.ruleset.title(title)
            if definition is None or definition.category is Category.ROYAL or title == HAND:
                continue
            found += [
                (title, taker.id)
                for taker in own
                if taker.id != giver.id and could_stand(state, title, taker.id)
            ]
    return found


def concede(state: CourtState, cmd: ConcedeTitle, actor: Actor) -> tuple[Event, ...]:
    """R-6.6: one non-Royal title of your Noble to another of your own who could hold it."""
    _, seat = turn(state, actor, steps.TITLE_CONCESSION.id, "concede a title")
    if (cmd.title, cmd.to) not in concessions(state, seat):
        raise CourtError(
            "cannot_concede",
            "Hand one non-Royal title of your Noble to another of your own Nobles who could "
            "stand for it and has a free slot (R-6.6, R-3.10).",
        )
    holder = state.titles[cmd.title]
    return (
        TitleConceded(title=cmd.title, noble=holder, to=cmd.to),
        DecreeTurnEnded(step=steps.TITLE_CONCESSION.id, seat=seat),
    )
