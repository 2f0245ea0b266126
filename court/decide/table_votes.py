"""What the table decides together, each by a strict majority and recorded with who voted: the
other seats replace a player gone for the profile's time, the seats end the game, and the
seats accept or refuse the host's correction of a recorded fact (docs/rules-map.md, "The table
decides together")."""

from __future__ import annotations

from court.commands import (
    Actor,
    AnswerCorrection,
    Command,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.decide import bots, corrections, council_seat, victory
from court.decide.corrections import require_playing
from court.decide.guards import require_voter
from court.decide.seats import handed, span
from court.errors import CourtError
from court.events import (
    EndVoteCast,
    EndVoteWithdrawn,
    Event,
    GameEnded,
    ReplaceVoteCast,
    SeatReplaced,
    TableEndedGame,
)
from court.ids import Seat
from court.model.ending import How
from court.model.table import majority
from court.model.tokens import tokens_in_use
from court.state import CourtState, GameStatus

# -- replacing a player who is gone ---------------------------------------------------------


def vote_to_replace(
    state: CourtState, cmd: VoteToReplace, actor: Actor, now: float
) -> tuple[Event, ...]:
    """Another seat votes to hand `cmd.seat` to a new link or to the bot; the votes cast since
    the seat's current absence began for the same choice replace it once they are a strict
    majority of the other seats that count (R-9.2; docs/rules-map.md, "A seat played by the bot").
    `cmd.away_since` is the server's word on the seat's connections."""
    voter = require_voter(state, actor, "vote to replace a player")
    require_playing(state)
    info = state.seats.get(cmd.seat)
    if info is None:
        raise CourtError("unknown_seat", f"Nobody holds seat {cmd.seat + 1} in this game.")
    if cmd.seat == voter:
        raise CourtError("replace_self", "You cannot vote to replace yourself.")
    if info.host:
        raise CourtError(
            "replace_host",
            f"{info.player_name} holds the host role: vote a new host in first (vote_host), "
            "then his seat can be replaced.",
        )
    since = away_since(state, cmd.seat, cmd.away_since, now)
    every = {v: at for v, at in state.table.replace.get(cmd.seat, {}).items() if at >= since}
    if voter in every:
        raise CourtError("already_voted", f"You already voted to replace {info.player_name}.")
    if cmd.bot and cmd.seat in state.table.bots:
        raise CourtError("bot_plays", f"The bot plays {info.player_name}'s seat already.")
    cast = ReplaceVoteCast(seat=voter, for_seat=cmd.seat, at=now, away_since=since, bot=cmd.bot)
    # The majority must agree on what comes in the player's place: a new link or the bot.
    alike = [v for v in every if state.table.chose_bot(cmd.seat, v) == cmd.bot]
    voters = tuple(sorted({*alike, voter}))
    electors = len([s for s in state.counting() if s != cmd.seat])
    if not majority(len(voters), electors):
        return (cast,)
    replaced = SeatReplaced(
        seat=cmd.seat,
        house=info.house,
        player_name=info.player_name,
        votes=len(voters),
        seats=electors,
        voters=voters,
        away_since=since,
        bot=cmd.bot,
    )
    return (cast, replaced, *_in_his_place(state, cmd, now))


def _in_his_place(state: CourtState, cmd: VoteToReplace, now: float) -> tuple[Event, ...]:
    """What follows a replacement: the bot seated, or the seat handed to the new link (the
    bot standing down first when it played the seat). The hand-over's records follow the vote
    and the replacement; the seat keeps its old player's name until the new one says his own
    (R-9.2)."""
    if cmd.bot:
        return (bots.seated(state, cmd.seat),)
    if not cmd.token_sha256 or cmd.token_sha256 in tokens_in_use(state):
        raise CourtError("token_reused", "This seat token is already in use.")
    name = state.seats[cmd.seat].player_name
    return handed(state, cmd.seat, name, cmd.token_sha256, cmd.at_version + 2, now)


def away_since(state: CourtState, seat: Seat, away: float | None, now: float) -> float:
    """Since when a seat's player has been gone, from the game's start (or the seat's last
    replacement, whose new player has had no time to come yet) at the earliest; a refusal
    while he is connected, or before the profile's time has passed."""
    name = state.seats[seat].player_name
    if away is None:
        raise CourtError(
            "seat_present", f"{name} is connected: a player who is here is not replaced."
        )
    since = max(away, state.started_at, state.table.replaced_at.get(seat, 0.0))
    after = state.ruleset.profile.table_votes.replace_after
    if now - since < after:
        raise CourtError(
            "seat_not_away_long",
            f"{name} has been away for {span(now - since)}; the other seats may vote to "
            f"replace him once he has been away for {span(after)}.",
        )
    return since


# -- ending the game ------------------------------------------------------------------------


def vote_to_end(state: CourtState, cmd: VoteToEnd, actor: Actor) -> tuple[Event, ...]:
    """A seat votes to end the game, or takes its vote back; `follow_up` ends the game once the
    votes are a strict majority of the seats that count."""
    voter = require_voter(state, actor, "vote to end the game")
    require_playing(state)
    if not cmd.end:
        if voter not in state.table.end:
            raise CourtError("no_end_vote", "You have not voted to end the game.")
        return (EndVoteWithdrawn(seat=voter),)
    if voter in state.table.end:
        raise CourtError("already_voted", "You already voted to end the game.")
    return (EndVoteCast(seat=voter),)


def follow_up(state: CourtState) -> tuple[Event, ...]:
    """What the votes cast decide by themselves, whenever they or the seats that count change
    (a vote, a hand-over, R-9.2): the game ends once a strict majority of the seats that count
    voted for it, and the correction under vote is made or refused once its answers decide it."""
    voters = tuple(sorted(state.table.end))
    seats = len(state.counting())
    if voters and majority(len(voters), seats):
        return end_by_vote(state, voters, seats)
    return corrections.settled_now(state)


def end_by_vote(state: CourtState, voters: tuple[Seat, ...], seats: int) -> tuple[Event, ...]:
    """The table ends the game without winners: only the victory check of phase 8 names
    winners (R-4.7, R-4.8); the standings are recorded as they are. A price the bank holds for
    a seat not taken yet goes back first (R-4.6): nothing is left held when the game ends."""
    auction = state.auction
    refunds: tuple[Event, ...] = ()
    if auction is not None and auction.winner is not None:
        reason = "the table ended the game before he seated a Warden"
        refunds = (council_seat.lapse(state, auction.winner, reason),)
    return (
        *refunds,
        TableEndedGame(votes=len(voters), seats=seats, voters=voters),
        GameEnded(
            winners=(),
            points=victory.scores(state),
            reason=f"the table ended the game by {len(voters)} votes of {seats}; nobody won "
            "(R-4.7: only the victory check of phase 8 names winners)",
            how=How.TABLE.value,
        ),
    )


# The table's moves a seat (or the host) may send now, as court/options/legal.py lists them: a vote
# to end the game or taking it back, an answer to the correction under vote, the host's withdrawal
# of it. A vote to replace a player depends on the server's word on his connections, and a
# correction names any record: neither is listed (as the facts are not). A vote to end the game
# is open to every seat all game long, so it never says the game is moving (a bot or a test
# drawing moves leaves it out).
LISTED = (VoteToEnd, AnswerCorrection, WithdrawCorrection)


def end_votes(state: CourtState, actor: Actor) -> list[Command]:
    """A seat's vote to end the game, or taking it back, once its player claimed it."""
    if state.status is not GameStatus.PLAYING or not _claimed(state, actor):
        return []
    return [VoteToEnd(end=actor.seat not in state.table.end)]


def _claimed(state: CourtState, actor: Actor) -> bool:
    """Whether the actor holds a seat its player claimed: a seat whose new player has not
    opened his link yet votes on nothing (R-9.2)."""
    seat = state.seats.get(actor.seat) if actor.seat is not None else None
    return seat is not None and not seat.unclaimed


def answers(state: CourtState, actor: Actor) -> list[Command]:
    """A seat's answers to the correction under vote that it has not answered: an acceptance
    is listed only while the court after the correction would hold (R-9.1), which is judged on
    the whole court."""
    table, seat = state.table, actor.seat
    if state.status is not GameStatus.PLAYING or seat is None or table.correction is None:
        return []
    if not _claimed(state, actor) or seat in table.accepted | table.refused:
        return []
    return [AnswerCorrection(accept=a) for a in (True, False) if _answerable(state, a, seat)]


def withdrawals(state: CourtState, actor: Actor) -> list[Command]:
    """The host's withdrawal of the correction under vote."""
    if state.status is not GameStatus.PLAYING or not actor.host or state.table.correction is None:
        return []
    return [WithdrawCorrection()]


def _answerable(state: CourtState, accept: bool, voter: Seat) -> bool:
    try:
        corrections.answer(state, AnswerCorrection(accept=accept), Actor(seat=voter))
    except CourtError:
        return False
    return True
