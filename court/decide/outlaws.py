"""Steps 1.1.3 Royal Pardon, 1.1.4 Send to the Wall / Declare Outlaw and 1.2.1 Oathbreakers
(R-6.3, R-6.4, R-8.3, R-8.4)."""

from __future__ import annotations

from court.commands import Actor, Desert, Pardon, SendToWall
from court.decide import consequences
from court.decide.powers import seat_holding, turn
from court.errors import CourtError
from court.events import Event, TitleReturned
from court.events.decrees import DecreeTurnEnded
from court.events.nobles import Deserted, OutlawPardoned
from court.ids import KING, LORD_COMMANDER, MASTER_OF_LAWS, NobleId, Seat
from court.model import steps
from court.model.ruleset import Attribute, Gender
from court.state import CourtState, NobleStatus


def pardon(state: CourtState, cmd: Pardon, actor: Actor) -> tuple[Event, ...]:
    """R-6.3: the Master of Laws, then the King, may each lift one Outlaw mark: two acts even
    when one player holds both titles."""
    decree, seat = turn(state, actor, steps.ROYAL_PARDON.id, "pardon")
    noble = state.nobles.get(cmd.noble)
    if noble is None or not noble.outlaw or not noble.alive:
        raise CourtError("not_outlaw", "Name a living Outlaw to pardon (R-6.3).")
    if decree.power is not None:
        by = "Master of Laws" if decree.power.title == MASTER_OF_LAWS else "King"
    else:  # older logs bound no power to the turn
        by = "Master of Laws" if seat == seat_holding(state, MASTER_OF_LAWS) else "King"
    return (
        OutlawPardoned(noble=cmd.noble, by=by),
        DecreeTurnEnded(step=steps.ROYAL_PARDON.id, seat=seat),
    )


def wall_targets(state: CourtState) -> list[NobleId]:
    """R-6.4: the Nobles the Hand may name: living, not a Brother, not the Master of Laws, and
    not already an Outlaw unless he would take the black."""
    master = state.titles.get(MASTER_OF_LAWS)
    return [
        n.id
        for n in state.nobles.values()
        if n.alive
        and n.id != master
        and n.status is not NobleStatus.BROTHER
        and (not n.outlaw or takes_the_black(state, n.id))
    ]


def send_to_wall(state: CourtState, cmd: SendToWall, actor: Actor) -> tuple[Event, ...]:
    """R-6.4: the Hand names one Noble but the Master of Laws; with the NWE an unmarried Lord
    whose House has no Brother takes the black instead, except the King and the Heir."""
    _, seat = turn(state, actor, steps.SEND_TO_WALL.id, "declare an Outlaw")
    noble = state.nobles.get(cmd.noble)
    if noble is None or not noble.alive:
        raise CourtError("unknown_noble", "Name a living Noble (R-6.4).")
    if state.titles.get(MASTER_OF_LAWS) == cmd.noble:
        raise CourtError(
            "master_of_laws", "The Master of Laws can never be declared Outlaw (R-6.4)."
        )
    if noble.status is NobleStatus.BROTHER:
        raise CourtError("brother", "A Brother of the Night's Watch is beyond the Hand's reach.")
    end = DecreeTurnEnded(step=steps.SEND_TO_WALL.id, seat=seat)
    if takes_the_black(state, cmd.noble):
        return (*consequences.take_the_black(state, cmd.noble, "sent to the Wall by the Hand"), end)
    if noble.outlaw:
        raise CourtError("already_outlaw", f"{noble.name} is already an Outlaw (R-6.4).")
    return (*consequences.outlaw(state, cmd.noble, "declared Outlaw by the Hand (R-6.4)"), end)


def takes_the_black(state: CourtState, noble_id: NobleId) -> bool:
    """R-6.4, R-8.3: with the NWE, an unmarried Lord in play whose House has no Brother takes
    the black, if the Watch has room; never the King or the Heir."""
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


def brothers(state: CourtState, seat: Seat) -> list[NobleId]:
    house = state.seats[seat].house
    return [
        n.id for n in state.nobles.values() if n.house == house and n.status is NobleStatus.BROTHER
    ]


def desert(state: CourtState, cmd: Desert, actor: Actor) -> tuple[Event, ...]:
    """R-8.4: a Brother deserts, becomes an Outlaw; a Lord Commander's title falls free."""
    _, seat = turn(state, actor, steps.OATHBREAKERS.id, "break a Brother's oath")
    if cmd.noble not in brothers(state, seat):
        raise CourtError("not_your_brother", "Name one of your own Brothers (R-8.4).")
    events: list[Event] = []
    if state.titles.get(LORD_COMMANDER) == cmd.noble:
        events.append(
            TitleReturned(
                title=LORD_COMMANDER, noble=cmd.noble, reason="the Lord Commander deserted (R-8.4)"
            )
        )
    events.append(Deserted(noble=cmd.noble, seat=seat))
    return (*events, DecreeTurnEnded(step=steps.OATHBREAKERS.id, seat=seat))
