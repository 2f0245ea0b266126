"""Purchases at court in phase 4 (R-2.1, R-3.2, R-3.6, R-4.1, R-4.6, R-6.2).

Phase 4 begins with the sale of the fourth council seat (court/decide/council_seat.py).
Then each player in turn order makes his purchases (Septs, Fief titles; the King's grant of
a Fief title) and says he is done; a player with nothing he could buy is done at once. The
phase ends when every player is done, or at its deadline (R-4.3): the host does not close it.
"""

from __future__ import annotations

from court.commands import Actor, BuildSept, BuyFiefTitle, Command, EndPurchases, GrantFiefTitle
from court.decide import council_seat, elections, titles
from court.decide.guards import require_seat, require_status
from court.decide.money import afford
from court.errors import CourtError, NotAllowed
from court.events import Event, GoldPaid, PhaseStarted
from court.events.purchases import (
    FiefGrantedByKing,
    PurchasesDone,
    PurchasesTimedOut,
    PurchaseTurnsOpened,
    SeptBuilt,
)
from court.ids import KING, HouseId, Seat, TitleId
from court.model.ruleset import Category, TitleDef
from court.sentences import names
from court.state import CourtState, GameStatus, NobleStatus, Phase, TurnStep

NOTHING_TO_BUY = "nothing to buy"


def _house(state: CourtState, seat: Seat) -> HouseId:
    return state.seats[seat].house


def follow_up(state: CourtState, now: float) -> tuple[Event, ...]:
    """What phase 4 does by itself: the sale, then the turns, then the next phase."""
    sale = council_seat.follow_up(state, now)
    if sale is not None:
        return sale
    turns = state.purchase_turns
    if turns is None:
        order = state.turn_order()
        deadline = elections.deadline(state, "purchase", now)
        return (PurchaseTurnsOpened(round=state.round, order=order, deadline=deadline),)
    seat = turns.current
    if seat is None:
        return (PhaseStarted(round=state.round, phase=Phase.MOVEMENT.value),)
    if state.pending is None and len(options(state, seat)) == 1:  # only "done" is left
        return (PurchasesDone(seat=seat, reason=NOTHING_TO_BUY),)
    return ()


def _shopper(state: CourtState, actor: Actor, doing: str) -> tuple[Seat, HouseId]:
    """The acting seat and its House, whose purchase turn it is (R-4.1)."""
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    if state.phase is not Phase.PURCHASES:
        raise CourtError("wrong_phase", f"You can {doing} only in the purchases phase (R-4.6).")
    turns = state.purchase_turns
    if turns is None:
        raise CourtError(
            "sale_first",
            f"You can {doing} once the sale of the fourth council seat is over: purchases "
            "follow it in turn order (R-4.1, R-4.6).",
        )
    if turns.current != seat:
        raise CourtError("not_your_turn", "It is not your turn to make purchases (R-4.1).")
    if state.pending is not None:
        raise CourtError("waiting_for_title", "The game waits for a title decision first (R-3.2).")
    return seat, _house(state, seat)


def end_purchases(state: CourtState, cmd: EndPurchases, actor: Actor) -> tuple[Event, ...]:
    seat, _ = _shopper(state, actor, "end your purchases")
    return (PurchasesDone(seat=seat),)


def build_sept(state: CourtState, cmd: BuildSept, actor: Actor) -> tuple[Event, ...]:
    """R-4.6: a Sept for 4 GD in a village the House controls; [D] at most the profile's
    number a village; never after the false idols were destroyed (R-6.2)."""
    _, house = _shopper(state, actor, "build a Sept")
    village = next((v for v in state.ruleset.villages if v.id == cmd.village), None)
    if village is None:
        raise CourtError("unknown_village", f"There is no village {cmd.village!r} on this map.")
    if state.septs_banned:
        raise CourtError(
            "septs_banned",
            "No Sept can be built since the false idols were destroyed (R-6.2).",
        )
    if state.villages.get(village.id) != house:
        raise CourtError("not_your_village", f"Your House does not control {village.name} (R-4.6).")
    settings = state.ruleset.profile.purchases
    if state.septs.get(village.id, 0) >= settings.septs_per_village:
        most = settings.septs_per_village
        raise CourtError(
            "sept_exists",
            f"{village.name} already has its {most} Sept{'s' if most > 1 else ''} (R-4.6).",
        )
    afford(state, house, settings.sept_cost)
    return (
        GoldPaid(
            house=house, to_house=None, amount=settings.sept_cost, cause=f"Sept at {village.name}"
        ),
        SeptBuilt(village=village.id, house=house),
    )


def _fief_title(state: CourtState, title: TitleId) -> TitleDef:
    definition = state.ruleset.title(title)
    if definition is None or definition.category is not Category.FIEF:
        raise CourtError("not_a_fief_title", f"{title!r} is not a Fief title (R-3.6).")
    if definition.id in state.titles:
        raise CourtError("title_taken", f"{definition.name} is not free (R-3.6).")
    return definition


