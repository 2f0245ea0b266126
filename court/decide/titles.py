"""Granting, refusing, passing and returning titles (R-3.2, R-3.3, R-3.4, R-3.8)."""

from __future__ import annotations

from court.commands import AcceptTitle, Actor, RefuseTitle, ResolveTitleOverflow
from court.decide.guards import require_seat, require_status
from court.errors import CourtError, NotAllowed
from court.events import (
    Event,
    TitleGranted,
    TitlePassed,
    TitleRefused,
    TitleReturned,
    TitleSlotsExceeded,
)
from court.ids import HAND, KING, PROTECTOR, QUEEN, HouseId, NobleId, TitleId
from court.model.ruleset import Category, Gender
from court.options.electorate import is_council
from court.sentences import names
from court.state import CourtState, GameStatus, NobleStatus, PendingKind, PendingTitle


def category(state: CourtState, title: TitleId) -> Category:
    found = state.ruleset.title(title)
    assert found is not None
    return found.category


def held_in(state: CourtState, noble: NobleId, cat: Category) -> list[TitleId]:
    return [t for t in state.titles_of(noble) if category(state, t) is cat]


def has_free_slot(state: CourtState, noble: NobleId, cat: Category) -> bool:
    slots = state.ruleset.slots.get(cat)
    return slots is None or len(held_in(state, noble, cat)) < slots


def controls_fiefdom(state: CourtState, house: HouseId, fiefdom: str | None) -> bool:
    """R-3.6: the House controls every village of the Fiefdom."""
    villages = [v.id for v in state.ruleset.villages if v.fiefdom == fiefdom]
    return bool(villages) and all(state.villages.get(v) == house for v in villages)


def meets(state: CourtState, title: TitleId, noble: NobleId) -> bool:
    """R-3.10: whether a Noble meets every condition to receive the title, slots aside."""
    candidate = state.nobles.get(noble)
    definition = state.ruleset.title(title)
    if candidate is None or definition is None or definition.category is Category.ROYAL:
        return False
    if definition.nights_watch:
        return candidate.status is NobleStatus.BROTHER and not candidate.outlaw
    if candidate.status is not NobleStatus.IN_PLAY:
        return False
    if definition.category is Category.MOTHER_OF_DRAGONS:
        return candidate.gender is Gender.LADY
    if candidate.outlaw:
        return False
    if definition.category is Category.FIEF:
        return controls_fiefdom(state, candidate.house, definition.fiefdom)
    if candidate.gender is not Gender.LORD:
        return False
    if definition.id == HAND:
        return is_council(state, noble)
    if definition.master:
        return bool(held_in(state, noble, Category.MILITARY))
    return True


def overflow_choices(state: CourtState, noble: NobleId, cat: Category) -> list[TitleId]:
    """The titles of the full category his player may pass or return (R-3.2): never a Royal
    title (R-3.4), never the Hand (R-3.10)."""
    if cat is Category.ROYAL:
        return []
    return [t for t in held_in(state, noble, cat) if t != HAND]


def could_stand(state: CourtState, title: TitleId, noble: NobleId) -> bool:
    """R-3.10: a free slot of the title's category and every condition to receive it. Every
    way a title changes hands but elections and the Queen rule checks this."""
    return meets(state, title, noble) and has_free_slot(state, noble, category(state, title))


def grant(
    state: CourtState,
    title: TitleId,
    noble: NobleId,
    cause: str,
    deadline: float | None,
    price: int = 0,
) -> tuple[Event, ...]:
    """A title goes to a Noble, with everything that follows from it; `price` is what his
    House paid for it (R-3.6), refunded should the choice after an overflow be taken away."""
    events: list[Event] = []
    if title == HAND:
        events += [
            TitleReturned(
                title=t, noble=noble, reason="the new Hand gives up his Master title (R-3.4)"
            )
            for t in state.titles_of(noble)
            if _is_master(state, t)
        ]
    if title == KING:
        events += _before_crowning(state, noble)
    cat = category(state, title)
    slots = state.ruleset.slots.get(cat)
    held = len(held_in(state, noble, cat)) - sum(
        1 for e in events if isinstance(e, TitleReturned) and category(state, e.title) is cat
    )
    if slots is not None and held + 1 > slots:
        # the game waits for the choice before the title arrives in a full category,
        # so the court never shows a Noble over his slots without that choice pending.
        seat = state.seat_of_house(state.nobles[noble].house)
        assert seat is not None
        events.append(
            TitleSlotsExceeded(
                seat=seat,
                noble=noble,
                category=cat.value,
                title=title,
                deadline=deadline,
                price=price,
            )
        )
    events.append(TitleGranted(title=title, noble=noble, cause=cause))
    if title == KING:
        events += _crowned(state, noble)
    return tuple(events)


