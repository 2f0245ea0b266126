"""What can I do now? `legal_commands(state, actor)` lists every move a seat (or the host)
may send at this moment, with its choices, for the UI and for bots.

It is computed from the rules, not by trying `decide`; a test plays games with it and
checks that `decide` accepts every move it lists and refuses others. Recorded facts are
the host's account of the table, not moves, and are not listed; nor is what moves seats and
the host role between players (court/decide/seats.py) or names the game, which are no moves
of the game. A listed ballot or bid carries no salt: the service draws each one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from itertools import product

from court.commands import (
    AcceptRansom,
    AcceptTitle,
    Actor,
    AdvancePhase,
    AnswerMarriage,
    ChangeListing,
    CloseTablePhases,
    Command,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    JoinSeat,
    LeaveSeat,
    MarkerChoice,
    OfferRansom,
    Pardon,
    Pass,
    PassBid,
    PlaceBallot,
    PlaceBid,
    ProposeMarriage,
    RefuseRansom,
    RefuseTitle,
    ResolveTitleOverflow,
    SendToWall,
    StandForElection,
    StartGame,
    TakeSeatBack,
    WithdrawRansom,
)
from court.decide import (
    council_seat,
    decrees,
    false_idols,
    marriages,
    outlaws,
    purchases,
    ransom,
    table_votes,
    titles,
)
from court.decide.powers import seat_holding
from court.decide.rounds import HOST_PHASES, closes_several
from court.ids import HAND, NobleId, Seat
from court.model import steps
from court.options import electorate
from court.state import CourtState, GameStatus, NobleStatus, PendingKind, Phase, Stage, TurnStep


def legal_commands(state: CourtState, actor: Actor) -> list[Command]:
    """What `actor` may send now. A seat the bot plays: its player may only take it back, and
    the bot sends the seat's moves, never a table vote (court/decide/bots.py)."""
    return [move for kind in KINDS for move in kind(state, actor)]


Kind = Callable[[CourtState, Actor], list[Command]]


def _bot_plays(state: CourtState, actor: Actor) -> bool:
    seat = actor.seat
    return state.status is GameStatus.PLAYING and seat is not None and seat in state.table.bots


def _by_its_mover(kind: Kind) -> Kind:
    """A kind of move sent by whoever moves the actor's seat: the bot a seat it plays and no
    other, the seat's player while the bot does not play it."""

    @wraps(kind)
    def moves(state: CourtState, actor: Actor) -> list[Command]:
        return kind(state, actor) if actor.bot == _bot_plays(state, actor) else []

    return moves


def _by_players(kind: Kind) -> Kind:
    """A kind of move the table decides together: its players', never the bot's (R-9.2)."""
    mover = _by_its_mover(kind)

    @wraps(kind)
    def moves(state: CourtState, actor: Actor) -> list[Command]:
        return [] if actor.bot else mover(state, actor)

    return moves


# Each kind of move, in the order they are listed: what a seat (or the host) may do of that kind
# now. The court view keeps each kind's moves while what it reads is unchanged
# (court/views/sections.py).
def seat_back_moves(state: CourtState, actor: Actor) -> list[Command]:
    """The player of a seat the bot plays takes it back, and sends nothing else."""
    return [TakeSeatBack()] if not actor.bot and _bot_plays(state, actor) else []


@_by_its_mover
def lobby_moves(state: CourtState, actor: Actor) -> list[Command]:
    if state.status is not GameStatus.LOBBY:
        return []
    return _seating(state, actor) + _listing(state, actor)


@_by_its_mover
def title_moves(state: CourtState, actor: Actor) -> list[Command]:
    """A win to take or refuse, a title of a full category to pass or return (R-3.2, R-3.3)."""
    return _seated(state, actor, _pending, waiting=True)


@_by_its_mover
def decree_moves(state: CourtState, actor: Actor) -> list[Command]:
    return _seated(state, actor, _decree)


@_by_its_mover
def election_moves(state: CourtState, actor: Actor) -> list[Command]:
    return _seated(state, actor, _election)


@_by_its_mover
def purchase_moves(state: CourtState, actor: Actor) -> list[Command]:
    return _seated(state, actor, _purchases)


@_by_its_mover
def ransom_moves(state: CourtState, actor: Actor) -> list[Command]:
    return _seated(state, actor, _ransom, waiting=True)


@_by_its_mover
def host_moves(state: CourtState, actor: Actor) -> list[Command]:
    """The host advances the phases played at the table (R-4.1)."""
    if state.status is not GameStatus.PLAYING or not actor.host or state.pending is not None:
        return []
    if not _host_may_advance(state):
        return []
    return [AdvancePhase(), CloseTablePhases()] if closes_several(state) else [AdvancePhase()]


