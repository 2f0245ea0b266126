"""Which rules decide each command: one `match` per subdomain of commands (as court/commands/
groups them), and one that hands each command to its subdomain's."""

from __future__ import annotations

from typing import assert_never

from court.commands import (
    AcceptRansom,
    AcceptTitle,
    Actor,
    AddNoble,
    AdjustGold,
    AdvancePhase,
    AnswerCorrection,
    AnswerMarriage,
    BotCommand,
    BuildSept,
    BuyFiefTitle,
    ChangeListing,
    ChooseCouncilSeat,
    CloseOverdueStep,
    CloseTablePhases,
    Command,
    ConcedeTitle,
    CreateGame,
    DecreeCommand,
    Desert,
    DeviceCommand,
    Divorce,
    ElectionCommand,
    EmbraceRhllor,
    EndPurchases,
    GrantFiefTitle,
    GrantMotherOfDragons,
    HandConversion,
    HeirBorn,
    JoinSeat,
    JoinSmallCouncil,
    LeaveSeat,
    NobleCommand,
    OfferRansom,
    Pardon,
    Pass,
    PassBid,
    PlaceBallot,
    PlaceBid,
    ProposeCorrection,
    ProposeMarriage,
    PurchaseCommand,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordVillages,
    RecordWallSupplies,
    RefuseRansom,
    RefuseTitle,
    RenameGame,
    ResolveTitleOverflow,
    RoundCommand,
    SeatCommand,
    SendToWall,
    SetupCommand,
    StandForElection,
    StartGame,
    TableCommand,
    TitleCommand,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
    WithdrawRansom,
)
from court.decide import (
    bots,
    corrections,
    council_seat,
    court_events,
    decrees,
    devices,
    elections,
    facts,
    false_idols,
    marriages,
    outlaws,
    proposals,
    purchases,
    ransom,
    rounds,
    seats,
    setup,
    table_votes,
    titles,
)
from court.events import Event
from court.state import CourtState


def command_events(
    state: CourtState, command: Command, actor: Actor, now: float
) -> tuple[Event, ...]:
    """The events of the command alone, before the attributions and follow-ups."""
    if isinstance(command, SetupCommand):
        return _setup(state, command, actor, now)
    if isinstance(command, RoundCommand):
        return _round(state, command, actor, now)
    if isinstance(command, ElectionCommand):
        return _election(state, command, actor)
    if isinstance(command, TitleCommand):
        return _title(state, command, actor, now)
    if isinstance(command, DecreeCommand):
        return _decree(state, command, actor)
    if isinstance(command, NobleCommand):
        return _noble(state, command, actor, now)
    if isinstance(command, PurchaseCommand):
        return _purchase(state, command, actor, now)
    if isinstance(command, SeatCommand):
        return seats.decide_seat(state, command, actor, now)
    if isinstance(command, TableCommand):
        return _table(state, command, actor, now)
    if isinstance(command, DeviceCommand):
        return devices.decide_device(state, command, actor)
    if isinstance(command, BotCommand):
        return bots.decide_bot(state, command, actor)
    assert_never(command)


