"""The decree steps of phase 1, in the order of R-4.2, each in turn order:
1.1.1 marriages, 1.1.2 the false idols, 1.1.3 Royal Pardon, 1.1.4 Send to the Wall /
Declare Outlaw, 1.1.5 Title Concession (variant), 1.2.1 Oathbreakers (NWE).
A step whose players have nothing legal to do is skipped, with the reason recorded."""

from __future__ import annotations

from court import dice
from court.commands import (
    Actor,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    ProposeMarriage,
    SendToWall,
)
from court.decide import consequences, marriages
from court.decide.guards import require_seat, require_status
from court.decide.titles import could_hold, has_free_slot
from court.errors import CourtError, NotAllowed
from court.events import Event, TitleReturned
from court.events.decrees import (
    DecreePassed,
    DecreeStepClosed,
    DecreeStepOpened,
    DecreeStepSkipped,
    DecreeTurnEnded,
    RhllorEmbraced,
    SeptsPillaged,
    TitleConceded,
)
from court.events.nobles import AttributeGained, Deserted, DieRolled, OutlawPardoned
from court.ids import HAND, KING, LORD_COMMANDER, MASTER_OF_LAWS, PROTECTOR, NobleId, Seat, TitleId
from court.ruleset import Attribute, Category, Gender
from court.state import CourtState, DecreeStep, GameStatus, NobleStatus

STEPS = (
    "marriages",
    "false_idols",
    "royal_pardon",
    "send_to_wall",
    "title_concession",
    "oathbreakers",
)
PREFIX = "decree:"


def seat_holding(state: CourtState, title: TitleId) -> Seat | None:
    """The seat whose Noble holds the title and is free to act (in play)."""
    holder = state.holder(title)
    if holder is None or holder.status is not NobleStatus.IN_PLAY:
        return None
    return state.seat_of_house(holder.house)


# -- opening and skipping steps ---------------------------------------------------


def follow_up(state: CourtState, now: float, deadline: float | None) -> tuple[Event, ...] | None:
    """The next thing the server does in the decree steps, or None once they are all done."""
    decree = state.decree
    if decree is not None:
        if state.proposal is not None:
            return ()
        if decree.id == "false_idols" and decree.current is not None:
            return _hand_without_embrace(state, decree)
        return () if decree.current is not None else (DecreeStepClosed(step=decree.id),)
    step = state.step or ""
    if step.startswith("election:"):
        return None
    done = STEPS.index(step.removeprefix(PREFIX)) + 1 if step.startswith(PREFIX) else 0
    for name in STEPS[done:]:
        reason, order = _actors(state, name)
        if reason is None and order:
            return (DecreeStepOpened(step=name, order=order, deadline=deadline),)
        return (DecreeStepSkipped(step=name, reason=reason or "nobody has anything to do"),)
    return None


def _hand_without_embrace(state: CourtState, decree: DecreeStep) -> tuple[Event, ...]:
    """The Hand answers only an embrace: if the Protector passed, the Hand's turn passes too."""
    if decree.current != decree.order[0] and not state.septs_banned:
        return (DecreePassed(step=decree.id, seats=decree.waiting),)
    return ()


def _actors(state: CourtState, step: str) -> tuple[str | None, tuple[Seat, ...]]:
    variants = state.ruleset.profile.variants
    order = state.turn_order()
    match step:
        case "marriages":
            return None, tuple(s for s in order if marriages.has_turn(state, s))
        case "false_idols":
            if state.septs_banned:
                return "the false idols were already destroyed (R-6.2)", ()
            protector = seat_holding(state, PROTECTOR)
            if protector is None:
                return "no Protector of the Realm is in play (R-6.2)", ()
            hand = seat_holding(state, HAND)
            return None, (protector,) if hand in (None, protector) else (protector, hand)
        case "royal_pardon":
            if not any(n.outlaw and n.alive for n in state.nobles.values()):
                return "no Noble is an Outlaw (R-6.3)", ()
            seats = [seat_holding(state, MASTER_OF_LAWS), seat_holding(state, KING)]
            unique = tuple(dict.fromkeys(s for s in seats if s is not None))
            return (
                None if unique else "neither a Master of Laws nor a King is in play (R-6.3)"
            ), unique
        case "send_to_wall":
            hand = seat_holding(state, HAND)
            if hand is None:
                return "no Hand of the King is in play (R-6.4)", ()
            return None, (hand,)
        case "title_concession":
            if not variants.title_concession:
                return "the Title Concession variant is not used (R-6.6)", ()
            return None, tuple(s for s in order if _concessions(state, s))
        case "oathbreakers":
            if not variants.nights_watch:
                return "the Night's Watch expansion is not used (R-8.4)", ()
            return None, tuple(s for s in order if _brothers(state, s))
    raise ValueError(step)


# -- acting in a step ---------------------------------------------------------------