@_by_players
def table_moves(state: CourtState, actor: Actor) -> list[Command]:
    return table_votes.end_votes(state, actor)


@_by_players
def answer_moves(state: CourtState, actor: Actor) -> list[Command]:
    return table_votes.answers(state, actor)


@_by_players
def withdraw_moves(state: CourtState, actor: Actor) -> list[Command]:
    return table_votes.withdrawals(state, actor)


KINDS = (
    seat_back_moves,
    lobby_moves,
    title_moves,
    decree_moves,
    election_moves,
    purchase_moves,
    ransom_moves,
    host_moves,
    table_moves,
    answer_moves,
    withdraw_moves,
)


def _seated(
    state: CourtState,
    actor: Actor,
    moves: Callable[[CourtState, Seat], list[Command]],
    *,
    waiting: bool = False,
) -> list[Command]:
    """The `moves` of the actor's seat while the game is played; only while no title choice
    waits (R-3.2, R-3.3) unless they may be made `waiting`."""
    seat = actor.seat
    if state.status is not GameStatus.PLAYING or seat is None:
        return []
    return moves(state, seat) if waiting or state.pending is None else []


def _seating(state: CourtState, actor: Actor) -> list[Command]:
    if actor.seat is not None:
        moves: list[Command] = [LeaveSeat()]
        if actor.host and len(state.seats) == state.players:
            moves.append(StartGame())
        return moves
    if len(state.seats) >= state.players:
        return [StartGame()] if actor.host and len(state.seats) == state.players else []
    if actor.master:  # the game master records facts and takes no seat (section 9)
        return []
    if not state.listed and not actor.host:
        return []  # joining a private game needs its invite, which a listed move cannot hold
    taken = {s.house for s in state.seats.values()}
    houses = [h.id for h in state.ruleset.houses if h.id not in taken]
    return [JoinSeat(house=h, player_name="Player") for h in houses]


def _listing(state: CourtState, actor: Actor) -> list[Command]:
    """The host lists the game or takes it off the front page; a game without an invite
    secret (created before private games) stays listed."""
    if not actor.host or (state.listed and state.invite_sha256 is None):
        return []
    return [ChangeListing(listed=not state.listed)]


def _pending(state: CourtState, seat: Seat) -> list[Command]:
    pending = state.pending
    if pending is None or pending.seat != seat:
        return []
    if pending.kind is PendingKind.ACCEPTANCE:
        return [AcceptTitle(), RefuseTitle()]
    category = titles.category(state, pending.title)
    moves: list[Command] = []
    for title in titles.overflow_choices(state, pending.noble, category):
        moves.append(ResolveTitleOverflow(title=title, to=None))
        moves += [
            ResolveTitleOverflow(title=title, to=noble)
            for noble in state.nobles
            if noble != pending.noble and titles.could_stand(state, title, noble)
        ]
    return moves


def _decree(state: CourtState, seat: Seat) -> list[Command]:
    decree, proposal = state.decree, state.proposal
    if decree is None:
        return []
    if proposal is not None:
        if proposal.to_seat != seat:
            return []
        accept = [AnswerMarriage(accept=True)] if marriages.accept_problem(state) is None else []
        return [*accept, AnswerMarriage(accept=False)]
    if decree.current != seat:
        return []
    moves: list[Command] = [Pass()]
    match decree.id:
        case steps.MARRIAGES.id:
            moves += [ProposeMarriage(noble=n, to=o) for n, o in marriages.possible(state, seat)]
            if marriages.master_of_laws_seat(state) == seat:
                moves += [Divorce(noble=n) for n in marriages.divorceable(state)]
        case steps.FALSE_IDOLS.id:
            moves += _false_idols(state, decree, seat)
        case steps.ROYAL_PARDON.id:
            moves += [Pardon(noble=n.id) for n in state.nobles.values() if n.outlaw and n.alive]
        case steps.SEND_TO_WALL.id:
            moves += [SendToWall(noble=n) for n in outlaws.wall_targets(state)]
        case steps.TITLE_CONCESSION.id:
            moves += [ConcedeTitle(title=t, to=n) for t, n in decrees.concessions(state, seat)]
        case steps.OATHBREAKERS.id:
            moves += [Desert(noble=n) for n in outlaws.brothers(state, seat)]
    return moves


def _burnable(state: CourtState) -> list[NobleId]:
    return [
        n.id
        for n in state.nobles.values()
        if n.alive and n.status is not NobleStatus.BROTHER and not state.titles_of(n.id)
    ]