def _is_master(state: CourtState, title: TitleId) -> bool:
    definition = state.ruleset.title(title)
    return definition is not None and definition.master


def _before_crowning(state: CourtState, king: NobleId) -> list[Event]:
    """R-3.8: a Queen who is not the new King's wife, and a Protector who is not the new King
    (a widowed Queen, Protector "until a King is elected" whoever protects the realm after
    her), step down before he is crowned."""
    events: list[Event] = []
    wife = state.nobles[king].spouse
    queen = state.titles.get(QUEEN)
    if queen is not None and queen != wife:
        events.append(TitleReturned(title=QUEEN, noble=queen, reason="she is not the King's wife"))
    protector = state.titles.get(PROTECTOR)
    kings_title = state.ruleset.profile.titles.king_holds_protector
    if protector is not None and (protector != king or not kings_title):
        # The widowed spouse crowned himself keeps it only where a King holds it.
        events.append(TitleReturned(title=PROTECTOR, noble=protector, reason="a King was elected"))
    return events


def _crowned(state: CourtState, king: NobleId) -> list[Event]:
    """R-3.8: the King's wife is Queen; the King holds Protector of the Realm [D]."""
    events: list[Event] = []
    wife = state.nobles[king].spouse
    if wife is not None and state.nobles[wife].alive and state.titles.get(QUEEN) != wife:
        events.append(TitleGranted(title=QUEEN, noble=wife, cause="wife of the King (R-3.8)"))
    if state.ruleset.profile.titles.king_holds_protector and state.titles.get(PROTECTOR) != king:
        events.append(TitleGranted(title=PROTECTOR, noble=king, cause="the King (R-3.8)"))
    return events


def _pending(state: CourtState, actor: Actor, kind: PendingKind, doing: str) -> PendingTitle:
    # A game the table ended keeps the title it was waiting on in its state: no answer counts.
    require_status(state, GameStatus.PLAYING)
    seat = require_seat(actor, doing)
    pending = state.pending
    if pending is None or pending.kind is not kind:
        raise CourtError("nothing_pending", f"There is no title waiting for you to {doing}.")
    if pending.seat != seat:
        noble = names.noble(state, pending.noble)
        raise NotAllowed("not_your_title", f"Only the player of {noble} can {doing}.")
    return pending


def accept_title(
    state: CourtState, cmd: AcceptTitle, actor: Actor, deadline: float | None
) -> tuple[Event, ...]:
    pending = _pending(state, actor, PendingKind.ACCEPTANCE, "accept the title")
    return grant(state, pending.title, pending.noble, f"election:{pending.election}", deadline)


def refuse_title(state: CourtState, cmd: RefuseTitle, actor: Actor) -> tuple[Event, ...]:
    """R-3.3: a Noble may refuse a title he won; it stays on the board."""
    pending = _pending(state, actor, PendingKind.ACCEPTANCE, "refuse the title")
    return (TitleRefused(title=pending.title, noble=pending.noble, seat=pending.seat),)


def resolve_overflow(
    state: CourtState, cmd: ResolveTitleOverflow, actor: Actor
) -> tuple[Event, ...]:
    """R-3.2: pass one title of the full category to a Noble who could hold it, or return it."""
    pending = _pending(state, actor, PendingKind.OVERFLOW, "pass or return a title")
    cat = category(state, pending.title)
    if cmd.title not in held_in(state, pending.noble, cat):
        raise CourtError(
            "not_his_title",
            f"Choose one of the {cat.value} titles {names.noble(state, pending.noble)} holds "
            "(R-3.2).",
        )
    if category(state, cmd.title) is Category.ROYAL:
        raise CourtError("royal_title", "Royal titles are never transferred (R-3.4).")
    if cmd.title == HAND:
        raise CourtError(
            "hand_stays",
            "The Hand is gained only by election and is never passed on or returned by this "
            "choice: pass or return another title (R-3.10).",
        )
    if cmd.to is None:
        return (
            TitleReturned(title=cmd.title, noble=pending.noble, reason="too many titles (R-3.2)"),
        )
    if cmd.to == pending.noble or not meets(state, cmd.title, cmd.to):
        raise CourtError(
            "cannot_hold",
            f"{cmd.to} could not stand for this title; pass it to another (R-3.2, R-3.10).",
        )
    if not has_free_slot(state, cmd.to, cat):
        raise CourtError("no_free_slot", f"{cmd.to} has no free {cat.value} title slot (R-3.2).")
    return (TitlePassed(title=cmd.title, noble=pending.noble, to=cmd.to),)
