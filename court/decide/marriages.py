"""Step 1.1.1: marriages, alliances and divorce (R-5.1 to R-5.4, R-4.7)."""

from __future__ import annotations

from collections.abc import Iterator

from court.commands import Actor, AnswerMarriage, Divorce, ProposeMarriage
from court.decide.consequences import alliance_ends, queen_steps_down
from court.errors import CourtError, NotAllowed
from court.events import Event, TitleGranted
from court.events.decrees import (
    DecreeTurnEnded,
    Divorced,
    MarriageDeclined,
    MarriageMade,
    MarriageProposed,
)
from court.events.nobles import GoldPaid
from court.ids import KING, MASTER_OF_LAWS, QUEEN, NobleId, Seat
from court.model import steps
from court.model.ruleset import Attribute
from court.state import CourtState, Noble, NobleStatus

STEP = steps.MARRIAGES.id


def marriageable(noble: Noble) -> bool:
    """R-5.1 [D]: alive, free, not a Brother, unmarried, not a bastard."""
    return (
        noble.status is NobleStatus.IN_PLAY
        and noble.spouse is None
        and Attribute.BASTARD not in noble.attributes
    )


def refusal(state: CourtState, seat: Seat, noble_id: NobleId, to_id: NobleId) -> CourtError | None:
    """Why this proposal is not allowed, or None (R-5.1, R-5.2)."""
    noble, other = state.nobles.get(noble_id), state.nobles.get(to_id)
    if noble is None or other is None:
        return CourtError("unknown_noble", "Name two Nobles of this game.")
    if state.seat_of_house(noble.house) != seat:
        return CourtError("not_your_noble", f"{noble.name} is not one of your Nobles (R-5.1).")
    to_seat = state.seat_of_house(other.house)
    if to_seat is None or to_seat == seat:
        return CourtError("same_house", "A marriage joins two different Houses in play (R-5.1).")
    for candidate in (noble, other):
        if not marriageable(candidate):
            return CourtError(
                "cannot_marry",
                f"{candidate.name} cannot marry: alive, free, unmarried, not a Brother and "
                "not a bastard (R-5.1).",
            )
    if state.ruleset.profile.marriage.opposite_gender and noble.gender is other.gender:
        return CourtError("same_gender", "The two must be a Lord and a Lady (R-5.1).")
    if forms_alliance(state) and (state.alliance_of(seat) or state.alliance_of(to_seat)):
        return CourtError(
            "already_allied", "A player is in at most one marriage alliance at a time (R-5.2)."
        )
    return None


def forms_alliance(state: CourtState) -> bool:
    """R-5.3, R-4.7: alliances exist only in games of 4 to 6 players."""
    return state.players >= state.ruleset.profile.marriage.min_players_for_alliance


def possible(state: CourtState, seat: Seat) -> Iterator[tuple[NobleId, NobleId]]:
    house = state.seats[seat].house
    own = [n for n in state.nobles.values() if n.house == house and marriageable(n)]
    others = [n for n in state.nobles.values() if n.house != house and marriageable(n)]
    for noble in own:
        for other in others:
            if refusal(state, seat, noble.id, other.id) is None:
                yield noble.id, other.id


def divorceable(state: CourtState) -> list[NobleId]:
    """The married Nobles, each naming the couple the Master of Laws may divorce (R-5.4): a
    divorce works the same for every couple, whatever their genders (R-5.1)."""
    return [n.id for n in state.nobles.values() if n.spouse is not None and n.alive]


def master_of_laws_seat(state: CourtState) -> Seat | None:
    holder = state.holder(MASTER_OF_LAWS)
    if holder is None or holder.status is not NobleStatus.IN_PLAY:
        return None
    return state.seat_of_house(holder.house)


def has_turn(state: CourtState, seat: Seat) -> bool:
    return next(possible(state, seat), None) is not None or (
        master_of_laws_seat(state) == seat and bool(divorceable(state))
    )