def buy_fief_title(
    state: CourtState, cmd: BuyFiefTitle, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-3.6: a free Fief title, for the profile's price, by a Noble whose House controls every
    village of that Fiefdom; R-3.2: with his Fief slots full the game waits for his player."""
    _, house = _shopper(state, actor, "buy a Fief title")
    definition = _fief_title(state, cmd.title)
    noble = state.nobles.get(cmd.noble)
    if noble is None:
        raise CourtError("unknown_noble", f"There is no Noble {cmd.noble!r} in this game.")
    if noble.house != house:
        raise NotAllowed("not_your_noble", f"{noble.name} is not one of your Nobles.")
    if not titles.controls_fiefdom(state, house, definition.fiefdom):
        missing = [
            v.name
            for v in state.ruleset.villages
            if v.fiefdom == definition.fiefdom and state.villages.get(v.id) != house
        ]
        raise CourtError(
            "fiefdom_not_held",
            f"Your House must control every village of the Fiefdom (R-3.6); not yet: "
            f"{', '.join(missing)}.",
        )
    if not titles.meets(state, cmd.title, cmd.noble):
        raise CourtError(
            "cannot_hold",
            f"{noble.name} could not hold {definition.name}: in play and no Outlaw (R-3.10).",
        )
    price = state.ruleset.profile.titles.fief_price
    afford(state, house, price)
    paid = GoldPaid(house=house, to_house=None, amount=price, cause=f"{definition.name} bought")
    deadline = elections.deadline(state, "title_choice", now)
    bought = titles.grant(state, cmd.title, cmd.noble, "bought (R-3.6)", deadline, price)
    return (paid, *bought)


def king_may_grant(state: CourtState, seat: Seat) -> CourtError | None:
    """Why this player cannot grant a Fief title now (R-3.6), or None when he can."""
    king = state.holder(KING)
    if king is None or state.seat_of_house(king.house) != seat:
        return NotAllowed("not_the_king", "Only the King's player grants Fief titles (R-3.6).")
    if king.status is not NobleStatus.IN_PLAY or king.outlaw:
        return CourtError(
            "king_cannot_grant",
            f"{king.name} must be in play, free and no Outlaw to grant a Fief title (R-3.6).",
        )
    if state.king_granted_round == state.round:
        return CourtError(
            "king_cannot_grant", "The King grants at most one Fief title a round (R-3.6)."
        )
    return None


def grant_fief_title(
    state: CourtState, cmd: GrantFiefTitle, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-3.6: the King grants a free Fief title to a Noble of any House who could stand for
    it (R-3.10), at most one a round."""
    seat, _ = _shopper(state, actor, "grant a Fief title")
    refusal = king_may_grant(state, seat)
    if refusal is not None:
        raise refusal
    definition = _fief_title(state, cmd.title)
    if not titles.could_stand(state, cmd.title, cmd.noble):
        raise CourtError(
            "cannot_hold",
            f"{names.noble(state, cmd.noble)} could not stand for {definition.name}: a Lord or "
            "Lady in play, no Outlaw, whose House controls every village of the Fiefdom, with a "
            "free Fief slot (R-3.10).",
        )
    deadline = elections.deadline(state, "title_choice", now)
    return (
        FiefGrantedByKing(seat=seat, title=cmd.title, noble=cmd.noble, round=state.round),
        *titles.grant(state, cmd.title, cmd.noble, "granted by the King (R-3.6)", deadline),
    )


def options(state: CourtState, seat: Seat) -> list[Command]:
    """Everything the player may do in his purchase turn, "done" first (R-3.6, R-4.6)."""
    house = _house(state, seat)
    gold = state.treasury[house]
    profile = state.ruleset.profile
    moves: list[Command] = [EndPurchases()]
    if not state.septs_banned and gold >= profile.purchases.sept_cost:
        moves += [
            BuildSept(village=v)
            for v, h in state.villages.items()
            if h == house and state.septs.get(v, 0) < profile.purchases.septs_per_village
        ]
    free_fiefs = [
        t.id
        for t in state.ruleset.titles
        if t.category is Category.FIEF and t.id not in state.titles
    ]
    if gold >= profile.titles.fief_price:
        moves += [
            BuyFiefTitle(title=t, noble=n.id)
            for t in free_fiefs
            for n in state.nobles.values()
            if n.house == house and titles.meets(state, t, n.id)
        ]
    if king_may_grant(state, seat) is None:
        moves += [
            GrantFiefTitle(title=t, noble=n)
            for t in free_fiefs
            for n in state.nobles
            if titles.could_stand(state, t, n)
        ]
    return moves


def close_overdue(state: CourtState, turns: TurnStep, late: tuple[Seat, ...]) -> tuple[Event, ...]:
    """R-4.3: the `late` players, still to make their purchases, are done on the clock."""
    return (PurchasesTimedOut(seats=late),)
