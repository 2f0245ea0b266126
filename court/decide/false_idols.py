"""Step 1.1.2, Destroying the False Idols (R-6.2): the Protector of the Realm may embrace
R'hllor; the Hand may convert with him and burn an untitled Noble; the Septs are pillaged;
every convert is Gods-cursed once and rolls at once.

The Protector's turn comes first. The Hand answers only an embrace, in a turn of his own
when another player holds him; the embrace and the answer are settled together.
"""

from __future__ import annotations

from court.commands import Actor, EmbraceRhllor, HandConversion
from court.decide import consequences
from court.decide.powers import power_lost, seat_holding, turn
from court.errors import CourtError, NotAllowed
from court.events import Event
from court.events.decrees import (
    DecreeTurnEnded,
    DecreeTurnLapsed,
    RhllorEmbraced,
    SeptsPillaged,
    Share,
)
from court.events.nobles import AttributeGained, DieRolled
from court.evolve import evolve
from court.ids import HAND, PROTECTOR, HouseId, NobleId, Seat
from court.model import dice, steps
from court.model.ruleset import Attribute
from court.state import CourtState, NobleStatus, Power, TurnStep

STEP = steps.FALSE_IDOLS.id


def hand_turn(decree: TurnStep) -> bool:
    """Whether the turn under way is the Hand's answer (the second turn of the step)."""
    if decree.power is not None:
        return decree.power.title == HAND
    return decree.turn >= 1  # older logs bound no power: the Hand's turn came second


def _embracer(state: CourtState, decree: TurnStep) -> NobleId:
    if decree.embraced_by is not None:
        return decree.embraced_by
    return state.titles[PROTECTOR]  # older logs: the Protector as he stands


def hand_turn_follow_up(state: CourtState, decree: TurnStep, seat: Seat) -> tuple[Event, ...]:
    """The Hand's turn lapses when there is no embrace to answer, or (R-6.2 [D], R-6.7) when
    the Protector is no longer Protector, or the Hand no longer Hand: the pillage then stays
    with the Protector's House."""
    if not state.septs_banned:
        reason = "the Protector did not embrace R'hllor: the Hand has nothing to answer (R-6.2)"
        return (DecreeTurnLapsed(step=STEP, seat=seat, reason=reason),)
    protector = _embracer(state, decree)
    lost = power_lost(state, Power(title=PROTECTOR, noble=protector))
    if lost is not None:
        lost = f"{lost}; the Hand's choice lapses and the pillage stays with his House (R-6.2)"
    elif decree.power is not None:
        lost = power_lost(state, decree.power)
    if lost is None:
        return ()
    return (
        *settle(state, protector, hand_converts=False, burn=None),
        DecreeTurnLapsed(step=STEP, seat=seat, reason=lost),
    )


def pillage_without_the_hand(state: CourtState) -> list[Event]:
    """R-6.2: once the Protector has embraced R'hllor the Septs are pillaged whatever the Hand
    does; a Hand who passes, or lets the deadline pass, does not convert."""
    decree = state.decree
    if decree is None or decree.id != STEP or not state.septs_banned:
        return []
    if decree.current is None or not hand_turn(decree):
        return []
    return settle(state, _embracer(state, decree), hand_converts=False, burn=None)


def embrace(state: CourtState, cmd: EmbraceRhllor, actor: Actor) -> tuple[Event, ...]:
    """R-6.2: the Protector embraces R'hllor. When the Hand is another player's, his answer
    waits for his turn; when the same player holds the Hand, he answers at once."""
    decree, seat = turn(state, actor, STEP, "embrace R'hllor")
    if hand_turn(decree):
        raise CourtError(
            "not_the_protector",
            "Only the Protector of the Realm embraces R'hllor; the Hand answers (R-6.2).",
        )
    protector = decree.power.noble if decree.power is not None else state.titles[PROTECTOR]
    events: list[Event] = [
        RhllorEmbraced(noble=protector, seat=seat),
        DecreeTurnEnded(step=STEP, seat=seat),
    ]
    if decree.turn + 1 < len(decree.order):  # the Hand's own turn follows
        if cmd.hand_converts or cmd.burn:
            raise NotAllowed("not_the_hand", "The Hand's own player decides whether he converts.")
        return tuple(events)
    if (cmd.hand_converts or cmd.burn) and seat_holding(state, HAND) != seat:
        raise CourtError(
            "no_hand", "Your House holds no Hand of the King in play who could convert (R-6.2)."
        )
    return (*events, *settle(state, protector, cmd.hand_converts, cmd.burn))


