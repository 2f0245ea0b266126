"""What follows from a death, an Outlaw mark, taking the black or a capture: the titles
lost, the alliance ended, the Queen protecting the realm (R-3.4, R-3.8, R-5.4, R-6.5, R-8.3).

Every decision that changes a Noble's standing builds its events here, so the same
consequences follow whoever causes them (a recorded fact, a decree, a die). The losses come
before the change of standing, so that the court is sound after every single event: a
dispute may rebuild the court at any version.
"""

from __future__ import annotations

from court.events import Event, TitleChoiceLapsed, TitleGranted, TitleReturned
from court.events.decrees import MarriageEnded
from court.events.nobles import (
    AllianceEnded,
    NobleCaptured,
    NobleDied,
    OutlawDeclared,
    TookTheBlack,
)
from court.ids import HAND, KING, OUTLAW_KEEPS, PROTECTOR, QUEEN, HouseId, NobleId, TitleId
from court.model.ruleset import Attribute, Category
from court.state import CourtState, NobleStatus, PendingKind


def alliance_ends(state: CourtState, noble: NobleId, reason: str) -> list[Event]:
    """The marriage alliance made through this Noble's marriage ends (R-5.4)."""
    alliance = next((a for a in state.alliances if noble in (a.lord, a.lady)), None)
    if alliance is None:
        return []
    return [AllianceEnded(seats=alliance.seats, reason=reason)]


def lose_titles(
    state: CourtState,
    noble: NobleId,
    reason: str,
    keep: frozenset[TitleId] = frozenset(),
    keep_fiefs: bool = False,
) -> list[Event]:
    """The titles `noble` loses, each returned to the board but those kept. The crown goes
    last, so that no version shows the King's Protector title without a King (R-3.8)."""
    events: list[Event] = []
    for title in sorted(state.titles_of(noble), key=lambda t: t == KING):
        definition = state.ruleset.title(title)
        assert definition is not None
        if title in keep or (keep_fiefs and definition.category is Category.FIEF):
            continue
        events.append(TitleReturned(title=title, noble=noble, reason=reason))
    return events


def queen_steps_down(state: CourtState, noble: NobleId, reason: str) -> list[Event]:
    """R-3.8 [D]: the Queen title returns to the board when the King's marriage ends or the
    King loses the crown; `noble` is the King or the Queen whose marriage or crown ends. It
    comes first, so that no version shows a Queen who is not the King's wife."""
    queen = state.titles.get(QUEEN)
    if queen is None or noble not in (queen, state.titles.get(KING)):
        return []
    return [TitleReturned(title=QUEEN, noble=queen, reason=reason)]


def choice_lapses(state: CourtState, noble: NobleId, what: str, keeps_titles: bool) -> list[Event]:
    """Section 9: a fact is never held back by a choice his player still has to make: the
    choice lapses and the title stays on the board. A title won and not yet taken is never
    granted; after an overflow (R-3.2) the title that came returns, or another of the
    category when it was the Hand, who is never returned so (R-3.10). A death returns every
    title anyway (`keeps_titles` False): the one that came first, so that its return settles
    the choice while no court on the way holds more titles than its slots."""
    pending = state.pending
    if pending is None or pending.noble != noble:
        return []
    reason = f"{state.nobles[noble].name} {what} before his player chose"
    if pending.kind is PendingKind.ACCEPTANCE:
        return [
            TitleChoiceLapsed(seat=pending.seat, noble=noble, title=pending.title, reason=reason)
        ]
    title = pending.title
    if not keeps_titles:  # a title bought is his, its price paid, as after his choice
        return [TitleReturned(title=title, noble=noble, reason=f"{reason} (section 9)")]
    if title == HAND:
        category = state.ruleset.title_index[HAND].category
        title = next(
            t
            for t in state.titles_of(noble)
            if t != HAND and state.ruleset.title_index[t].category is category
        )
    # A title bought goes back with its price: his player never chose to give it up.
    refund = pending.price if title == pending.title else 0
    return [TitleReturned(title=title, noble=noble, reason=f"{reason} (section 9)", refund=refund)]


def death(state: CourtState, noble: NobleId, cause: str) -> list[Event]:
    """R-1.4: a dead Noble keeps no title and no marriage; R-3.8: the widowed Queen protects
    the realm if she is in play and no Outlaw; section 9: a title choice waiting for him
    lapses."""
    events = choice_lapses(state, noble, "died", keeps_titles=False)
    events += alliance_ends(state, noble, "a spouse died (R-5.4)")
    stepped = queen_steps_down(state, noble, "the King's marriage ended with a death (R-3.8)")
    events += stepped
    returned = frozenset(e.title for e in events if isinstance(e, TitleReturned))
    events += lose_titles(state, noble, "its holder died", keep=returned)
    queen = state.titles.get(QUEEN)
    events.append(NobleDied(noble=noble, cause=cause))
    widow = state.nobles.get(queen) if queen is not None else None
    if (
        state.titles.get(KING) == noble
        and widow is not None
        and widow.id != noble
        and widow.status is NobleStatus.IN_PLAY
        and not widow.outlaw
        and state.ruleset.profile.titles.queen_protects_when_king_dies
    ):
        events.append(TitleGranted(title=PROTECTOR, noble=widow.id, cause="the King died (R-3.8)"))
    return events


def outlaw(state: CourtState, noble: NobleId, cause: str) -> list[Event]:
    """R-6.5: an Outlaw loses every title but Fief titles, King, Queen and Mother of Dragons."""
    reason = "an Outlaw keeps only Fief and Royal titles (R-6.5)"
    events = lose_titles(state, noble, reason, keep=OUTLAW_KEEPS, keep_fiefs=True)
    return [*events, OutlawDeclared(noble=noble, cause=cause)]


def take_the_black(state: CourtState, noble: NobleId, cause: str) -> list[Event]:
    """R-3.4, R-8.3: every title dropped as if dead, the Outlaw mark lifted, the alliance ended."""
    events: list[Event] = alliance_ends(state, noble, "a spouse took the black (R-8.3)")
    events += lose_titles(state, noble, "he took the black (R-8.3)")
    return [*events, TookTheBlack(noble=noble, cause=cause)]


def capture(
    state: CourtState, noble: NobleId, captor: HouseId, by: NobleId | None, cause: str
) -> list[Event]:
    """R-8.1: a captive keeps his titles; R-5.4, R-3.8: a heart breaker or cruel captor ends
    the captive's marriage, its alliance and a Queen's reign; section 9: a title choice
    waiting for him lapses."""
    events = choice_lapses(state, noble, "was captured", keeps_titles=True)
    captive = state.nobles[noble]
    if (
        by is not None
        and captive.spouse is not None
        and state.nobles[by].attributes & {Attribute.HEART_BREAKER, Attribute.CRUEL}
    ):
        reason = "a spouse was captured by a heart breaker or cruel Noble (R-5.4)"
        events += alliance_ends(state, noble, reason)
        events += queen_steps_down(state, noble, f"the King's marriage ended: {reason[2:]}")
        lord, lady = state.couple(noble, captive.spouse)
        events.append(MarriageEnded(lord=lord, lady=lady, reason=reason))
    events.append(NobleCaptured(noble=noble, captor=captor, by=by, cause=cause))
    return events


def in_play(state: CourtState, noble: NobleId) -> bool:
    found = state.nobles.get(noble)
    return found is not None and found.status is NobleStatus.IN_PLAY