def _turn(state: CourtState, actor: Actor, step: str, doing: str) -> Seat:
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    decree = state.decree
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")
    if decree is None or decree.id != step:
        raise CourtError("wrong_step", f"You cannot {doing} now: that step is not open (R-4.2).")
    if state.proposal is not None:
        raise CourtError("waiting_for_answer", "A marriage proposal waits for its answer.")
    if decree.current != seat:
        raise CourtError("not_your_turn", "It is not your turn in this step (R-4.2).")
    return seat


def pass_turn(state: CourtState, actor: Actor) -> tuple[Event, ...]:
    decree = state.decree
    assert decree is not None
    seat = _turn(state, actor, decree.id, "pass")
    return (*pillage_without_the_hand(state), DecreePassed(step=decree.id, seats=(seat,)))


def pillage_without_the_hand(state: CourtState) -> list[Event]:
    """R-6.2: once the Protector has embraced R'hllor the Septs are pillaged whatever the Hand
    does; a Hand who passes, or lets the deadline pass, does not convert."""
    decree = state.decree
    if decree is None or decree.id != "false_idols" or not state.septs_banned:
        return []
    if decree.current is None or decree.current == decree.order[0]:
        return []
    return _settle(state, False, None)


def propose(state: CourtState, cmd: ProposeMarriage, actor: Actor) -> tuple[Event, ...]:
    return marriages.propose(state, cmd, _turn(state, actor, "marriages", "propose a marriage"))


def divorce(state: CourtState, cmd: Divorce, actor: Actor) -> tuple[Event, ...]:
    return marriages.divorce(state, cmd, _turn(state, actor, "marriages", "divorce a couple"))


def embrace(state: CourtState, cmd: EmbraceRhllor, actor: Actor) -> tuple[Event, ...]:
    """R-6.2: the Protector embraces R'hllor; the pillage waits for the Hand's answer."""
    seat = _turn(state, actor, "false_idols", "embrace R'hllor")
    protector = state.titles[PROTECTOR]
    events: list[Event] = [
        RhllorEmbraced(noble=protector, seat=seat),
        DecreeTurnEnded(step="false_idols", seat=seat),
    ]
    hand_seat = seat_holding(state, HAND)
    if hand_seat is not None and hand_seat != seat:
        if cmd.hand_converts or cmd.burn:
            raise NotAllowed("not_the_hand", "The Hand's own player decides whether he converts.")
        return tuple(events)
    converts = cmd.hand_converts and hand_seat is not None
    return (*events, *_settle(state, converts, cmd.burn))


def hand_conversion(state: CourtState, cmd: HandConversion, actor: Actor) -> tuple[Event, ...]:
    seat = _turn(state, actor, "false_idols", "answer the Protector's conversion")
    return (*_settle(state, cmd.convert, cmd.burn), DecreeTurnEnded(step="false_idols", seat=seat))


def _settle(state: CourtState, hand_converts: bool, burn: NobleId | None) -> list[Event]:
    """R-6.2: pillage every Sept; converts are Gods-cursed and roll at once; the Hand may burn
    one untitled Noble."""
    if burn is not None and not hand_converts:
        raise CourtError("no_conversion", "Only a Hand who converts may burn a Noble (R-6.2).")
    protector = state.titles[PROTECTOR]
    hand = state.titles.get(HAND) if hand_converts else None
    pillage = len(state.septs) * state.ruleset.profile.decrees.pillage_per_sept
    p_house = state.nobles[protector].house
    shares = {p_house: pillage}
    if hand is not None:
        h_house = state.nobles[hand].house
        half, odd = divmod(pillage, 2)
        to_protector = odd if state.ruleset.profile.decrees.odd_pillage_to_protector else 0
        shares = {p_house: half + to_protector}
        shares[h_house] = shares.get(h_house, 0) + pillage - half - to_protector
    events: list[Event] = [
        SeptsPillaged(septs=tuple(sorted(state.septs)), shares=tuple(shares.items()))
    ]
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
    rolls = state.rolls
    for convert in (protector, hand):
        if convert is None or convert == burn:
            continue
        events.append(
            AttributeGained(
                noble=convert,
                attribute=Attribute.GODS_CURSED.value,
                cause="embraced R'hllor (R-6.2)",
            )
        )
        rolled, rolls = curse_roll(state, convert, rolls)
        events += rolled
    return events


def curse_roll(state: CourtState, noble: NobleId, number: int) -> tuple[list[Event], int]:
    """R-6.2: a Gods-cursed Noble rolls a d6; on the death number he dies."""
    if state.dice_seed is None:
        raise CourtError("no_dice", "This game's dice seed is not here; it cannot roll.")
    value = dice.roll_d6(state.dice_seed, number)
    events: list[Event] = [DieRolled(noble=noble, number=number, value=value)]
    if value == state.ruleset.profile.decrees.gods_cursed_death_roll:
        events += consequences.death(state, noble, f"Gods-cursed: rolled a {value} (R-6.2)")
    return events, number + 1