def hand_conversion(state: CourtState, cmd: HandConversion, actor: Actor) -> tuple[Event, ...]:
    decree, seat = turn(state, actor, STEP, "answer the Protector's conversion")
    if not hand_turn(decree) or not state.septs_banned:
        raise CourtError(
            "no_embrace", "The Hand answers only once the Protector has embraced R'hllor (R-6.2)."
        )
    protector = _embracer(state, decree)
    return (*settle(state, protector, cmd.convert, cmd.burn), DecreeTurnEnded(step=STEP, seat=seat))


def settle(
    state: CourtState, protector: NobleId, hand_converts: bool, burn: NobleId | None
) -> list[Event]:
    """R-6.2: pillage every Sept (split with a converting Hand); the Hand may burn one untitled
    Noble; every convert is Gods-cursed once and rolls at once."""
    if burn is not None and not hand_converts:
        raise CourtError("no_conversion", "Only a Hand who converts may burn a Noble (R-6.2).")
    hand = state.titles.get(HAND) if hand_converts else None
    events: list[Event] = [_pillage(state, state.nobles[protector].house, hand)]
    if burn is not None:
        victim = state.nobles.get(burn)
        if (
            victim is None
            or not victim.alive
            or state.titles_of(burn)
            or victim.status is NobleStatus.BROTHER
        ):
            raise CourtError("cannot_burn", "Name one living, untitled Noble to burn (R-6.2).")
        events += consequences.death(state, burn, "burned for R'hllor (R-6.2)")
    # A Noble who is both Protector and Hand converts once and rolls once. Each roll is
    # decided on the court as the events before it left it (a burning, a first death).
    for convert in dict.fromkeys(n for n in (protector, hand) if n is not None):
        now = fold(state, events)
        if not now.nobles[convert].alive:
            continue
        cursed = AttributeGained(
            noble=convert, attribute=Attribute.GODS_CURSED.value, cause="embraced R'hllor (R-6.2)"
        )
        rolled, _ = curse_roll(evolve(now, cursed), convert, now.rolls)
        events += [cursed, *rolled]
    return events


def fold(state: CourtState, events: list[Event]) -> CourtState:
    for event in events:
        state = evolve(state, event)
    return state


def _pillage(state: CourtState, p_house: HouseId, hand: NobleId | None) -> SeptsPillaged:
    """Every Sept pillaged for the profile's amount each; with a converting Hand the money is
    split evenly between the two Houses (2 Gold Dragons a Sept: it always splits evenly)."""
    pillage = sum(state.septs.values()) * state.ruleset.profile.decrees.pillage_per_sept
    shares = {p_house: pillage}
    if hand is not None:
        h_house = state.nobles[hand].house
        half = pillage // 2
        shares = {p_house: half}
        shares[h_house] = shares.get(h_house, 0) + pillage - half
    septs = tuple(v for v in sorted(state.septs) for _ in range(state.septs[v]))
    return SeptsPillaged(
        septs=septs, shares=tuple(Share(house=h, gold=g) for h, g in shares.items())
    )


def curse_roll(state: CourtState, noble: NobleId, number: int) -> tuple[list[Event], int]:
    """R-6.2: a Gods-cursed Noble rolls a d6; on the death number he dies."""
    if state.dice_seed is None:
        raise CourtError("no_dice", "This game's dice seed is not here; it cannot roll.")
    value = dice.roll_d6(state.dice_seed, number)
    events: list[Event] = [DieRolled(noble=noble, number=number, value=value)]
    if value == state.ruleset.profile.decrees.gods_cursed_death_roll:
        events += consequences.death(state, noble, f"Gods-cursed: rolled a {value} (R-6.2)")
    return events, number + 1