def _false_idols(state: CourtState, decree: TurnStep, seat: Seat) -> list[Command]:
    """R-6.2: the Protector embraces (answering for the Hand too when his player holds him,
    if no turn of the Hand follows); the Hand answers an embrace in his own turn."""
    if false_idols.hand_turn(decree):
        if not state.septs_banned:
            return []
        return [
            HandConversion(convert=False),
            HandConversion(convert=True),
            *(HandConversion(convert=True, burn=n) for n in _burnable(state)),
        ]
    hand_follows = decree.turn + 1 < len(decree.order)
    if hand_follows or seat_holding(state, HAND) != seat:
        return [EmbraceRhllor()]
    return [
        EmbraceRhllor(),
        EmbraceRhllor(hand_converts=True),
        *(EmbraceRhllor(hand_converts=True, burn=n) for n in _burnable(state)),
    ]


def _election(state: CourtState, seat: Seat) -> list[Command]:
    election = state.election
    if election is None or election.current != seat:
        return []
    if election.stage is Stage.CANDIDACY:
        spec = electorate.spec(state, election.id)
        return [
            Pass(),
            *(StandForElection(noble=n) for n in electorate.candidates_of(state, spec, seat)),
        ]
    return list(_ballots(election.standing))


@lru_cache(maxsize=256)
def _ballots(candidates: tuple[NobleId, ...]) -> tuple[Command, ...]:
    """A pass, one marker on a candidate, or FOR and DECOY (R-7.1): the same for every voter of
    the same candidates, so made once for them."""
    ballots: list[Command] = [Pass()]
    for candidate in candidates:
        for kind in ("for", "decoy"):
            ballots.append(_ballot((kind, candidate)))
    for first, second in product(candidates, candidates):
        ballots.append(_ballot(("for", first), ("decoy", second)))
    return tuple(ballots)


def _ballot(*markers: tuple[str, NobleId]) -> PlaceBallot:
    """Unsalted: the service draws each marker's salt (court/commands/secrets.py)."""
    return PlaceBallot(markers=tuple(MarkerChoice(kind=kind, candidate=c) for kind, c in markers))


def _purchases(state: CourtState, seat: Seat) -> list[Command]:
    """Phase 4: the council seat sale first (R-4.6), then each player's purchase turn (R-4.1)."""
    if state.phase is not Phase.PURCHASES:
        return []
    gold = state.treasury[state.seats[seat].house]
    auction = state.auction
    if auction is not None:
        moves: list[Command] = []
        if auction.winner is None and seat in auction.waiting:
            moves.append(PassBid())
            moves += [
                PlaceBid(amount=a)  # unsalted: the service draws the salt
                for a in sorted({1, gold})
                if 0 < a <= gold
            ]
        if auction.winner == seat:
            moves += council_seat.choices(state, seat)
        return moves
    turns = state.purchase_turns
    if turns is None or turns.current != seat:
        return []
    return purchases.options(state, seat)


def _ransom(state: CourtState, seat: Seat) -> list[Command]:
    """R-8.2: for each of his Nobles held captive by a seated player, an offer of Gold
    Dragons (1 or his whole treasury: the amount is the player's to type), of each captive he
    holds, or of both; answers to the offers made to him, and his own offers to withdraw."""
    moves: list[Command] = _offers(state, seat)
    for offer in state.offers.values():
        if offer.to_seat == seat:
            if ransom.accept_problem(state, offer) is None:
                moves.append(AcceptRansom(offer=offer.id))
            moves.append(RefuseRansom(offer=offer.id))
        if offer.seat == seat:
            moves.append(WithdrawRansom(offer=offer.id))
    return moves


def _offers(state: CourtState, seat: Seat) -> list[Command]:
    captives = [n for n in state.nobles.values() if n.status is NobleStatus.CAPTIVE]
    if not captives:  # most of the time: every seat's moves are asked for at every push
        return []
    house = state.seats[seat].house
    gold = state.treasury.get(house, 0)
    amounts = sorted({1, gold}) if gold >= 1 else []
    held = [n.id for n in captives if n.captor == house]
    moves: list[Command] = []
    for captive in captives:
        if captive.house != house:
            continue
        if captive.captor is None or state.seat_of_house(captive.captor) is None:
            continue
        moves += [OfferRansom(captive=captive.id, gold=a) for a in amounts]
        moves += [OfferRansom(captive=captive.id, gold=0, captives=(n,)) for n in held]
        moves += [OfferRansom(captive=captive.id, gold=1, captives=(n,)) for n in held if gold]
    return moves


def _host_may_advance(state: CourtState) -> bool:
    return state.phase in HOST_PHASES and state.auction is None