def pardon(state: CourtState, cmd: Pardon, actor: Actor) -> tuple[Event, ...]:
    """R-6.3: the Master of Laws, then the King, may lift one Outlaw mark."""
    seat = _turn(state, actor, "royal_pardon", "pardon")
    noble = state.nobles.get(cmd.noble)
    if noble is None or not noble.outlaw or not noble.alive:
        raise CourtError("not_outlaw", "Name a living Outlaw to pardon (R-6.3).")
    by = "Master of Laws" if seat == seat_holding(state, MASTER_OF_LAWS) else "King"
    return (OutlawPardoned(noble=cmd.noble, by=by), DecreeTurnEnded(step="royal_pardon", seat=seat))


def send_to_wall(state: CourtState, cmd: SendToWall, actor: Actor) -> tuple[Event, ...]:
    """R-6.4: the Hand names one Noble but the Master of Laws; with the NWE an unmarried Lord
    whose House has no Brother takes the black instead, except the King and the Heir."""
    seat = _turn(state, actor, "send_to_wall", "declare an Outlaw")
    noble = state.nobles.get(cmd.noble)
    if noble is None or not noble.alive:
        raise CourtError("unknown_noble", "Name a living Noble (R-6.4).")
    if state.titles.get(MASTER_OF_LAWS) == cmd.noble:
        raise CourtError(
            "master_of_laws", "The Master of Laws can never be declared Outlaw (R-6.4)."
        )
    if noble.status is NobleStatus.BROTHER:
        raise CourtError("brother", "A Brother of the Night's Watch is beyond the Hand's reach.")
    end = DecreeTurnEnded(step="send_to_wall", seat=seat)
    if _takes_the_black(state, cmd.noble):
        return (*consequences.take_the_black(state, cmd.noble, "sent to the Wall by the Hand"), end)
    if noble.outlaw:
        raise CourtError("already_outlaw", f"{noble.name} is already an Outlaw (R-6.4).")
    return (*consequences.outlaw(state, cmd.noble, "declared Outlaw by the Hand (R-6.4)"), end)


def _takes_the_black(state: CourtState, noble_id: NobleId) -> bool:
    rules = state.ruleset.profile
    noble = state.nobles[noble_id]
    if not rules.variants.nights_watch or noble.gender is not Gender.LORD or noble.spouse:
        return False
    if state.titles.get(KING) == noble_id or Attribute.PRINCE_OF_WESTEROS in noble.attributes:
        return False
    if noble.status is not NobleStatus.IN_PLAY:
        return False
    brothers = [n for n in state.nobles.values() if n.status is NobleStatus.BROTHER]
    if any(b.house == noble.house for b in brothers):
        return False
    limit = rules.night_watch.max_brothers
    return len(brothers) < (state.players if limit == "players" else int(limit))


def _concessions(state: CourtState, seat: Seat) -> list[tuple[TitleId, NobleId]]:
    house = state.seats[seat].house
    own = [n for n in state.nobles.values() if n.house == house]
    found = []
    for giver in own:
        for title in state.titles_of(giver.id):
            definition = state.ruleset.title(title)
            if definition is None or definition.category is Category.ROYAL:
                continue
            for taker in own:
                if (
                    taker.id != giver.id
                    and could_hold(state, title, taker.id)
                    and has_free_slot(state, taker.id, definition.category)
                ):
                    found.append((title, taker.id))
    return found


def concede(state: CourtState, cmd: ConcedeTitle, actor: Actor) -> tuple[Event, ...]:
    """R-6.6: one non-Royal title of your Noble to another of your own who could hold it."""
    seat = _turn(state, actor, "title_concession", "concede a title")
    if (cmd.title, cmd.to) not in _concessions(state, seat):
        raise CourtError(
            "cannot_concede",
            "Hand one non-Royal title of your Noble to another of your own Nobles who could "
            "stand for it and has a free slot (R-6.6).",
        )
    holder = state.titles[cmd.title]
    return (
        TitleConceded(title=cmd.title, noble=holder, to=cmd.to),
        DecreeTurnEnded(step="title_concession", seat=seat),
    )


def _brothers(state: CourtState, seat: Seat) -> list[NobleId]:
    house = state.seats[seat].house
    return [
        n.id for n in state.nobles.values() if n.house == house and n.status is NobleStatus.BROTHER
    ]


def desert(state: CourtState, cmd: Desert, actor: Actor) -> tuple[Event, ...]:
    """R-8.4: a Brother deserts, becomes an Outlaw; a Lord Commander's title falls free."""
    seat = _turn(state, actor, "oathbreakers", "break a Brother's oath")
    if cmd.noble not in _brothers(state, seat):
        raise CourtError("not_your_brother", "Name one of your own Brothers (R-8.4).")
    events: list[Event] = []
    if state.titles.get(LORD_COMMANDER) == cmd.noble:
        events.append(
            TitleReturned(
                title=LORD_COMMANDER, noble=cmd.noble, reason="the Lord Commander deserted (R-8.4)"
            )
        )
    events.append(Deserted(noble=cmd.noble, seat=seat))
    return (*events, DecreeTurnEnded(step="oathbreakers", seat=seat))