def propose(state: CourtState, cmd: ProposeMarriage, seat: Seat) -> tuple[Event, ...]:
    problem = refusal(state, seat, cmd.noble, cmd.to)
    if problem is not None:
        raise problem
    to_seat = state.seat_of_noble(cmd.to)
    assert to_seat is not None
    return (MarriageProposed(seat=seat, noble=cmd.noble, to_seat=to_seat, to_noble=cmd.to),)


def answer(state: CourtState, cmd: AnswerMarriage, actor: Actor) -> tuple[Event, ...]:
    proposal = state.proposal
    if proposal is None:
        raise CourtError("no_proposal", "No marriage proposal waits for an answer.")
    if actor.seat != proposal.to_seat:
        raise NotAllowed("not_your_answer", "Only the player asked may answer the proposal.")
    end = DecreeTurnEnded(step=STEP, seat=proposal.seat)
    if not cmd.accept:
        return (
            MarriageDeclined(seat=proposal.seat, noble=proposal.noble, to_noble=proposal.to_noble),
            end,
        )
    problem = accept_problem(state)
    if problem is not None:
        raise problem
    return (
        *_wedding(state, proposal.noble, proposal.to_noble, proposal.seat, proposal.to_seat),
        end,
    )


def accept_problem(state: CourtState) -> CourtError | None:
    """Why the proposal on the table cannot be accepted now, or None (R-5.1, R-5.3, R-2.1)."""
    proposal = state.proposal
    assert proposal is not None
    problem = refusal(state, proposal.seat, proposal.noble, proposal.to_noble)
    if problem is not None:
        return problem
    fee = state.ruleset.profile.marriage.hard_to_marry_fee
    for payer in (proposal.noble, proposal.to_noble):
        noble = state.nobles[payer]
        if Attribute.HARD_TO_MARRY in noble.attributes and state.treasury[noble.house] < fee:
            return CourtError(
                "treasury_too_low",
                f"{noble.name}'s House cannot pay the {fee} GD marriage fee (R-5.3, R-2.1).",
            )
    return None


def _wedding(
    state: CourtState, noble: NobleId, other: NobleId, seat: Seat, to_seat: Seat
) -> list[Event]:
    """R-5.3: a hard-to-marry Noble's House pays the other House; then the couple is wed."""
    fee = state.ruleset.profile.marriage.hard_to_marry_fee
    events: list[Event] = []
    for payer, payee in ((noble, other), (other, noble)):
        if Attribute.HARD_TO_MARRY in state.nobles[payer].attributes:
            house = state.nobles[payer].house
            events.append(
                GoldPaid(
                    house=house,
                    to_house=state.nobles[payee].house,
                    amount=fee,
                    cause=f"{state.nobles[payer].name} is hard to marry (R-5.3)",
                )
            )
    lord, lady = state.couple(noble, other)
    events.append(
        MarriageMade(lord=lord, lady=lady, seats=(seat, to_seat), alliance=forms_alliance(state))
    )
    king = state.titles.get(KING)
    if king in (lord, lady) and QUEEN not in state.titles:
        # the King's spouse takes the Queen title, whatever the spouse's gender.
        spouse = lady if king == lord else lord
        events.append(TitleGranted(title=QUEEN, noble=spouse, cause="the King married (R-3.8)"))
    return events


def divorce(state: CourtState, cmd: Divorce, seat: Seat) -> tuple[Event, ...]:
    """R-5.4: the Master of Laws divorces a couple during 1.1.1."""
    if master_of_laws_seat(state) != seat:
        raise NotAllowed("not_master_of_laws", "Only the Master of Laws divorces (R-5.4).")
    noble = state.nobles.get(cmd.noble)
    if noble is None or noble.spouse is None:
        raise CourtError("not_married", "Name one spouse of a married couple.")
    lord, lady = state.couple(noble.id, noble.spouse)
    reason = "the Master of Laws divorced the couple (R-5.4)"
    return (
        *alliance_ends(state, lord, reason),
        *queen_steps_down(state, lord, "the King was divorced (R-3.8)"),
        Divorced(lord=lord, lady=lady),
        DecreeTurnEnded(step=STEP, seat=seat),
    )