def _setup(state: CourtState, command: SetupCommand, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case CreateGame():
            return setup.create_game(state, command, actor)
        case JoinSeat():
            return setup.join_seat(state, command, actor)
        case LeaveSeat():
            return setup.leave_seat(state, command, actor)
        case StartGame():
            return setup.start_game(state, command, actor, now)
        case AdjustGold():
            return facts.adjust_gold(state, command, actor)
        case RecordVillageControl():
            return rounds.record_village_control(state, command, actor)
        case RecordVillages():
            return rounds.record_villages(state, command, actor)
        case ChangeListing():
            return setup.change_listing(state, command, actor)
        case RenameGame():
            return setup.rename_game(state, command, actor)
        case _:
            assert_never(command)


def _round(state: CourtState, command: RoundCommand, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case AdvancePhase():
            return rounds.advance_phase(state, command, actor)
        case CloseTablePhases():
            return rounds.close_table_phases(state, actor)
        case Pass():
            if state.decree is not None:
                return decrees.pass_turn(state, actor)
            return elections.pass_turn(state, command, actor)
        case CloseOverdueStep():
            return rounds.close_overdue(state, command, actor, now)
        case _:
            assert_never(command)


def _election(state: CourtState, command: ElectionCommand, actor: Actor) -> tuple[Event, ...]:
    match command:
        case StandForElection():
            return elections.stand(state, command, actor)
        case PlaceBallot():
            return elections.place_ballot(state, command, actor)
        case _:
            assert_never(command)


def _title(state: CourtState, command: TitleCommand, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case AcceptTitle():
            deadline = elections.deadline(state, "title_choice", now)
            return titles.accept_title(state, command, actor, deadline)
        case RefuseTitle():
            return titles.refuse_title(state, command, actor)
        case ResolveTitleOverflow():
            return titles.resolve_overflow(state, command, actor)
        case _:
            assert_never(command)


def _decree(state: CourtState, command: DecreeCommand, actor: Actor) -> tuple[Event, ...]:
    match command:
        case ProposeMarriage():
            return decrees.propose(state, command, actor)
        case AnswerMarriage():
            return marriages.answer(state, command, actor)
        case Divorce():
            return decrees.divorce(state, command, actor)
        case EmbraceRhllor():
            return false_idols.embrace(state, command, actor)
        case HandConversion():
            return false_idols.hand_conversion(state, command, actor)
        case Pardon():
            return outlaws.pardon(state, command, actor)
        case SendToWall():
            return outlaws.send_to_wall(state, command, actor)
        case ConcedeTitle():
            return decrees.concede(state, command, actor)
        case Desert():
            return outlaws.desert(state, command, actor)
        case _:
            assert_never(command)


def _noble(state: CourtState, command: NobleCommand, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case RecordCapture():
            return court_events.record_capture(state, command, actor)
        case RecordRelease():
            return court_events.record_release(state, command, actor)
        case RecordEscape():
            return court_events.record_escape(state, command, actor)
        case RecordDeath():
            return court_events.record_death(state, command, actor)
        case AddNoble():
            return court_events.add_noble(state, command, actor)
        case JoinSmallCouncil():
            return court_events.join_small_council(state, command, actor, now)
        case GrantMotherOfDragons():
            return court_events.grant_mother_of_dragons(state, command, actor)
        case HeirBorn():
            return court_events.heir_born(state, command, actor)
        case RecordWallSupplies():
            return court_events.record_wall_supplies(state, command, actor)
        case _:
            assert_never(command)


def _purchase(
    state: CourtState, command: PurchaseCommand, actor: Actor, now: float
) -> tuple[Event, ...]:
    match command:
        case BuildSept():
            return purchases.build_sept(state, command, actor)
        case BuyFiefTitle():
            return purchases.buy_fief_title(state, command, actor, now)
        case GrantFiefTitle():
            return purchases.grant_fief_title(state, command, actor, now)
        case EndPurchases():
            return purchases.end_purchases(state, command, actor)
        case PlaceBid():
            return council_seat.place_bid(state, command, actor)
        case PassBid():
            return council_seat.pass_bid(state, command, actor)
        case ChooseCouncilSeat():
            return council_seat.choose_council_seat(state, command, actor, now)
        case OfferRansom():
            return ransom.offer(state, command, actor)
        case AcceptRansom():
            return ransom.accept(state, command, actor)
        case RefuseRansom():
            return ransom.refuse(state, command, actor)
        case WithdrawRansom():
            return ransom.withdraw(state, command, actor)
        case _:
            assert_never(command)


def _table(state: CourtState, command: TableCommand, actor: Actor, now: float) -> tuple[Event, ...]:
    match command:
        case VoteToReplace():
            return table_votes.vote_to_replace(state, command, actor, now)
        case VoteToEnd():
            return table_votes.vote_to_end(state, command, actor)
        case ProposeCorrection():
            return proposals.propose(state, command, actor)
        case AnswerCorrection():
            return corrections.answer(state, command, actor)
        case WithdrawCorrection():
            return corrections.withdraw(state, actor)
        case _:
            assert_never(command)
